"""Loading and saving the engine state of a game row."""
from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.orm import selectinload

from pbem.engine import State, get_game
from pbem.service.db import begin_write, db
from pbem.service.errors import GameNotFound
from pbem.service.models import Game, Seat


def load_game(game_id: int, *, for_update: bool = False) -> Game:
    """The game row; ``for_update`` locks it (PostgreSQL ``SELECT ... FOR
    UPDATE``; SQLite transactions are already exclusive, see db.py).
    Raises :class:`GameNotFound`."""
    # Seats and their players come in one more query (every caller on the
    # order path reads them), not one lazy load for seats and one per player.
    stmt = select(Game).where(Game.id == game_id).options(
        selectinload(Game.seats).joinedload(Seat.player))
    if for_update:
        begin_write()
        # populate_existing: a row cached in the session may be older than
        # the lock; overwrite it from this read instead of a second SELECT
        stmt = stmt.with_for_update(of=Game).execution_options(populate_existing=True)
    game = db.session.execute(stmt).scalar_one_or_none()
    if game is None:
        raise GameNotFound(f"there is no game {game_id}")
    return game


def engine_state(game: Game) -> State:
    """The engine :class:`State` at ``game.step`` (raises ``ValueError`` if
    the game has not started)."""
    if game.state is None:
        raise ValueError(f"game {game.id} has not started")
    return get_game(game.kind).state_from_json(game.state)
