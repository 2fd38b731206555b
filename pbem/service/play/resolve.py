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
from pbem.engine.messages import Msg
from pbem.i18n import BOT_KEY, msg_json, stored_event_data
from pbem.service.core import batch, queue
from pbem.service.core.bots import has_bots
from pbem.service.core.db import db
from pbem.service.core.echo import said_orders
from pbem.service.core.held_text import held_in
from pbem.service.play import absences, grace, held, standin
from pbem.service.play.missed_line import missed_line
from pbem.service.post import notify
from pbem.service.core.models import (
    ACTIVE, FINISHED, Game, GameEvent, Move, PendingOrder, Seat, utcnow,
)
from pbem.service.core.snapshot import engine_state, load_game

log = logging.getLogger(__name__)


@dataclass
class ResolveResult:
    """``status``: ``resolved`` (a turn was applied), ``waiting`` (orders
    missing and the deadline not passed), ``graced`` (the deadline passed
    and late seats got their one grace: :mod:`pbem.service.play.grace`),
    ``idle`` (nothing to do: not running, or another resolution got there first)."""

    status: str
    game_id: int
    step_before: int = 0
    step_after: int = 0
    defaulted: list[int] = field(default_factory=list)
    finished: bool = False
    #: an email written by the resolution is due now (not every turn notice
    #: waiting out a live player's grace): delivery should run
    mail_due: bool = False


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
    if result.status == "graced":
        db.session.commit()
        queue.enqueue(queue.DELIVER)
        return result
    if result.status != "resolved":
        db.session.rollback()
        return result
    bots = not result.finished and has_bots(game)   # the loaded rows, before the commit (issue 27)
    db.session.commit()
    if result.mail_due:
        queue.enqueue(queue.DELIVER)
    if bots:
        queue.enqueue(queue.BOTS, game_id)
    return result


class _Log:
    """The rows one resolution writes, kept as dicts for one multi-row
    INSERT each (no ORM unit of work): ``moves``, ``events`` and the seats
    that ``acted``. ``state``: the engine state being advanced (mutated)."""

    def __init__(self, game_id: int, state, now: dt.datetime):
        self.game_id, self.state, self.now = game_id, state, now
        self.moves: list[dict] = []
        self.events: list[dict] = []
        self.acted: set[int] = set()

    def record(self, seat: int, action, source: str) -> None:
        """Apply ``action`` of ``seat`` to the state and log it."""
        before = self.state.step
        self.applied(seat, source, before, action, self.state.apply(seat, action), self.state.step)

    def applied(self, seat: int, source: str, before: int, action, evs, after: int) -> None:
        """Log an action already applied (step ``before`` -> ``after``, engine events ``evs``)."""
        self.moves.append(dict(game_id=self.game_id, step=before, seat_index=seat, text=action.to_text(),
                               source=source, created_at=self.now))
        rows = [dict(game_id=self.game_id, step=after, seat_index=ev.seat, text=str(ev.text),
                     kind=ev.kind, data=stored_event_data(ev.text, ev.data), created_at=self.now) for ev in evs]
        if source == "bot" and rows:   # the line telling the order (the first) says a bot made it (issue 27)
            rows[0]["data"][BOT_KEY] = True
        self.events.extend(rows)
        self.acted.add(seat)

    def service_line(self, at: int | None, step: int, seat: int | None, kind: str, msg: Msg,
                     data: dict[str, Any]) -> None:
        """A line the service writes in the log (``kind``: missed,
        order-failed, held-dropped), inserted at index ``at`` (None: appended)."""
        row = dict(game_id=self.game_id, step=step, seat_index=seat, kind=kind, created_at=self.now,
                   **_said(msg, data))
        self.events.append(row) if at is None else self.events.insert(at, row)


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
    check (:class:`pbem.service.play.order_check.Trial`); the trial is recorded
    instead of applying them again. Raises ``ValueError`` if the state
    waits for anyone else.

    Then every held order come due is applied, in the same transaction
    (:func:`pbem.service.play.held.apply_due`; ``held_rows``: seat -> its
    held-order row, else read when the locked row counts any)."""
    if game.status != ACTIVE or game.state is None:
        return ResolveResult("idle", game.id, game.step, game.step)
    old_step = game.step
    state = engine_state(game) if state is None else state
    # pre-applied: ``state`` is already past the seat's lines; it waited for that seat alone
    current = [pre_applied[0]] if pre_applied is not None else state.current_seats()
    pending = _pending_rows(game.id) if pending is None else pending
    fresh = {s: p for s, p in pending.items() if p.step == old_step and s in current}
    waiting = _not_ready(game, current, fresh, expired=expired, now=now)
    if waiting is not None:
        return waiting
    engine = get_game(game.kind)
    log_ = _Log(game.id, state, now)
    if pre_applied is not None:
        _record_trial(log_, fresh, pre_applied, old_step)
    else:
        for seat in sorted(current):
            _apply_seat(log_, engine, game, seat, fresh.get(seat))
    rows = held.rows_of(game) if held_rows is None else held_rows
    _apply_held(log_, engine, rows)
    values = _new_values(game, state, now)
    if not _claim(game, old_step, values):
        return ResolveResult("idle", game.id, old_step, old_step)
    _write_rows(game, log_, pending, dropped_held=values.get("status") == FINISHED and bool(rows or game.held_count),
                marks=_acted_marks(game, log_.acted, fresh, old_step, now))
    _claimed(game, values, state, now)
    missed = [s for s in current if s not in fresh]
    mail_due = notify.after_change(game, state, now=now, since_step=old_step, missed=missed)
    return ResolveResult("resolved", game.id, old_step, state.step, defaulted=missed,
                         finished=values.get("status") == FINISHED, mail_due=mail_due)


def _pending_rows(game_id: int) -> dict[int, PendingOrder]:
    """Seat -> stored order row of game ``game_id``."""
    return {p.seat_index: p for p in db.session.execute(
        select(PendingOrder).where(PendingOrder.game_id == game_id)).scalars()}


def _not_ready(game: Game, current, fresh, *, expired: bool, now: dt.datetime) -> ResolveResult | None:
    """``idle`` when nobody is to move, ``waiting`` when orders are missing
    and this is not a resolution of a passed deadline, ``graced`` when late
    seats get their one grace instead (:func:`_graced`); None when the turn resolves."""
    if not current:
        return ResolveResult("idle", game.id, game.step, game.step)
    deadline_passed = game.deadline_at is not None and game.deadline_at <= now
    if any(s not in fresh for s in current) and not (expired and deadline_passed):
        return ResolveResult("waiting", game.id, game.step, game.step)
    return _graced(game, current, fresh, expired=expired, now=now)


def _graced(game: Game, current, fresh, *, expired: bool, now: dt.datetime) -> ResolveResult | None:
    """``graced`` when the deadline passed and seats without orders get
    their first missed deadline's grace instead (issue 25,
    :mod:`pbem.service.play.grace`): the game waits, once; else None."""
    late = grace.graced_seats(game, [s for s in current if s not in fresh]) if expired else []
    if not late:
        return None
    grace.give(game, late, now=now)
    return ResolveResult("graced", game.id, game.step, game.step, defaulted=[], mail_due=True)


def _record_trial(log_: _Log, fresh, pre_applied, old_step: int) -> None:
    """Log the order check's trial of the one seat that decides (its lines
    are already applied to the state). Raises ``ValueError`` if it does not
    match the stored orders of ``old_step``."""
    seat, trial = pre_applied
    if set(fresh) != {seat} or not trial.applied or trial.applied[0][0] != old_step:
        raise ValueError(f"game {log_.game_id}: orders pre-applied for seat {seat} do not match step {old_step}")
    for before, action, evs, after in trial.applied:
        log_.applied(seat, fresh[seat].source, before, action, evs, after)


def _apply_seat(log_: _Log, engine, game: Game, seat: int, order: PendingOrder | None) -> None:
    """Apply ``seat``'s stored order lines, or its default orders when it has none."""
    if order is None:
        _apply_missed(log_, game, seat)
    else:
        _apply_stored(log_, engine, seat, order)


def _apply_missed(log_: _Log, game: Game, seat: int) -> None:
    """The default orders of a seat that missed the deadline, one missed
    turn counted, and the log line quoting them (first in the log, and after
    the old step, so every notice of this turn quotes it)."""
    state = log_.state
    at, first_step = len(log_.events), state.step + 1
    row = game.seat(seat)
    stand_in = standin.takes_over(game, row, state.step, log_.now)   # a second miss in a row, or away (issue 27)
    defaults = apply_defaults(state, seat, lambda a: log_.record(seat, a, "deadline"))
    texts = [a.to_text() for a in defaults]
    text = missed_line(row, seat, defaults, get_game(game.kind))   # in each reader's words and marks
    log_.service_line(at, first_step, None, "missed", text,
                      {"seat": seat, "order": "\n".join(texts), "orders": texts})
    row.missed_turns += 1
    if stand_in:   # a bot plays the seat from its next decision, until its person comes back
        row.bot_standin = True
        log_.service_line(None, state.step, None, "standin",
                          standin.standin_line(row.player.name, row.number, stand_in), {"seat": seat})


def _apply_stored(log_: _Log, engine, seat: int, order: PendingOrder) -> None:
    """Apply a seat's stored lines in order, within the turn they were sent
    for (check_orders stored one turn; never read a line on the next one).
    A line that fails (an earlier seat's simultaneous order changed what is
    legal) is logged, and the default order applied instead."""
    state = log_.state
    turn = state.turn_key()
    for line in order.text.split("\n"):
        if seat not in state.current_seats() or state.turn_key() != turn:
            return
        try:
            log_.record(seat, engine.parse_action(state, seat, line), order.source)
        except OrderError as err:
            log.warning("game %s seat %s: stored order %r failed at resolution: %s",
                        log_.game_id, seat, line, err.message)
            at = len(log_.events)
            if seat in state.current_seats():
                log_.record(seat, state.default_action(seat), "deadline")
            text = Msg("Seat {n}'s order \u201c{order}\u201d could not be applied after the "
                       "orders before it ({why}); the default order was applied.",
                       n=seat + 1, order=line, why=err.message)
            log_.service_line(at, state.step, None, "order-failed", text, {"seat": seat, "order": line})
            return


def _apply_held(log_: _Log, engine, rows: dict) -> None:
    """Apply every held order come due (:func:`held.apply_due`); a held line
    that fails is dropped with a line to its seat."""
    if not rows:
        return

    def dropped(seat: int, line: str, why) -> None:
        text = Msg("Your held order \u201c{order}\u201d could not be applied ({why}); it was dropped.",
                   order=said_orders(held_in(engine, [line])), why=why)
        log_.service_line(None, log_.state.step, seat, "held-dropped", text, {"seat": seat, "order": line})

    held.apply_due(engine, log_.state, rows, log_.record, dropped)


def _new_values(game: Game, state, now: dt.datetime) -> dict[str, Any]:
    """The game row's new columns after the turn (state, step, phase, deadline; finished)."""
    terminal = state.is_terminal()
    phase = state.phase()
    values = dict(state=state.to_json(), step=state.step, phase=phase, phase_msg=msg_json(phase),
                  reminder_step=None, updated_at=now, deadline_base_at=None,
                  deadline_at=None if terminal or game.person_paced
                  else now + dt.timedelta(seconds=game.deadline_seconds))
    if terminal:
        values.update(status=FINISHED, finished_at=now)
    return values


def _claim(game: Game, old_step: int, values: dict[str, Any]) -> bool:
    """Claim the turn: write ``values`` only if the game is still active at
    ``old_step`` (one UPDATE); False when another resolution got there first."""
    db.session.flush()  # e.g. missed_turns, before the Core statements below
    return db.session.connection().execute(_claim_statement(tuple(values)), {
        "claim_id": game.id, "claim_step": old_step,
        **{f"new_{k}": v for k, v in values.items()}}).rowcount == 1


def _claimed(game: Game, values: dict[str, Any], state, now: dt.datetime) -> None:
    """The row as the claim wrote it (a Core UPDATE: no second SELECT),
    then the new deadline placed for the absences of the seats it waits
    for (issue 25, :func:`pbem.service.play.absences.settle`)."""
    for key, value in values.items():
        set_committed_value(game, key, value)
    if game.deadline_at is not None:
        absences.settle(game, state.current_seats(), now=now, new_step=True)


def _write_rows(game: Game, log_: _Log, pending, *, dropped_held: bool, marks: dict) -> None:
    """Insert the moves and events and mark the seats that acted (``marks``:
    seat row -> new values; one statement on PostgreSQL,
    :mod:`pbem.service.core.batch`), delete the stored orders, and drop
    held orders at the end of the game."""
    batch.execute(db.session.connection(), [
        batch.Write(Move.__table__, "insert", log_.moves), batch.Write(GameEvent.__table__, "insert", log_.events),
        *(batch.Write(Seat.__table__, "update", [values], key=seat.id) for seat, values in marks.items())])
    for seat, values in marks.items():   # written; the loaded rows say so without a SELECT
        for name, value in values.items():
            set_committed_value(seat, name, value)
    if any(p.id is not None for p in pending.values()):  # a completing order may never have been stored
        db.session.execute(delete(PendingOrder).where(PendingOrder.game_id == game.id))
    if dropped_held:
        held.drop_all(game.id)


def _acted_marks(game: Game, acted: set[int], fresh, old_step: int, now: dt.datetime) -> dict:
    """Seat row -> its new values: the next notice of each seat that acted
    quotes from here (its own move and all that followed); orders from the
    web page mark the seat as playing live."""
    marks = {}
    for seat in sorted(acted):
        order = fresh.get(seat)
        values: dict[str, Any] = {"last_moved_step": old_step}
        if order is not None and order.source == "web":
            values["last_web_order_at"] = order.created_at or now
        marks[game.seat(seat)] = values
    return marks


