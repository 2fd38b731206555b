"""Writing outbox rows: the one place that inserts into ``outbox``.

A row is written in the transaction of the change it tells about, once per
dedupe key (``INSERT ... ON CONFLICT (dedupe_key) DO NOTHING RETURNING id``):
:func:`add` for a composed mail, :func:`add_deferred` for a turn notice
composed at delivery (:func:`pbem.service.post.notify.compose_deferred`).
:func:`stale_deferred` is the SQL condition under which a deferred notice
is no longer worth sending. Delivery is :mod:`pbem.service.post.delivery`.
"""
from __future__ import annotations

import datetime as dt
from email.message import EmailMessage
from email.utils import getaddresses

from sqlalchemy import select
from sqlalchemy.dialects.postgresql import insert as _pg_insert
from sqlalchemy.dialects.sqlite import insert as _sqlite_insert

from pbem.service.core.db import db
from pbem.service.core.models import (
    ACTIVE, OUT_HELD, OUT_PENDING, PAUSED, Game, OutboxMessage, PendingOrder, utcnow,
)

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
    columns (the outbox's own, in :func:`stale_deferred`) or values."""
    return select(PendingOrder.id).where(
        PendingOrder.game_id == game_id, PendingOrder.seat_index == seat_index,
        PendingOrder.step == step).exists()


def stale_deferred():
    """SQL condition: a deferred notice (composed yet or not: a failed
    attempt keeps what it composed) whose game has left its step (or
    stopped running), or whose seat has already sent its orders for that
    step (a simultaneous decision still waiting for the others)."""
    return OutboxMessage.step.is_not(None) & (select(Game.id).where(
        Game.id == OutboxMessage.game_id,
        (Game.step != OutboxMessage.step) | Game.status.not_in([ACTIVE, PAUSED])).exists()
        | orders_sent(OutboxMessage.game_id, OutboxMessage.seat_index, OutboxMessage.step))
