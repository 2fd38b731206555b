"""Replays: the state at any earlier step, from seed + options + moves.

The engine promises that the same seed and the same action log give the
same game byte for byte, so the stored snapshot is only a cache of
``replay(game, game.step)``.
"""
from __future__ import annotations

from sqlalchemy import select

from pbem.engine import State, get_game
from pbem.service.core.db import db
from pbem.service.core.models import Game, Move
from pbem.service.core.snapshot import load_game


def moves_of(game_id: int, until_step: int | None = None) -> list[Move]:
    stmt = select(Move).where(Move.game_id == game_id).order_by(Move.step)
    if until_step is not None:
        stmt = stmt.where(Move.step < until_step)
    return list(db.session.execute(stmt).scalars())


def state_at(game_id: int, step: int | None = None) -> State:
    """The engine state of game ``game_id`` after ``step`` actions (``None``:
    now). Raises ``ValueError`` for a step outside ``0 .. game.step`` or an
    action log that does not replay (a corrupt log)."""
    game: Game = load_game(game_id)
    if game.state is None:
        raise ValueError(f"game {game_id} has not started")
    target = game.step if step is None else int(step)
    engine = get_game(game.kind)
    state = engine.new_state(len(game.seats), game.seed, **game.options)
    base = state.step
    if not base <= target <= game.step:
        raise ValueError(f"step must be between {base} and {game.step}, not {step}")
    for move in moves_of(game_id, target):
        if move.step != state.step:
            raise ValueError(f"action log of game {game_id} has a gap at step {state.step}")
        state.apply(move.seat_index, engine.parse_action(state, move.seat_index, move.text)
                    if move.source != "deadline" else _default_or_parsed(engine, state, move))
    if state.step != target:
        raise ValueError(f"action log of game {game_id} ends at step {state.step}, not {target}")
    return state


def _default_or_parsed(engine, state: State, move: Move):
    """A deadline move is the seat's default action, which may be outside
    ``legal_actions`` (and so refused by the parser)."""
    default = state.default_action(move.seat_index)
    if default.to_text() == move.text:
        return default
    return engine.parse_action(state, move.seat_index, move.text)


def verify(game_id: int) -> bool:
    """True when replaying the action log gives the stored snapshot exactly."""
    game = load_game(game_id)
    return state_at(game_id).to_json() == game.state
