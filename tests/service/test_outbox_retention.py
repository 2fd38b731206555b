"""Outbox retention (:func:`pbem.service.post.outbox.prune`): old sent mail loses
its bytes but keeps its row and dedupe key, old superseded rows go, failed
mail keeps its bytes twice as long, unfinished rows are never touched."""
from __future__ import annotations

import datetime as dt
from email.message import EmailMessage

from click.testing import CliRunner

from pbem.service.core.db import db
from pbem.service.core.models import OutboxMessage, utcnow
from pbem.service.post import delivery, store
from pbem.service.post import outbox as ob

from .helpers import new_tally, outbox
from .smtpserver import SMTPServer

DAY = dt.timedelta(days=1)
RAW = b"Subject: s\r\n\r\n" + b"x" * 5000


def _row(key: str, status: str, created: dt.datetime, *, sent: dt.datetime | None = None,
         raw: bytes | None = RAW, step: int | None = None, kind: str = "notice") -> None:
    """One outbox row written as it is (no delivery), committed."""
    db.session.add(OutboxMessage(
        recipient="ada@example.org", kind=kind, subject=f"subject {key}", raw=raw, step=step,
        dedupe_key=key, status=status, attempts=1 if status in ("sent", "failed") else 0,
        next_attempt_at=created, created_at=created, sent_at=sent))
    db.session.commit()


def _by_key() -> dict[str, OutboxMessage]:
    return {r.dedupe_key: r for r in outbox()}


def _notice(subject: str = "hello") -> EmailMessage:
    msg = EmailMessage()
    msg["To"] = "ada@example.org"
    msg["Subject"] = subject
    msg.set_content("body")
    return msg


def test_old_sent_mail_loses_its_bytes_keeps_its_row_and_is_never_written_or_sent_again(app, t0):
    gid = new_tally(t0)
    with SMTPServer() as smtp:
        app.config["SMTP_PORT"] = smtp.port
        assert delivery.deliver_due(now=t0).sent == 3  # two invitations and the first turn notice
        before = {r.id: (r.recipient, r.subject, r.kind, r.dedupe_key, r.sent_at, r.step) for r in outbox()}
        assert all(r.raw for r in outbox())

        r = ob.prune(t0 + 31 * DAY, keep_days=30)
        assert (r.emptied, r.failed_emptied, r.deleted) == (3, 0, 0)
        rows = outbox()
        assert {x.id: (x.recipient, x.subject, x.kind, x.dedupe_key, x.sent_at, x.step) for x in rows} == before
        assert all(x.status == "sent" and x.raw is None for x in rows)

        # the dedupe keys still hold: writing the same notices again is a no-op
        turn = next(x for x in rows if x.kind == "turn")
        invite = next(x for x in rows if x.kind != "turn")
        assert store.add_deferred(kind="turn", dedupe_key=turn.dedupe_key, game_id=gid, seat_index=turn.seat_index,
                               step=turn.step, recipient=turn.recipient, now=t0 + 31 * DAY) is None
        assert store.add(_notice(), kind=invite.kind, dedupe_key=invite.dedupe_key, now=t0 + 31 * DAY) is None
        db.session.commit()
        assert len(outbox()) == 3
        # a pruned row is never composed again (the game is still at the turn's step) nor sent
        assert all(ob.render(x) is None for x in outbox())
        assert delivery.deliver_due(now=t0 + 31 * DAY).sent == 0
        assert len(smtp.handler.messages) == 3
        assert all(x.status == "sent" and x.raw is None for x in outbox())


def test_only_old_finished_rows_are_pruned(app, t0):
    now = t0 + 100 * DAY
    old, recent = now - 31 * DAY, now - 29 * DAY
    _row("sent-old", "sent", old - DAY, sent=old)
    _row("sent-recent", "sent", old - DAY, sent=recent)  # created long ago, sent lately: by sent_at
    _row("superseded-old", "superseded", old, raw=None, step=3, kind="turn")
    _row("superseded-composed", "superseded", old, step=4, kind="turn")
    _row("superseded-recent", "superseded", recent, raw=None, step=5, kind="turn")
    _row("pending-old", "pending", old)
    _row("deferred-old", "pending", old, raw=None, step=6, kind="turn")
    _row("sending-old", "sending", old)
    _row("sending-deferred-old", "sending", old, raw=None, step=7, kind="turn")

    r = ob.prune(now, keep_days=30)
    assert (r.emptied, r.failed_emptied, r.deleted, r.batches) == (1, 0, 2, 1)
    rows = _by_key()
    assert "superseded-old" not in rows and "superseded-composed" not in rows
    assert rows["sent-old"].raw is None and rows["sent-old"].subject == "subject sent-old"
    assert rows["sent-recent"].raw == RAW
    assert rows["superseded-recent"].status == "superseded"
    for key in ("pending-old", "sending-old"):
        assert (rows[key].status, rows[key].raw) == (key.split("-")[0], RAW)
    for key in ("deferred-old", "sending-deferred-old"):
        assert rows[key].raw is None and rows[key].step is not None and rows[key].status in ("pending", "sending")


def test_failed_mail_keeps_its_bytes_twice_as_long(app, t0):
    now = t0 + 200 * DAY
    _row("failed-40", "failed", now - 40 * DAY)
    _row("failed-61", "failed", now - 61 * DAY)
    _row("failed-deferred", "failed", now - 90 * DAY, raw=None, step=2, kind="turn")  # never composed

    r = ob.prune(now, keep_days=30)
    assert (r.emptied, r.failed_emptied, r.deleted) == (0, 1, 0)
    rows = _by_key()
    assert rows["failed-40"].raw == RAW and rows["failed-61"].raw is None
    assert all(x.status == "failed" for x in rows.values())
    assert ob.render(rows["failed-deferred"]) is None  # a finished notice is not composed now
    # a separate failed retention can be given
    assert ob.prune(now, keep_days=30, failed_keep_days=35).failed_emptied == 1
    assert _by_key()["failed-40"].raw is None


def test_batches_cover_more_rows_than_one_batch_and_a_second_run_changes_nothing(app, t0):
    now = t0 + 100 * DAY
    for i in range(23):
        _row(f"sent-{i}", "sent", now - 50 * DAY, sent=now - 40 * DAY)
    for i in range(6):
        _row(f"superseded-{i}", "superseded", now - 50 * DAY, raw=None, step=i, kind="turn")
    _row("sent-recent", "sent", now - DAY, sent=now - DAY)

    r = ob.prune(now, keep_days=30, batch=7)
    assert (r.emptied, r.deleted, r.batches) == (23, 6, 5)  # 29 rows, 7 a batch
    rows = outbox()
    assert len(rows) == 24 and sum(x.raw is None for x in rows) == 23
    assert ob.prune(now, keep_days=30, batch=7) == ob.PruneReport()
    assert [(x.id, x.raw is None) for x in outbox()] == [(x.id, x.raw is None) for x in rows]


def test_retention_zero_keeps_everything_and_the_setting_is_the_default(app, t0):
    now = t0 + 1000 * DAY
    _row("sent", "sent", t0, sent=t0)
    _row("superseded", "superseded", t0, raw=None, step=1, kind="turn")
    _row("failed", "failed", t0)
    app.config["OUTBOX_RETENTION_DAYS"] = 0
    assert ob.prune(now) == ob.PruneReport()
    assert ob.prune(now, keep_days=0) == ob.PruneReport()
    assert all(x.raw == RAW or x.status == "superseded" for x in outbox()) and len(outbox()) == 3
    app.config["OUTBOX_RETENTION_DAYS"] = 600  # failed mail: 1200 days
    r = ob.prune(now)
    assert (r.emptied, r.failed_emptied, r.deleted) == (1, 0, 1)
    assert _by_key()["failed"].raw == RAW


def test_config_default_is_thirty_days(tmp_path):
    from pbem.config import load_config

    assert load_config(tmp_path, {})["OUTBOX_RETENTION_DAYS"] == 30
    assert load_config(tmp_path, {"PBEM_OUTBOX_RETENTION_DAYS": "0"})["OUTBOX_RETENTION_DAYS"] == 0


def test_celery_task_and_cli_command_prune(app, monkeypatch):
    from pbem.cli import main
    from pbem.cli import service as cli_service

    now = utcnow()
    _row("a", "sent", now - 40 * DAY, sent=now - 40 * DAY)
    _row("b", "superseded", now - 40 * DAY, raw=None, step=1, kind="turn")
    _row("c", "sent", now - 10 * DAY, sent=now - 10 * DAY)
    assert "pbem.prune_outbox" in {e["task"] for e in app.extensions["celery"].conf.beat_schedule.values()}
    got = app.extensions["celery"].tasks["pbem.prune_outbox"].apply().get()
    assert got == {"emptied": 1, "failed_emptied": 0, "deleted": 1}

    monkeypatch.setattr(cli_service, "_app", lambda: app)
    result = CliRunner().invoke(main, ["service", "prune-outbox", "--days", "5"])
    assert result.exit_code == 0, result.output
    assert result.output.strip() == "sent emptied 1, failed emptied 0, superseded deleted 0 (1 batches)"
    assert _by_key()["c"].raw is None
