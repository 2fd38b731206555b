"""Loading and saving the engine state of a game row."""
from __future__ import annotations

from sqlalchemy import select

from pbem.engine import State, get_game
from pbem.service.db import begin_write, db
from pbem.service.errors import GameNotFound
from pbem.service.models import Game


def load_game(game_id: int, *, for_update: bool = False) -> Game:
    """The game row; ``for_update`` locks it (PostgreSQL ``SELECT ... FOR
    UPDATE``; SQLite transactions are already exclusive, see db.py).
    Raises :class:`GameNotFound`."""
    stmt = select(Game).where(Game.id == game_id)
    if for_update:
        begin_write()
        stmt = stmt.with_for_update()
    game = db.session.execute(stmt).scalar_one_or_none()
    if game is None:
        raise GameNotFound(f"there is no game {game_id}")
    if for_update:
        db.session.refresh(game)  # a row cached in the session may be older than the lock
    return game


def engine_state(game: Game) -> State:
    """The engine :class:`State` at ``game.step`` (raises ``ValueError`` if
    the game has not started)."""
    if game.state is None:
        raise ValueError(f"game {game.id} has not started")
    return get_game(game.kind).state_from_json(game.state)
