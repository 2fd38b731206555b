"""Outbox delivery over real SMTP: retry with exponential backoff, sent once."""
from __future__ import annotations

import datetime as dt

from pbem.service.post.delivery import backoff_seconds, deliver_due

from .helpers import new_tally, outbox
from .smtpserver import SMTPServer

S = dt.timedelta(seconds=1)


def test_refused_mail_is_retried_with_backoff_then_sent_once(app, t0):
    gid = new_tally(t0)
    rows = outbox()
    assert len(rows) == 3  # two invitations and the first turn notice
    with SMTPServer(refuse=4) as smtp:
        app.config["SMTP_PORT"] = smtp.port
        r = deliver_due(now=t0)
        assert (r.sent, r.failed) == (0, 3)
        rows = outbox()
        assert all(x.status == "pending" and x.attempts == 1 for x in rows)
        # the backoff counts from each failure (the run's own seconds added to the clock given)
        assert all(t0 + 10 * S <= x.next_attempt_at < t0 + 11 * S for x in rows)
        assert "451" in rows[0].last_error
        # not due yet: nothing is tried
        assert deliver_due(now=t0 + 9 * S).failed == 0 and smtp.handler.refused == 3
        r = deliver_due(now=t0 + 11 * S)  # one more refusal, then the server accepts
        assert (r.sent, r.failed) == (2, 1)
        late = [x for x in outbox() if x.status == "pending"]
        assert len(late) == 1 and late[0].attempts == 2
        assert t0 + 11 * S + 20 * S <= late[0].next_attempt_at < t0 + 12 * S + 20 * S  # doubled
        r = deliver_due(now=t0 + 32 * S)
        assert r.sent == 1
        assert deliver_due(now=t0 + 1000 * S).sent == 0  # nothing is sent twice
        assert all(x.status == "sent" and x.sent_at is not None for x in outbox())
        got = sorted(rcpt[0] for rcpt, _raw in smtp.handler.messages)
        assert got == ["ada@example.org", "bo@example.org", "cy@example.org"]


def test_server_down_keeps_mail_and_gives_up_after_max_attempts(app, t0):
    new_tally(t0)
    app.config["OUTBOX_MAX_ATTEMPTS"] = 3
    now = t0
    for _ in range(3):
        deliver_due(now=now)
        now += dt.timedelta(days=2)
    rows = outbox()
    assert all(x.status == "failed" and x.attempts == 3 for x in rows)
    assert all("Connection refused" in x.last_error or "Errno" in x.last_error for x in rows)


def test_backoff_doubles_and_is_capped(app):
    assert [backoff_seconds(n) for n in (1, 2, 3, 4)] == [10, 20, 40, 80]
    assert backoff_seconds(40) == 24 * 3600


def test_notice_is_multipart_with_inline_board_when_the_game_has_a_picture(app, t0, monkeypatch):
    """The board PNG travels inline (cid) in the HTML part; text part stands alone."""
    import types

    import pbem.boards

    svg = ('<svg xmlns="http://www.w3.org/2000/svg" width="20" height="20">'
           '<rect width="20" height="20" fill="red"/></svg>')
    board = types.SimpleNamespace(render_svg=lambda view, highlight=(), lang="en": svg)
    monkeypatch.setattr(pbem.boards, "board_module", lambda game: board)
    new_tally(t0)
    from .helpers import parsed
    msg = parsed(outbox(kind="turn")[0])
    assert msg.get_content_type() == "multipart/alternative"
    html = msg.get_body(("html",))
    images = [p for p in msg.walk() if p.get_content_type() == "image/png"]
    assert len(images) == 1 and images[0].get_content()[:8] == b"\x89PNG\r\n\x1a\n"
    cid = images[0]["Content-ID"].strip("<>")
    assert f"cid:{cid}" in html.get_content()
    assert msg["Reply-To"].startswith("play+1-0-") and msg["Auto-Submitted"] == "auto-generated"


def test_a_row_left_sending_by_a_dead_worker_is_sent_later_once(app, t0):
    from pbem.service.core.db import db
    from pbem.service.post.delivery import CLAIM_TIMEOUT

    new_tally(t0)
    row = outbox(kind="turn")[0]
    row.status, row.claimed_at = "sending", t0  # a worker claimed it and died
    db.session.commit()
    with SMTPServer() as smtp:
        app.config["SMTP_PORT"] = smtp.port
        assert deliver_due(now=t0 + (CLAIM_TIMEOUT - 1) * S).sent == 2  # the two invitations only
        assert [x.status for x in outbox(kind="turn")] == ["sending"]
        assert deliver_due(now=t0 + CLAIM_TIMEOUT * S).sent == 1
        assert [x.status for x in outbox(kind="turn")] == ["sent"]
        assert len(smtp.handler.messages) == 3


def test_two_deliveries_at_once_send_each_mail_once(app, t0):
    from .test_concurrency import race

    new_tally(t0)
    with SMTPServer() as smtp:
        app.config["SMTP_PORT"] = smtp.port
        a, b = race(app, lambda: deliver_due(now=t0), lambda: deliver_due(now=t0))
        assert a.sent + b.sent == 3
        assert sorted(r[0] for r, _raw in smtp.handler.messages) == [
            "ada@example.org", "bo@example.org", "cy@example.org"]


def test_an_operator_sees_failed_mail_and_requeues_it(app, t0):
    from pbem.service.post.outbox import failed_rows, retry_failed, status_counts

    gid = new_tally(t0)
    app.config["OUTBOX_MAX_ATTEMPTS"] = 1
    deliver_due(now=t0)  # no SMTP server: every row fails once and is given up
    assert status_counts() == {"failed": {"invite": 2, "turn": 1}}
    failed = failed_rows()
    assert [r.kind for r in failed] == ["turn", "invite", "invite"]  # newest first
    turn_id = failed[0].id
    # the game moves on before the operator acts: the old turn notice must not go late
    from pbem.service.play.orders import submit_orders

    assert submit_orders(gid, 0, "add 1", expected_step=0, source="web", now=t0).resolved
    assert retry_failed([failed[1].id, turn_id, 99999], now=t0) == sorted([failed[1].id, turn_id])
    assert retry_failed([failed[1].id], now=t0) == []  # pending now, not failed: left alone
    app.config["OUTBOX_MAX_ATTEMPTS"] = 12
    with SMTPServer() as smtp:
        app.config["SMTP_PORT"] = smtp.port
        r = deliver_due(now=t0 + S)
    assert (r.sent, r.superseded) == (2, 1)  # the requeued invitation (Cy) and seat 2's new notice (Bo)
    got = sorted(rcpt[0] for rcpt, _raw in smtp.handler.messages)
    assert got == ["bo@example.org", "cy@example.org"]
    assert status_counts()["superseded"] == {"turn": 1}


def test_a_notice_gone_stale_during_a_run_is_superseded_by_its_claim_uncomposed(app, t0, monkeypatch):
    """A backlog run lists its rows first; a turn whose seat moves while the
    run works through the list has its notice superseded by the claim
    itself, without reading the row or composing the mail."""
    from pbem.service.play.orders import submit_orders
    from pbem.service.post import notify, outbox as outbox_module

    gid = new_tally(t0)
    composed = []
    real_compose = notify.compose_deferred
    monkeypatch.setattr(notify, "compose_deferred",
                        lambda row, **kw: composed.append(row.id) or real_compose(row, **kw))
    # the game moves on after the run's opening sweep, as under load
    real_sweep = outbox_module.supersede_stale

    def sweep_then_move() -> int:
        n = real_sweep()
        assert submit_orders(gid, 0, "add 1", expected_step=0, source="web", now=t0).resolved
        return n

    monkeypatch.setattr(outbox_module, "supersede_stale", sweep_then_move)
    with SMTPServer() as smtp:
        app.config["SMTP_PORT"] = smtp.port
        r = deliver_due(now=t0 + S, limit=100)
    first = next(x for x in outbox() if x.kind == "turn" and x.seat_index == 0)
    assert first.status == "superseded" and first.id not in composed
    assert (r.superseded, r.sent) == (1, 3)  # the two invitations and seat 2's new notice
    assert sorted(rcpt[0] for rcpt, _raw in smtp.handler.messages) == [
        "bo@example.org", "bo@example.org", "cy@example.org"]
