"""Delivering the outbox: a task claims each due row, composes it if it is
a deferred turn notice, draws its board picture, sends it over SMTP and
records the outcome, with retry and exponential backoff.

Delivery claims a row (``pending`` -> ``sending``, conditional update), sends
it over SMTP, and marks it ``sent`` once. A failure puts it back to
``pending`` with ``next_attempt_at = now + backoff * 2**(attempts-1)``
(capped at a day); after ``OUTBOX_MAX_ATTEMPTS``, or at once on a
permanent (5xx) refusal, it is ``failed``. A row left in ``sending`` by a
worker that died is taken back after :data:`CLAIM_TIMEOUT` seconds (the
only case where a mail may go twice: the SMTP server accepted it and the
worker died before marking it).
"""
from __future__ import annotations

import datetime as dt
import logging
from dataclasses import dataclass
from email.utils import getaddresses

from flask import current_app
from sqlalchemy import case, or_, select, update

from pbem.mail import smtp
from pbem.mail.tokens import make_bounce_address
from pbem.service.core.db import begin_write, db
from pbem.service.core.models import OUT_FAILED, OUT_PENDING, OUT_SENDING, OUT_SENT, OUT_SUPERSEDED, OutboxMessage, utcnow
from pbem.service.post import channel_delivery, digest, outbox, pictures
from pbem.service.post import webhook_delivery
from pbem.service.post.store import stale_deferred

log = logging.getLogger(__name__)

#: seconds after which a row stuck in ``sending`` is tried again
CLAIM_TIMEOUT = 300
#: longest wait between two attempts, seconds
MAX_BACKOFF = 24 * 3600


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
    in several workers at once: each row is claimed before it is sent.
    First the stale turn notices are superseded and the due digests
    written (:func:`pbem.service.post.digest.send_due`)."""
    now = now or utcnow()
    report = DeliveryReport()
    started = utcnow()  # the backoff counts from each failure, not from the start of a long run
    report.superseded = outbox.supersede_stale()
    report.digests = digest.send_due(now=now)
    stuck = now - dt.timedelta(seconds=CLAIM_TIMEOUT)
    for row_id in _due_ids(now, stuck, limit):
        outcome = _deliver_one(row_id, now=now, stuck=stuck, started=started)
        if outcome is not None:
            setattr(report, outcome, getattr(report, outcome) + 1)
    return report


def _due(now: dt.datetime, stuck: dt.datetime):
    """SQL condition: a row due now, or left in ``sending`` since ``stuck``."""
    return or_((OutboxMessage.status == OUT_PENDING) & (OutboxMessage.next_attempt_at <= now),
               (OutboxMessage.status == OUT_SENDING) & (OutboxMessage.claimed_at <= stuck))


def _due_ids(now: dt.datetime, stuck: dt.datetime, limit: int) -> list[int]:
    """The ids of at most ``limit`` due rows, the longest waiting first."""
    ids = list(db.session.execute(
        select(OutboxMessage.id).where(_due(now, stuck))
        .order_by(OutboxMessage.next_attempt_at, OutboxMessage.id).limit(limit)).scalars())
    db.session.commit()
    return ids


def _claim(row_id: int, now: dt.datetime, stuck: dt.datetime) -> str | None:
    """Claim row ``row_id`` (``sending``), or supersede it at once when it is
    a turn notice whose game has moved on (most of a backlog: one statement,
    no row read, no mail composed). The new status; ``None`` when another
    worker has it."""
    stale = stale_deferred()
    begin_write()
    claimed = db.session.execute(
        update(OutboxMessage).where(OutboxMessage.id == row_id, _due(now, stuck))
        .values(status=case((stale, OUT_SUPERSEDED), else_=OUT_SENDING),
                claimed_at=case((stale, None), else_=now))
        .returning(OutboxMessage.status)
        .execution_options(synchronize_session=False)).scalar_one_or_none()
    db.session.commit()
    return claimed


def _deliver_one(row_id: int, *, now: dt.datetime, stuck: dt.datetime, started: dt.datetime) -> str | None:
    """Claim, compose, send and record one row; the :class:`DeliveryReport`
    field it counts in (``None``: another worker has it). No transaction
    (and no SQLite lock) is held while drawing or talking SMTP."""
    claimed = _claim(row_id, now, stuck)
    if claimed != OUT_SENDING:
        return "superseded" if claimed == OUT_SUPERSEDED else None
    row = db.session.get(OutboxMessage, row_id, populate_existing=True)
    recipient, deferred, subject = row.recipient, row.raw is None, row.subject
    channel_game = row.game_id if row.kind == "channel" else None  # posted through Apprise (issue 26)
    raw, error = _compose(row, now)
    db.session.commit()
    if raw is None and error is None:
        _supersede(row_id)  # the seat moved before its notice went out: nothing to send
        return "superseded"
    drawn = None
    if error is None:
        drawn, error = _send(raw, recipient, row_id, channel_game=channel_game)
    begin_write()
    row = db.session.get(OutboxMessage, row_id, populate_existing=True)
    if error is not None:
        outcome = _failed(row, error, now=now, started=started)
        if deferred and raw is not None:
            row.raw = raw  # a retry sends this same message (same Message-ID), unless superseded first
    else:
        outcome = _sent(row, now=now, deferred=deferred, raw=raw, drawn=drawn, subject=subject)
    db.session.commit()
    return outcome


def _compose(row: OutboxMessage, now: dt.datetime) -> tuple[bytes | None, Exception | None]:
    """The row's bytes (a deferred notice composed now, from the game as it
    is, its picture drawn in) and ``None``; or ``None`` and the error (a
    notice that cannot be composed is retried like a failed send)."""
    try:
        return outbox.render(row, now=now, draw_picture=True), None
    except Exception as err:
        log.exception("outbox %s could not be composed", row.id)
        return None, err


def _supersede(row_id: int) -> None:
    begin_write()
    db.session.execute(update(OutboxMessage).where(OutboxMessage.id == row_id)
                       .values(status=OUT_SUPERSEDED, claimed_at=None)
                       .execution_options(synchronize_session=False))
    db.session.commit()


def _send(raw: bytes, recipient: str, row_id: int, *, channel_game: int | None = None
          ) -> tuple[bytes | None, Exception | None]:
    """Draw the board picture (now, not at resolution) and send: the bytes
    sent and ``None``, or ``None`` and the error (any failure keeps the row).
    A row of a game's chat channel (``channel_game``) is posted through
    Apprise (:mod:`pbem.service.post.channel_delivery`), not mailed."""
    recipients = [r.strip() for r in recipient.split(",") if r.strip()]
    try:
        drawn = pictures.materialize(raw)
        if channel_game is not None:
            channel_delivery.post(drawn, channel_game)
        elif recipient.endswith("@" + webhook_delivery.DOMAIN):   # a webhook call (issue 28)
            webhook_delivery.post(drawn, recipient)
        else:
            send_raw(drawn, recipients, row_id=row_id)
        return drawn, None
    except Exception as err:
        return None, err


def _failed(row: OutboxMessage, err: Exception, *, now: dt.datetime, started: dt.datetime) -> str:
    """Record a failed attempt: back to ``pending`` with backoff, or
    ``failed`` for good after a permanent (5xx) refusal or the last attempt.
    Returns ``"gave_up"`` or ``"failed"``."""
    row.attempts += 1
    row.last_error = f"{type(err).__name__}: {err}"[:2000]
    row.claimed_at = None
    # a permanent refusal (5xx: no such mailbox) will not get better with time
    if isinstance(err, smtp.PermanentFailure) or row.attempts >= int(current_app.config["OUTBOX_MAX_ATTEMPTS"]):
        row.status = OUT_FAILED
        log.error("outbox %s to %s given up after %s attempts: %s",
                  row.id, row.recipient, row.attempts, row.last_error)
        return "gave_up"
    row.status = OUT_PENDING
    row.next_attempt_at = now + (utcnow() - started) + dt.timedelta(seconds=backoff_seconds(row.attempts))
    log.warning("outbox %s to %s failed (attempt %s), retry at %s: %s", row.id,
                row.recipient, row.attempts, row.next_attempt_at, row.last_error)
    return "failed"


def _sent(row: OutboxMessage, *, now: dt.datetime, deferred: bool, raw: bytes, drawn: bytes,
          subject: str) -> str:
    """Record a sent row; the outbox keeps what was sent."""
    row.attempts += 1
    row.status, row.sent_at, row.claimed_at, row.last_error = OUT_SENT, now, None, None
    if deferred:
        row.subject = _subject(drawn) or subject
    if deferred or drawn is not raw:
        row.raw = drawn
    return "sent"
