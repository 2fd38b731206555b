"""Submitting orders: check every line, store them, start resolution.

An order text holds one order per line (Medina: two pieces a turn). The
lines are applied in order to a copy of the current state
(:func:`pbem.service.play.order_check.check_orders`); if any line fails
nothing is stored and the answer quotes every line read, why the failing one
was refused and what is legal at that point. Accepted orders are stored;
when they are the last the turn waits for, the same transaction resolves the
turn (:func:`pbem.service.play.resolve.resolve_locked`, under the game row
lock that serialises every order of the game), so the next seat's notice is
in the outbox when the answer goes back. With ``RESOLVE_IN_REQUEST`` off, or
if resolving fails unexpectedly, the orders are kept and a worker task
resolves the turn instead.

The answer (:class:`pbem.service.play.submission.SubmitResult`) is written
in English :class:`~pbem.engine.messages.Msg` sentences; pages and mail show
it in the reader's language.
"""
from __future__ import annotations

import datetime as dt
import logging
from typing import Callable

from flask import current_app
from sqlalchemy import select

from pbem.engine.messages import Msg
from pbem.engine.phrases import join, seat as seat_name
from pbem.service.core import queue
from pbem.service.core.bots import has_bots
from pbem.service.core.db import begin_write, db
from pbem.service.core.echo import said_orders
from pbem.service.core.errors import GameNotFound
from pbem.service.core.models import ACTIVE, PendingOrder, SOURCES, utcnow
from pbem.service.core.snapshot import engine_state, load_game, set_seat
from pbem.service.play import held as holding
from pbem.service.play.order_check import Trial, check_orders
from pbem.service.play.submission import LineResult, SubmitResult, split_lines

log = logging.getLogger(__name__)

def submit_orders(game_id: int, seat_index: int, text: str, *, expected_step: int | None,
                  source: str, message_id: str | None = None,
                  now: dt.datetime | None = None,
                  before_commit: Callable[[SubmitResult], None] | None = None,
                  game=None, resolve: bool = True) -> SubmitResult:
    """Validate and store the orders of seat ``seat_index`` (0-based); commits. Raises
    :class:`GameNotFound` (and ``ValueError`` for an unknown ``source``, :data:`SOURCES`);
    every other problem is a refused result.

    ``expected_step``: the step the player saw when writing (the order page's hidden field;
    for email, the step of the notice answered); older is refused as stale, ``None`` skips
    the check. A new submission replaces the seat's stored orders of the same step. When
    these are the last orders the turn waits for (``result.ready``) the turn is resolved in
    the same transaction (``result.resolved``); with ``RESOLVE_IN_REQUEST`` off,
    ``resolve=False``, or if resolving fails, the orders are stored and
    :func:`pbem.service.play.resolve.resolve_game` is enqueued after the commit.
    ``before_commit(result)`` runs inside the transaction that stores the orders (on
    refusal, one of its own) so a caller writes its rows atomically with them (the inbound
    pipeline's Message-ID record and answer). ``game``: the row when the caller has locked
    it already."""
    if source not in SOURCES:
        raise ValueError(f"source must be one of {SOURCES}")
    now = now or utcnow()
    game = load_game(game_id, for_update=True) if game is None else game
    result, state, alone, trial, problem = _check(game, seat_index, text, expected_step)
    if problem is not None:
        return _refuse(result, *problem, before_commit=before_commit)
    if not _bot_may_order(game.seat(seat_index), source):
        return _refuse(result, Msg("No bot plays this seat now."), "refused", [], before_commit=before_commit)
    held_rows = _replace_held(game, seat_index, result, source, now)
    if not trial.applied:   # held lines only: no decision is answered now
        result.status, result.message = "stored", _held_message(result, "")
        return _commit(result, before_commit)
    stored, pending = _pending_row(game, seat_index, result, source=source, message_id=message_id, now=now)
    waiting = _accept(result, game, state, stored, alone)
    mail_due = False
    if result.ready and resolve and current_app.config.get("RESOLVE_IN_REQUEST", True):
        mail_due = _resolve_now(game, state, result, {**{p.seat_index: p for p in stored}, seat_index: pending},
                                trial if alone else None, held_rows, now)
        if mail_due is None:   # nothing kept: stored again, without resolving, for the worker
            return submit_orders(game_id, seat_index, text, expected_step=expected_step, source=source,
                                 message_id=message_id, now=now, before_commit=before_commit, resolve=False)
    if not result.resolved:
        db.session.add(pending)
        db.session.flush()
    _answer(result, game, waiting)
    bots = result.resolved and source != "bot" and game.status == ACTIVE and has_bots(game)
    _commit(result, before_commit)
    _after_commit(result, mail_due, bots_of=game_id if bots else None)
    return result


def _bot_may_order(seat, source: str) -> bool:
    """Whether an order from ``source`` may stand for ``seat`` (issue 27): a
    person's own order ends a bot's stand-in (they are back); a bot's order
    for a seat no bot plays now (the person came back while it thought) may
    not."""
    if source != "bot":
        if seat.bot_standin:
            set_seat(seat, bot_standin=False)
        return True
    return bool(seat.bot_name)


def _check(game, seat_index: int, text: str, expected_step: int | None):
    """The submission read and checked (:func:`check_orders`): ``(result,
    state, alone, trial, problem)``. ``alone``: the seat alone decides now
    (the common case), so its lines are checked on the state itself and, if
    they complete the turn, that trial *is* the resolution (nothing applied
    twice); ``problem`` the refusal, else None and ``trial`` the
    :class:`Trial`."""
    result = SubmitResult("refused", game.id, seat_index, game.step)
    result.lines = [LineResult(line) for line in split_lines(text)]
    state = engine_state(game) if game.status == ACTIVE and game.state is not None else None
    alone = state is not None and state.current_seats() == [seat_index]
    trials: list[Trial] = []
    problem = check_orders(game, seat_index, result, expected_step=expected_step, state=state,
                           in_place=alone, trial_out=trials)
    return result, state, alone, (trials[0] if trials else None), problem


def _accept(result: SubmitResult, game, state, stored: list[PendingOrder], alone: bool) -> list[int]:
    """Mark ``result`` stored; returns the seats the turn still waits for
    (none when the seat decides alone or every other seat's orders are in)."""
    have = {p.seat_index for p in stored if p.step == game.step} | {result.seat_index}
    waiting = [] if alone else [s for s in state.current_seats() if s not in have]
    result.status, result.ready, result.waiting_for = "stored", not waiting, waiting
    return waiting


def _refuse(result: SubmitResult, message: Msg | str, status: str, legal: list[str], *,
            before_commit) -> SubmitResult:
    """Nothing is kept: roll back, fill the refusal in ``result`` (lines
    not looked at marked so), and let ``before_commit`` write its own rows
    in a transaction of its own."""
    db.session.rollback()
    result.status, result.message = status, message
    result.legal = legal or []
    for line in result.lines:
        if line.order is None and line.error is None:
            line.checked = False
    if before_commit is not None:
        begin_write()
        before_commit(result)
        db.session.commit()
    return result


def _replace_held(game, seat_index: int, result: SubmitResult, source: str, now: dt.datetime) -> dict | None:
    """The submission's held lines replace the seat's held orders; returns
    seat -> held-order row then (None when the submission holds nothing)."""
    if not result.holds:
        return None
    holding.replace(game.id, seat_index, result.held, source=source, now=now)
    return holding.rows_of(game, force=True)


def _pending_row(game, seat_index: int, result: SubmitResult, *, source: str, message_id: str | None,
                 now: dt.datetime) -> tuple[list[PendingOrder], PendingOrder]:
    """Every seat's stored orders of the game (one query, none when the
    locked row counts none: the common case) and this seat's row, filled
    with the accepted lines (new rows are not added to the session: orders
    that complete the turn and are resolved here never need theirs)."""
    stored = []
    if game.pending_count:
        stored = db.session.execute(
            select(PendingOrder).where(PendingOrder.game_id == game.id)).scalars().all()
    pending = next((p for p in stored if p.seat_index == seat_index), None)
    if pending is None:
        pending = PendingOrder(game_id=game.id, seat_index=seat_index)
    pending.step, pending.text = game.step, "\n".join(result.applied)
    pending.source, pending.message_id, pending.created_at = source, message_id, now
    return stored, pending


def _resolve_now(game, state, result: SubmitResult, pending: dict[int, PendingOrder], trial: Trial | None,
                 held_rows: dict | None, now: dt.datetime) -> bool | None:
    """Resolve the turn these orders complete, in this transaction (the game
    row is locked; ``state`` is consumed; ``trial``: the seat's lines
    already applied when it alone decides). Returns whether mail is due now;
    ``None`` when resolving failed: the whole transaction is rolled back
    (a savepoint would cost two more round trips on every resolving order)."""
    from pbem.service.play.resolve import resolve_locked

    try:
        resolution = resolve_locked(game, now=now, state=state, pending=pending,
                                    pre_applied=(result.seat_index, trial) if trial is not None else None,
                                    held_rows=held_rows)
        result.resolved = resolution.status == "resolved"
        if result.resolved:
            _goes_on(result, game, state)
        return resolution.mail_due
    except Exception:
        log.exception("game %s: resolving in the request failed; left to the worker", game.id)
        db.session.rollback()
        result.resolved = False
        return None


def _answer(result: SubmitResult, game, waiting: list[int]) -> None:
    """The answer to stored orders: resolved, being resolved, or waiting for ``waiting``."""
    if result.resolved:
        result.message = Msg("Your orders are accepted and the turn is resolved.")
        result.step = game.step
    elif result.ready:
        result.message = Msg("Your orders are accepted and the turn is being resolved.")
    else:
        result.message = Msg("Your orders are accepted. They will be applied together with the "
                             "orders of {seats}, when those are in or at the deadline. Until then "
                             "you may send new orders to replace them.",
                             seats=join([seat_name(s) for s in waiting]))
    if result.holds:
        result.message = _held_message(result, result.message)


def _commit(result: SubmitResult, before_commit) -> SubmitResult:
    """Let ``before_commit`` write its rows in the transaction, then commit."""
    if before_commit is not None:
        before_commit(result)
    db.session.commit()
    return result


def _after_commit(result: SubmitResult, mail_due: bool, *, bots_of: int | None = None) -> None:
    """Start what the commit made due: delivery of mail due now after a
    resolution (turn notices waiting out a live player's grace are sent by
    beat's delivery), or the worker's resolution of a turn left to it; and
    the bots' run of game ``bots_of``, whose bot may owe the next decision
    (issue 27; a bot's own run goes on by itself)."""
    if result.resolved:
        if mail_due:
            queue.enqueue(queue.DELIVER)
    elif result.ready:
        queue.enqueue(queue.RESOLVE, result.game_id)
    if bots_of is not None:
        queue.enqueue(queue.BOTS, bots_of)


def _goes_on(result: SubmitResult, game, state) -> None:
    """Whether the seat still owes a decision after its orders resolved the
    turn (``state``: the engine state after the resolution, the one the
    game row now holds), read here so the answer needs no second read."""
    if game.status == ACTIVE and result.seat_index in state.current_seats():
        result.goes_on = True
        result.owes = (state.view(result.seat_index).get("decision") or {}).get("owes")


def _held_message(result: SubmitResult, first) -> Msg:
    """``first`` (a ``Msg`` or ``""``), then what became of the seat's held orders."""
    if result.held:
        then = Msg("Held for your next decisions: {orders} (applied when each comes due; new held "
                   "orders replace them).", orders=said_orders(result.held))
    else:
        then = Msg("Your held orders are dropped.")
    return Msg("{first} {then}", first=first, then=then) if first else then


def pending_seats(game_id: int, step: int) -> list[int]:
    """Seats that have orders stored for ``step`` of game ``game_id``."""
    return sorted(db.session.execute(
        select(PendingOrder.seat_index).where(PendingOrder.game_id == game_id,
                                              PendingOrder.step == step)).scalars())


__all__ = ["submit_orders", "pending_seats", "GameNotFound"]
