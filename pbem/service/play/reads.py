"""What the game pages read about a game beyond its snapshot
(:mod:`pbem.service.core.snapshot`): the row by id, and where its replay
starts. Reads only.
"""
from __future__ import annotations

from sqlalchemy import func, select

from pbem.service.core.db import db
from pbem.service.core.models import Game, Move


def find_game(game_id: int) -> Game | None:
    """The game row ``game_id``, or ``None``."""
    return db.session.get(Game, game_id)


def first_step(game_id: int, current: int) -> int:
    """The step game ``game_id``'s replay starts from: the state's step
    after the set-up, which is the step its first move was applied to
    (moves are numbered on from the set-up without a gap,
    :func:`pbem.service.play.replay.state_at`); before any move, the game's
    ``current`` step. One indexed read, no set-up replayed."""
    first = db.session.execute(select(func.min(Move.step)).where(Move.game_id == game_id)).scalar()
    return current if first is None else first
