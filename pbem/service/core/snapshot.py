"""Loading and saving the engine state of a game row."""
from __future__ import annotations

from sqlalchemy import bindparam, select, update
from sqlalchemy.orm import joinedload, undefer
from sqlalchemy.orm.attributes import set_committed_value

from pbem.engine import State, get_game
from pbem.service.core.db import begin_write, db
from pbem.service.core.errors import GameNotFound
from pbem.service.core.models import Game, Seat


def _load_statement(locked: bool):
    """``SELECT`` of one game (``:game_id``) with its seats and their
    players, built once: a statement object keeps its compiled form's cache
    key, so the order path neither rebuilds the query nor recomputes it."""
    # Seats and their players come in the same statement (every caller on
    # the order path reads them).
    stmt = select(Game).where(Game.id == bindparam("game_id")).options(
        joinedload(Game.seats).joinedload(Seat.player))
    if locked:
        # populate_existing: a row cached in the session may be older than
        # the lock; overwrite it from this read instead of a second SELECT
        stmt = stmt.options(undefer(Game.pending_count), undefer(Game.held_count)).execution_options(
            populate_existing=True)
    return stmt


_LOAD = {False: _load_statement(False), True: _load_statement(True)}
_LOCK = select(Game.id).where(Game.id == bindparam("game_id")).with_for_update()


def load_game(game_id: int, *, for_update: bool = False) -> Game:
    """The game row with its seats and their players. ``for_update`` locks
    the game row first (PostgreSQL ``SELECT ... FOR UPDATE``; SQLite
    transactions are already exclusive, see db.py), then reads it all,
    ``Game.pending_count`` and ``Game.held_count`` included. Raises :class:`GameNotFound`."""
    if for_update:
        begin_write()
        # The lock in a statement of its own, the read after it. On
        # PostgreSQL a SELECT that waits for a row lock returns the newest
        # version of the locked row but reads every other row (seats,
        # players, the count of stored orders) on the snapshot it took
        # before the wait: it would miss what the lock's previous holder
        # committed (a player replaced, orders stored).
        if db.session.execute(_LOCK, {"game_id": game_id}).first() is None:
            raise GameNotFound(f"there is no game {game_id}")
    game = db.session.execute(_LOAD[for_update], {"game_id": game_id}).unique().scalar_one_or_none()
    if game is None:
        raise GameNotFound(f"there is no game {game_id}")
    return game


def engine_state(game: Game) -> State:
    """The engine :class:`State` at ``game.step`` (raises ``ValueError`` if
    the game has not started)."""
    if game.state is None:
        raise ValueError(f"game {game.id} has not started")
    return get_game(game.kind).state_from_json(game.state)


_SEAT_UPDATES: dict[tuple[str, ...], object] = {}


def set_seat(seat: Seat, **values) -> None:
    """``seat.<name> = value`` for each of ``values``, written at once with
    one Core ``UPDATE`` (a statement built once per set of columns) in the
    current transaction, and set on the loaded row as committed: no ORM
    flush on the order path."""
    names = tuple(sorted(values))
    stmt = _SEAT_UPDATES.get(names)
    if stmt is None:
        table = Seat.__table__
        stmt = _SEAT_UPDATES[names] = (update(table).where(table.c.id == bindparam("seat_id"))
                                       .values({name: bindparam(f"new_{name}") for name in names}))
    db.session.connection().execute(stmt, {"seat_id": seat.id, **{f"new_{k}": v for k, v in values.items()}})
    for name, value in values.items():
        set_committed_value(seat, name, value)
