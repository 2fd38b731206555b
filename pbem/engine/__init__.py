"""Rules engines: pure Python, no I/O. See :mod:`pbem.engine.api`.

``get_game(name)`` returns the registered :class:`Game`; ``GAMES`` maps names
to games. A game registers with one line in :data:`ENGINES` (its name and
the module that defines ``GAME``). Registration fails loudly: a module that
cannot be imported, a missing ``GAME``, a name that does not match, or a
declaration that does not hold (:func:`check_declaration`) raises
:class:`RegistrationError` when this package is imported.
"""
from __future__ import annotations

import importlib
import re
from typing import Mapping

from pbem.engine.api import (  # noqa: F401  (re-exported)
    Action, Event, Game, IllegalOrderError, NotYourTurnError, OrderError,
    OrderParseError, Score, State,
)

#: name -> module that defines ``GAME``; add a game by adding a line.
ENGINES: dict[str, str] = {
    "lacitta": "pbem.engine.lacitta",
    "medina": "pbem.engine.medina",
}

_NAME = re.compile(r"^[a-z][a-z0-9_]*$")


class RegistrationError(ImportError):
    """A registered game (or blueprint, or command) is missing or malformed."""


def check_declaration(game: Game) -> None:
    """Check the facts ``game`` declares (:class:`~pbem.engine.api.Game`):
    a plain lower-case ``name``, a ``title``, ``1 <= min_seats <= max_seats``,
    each option with at least one text value and no repeats, ``board`` a
    dotted module name or ``None``, ``previewable`` a bool. Raises
    :class:`RegistrationError` naming the fault."""
    def fail(why: str) -> None:
        raise RegistrationError(f"game {getattr(game, 'name', game)!r}: {why}")

    if not isinstance(game, Game):
        fail(f"GAME is a {type(game).__name__}, not a pbem.engine.api.Game")
    if not isinstance(getattr(game, "name", None), str) or not _NAME.match(game.name):
        fail("name must be lower-case letters, digits and _")
    if not isinstance(getattr(game, "title", None), str) or not game.title.strip():
        fail("title is missing")
    lo, hi = getattr(game, "min_seats", None), getattr(game, "max_seats", None)
    if not (isinstance(lo, int) and isinstance(hi, int) and 1 <= lo <= hi):
        fail(f"seats must be 1 <= min_seats <= max_seats, not {lo!r}..{hi!r}")
    for option, allowed in game.options.items():
        if not isinstance(allowed, tuple) or not allowed or len(set(allowed)) != len(allowed) \
                or not all(isinstance(v, str) for v in allowed):
            fail(f"option {option!r} needs a tuple of distinct text values, the default first")
    if game.board is not None and not (isinstance(game.board, str)
                                       and all(map(_NAME.match, game.board.split(".")))):
        fail(f"board must be a dotted module name or None, not {game.board!r}")
    if not isinstance(game.previewable, bool):
        fail("previewable must be True or False")


def load_games(engines: Mapping[str, str]) -> dict[str, Game]:
    """Import each engine module and return ``{name: GAME}``. Raises
    :class:`RegistrationError` for a module that does not exist, one without
    ``GAME``, a ``GAME.name`` other than its registry name, or a bad
    declaration. An import error inside an engine propagates as it is."""
    games: dict[str, Game] = {}
    for name, module_name in engines.items():
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError as exc:
            if exc.name and (module_name + ".").startswith(exc.name + "."):
                raise RegistrationError(f"game {name!r}: no module {module_name!r}") from exc
            raise
        game = getattr(module, "GAME", None)
        if game is None:
            raise RegistrationError(f"game {name!r}: module {module_name!r} defines no GAME")
        check_declaration(game)
        if game.name != name:
            raise RegistrationError(f"game {name!r}: {module_name}.GAME is named {game.name!r}")
        games[name] = game
    return games


GAMES: dict[str, Game] = load_games(ENGINES)


def get_game(name: str) -> Game:
    """The registered game called ``name``; ``KeyError`` if there is none."""
    try:
        return GAMES[name]
    except KeyError:
        raise KeyError(f"unknown game {name!r}; known: {', '.join(sorted(GAMES))}") from None
