"""Resolution: apply the stored orders of a decision, exactly once.

Usually the request whose orders complete a turn resolves it, inside the
transaction that stores them (:func:`pbem.service.play.orders.submit_orders`
calls :func:`resolve_locked`); the ``pbem.resolve`` task
(:func:`resolve_game`) resolves turns at their deadline, turns the request
left to it, and is the fallback the periodic scan uses.

A resolution runs in one transaction: it locks the game row, applies every
current seat's stored orders in seat order (or, at the deadline, the
documented default order for seats without orders), then claims the turn
with ``UPDATE games ... WHERE id = :id AND step = :old_step`` and writes the
new state, the moves, the events and the outbox rows. A second resolution of
the same turn (a task delivered twice, two workers, the scan racing the
task) finds the step moved on or the claim taken and changes nothing.
"""
from __future__ import annotations

import datetime as dt
import logging
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import bindparam, delete, select, update
from sqlalchemy.orm.attributes import set_committed_value

from pbem.engine import OrderError, get_game
from pbem.engine.messages import Msg, Msgn
from pbem.i18n import msg_json, stored_event_data
from pbem.service.core import queue
from pbem.service.core.db import db
from pbem.service.core.echo import said_orders
from pbem.service.play import held
from pbem.service.post import notify
from pbem.service.core.models import (
    ACTIVE, FINISHED, Game, GameEvent, Move, PendingOrder, utcnow,
)
from pbem.service.core.snapshot import engine_state, load_game, set_seat

log = logging.getLogger(__name__)


@dataclass
class ResolveResult:
    """``status``: ``resolved`` (a turn was applied), ``waiting`` (orders
    missing and the deadline not passed), ``idle`` (nothing to do: not
    running, or another resolution got there first)."""

    status: str
    game_id: int
    step_before: int = 0
    step_after: int = 0
    defaulted: list[int] = field(default_factory=list)
    finished: bool = False
    #: an email written by the resolution is due now (not every turn notice
    #: waiting out a live player's grace): delivery should run
    mail_due: bool = False


_INSERT_MOVE = Move.__table__.insert()
_INSERT_EVENT = GameEvent.__table__.insert()
_CLAIMS: dict[tuple[str, ...], object] = {}


def _said(msg: Msg, data: dict[str, Any]) -> dict[str, Any]:
    """A service log line's ``text`` and ``data`` (keeping its message for
    :func:`pbem.i18n.event_text`)."""
    return {"text": str(msg), "data": stored_event_data(msg, data)}


def _claim_statement(columns: tuple[str, ...]):
    """``UPDATE games SET <columns> WHERE id = :claim_id AND step =
    :claim_step AND status = 'active'``, built once per set of columns."""
    stmt = _CLAIMS.get(columns)
    if stmt is None:
        t = Game.__table__
        stmt = _CLAIMS[columns] = (
            update(t).where(t.c.id == bindparam("claim_id"), t.c.step == bindparam("claim_step"),
                            t.c.status == ACTIVE)
            .values({c: bindparam(f"new_{c}") for c in columns}))
    return stmt


#: most default orders applied for one seat at one missed deadline (a guard
#: against an engine whose turn never ends; Medina needs 2)
MAX_DEFAULTS = 20


def apply_defaults(state, seat: int, record) -> list:
    """Apply ``state.default_action(seat)`` through ``record(action)`` for
    every decision ``seat`` owes in the turn it missed: the first, then
    again while the seat is still in ``state.current_seats()`` and
    ``state.turn_key()`` is unchanged (Medina: the second piece; La Città:
    the demolition after a famine), at most :data:`MAX_DEFAULTS`. A new turn
    of the same seat (Medina, only one seat with pieces left) gets its own
    deadline. Returns the actions applied, in order."""
    turn = state.turn_key()
    applied = []
    while True:
        action = state.default_action(seat)
        record(action)
        applied.append(action)
        if (seat not in state.current_seats() or state.is_terminal()
                or state.turn_key() != turn or len(applied) >= MAX_DEFAULTS):
            return applied


def _missed_text(name: str, seat: int, texts: list[str], quoted: str) -> Msg:
    """The log line of a missed deadline: who, and the default orders applied."""
    if len(texts) > 1:
        return Msg("{name} (seat {n}) missed the deadline; the default orders {orders} were applied.",
                   name=name, n=seat + 1, orders=quoted)
    return Msg("{name} (seat {n}) missed the deadline; the default order {orders} was applied.",
               name=name, n=seat + 1, orders=quoted)


def resolve_game(game_id: int, *, now: dt.datetime | None = None, expired: bool = False) -> ResolveResult:
    """Resolve the current decision of ``game_id`` if every seat it waits
    for has stored orders; with ``expired`` (the deadline scan), also when
    the deadline has passed, applying ``state.default_action(seat)`` for
    each seat without orders — for every decision of the turn it missed
    (:func:`apply_defaults`) — counting one missed turn for it and telling
    everyone once. Idempotent; commits; enqueues outbox delivery."""
    now = now or utcnow()
    game = load_game(game_id, for_update=True)
    result = resolve_locked(game, now=now, expired=expired)
    if result.status != "resolved":
        db.session.rollback()
        return result
    db.session.commit()
    if result.mail_due:
        queue.enqueue(queue.DELIVER)
    return result


def resolve_locked(game: Game, *, now: dt.datetime, expired: bool = False, state=None,
                   pending: dict[int, PendingOrder] | None = None, pre_applied=None,
                   held_rows: dict | None = None) -> ResolveResult:
    """:func:`resolve_game` on a game row the caller has locked
    (:func:`load_game` ``for_update``), inside the caller's transaction:
    writes the new state, moves, events and outbox rows when the turn
    resolves, and never commits or rolls back (the caller does either).
    ``state`` (the engine state of ``game.step``; consumed) and ``pending``
    (seat -> its order row: stored, or not yet added to the session when the
    request's own orders complete the turn) save reading them again.
    ``pre_applied``: ``(seat, trial)`` when ``seat`` alone decides and its
    orders were already applied to ``state`` line by line by the order
    check (:class:`pbem.service.play.orders.Trial`); the trial is recorded
    instead of applying them again. Raises ``ValueError`` if the state
    waits for anyone else.

    Then every held order whose decision has come due is applied, in the
    same transaction (:func:`pbem.service.play.held.apply_due`; ``held_rows``:
    seat -> its held-order row when the caller has them, else read when the
    locked row counts any); at the end of the game they are dropped."""
    if game.status != ACTIVE or game.state is None:
        return ResolveResult("idle", game.id, game.step, game.step)
    game_id = game.id
    state = engine_state(game) if state is None else state
    engine = get_game(game.kind)
    old_step = game.step
    # pre-applied: ``state`` is already past the seat's lines; it waited for that seat alone
    current = [pre_applied[0]] if pre_applied is not None else state.current_seats()
    if pending is None:
        pending = {p.seat_index: p for p in db.session.execute(
            select(PendingOrder).where(PendingOrder.game_id == game.id)).scalars()}
    fresh = {s: p for s, p in pending.items() if p.step == old_step and s in current}
    missing = [s for s in current if s not in fresh]
    deadline_passed = game.deadline_at is not None and game.deadline_at <= now
    if not current:
        return ResolveResult("idle", game_id, old_step, old_step)
    if missing and not (expired and deadline_passed):
        return ResolveResult("waiting", game_id, old_step, old_step)

    # rows as dicts, written with one multi-row INSERT each (no ORM unit of work)
    moves: list[dict] = []
    events: list[dict] = []
    acted: set[int] = set()

    def record(seat: int, action, source: str) -> None:
        before = state.step
        log_applied(seat, source, before, action, state.apply(seat, action), state.step)

    def log_applied(seat: int, source: str, before: int, action, evs, after: int) -> None:
        moves.append(dict(game_id=game.id, step=before, seat_index=seat, text=action.to_text(),
                          source=source, created_at=now))
        events.extend(dict(game_id=game.id, step=after, seat_index=ev.seat, text=str(ev.text), kind=ev.kind,
                           data=stored_event_data(ev.text, ev.data), created_at=now) for ev in evs)
        acted.add(seat)

    if pre_applied is not None:
        seat, trial = pre_applied
        if set(fresh) != {seat} or not trial.applied or trial.applied[0][0] != old_step:
            raise ValueError(f"game {game_id}: orders pre-applied for seat {seat} do not match step {old_step}")
        for before, action, evs, after in trial.applied:
            log_applied(seat, fresh[seat].source, before, action, evs, after)
    for seat in sorted(current) if pre_applied is None else ():
        order = fresh.get(seat)
        if order is None:
            at, first_step = len(events), state.step + 1
            defaults = apply_defaults(state, seat, lambda a: record(seat, a, "deadline"))
            texts = [a.to_text() for a in defaults]
            quoted = ", ".join(f"\u201c{t}\u201d" for t in texts)
            text = _missed_text(game.seat(seat).player.name, seat, texts, quoted)
            # first in the log, and after ``old_step`` so every notice of this turn quotes it
            events.insert(at, dict(
                game_id=game.id, step=first_step,
                seat_index=None, kind="missed", created_at=now,
                data=stored_event_data(text, {"seat": seat, "order": "\n".join(texts),
                                              "orders": texts}),
                text=str(text)))
            game.seat(seat).missed_turns += 1
            continue
        turn = state.turn_key()
        for line in order.text.split("\n"):
            # stored orders hold one turn (check_orders); never read a line on the next one
            if seat not in state.current_seats() or state.turn_key() != turn:
                break
            try:
                action = engine.parse_action(state, seat, line)
                record(seat, action, order.source)
            except OrderError as err:
                # Validated on the same step, so this happens only when an
                # earlier seat's simultaneous order changed what is legal.
                log.warning("game %s seat %s: stored order %r failed at resolution: %s",
                            game.id, seat, line, err.message)
                at = len(events)
                if seat in state.current_seats():
                    record(seat, state.default_action(seat), "deadline")
                text = Msg("Seat {n}'s order \u201c{order}\u201d could not be applied after the "
                           "orders before it ({why}); the default order was applied.",
                           n=seat + 1, order=line, why=err.message)
                events.insert(at, dict(
                    game_id=game.id, step=state.step, seat_index=None, kind="order-failed",
                    created_at=now, data=stored_event_data(text, {"seat": seat, "order": line}),
                    text=str(text)))
                break

    rows = held.rows_of(game) if held_rows is None else held_rows
    if rows:
        def dropped(seat: int, line: str, why) -> None:
            text = Msg("Your held order \u201c{order}\u201d could not be applied ({why}); it was dropped.",
                       order=said_orders(held.held_in(engine, [line])), why=why)
            events.append(dict(
                game_id=game.id, step=state.step, seat_index=seat, kind="held-dropped", created_at=now,
                data=stored_event_data(text, {"seat": seat, "order": line}), text=str(text)))

        held.apply_due(engine, state, rows, lambda s, a, source: record(s, a, source), dropped)

    terminal = state.is_terminal()
    phase = state.phase()
    values = dict(state=state.to_json(), step=state.step, phase=phase, phase_msg=msg_json(phase),
                  reminder_step=None, updated_at=now,
                  deadline_at=None if terminal else now + dt.timedelta(seconds=game.deadline_seconds))
    if terminal:
        values.update(status=FINISHED, finished_at=now)
    db.session.flush()  # e.g. missed_turns, before the Core statements below
    conn = db.session.connection()
    claimed = conn.execute(_claim_statement(tuple(values)),
                           {"claim_id": game.id, "claim_step": old_step,
                            **{f"new_{k}": v for k, v in values.items()}}).rowcount
    if claimed != 1:
        return ResolveResult("idle", game_id, old_step, old_step)
    # Core statements built once (no ORM unit of work on the order path)
    for stmt, rows in ((_INSERT_MOVE, moves), (_INSERT_EVENT, events)):
        if rows:
            # one row as one execute: a list, even of one, is an executemany
            # (with psycopg a pipeline of its own)
            conn.execute(stmt, rows[0] if len(rows) == 1 else rows)
    if any(p.id is not None for p in pending.values()):  # a completing order may never have been stored
        db.session.execute(delete(PendingOrder).where(PendingOrder.game_id == game.id))
    if terminal and (rows or game.held_count):
        held.drop_all(game.id)
    for seat in acted:
        # the next notice quotes from here: this seat's own move and all that
        # followed; orders from the web page mark the seat as playing live
        order = fresh.get(seat)
        if order is not None and order.source == "web":
            set_seat(game.seat(seat), last_moved_step=old_step, last_web_order_at=order.created_at or now)
        else:
            set_seat(game.seat(seat), last_moved_step=old_step)
    # the claim wrote ``values`` with a Core UPDATE; tell the loaded row
    # (no second SELECT of the game and its seats)
    for key, value in values.items():
        set_committed_value(game, key, value)
    mail_due = notify.after_change(game, state, now=now, since_step=old_step,
                                   missed=[s for s in current if s not in fresh])
    return ResolveResult("resolved", game_id, old_step, state.step,
                         defaulted=[s for s in current if s not in fresh], finished=terminal,
                         mail_due=mail_due)
