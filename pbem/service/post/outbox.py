"""The outbox: emails written in the same transaction as the change they
tell about, delivered by a task with retry and exponential backoff.

Delivery claims a row (``pending`` -> ``sending``, conditional update), sends
it over SMTP, and marks it ``sent`` once. A failure puts it back to
``pending`` with ``next_attempt_at = now + backoff * 2**(attempts-1)``
(capped at a day); after ``OUTBOX_MAX_ATTEMPTS``, or at once on a
permanent (5xx) refusal, it is ``failed``. A row left
in ``sending`` by a worker that died is taken back after
:data:`CLAIM_TIMEOUT` seconds (the only case where a mail may go twice: the
SMTP server accepted it and the worker died before marking it).

Turn notices are *deferred* (:func:`add_deferred`): the turn's transaction
writes only which seat is asked to move at which step; delivery composes
the mail from the game as it is then (:func:`pbem.service.post.notify.compose_deferred`).
A notice whose game has left that step before delivery (the seat moved on
the web page, or its deadline passed and the missed-turn notice told it), or
whose seat has sent its orders for that step already (a simultaneous
decision waiting for the others), is marked ``superseded`` and not sent:
nobody gets "your move" for a move already made. Composing a notice costs several milliseconds of CPU and its
board picture hundreds; the order path pays neither.
"""
from __future__ import annotations

import datetime as dt
import logging
from dataclasses import dataclass
from email.message import EmailMessage
from email.utils import getaddresses

from flask import current_app
from sqlalchemy import case, delete, func, or_, select, update
from sqlalchemy.dialects.postgresql import insert as _pg_insert
from sqlalchemy.dialects.sqlite import insert as _sqlite_insert

from pbem.mail import smtp
from pbem.mail.tokens import make_bounce_address
from pbem.service.core.db import begin_write, db
from pbem.service.post import pictures
from pbem.service.core.models import (
    ACTIVE, OUT_FAILED, OUT_HELD, OUT_PENDING, OUT_SENDING, OUT_SENT, OUT_SUPERSEDED, PAUSED, Game, OutboxMessage,
    PendingOrder, utcnow,
)

log = logging.getLogger(__name__)

#: seconds after which a row stuck in ``sending`` is tried again
CLAIM_TIMEOUT = 300
#: longest wait between two attempts, seconds
MAX_BACKOFF = 24 * 3600
#: INSERT ... ON CONFLICT per supported database
_INSERT = {"postgresql": _pg_insert, "sqlite": _sqlite_insert}


def add(msg: EmailMessage, *, kind: str, dedupe_key: str, game_id: int | None = None,
        seat_index: int | None = None, now: dt.datetime | None = None,
        held_until: dt.datetime | None = None, due_at: dt.datetime | None = None) -> int | None:
    """Queue ``msg`` in the current transaction (does not commit). Returns
    the new row's id, or ``None`` when a row with ``dedupe_key`` exists
    already (the same notice is never written twice). Board pictures stay
    placeholders until delivery (:mod:`pbem.service.post.pictures`).
    ``held_until`` (UTC): kept for its player's daily digest
    (:mod:`pbem.service.post.digest`) until then, not sent on its own;
    ``due_at`` (UTC): not sent before then (ignored when held)."""
    recipients = [addr for _name, addr in getaddresses(msg.get_all("To", []))]
    return _insert_once(kind=kind, dedupe_key=dedupe_key, game_id=game_id, seat_index=seat_index,
                        recipient=", ".join(recipients), subject=str(msg.get("Subject", ""))[:400],
                        # CRLF line ends, as RFC 5322 and SMTP DATA want them
                        raw=msg.as_bytes(policy=msg.policy.clone(linesep="\r\n")), step=None, now=now,
                        due_at=due_at, held_until=held_until)


def add_deferred(*, kind: str, dedupe_key: str, game_id: int, seat_index: int, step: int,
                 recipient: str, now: dt.datetime | None = None,
                 due_at: dt.datetime | None = None, held_until: dt.datetime | None = None) -> int | None:
    """Queue a notice composed at delivery (:mod:`pbem.service.post.notify`
    ``compose_deferred``): seat ``seat_index`` of game ``game_id`` is asked
    to move at ``step``. ``due_at`` (UTC): not sent before then (a live
    player's grace; default: at once); it is superseded meanwhile like any
    deferred notice. Same transaction and dedupe rules as :func:`add`;
    one ``INSERT`` and nothing composed now."""
    return _insert_once(kind=kind, dedupe_key=dedupe_key, game_id=game_id, seat_index=seat_index,
                        recipient=recipient, subject="", raw=None, step=step, now=now, due_at=due_at,
                        held_until=held_until)


_INSERTS: dict[str, object] = {}


def _insert_once(*, now: dt.datetime | None, due_at: dt.datetime | None = None,
                 held_until: dt.datetime | None = None, **values) -> int | None:
    """One outbox row, pending and due at once (whether ``now`` is the real
    clock or an injected one) or at ``due_at``, in one round trip:
    ``INSERT ... ON CONFLICT (dedupe_key) DO NOTHING RETURNING id`` (the
    statement built once per dialect), so the unique dedupe key decides and a concurrent writer of
    the same key waits and skips. The new id, or ``None``."""
    conn = db.session.connection()
    stmt = _INSERTS.get(conn.dialect.name)
    if stmt is None:
        table = OutboxMessage.__table__
        stmt = _INSERTS[conn.dialect.name] = (
            _INSERT[conn.dialect.name](table).on_conflict_do_nothing(index_elements=[table.c.dedupe_key])
            .returning(table.c.id))
    if held_until is not None:
        due_at = held_until
    values.update(status=OUT_HELD if held_until is not None else OUT_PENDING, attempts=0,
                  next_attempt_at=due_at if due_at is not None else min(now or utcnow(), utcnow()),
                  created_at=now or utcnow())
    return conn.execute(stmt, values).scalar_one_or_none()


def orders_sent(game_id, seat_index, step):
    """SQL condition: the seat has stored orders for ``step`` (a
    simultaneous decision still waiting for the others). The arguments are
    columns (the outbox's own, in :func:`_stale_deferred`) or values."""
    return select(PendingOrder.id).where(
        PendingOrder.game_id == game_id, PendingOrder.seat_index == seat_index,
        PendingOrder.step == step).exists()


def _stale_deferred():
    """SQL condition: a deferred notice (composed yet or not: a failed
    attempt keeps what it composed) whose game has left its step (or
    stopped running), or whose seat has already sent its orders for that
    step (a simultaneous decision still waiting for the others)."""
    return OutboxMessage.step.is_not(None) & (select(Game.id).where(
        Game.id == OutboxMessage.game_id,
        (Game.step != OutboxMessage.step) | Game.status.not_in([ACTIVE, PAUSED])).exists()
        | orders_sent(OutboxMessage.game_id, OutboxMessage.seat_index, OutboxMessage.step))


def supersede_stale() -> int:
    """Mark every pending deferred notice whose game has moved past its
    step ``superseded`` (one ``UPDATE``; commits). Returns how many."""
    begin_write()
    n = db.session.execute(
        update(OutboxMessage).where(OutboxMessage.status == OUT_PENDING, _stale_deferred())
        .values(status=OUT_SUPERSEDED).execution_options(synchronize_session=False)).rowcount
    db.session.commit()
    return n


def render(row: OutboxMessage, *, now: dt.datetime | None = None, draw_picture: bool = False) -> bytes | None:
    """The bytes ``row`` is (or would now be) sent as: ``row.raw``, or for a
    deferred notice the mail composed now (its board picture a placeholder
    unless ``draw_picture``; a held one too, for the digest); ``None`` when a deferred notice is stale (it would be superseded),
    or when a finished row (``sent``, ``failed``, ``superseded``) holds no
    bytes (:func:`prune` dropped them): a finished row is never composed again."""
    if row.raw is not None:
        return row.raw
    if row.status not in (OUT_PENDING, OUT_SENDING, OUT_HELD):
        return None
    from pbem.service.post.notify import compose_deferred

    msg = compose_deferred(row, now=now or utcnow(), draw_picture=draw_picture)
    return None if msg is None else msg.as_bytes(policy=msg.policy.clone(linesep="\r\n"))


def backoff_seconds(attempts: int) -> float:
    """Wait before attempt ``attempts + 1`` after ``attempts`` failures:
    ``OUTBOX_BACKOFF_SECONDS * 2**(attempts-1)``, at most a day."""
    base = float(current_app.config["OUTBOX_BACKOFF_SECONDS"])
    return min(MAX_BACKOFF, base * (2 ** max(0, attempts - 1)))


def send_raw(raw: bytes, recipients: list[str], *, row_id: int | None = None) -> None:
    """Send one message over SMTP with the configured server
    (:func:`pbem.mail.smtp.send_raw`); raises ``TemporaryFailure`` or
    ``PermanentFailure`` from there. With ``row_id`` the envelope sender is
    that row's VERP bounce address (:mod:`pbem.service.accounts.bounces`)."""
    cfg = current_app.config
    smtp.send_raw(raw, mail_from=_envelope_from(row_id), rcpt_to=recipients, host=cfg["SMTP_HOST"],
                  port=int(cfg["SMTP_PORT"]), user=cfg["SMTP_USER"] or None,
                  password=cfg["SMTP_PASSWORD"] or None, tls=cfg["SMTP_TLS"])


def _subject(raw: bytes) -> str:
    from email.parser import BytesHeaderParser
    from email import policy

    return str(BytesHeaderParser(policy=policy.default).parsebytes(raw).get("Subject", ""))[:400]


def _envelope_from(row_id: int | None = None) -> str:
    cfg = current_app.config
    if row_id is not None and cfg.get("INBOUND_ADDRESS"):
        return make_bounce_address(cfg["SECRET_KEY"], cfg["INBOUND_ADDRESS"], row_id)
    addrs = getaddresses([cfg["MAIL_FROM"]])
    return addrs[0][1] if addrs and addrs[0][1] else cfg["MAIL_FROM"]


@dataclass
class DeliveryReport:
    sent: int = 0
    failed: int = 0
    gave_up: int = 0
    superseded: int = 0
    digests: int = 0


def deliver_due(*, now: dt.datetime | None = None, limit: int = 100) -> DeliveryReport:
    """Send every outbox row that is due (at most ``limit``). Safe to run
    in several workers at once: each row is claimed before it is sent."""
    now = now or utcnow()
    report = DeliveryReport()
    started = utcnow()  # the backoff counts from each failure, not from the start of a long run
    report.superseded = supersede_stale()
    from pbem.service.post import digest  # (imports this module)

    report.digests = digest.send_due(now=now)
    stuck = now - dt.timedelta(seconds=CLAIM_TIMEOUT)
    ids = list(db.session.execute(
        select(OutboxMessage.id).where(or_(
            (OutboxMessage.status == OUT_PENDING) & (OutboxMessage.next_attempt_at <= now),
            (OutboxMessage.status == OUT_SENDING) & (OutboxMessage.claimed_at <= stuck)))
        .order_by(OutboxMessage.next_attempt_at, OutboxMessage.id).limit(limit)).scalars())
    db.session.commit()
    # A turn notice whose game has moved on since the run began (most of a
    # backlog) is superseded by its claim itself: one statement, with no
    # row read and no mail composed
    stale = _stale_deferred()
    for row_id in ids:
        begin_write()
        claimed = db.session.execute(
            update(OutboxMessage).where(OutboxMessage.id == row_id, or_(
                (OutboxMessage.status == OUT_PENDING) & (OutboxMessage.next_attempt_at <= now),
                (OutboxMessage.status == OUT_SENDING) & (OutboxMessage.claimed_at <= stuck)))
            .values(status=case((stale, OUT_SUPERSEDED), else_=OUT_SENDING),
                    claimed_at=case((stale, None), else_=now))
            .returning(OutboxMessage.status)
            .execution_options(synchronize_session=False)).scalar_one_or_none()
        db.session.commit()
        if claimed == OUT_SUPERSEDED:
            report.superseded += 1
            continue
        if claimed is None:
            continue  # another worker has it
        row = db.session.get(OutboxMessage, row_id, populate_existing=True)
        recipient, deferred, subject = row.recipient, row.raw is None, row.subject
        error = raw = drawn = None
        try:
            # a deferred notice is composed now, from the game as it is, its picture drawn in
            raw = render(row, now=now, draw_picture=True)
        except Exception as err:  # a notice that cannot be composed is retried like a failed send
            log.exception("outbox %s could not be composed", row_id)
            error = err
        db.session.commit()  # no transaction (and no SQLite lock) held while drawing or talking SMTP
        if raw is None and error is None:
            begin_write()  # the seat moved before its notice went out: nothing to send
            db.session.execute(update(OutboxMessage).where(OutboxMessage.id == row_id)
                               .values(status=OUT_SUPERSEDED, claimed_at=None)
                               .execution_options(synchronize_session=False))
            db.session.commit()
            report.superseded += 1
            continue
        recipients = [r.strip() for r in recipient.split(",") if r.strip()]
        if error is None:
            try:
                drawn = pictures.materialize(raw)  # the board PNG is drawn now, not at resolution
                send_raw(drawn, recipients, row_id=row_id)
            except Exception as err:  # any failure: keep the row, try later
                error = err
        begin_write()
        row = db.session.get(OutboxMessage, row_id, populate_existing=True)
        if error is not None:
            err = error
            row.attempts += 1
            row.last_error = f"{type(err).__name__}: {err}"[:2000]
            # a permanent refusal (5xx: no such mailbox) will not get better with time
            if (isinstance(err, smtp.PermanentFailure)
                    or row.attempts >= int(current_app.config["OUTBOX_MAX_ATTEMPTS"])):
                row.status = OUT_FAILED
                report.gave_up += 1
                log.error("outbox %s to %s given up after %s attempts: %s",
                          row.id, row.recipient, row.attempts, row.last_error)
            else:
                row.status = OUT_PENDING
                row.next_attempt_at = (now + (utcnow() - started)
                                       + dt.timedelta(seconds=backoff_seconds(row.attempts)))
                report.failed += 1
                log.warning("outbox %s to %s failed (attempt %s), retry at %s: %s", row.id,
                            row.recipient, row.attempts, row.next_attempt_at, row.last_error)
            row.claimed_at = None
            if deferred and raw is not None:
                row.raw = raw  # a retry sends this same message (same Message-ID), unless superseded first
        else:
            row.attempts += 1
            row.status, row.sent_at, row.claimed_at, row.last_error = OUT_SENT, now, None, None
            if deferred:
                row.subject = _subject(drawn) or subject
            if deferred or drawn is not raw:
                row.raw = drawn  # the outbox keeps what was sent
            report.sent += 1
        db.session.commit()
    return report


@dataclass
class PruneReport:
    """What :func:`prune` did: ``emptied`` sent rows and ``failed_emptied``
    failed rows lost their bytes (``raw`` NULL, the row kept);
    ``deleted`` superseded rows were removed; ``batches`` write transactions."""
    emptied: int = 0
    failed_emptied: int = 0
    deleted: int = 0
    batches: int = 0


#: ids per statement (and per transaction) of :func:`prune`
PRUNE_BATCH = 1000


def prune(now: dt.datetime | None = None, *, keep_days: float | None = None,
          failed_keep_days: float | None = None, batch: int = PRUNE_BATCH) -> PruneReport:
    """Drop what the outbox no longer needs of its finished rows, so the
    table does not keep the bytes of every email ever sent.

    A row counts as old when its ``sent_at`` (``created_at`` when it was never
    sent) is more than ``keep_days`` days before ``now`` (default: the clock).
    Old ``sent`` rows keep everything but ``raw`` (set NULL): recipient,
    subject, kind, times and the ``dedupe_key``, so the same notice is never
    written twice; old ``superseded`` rows (never sent) are deleted;
    ``failed`` rows lose ``raw`` only after ``failed_keep_days`` (default
    twice ``keep_days``), so an operator can read what did not go out.
    ``pending`` and ``sending`` rows (a deferred turn notice has ``raw`` NULL
    too) are never touched; :func:`render` never composes a finished row again.

    ``keep_days`` defaults to ``OUTBOX_RETENTION_DAYS``; ``0`` keeps every
    row as it is. Walks the table once in id order, ``batch`` ids per
    statement, committing after each batch (no long locks); idempotent: a
    second run finds nothing to do."""
    if keep_days is None:
        keep_days = float(current_app.config["OUTBOX_RETENTION_DAYS"])
    report = PruneReport()
    if keep_days <= 0:
        return report
    if failed_keep_days is None:
        failed_keep_days = 2 * keep_days
    now = now or utcnow()
    cutoff = now - dt.timedelta(days=keep_days)
    failed_cutoff = now - dt.timedelta(days=failed_keep_days)
    m = OutboxMessage
    empty_sent = (m.status == OUT_SENT) & m.raw.is_not(None) & (
        func.coalesce(m.sent_at, m.created_at) < cutoff)
    empty_failed = (m.status == OUT_FAILED) & m.raw.is_not(None) & (m.created_at < failed_cutoff)
    drop = (m.status == OUT_SUPERSEDED) & (m.created_at < cutoff)
    last_id = 0
    while True:
        rows = db.session.execute(
            select(m.id, m.status).where(m.id > last_id, or_(empty_sent, empty_failed, drop))
            .order_by(m.id).limit(batch)).all()
        db.session.commit()
        if not rows:
            return report
        last_id = rows[-1].id
        emptied = [r.id for r in rows if r.status == OUT_SENT]
        failed = [r.id for r in rows if r.status == OUT_FAILED]
        superseded = [r.id for r in rows if r.status == OUT_SUPERSEDED]
        begin_write()
        # each statement checks its condition again: a row changed meanwhile is left alone
        if emptied:
            report.emptied += db.session.execute(
                update(m).where(m.id.in_(emptied), empty_sent).values(raw=None)
                .execution_options(synchronize_session=False)).rowcount
        if failed:
            report.failed_emptied += db.session.execute(
                update(m).where(m.id.in_(failed), empty_failed).values(raw=None)
                .execution_options(synchronize_session=False)).rowcount
        if superseded:
            report.deleted += db.session.execute(
                delete(m).where(m.id.in_(superseded), drop)
                .execution_options(synchronize_session=False)).rowcount
        db.session.commit()
        report.batches += 1
        if len(rows) < batch:
            return report


def status_counts() -> dict[str, dict[str, int]]:
    """Outbox rows by status, then by kind: ``{"sent": {"turn": 12, ...},
    "failed": {...}, ...}`` (an operator's view; reads only)."""
    from sqlalchemy import func

    out: dict[str, dict[str, int]] = {}
    for status, kind, n in db.session.execute(
            select(OutboxMessage.status, OutboxMessage.kind, func.count())
            .group_by(OutboxMessage.status, OutboxMessage.kind)
            .order_by(OutboxMessage.status, OutboxMessage.kind)):
        out.setdefault(status, {})[kind] = n
    return out


def failed_rows(limit: int = 50) -> list[OutboxMessage]:
    """The newest ``failed`` rows (given up: a permanent refusal or too many
    attempts), newest first."""
    return list(db.session.execute(
        select(OutboxMessage).where(OutboxMessage.status == OUT_FAILED)
        .order_by(OutboxMessage.id.desc()).limit(limit)).scalars())


def retry_failed(ids: list[int], *, now: dt.datetime | None = None) -> list[int]:
    """Put the given ``failed`` rows back in the queue, due now with their
    attempts counted from zero (after an operator fixed an address or the
    SMTP settings). Rows that are not ``failed`` are left alone. A turn
    notice whose game has moved on is superseded at the next delivery, not
    sent late. Commits; returns the ids requeued."""
    begin_write()
    done = list(db.session.execute(
        update(OutboxMessage).where(OutboxMessage.id.in_(ids), OutboxMessage.status == OUT_FAILED)
        .values(status=OUT_PENDING, attempts=0, next_attempt_at=now or utcnow(), claimed_at=None)
        .returning(OutboxMessage.id).execution_options(synchronize_session=False)).scalars())
    db.session.commit()
    return sorted(done)
