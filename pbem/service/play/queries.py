"""Service functions the player pages need beyond the lifecycle and orders:
a dry run of orders for the confirmation page, and read-only queries (a
player's seats, the events a seat may see). Sign-in is
:mod:`pbem.service.accounts.signin`.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from sqlalchemy import select

from pbem.engine import get_game
from pbem.engine.messages import Msg
from pbem.service.core.db import db
from pbem.service.core.models import ACTIVE, Game, GameEvent, PendingOrder, Seat
from pbem.service.core.snapshot import engine_state, load_game
from pbem.service.play.order_check import check_orders
from pbem.service.play.submission import LineResult, SubmitResult, split_lines


# -- reading -----------------------------------------------------------------

def seats_of(player_id: int) -> list[Seat]:
    """Every seat ``player_id`` holds, newest game first."""
    return list(db.session.execute(
        select(Seat).join(Game).where(Seat.player_id == player_id)
        .order_by(Game.status == "finished", Game.updated_at.desc())).scalars())


def visible_events(game_id: int, seat: int | None, *, limit: int | None = 60,
                   until_step: int | None = None) -> list[GameEvent]:
    """Events of game ``game_id`` that ``seat`` (``None``: a spectator) may
    see, newest first; ``until_step`` keeps those up to that state step."""
    stmt = select(GameEvent).where(GameEvent.game_id == game_id)
    if seat is None:
        stmt = stmt.where(GameEvent.seat_index.is_(None))
    else:
        stmt = stmt.where((GameEvent.seat_index.is_(None)) | (GameEvent.seat_index == seat))
    if until_step is not None:
        stmt = stmt.where(GameEvent.step <= until_step)
    stmt = stmt.order_by(GameEvent.id.desc())
    if limit:
        stmt = stmt.limit(limit)
    return list(db.session.execute(stmt).scalars())


def pending_order(game_id: int, seat_index: int, step: int) -> PendingOrder | None:
    """The seat's stored orders for ``step`` (waiting for the others), if any."""
    return db.session.execute(
        select(PendingOrder).where(PendingOrder.game_id == game_id, PendingOrder.seat_index == seat_index,
                                   PendingOrder.step == step)).scalar_one_or_none()


@dataclass
class PreviewResult(SubmitResult):
    """A :class:`SubmitResult` of a dry run, with ``sites``: the board
    sites the accepted orders target, in order (for the confirmation page's
    picture)."""

    sites: list[str] = field(default_factory=list)


def preview_orders(game_id: int, seat_index: int, text: str, *, expected_step: int | None) -> PreviewResult:
    """A dry run of :func:`pbem.service.play.orders.submit_orders`: the same
    checks on a copy of the state, nothing stored. ``status`` is
    ``"preview"`` when every line is legal (``lines[i].order`` is its
    canonical text in the command language), else ``"refused"`` or
    ``"stale"`` with the same messages the real submission would give."""
    game = load_game(game_id)
    result = PreviewResult("refused", game_id, seat_index, game.step)
    result.lines = [LineResult(line) for line in split_lines(text)]

    problem = check_orders(game, seat_index, result, expected_step=expected_step)
    if problem is not None:
        result.message, result.status, result.legal = problem
        for line in result.lines:
            if line.order is None and line.error is None:
                line.checked = False
        return result
    # the sites the orders target, for the picture (the lines are known legal now)
    kind = get_game(game.kind)
    trial = engine_state(game)
    for line in result.lines:
        if line.held:   # kept for a later decision (pbem.service.play.held): not applied now
            continue
        action = kind.parse_action(trial, seat_index, line.order)
        trial.apply(seat_index, action)
        if action.site:
            result.sites.append(action.site)
    result.status = "preview"
    result.message = Msg("Please check your orders, then send them.")
    return result


@dataclass
class NextDecision:
    """What the order page needs after some order lines of a turn: the
    dry-run ``result`` (``status`` ``"preview"`` when every line is legal);
    ``more``: the seat still owes a decision in the same turn after them
    (Medina: the second piece; La Città: the demolition after a famine);
    ``actions``: its legal actions then; ``view``: the seat's view with the
    lines applied (to draw the board as it will be). ``preview`` is False
    when the game is not ``previewable`` (chance or hidden information):
    then only the lines are checked, and nothing after them is shown."""

    result: PreviewResult
    preview: bool = True
    more: bool = False
    actions: list = field(default_factory=list)
    view: dict | None = None


def next_decision(game_id: int, seat_index: int, text: str, *, expected_step: int | None) -> NextDecision:
    """Dry-run ``text`` (possibly empty) like :func:`preview_orders` and say
    whether the seat's turn holds another decision after it
    (``State.turn_key`` unchanged and the seat still to move). Nothing is
    stored. Game-independent: the order page builds multi-order turns on it."""
    game = load_game(game_id)
    lines = split_lines(text)
    state = engine_state(game) if game.state is not None else None
    if not lines:  # the first decision of the turn
        result = PreviewResult("preview", game_id, seat_index, game.step)
        if state is None or game.status != ACTIVE or seat_index not in state.current_seats():
            result.status, result.message = "refused", Msg("You owe no order now.")
        elif expected_step is not None and expected_step != game.step:
            result.status, result.message = "stale", Msg("The game has moved on; please load the page "
                                                         "again.")
        else:
            return NextDecision(result, more=True, actions=state.legal_actions(seat_index),
                                view=state.view(seat_index))
        return NextDecision(result)
    result = preview_orders(game_id, seat_index, text, expected_step=expected_step)
    if result.status != "preview":
        return NextDecision(result)
    kind = get_game(game.kind)
    if not kind.previewable:   # the position after them could show a draw before it is sent
        return NextDecision(result, preview=False)
    trial = engine_state(game)
    for line in result.lines:
        if not line.held:
            trial.apply(seat_index, kind.parse_action(trial, seat_index, line.order))
    more = seat_index in trial.current_seats() and trial.turn_key() == state.turn_key()
    return NextDecision(result, more=more, actions=trial.legal_actions(seat_index) if more else [],
                        view=trial.view(seat_index))


__all__ = ["NextDecision", "next_decision", "PreviewResult", "seats_of", "visible_events", "pending_order",
           "preview_orders"]
