"""Rules engines: pure Python, no I/O. See :mod:`pbem.engine.api`.

``get_game(name)`` returns the registered :class:`Game`; ``GAMES`` maps names
to games. Engines register by being imported here.
"""
from __future__ import annotations

import importlib

from pbem.engine.api import (  # noqa: F401  (re-exported)
    Action, Event, Game, IllegalOrderError, NotYourTurnError, OrderError,
    OrderParseError, Score, State,
)

# name -> module that defines ``GAME``; add a game by adding a line.
_ENGINES = {
    "diestadt": "pbem.engine.diestadt",
    "lacitta": "pbem.engine.lacitta",
    "medina": "pbem.engine.medina",
}

GAMES: dict[str, Game] = {}
for _name, _module in _ENGINES.items():
    try:
        GAMES[_name] = importlib.import_module(_module).GAME
    except ModuleNotFoundError as exc:  # engine not built yet in this checkout
        if exc.name != _module:
            raise


def get_game(name: str) -> Game:
    """The registered game called ``name``; ``KeyError`` if there is none."""
    try:
        return GAMES[name]
    except KeyError:
        raise KeyError(f"unknown game {name!r}; known: {', '.join(sorted(GAMES))}") from None
