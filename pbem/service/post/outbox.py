"""The outbox kept: what a row is sent as (:func:`render`), stale turn
notices superseded, old rows pruned, and an operator's view and retries.

Emails are written in the same transaction as the change they tell about
(:mod:`pbem.service.post.store`) and delivered by a task with retry and
exponential backoff (:mod:`pbem.service.post.delivery`).

Turn notices are *deferred* (:func:`pbem.service.post.store.add_deferred`):
the turn's transaction writes only which seat is asked to move at which
step; delivery composes the mail from the game as it is then
(:func:`pbem.service.post.notify.compose_deferred`). A notice whose game
has left that step before delivery (the seat moved on the web page, or its
deadline passed and the missed-turn notice told it), or whose seat has sent
its orders for that step already (a simultaneous decision waiting for the
others), is marked ``superseded`` and not sent: nobody gets "your move" for
a move already made. Composing a notice costs several milliseconds of CPU
and its board picture hundreds; the order path pays neither.
"""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from flask import current_app
from sqlalchemy import delete, func, or_, select, update

from pbem.service.core.db import begin_write, db
from pbem.service.core.models import (
    OUT_FAILED, OUT_HELD, OUT_PENDING, OUT_SENDING, OUT_SENT, OUT_SUPERSEDED, OutboxMessage, utcnow,
)
from pbem.service.post import notify
from pbem.service.post.store import stale_deferred


def supersede_stale() -> int:
    """Mark every pending deferred notice whose game has moved past its
    step ``superseded`` (one ``UPDATE``; commits). Returns how many."""
    begin_write()
    n = db.session.execute(
        update(OutboxMessage).where(OutboxMessage.status == OUT_PENDING, stale_deferred())
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
    msg = notify.compose_deferred(row, now=now or utcnow(), draw_picture=draw_picture)
    return None if msg is None else msg.as_bytes(policy=msg.policy.clone(linesep="\r\n"))


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
    conditions = _prune_conditions(now or utcnow(), keep_days,
                                   2 * keep_days if failed_keep_days is None else failed_keep_days)
    last_id = 0
    while True:
        rows = db.session.execute(
            select(OutboxMessage.id, OutboxMessage.status)
            .where(OutboxMessage.id > last_id, or_(*conditions.values()))
            .order_by(OutboxMessage.id).limit(batch)).all()
        db.session.commit()
        if not rows:
            return report
        last_id = rows[-1].id
        _prune_batch(rows, conditions, report)
        if len(rows) < batch:
            return report


def _prune_conditions(now: dt.datetime, keep_days: float, failed_keep_days: float) -> dict:
    """SQL condition per status :func:`prune` touches: old ``sent`` rows
    still holding bytes, old ``failed`` ones, old ``superseded`` ones."""
    m = OutboxMessage
    cutoff = now - dt.timedelta(days=keep_days)
    failed_cutoff = now - dt.timedelta(days=failed_keep_days)
    return {OUT_SENT: (m.status == OUT_SENT) & m.raw.is_not(None) & (func.coalesce(m.sent_at, m.created_at) < cutoff),
            OUT_FAILED: (m.status == OUT_FAILED) & m.raw.is_not(None) & (m.created_at < failed_cutoff),
            OUT_SUPERSEDED: (m.status == OUT_SUPERSEDED) & (m.created_at < cutoff)}


def _prune_batch(rows, conditions: dict, report: PruneReport) -> None:
    """One write transaction over ``rows`` (id, status). Each statement checks
    its condition again: a row changed meanwhile is left alone."""
    m = OutboxMessage
    ids = {status: [r.id for r in rows if r.status == status] for status in conditions}
    begin_write()
    if ids[OUT_SENT]:
        report.emptied += db.session.execute(
            update(m).where(m.id.in_(ids[OUT_SENT]), conditions[OUT_SENT]).values(raw=None)
            .execution_options(synchronize_session=False)).rowcount
    if ids[OUT_FAILED]:
        report.failed_emptied += db.session.execute(
            update(m).where(m.id.in_(ids[OUT_FAILED]), conditions[OUT_FAILED]).values(raw=None)
            .execution_options(synchronize_session=False)).rowcount
    if ids[OUT_SUPERSEDED]:
        report.deleted += db.session.execute(
            delete(m).where(m.id.in_(ids[OUT_SUPERSEDED]), conditions[OUT_SUPERSEDED])
            .execution_options(synchronize_session=False)).rowcount
    db.session.commit()
    report.batches += 1


def status_counts() -> dict[str, dict[str, int]]:
    """Outbox rows by status, then by kind: ``{"sent": {"turn": 12, ...},
    "failed": {...}, ...}`` (an operator's view; reads only)."""
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
