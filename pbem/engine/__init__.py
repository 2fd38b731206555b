"""Rules engines: pure Python, no I/O. See :mod:`pbem.engine.api`.

``get_game(name)`` returns the registered :class:`Game`; ``GAMES`` maps names
to games. pbem's own games are the lines of :data:`ENGINES`; another game
joins with :func:`register`. Registration fails loudly with
:class:`RegistrationError` (:mod:`pbem.engine.registry`). How to add a
game: ``docs/adding-a-game.md``.
"""
from __future__ import annotations

from pbem.engine.api import (  # noqa: F401  (re-exported)
    Action, Event, Game, IllegalOrderError, NotYourTurnError, OrderError,
    OrderParseError, Score, State,
)
from pbem.engine.registry import (  # noqa: F401  (re-exported)
    ENGINES, GAMES, RegistrationError, check_declaration, get_game, load_game, load_games, register,
)
