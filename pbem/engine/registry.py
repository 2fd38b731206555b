"""The registry of games: name -> :class:`~pbem.engine.game.Game`.

pbem's own games are the lines of :data:`ENGINES` (a name and the module
that defines ``GAME``), loaded when :mod:`pbem.engine` is imported. A game
that is not pbem's own (a plugin, a test's toy game) joins with one call of
:func:`register`. Registration fails loudly: a module that cannot be
imported, a missing ``GAME``, a name that does not match, or a declaration
that does not hold (:func:`check_declaration`) raises
:class:`RegistrationError`. How to add a game: ``docs/adding-a-game.md``.
"""
from __future__ import annotations

import importlib
import re
from typing import Mapping

from pbem.engine.game import Game

#: pbem's own games ("shipped"): name -> module that defines ``GAME``; a
#: game of pbem is added by adding a line. The tests hold these games to
#: everything a real game provides (rules page, translations, golden game).
ENGINES: dict[str, str] = {
    "diestadt": "pbem.engine.diestadt",
    "lacitta": "pbem.engine.lacitta",
    "medina": "pbem.engine.medina",
}

_NAME = re.compile(r"^[a-z][a-z0-9_]*$")


class RegistrationError(ImportError):
    """A registered game (or blueprint, or command) is missing or malformed."""


def check_declaration(game: Game) -> None:
    """Check the facts ``game`` declares (:class:`~pbem.engine.game.Game`):
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


def load_game(name: str | None, module_name: str) -> Game:
    """The checked ``GAME`` of module ``module_name``. Raises
    :class:`RegistrationError` for a module that does not exist, one without
    ``GAME``, a ``GAME.name`` other than ``name`` (``None``: any name), or a
    bad declaration. An import error inside the module propagates as it is."""
    label = name if name is not None else module_name
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        if exc.name and (module_name + ".").startswith(exc.name + "."):
            raise RegistrationError(f"game {label!r}: no module {module_name!r}") from exc
        raise
    game = getattr(module, "GAME", None)
    if game is None:
        raise RegistrationError(f"game {label!r}: module {module_name!r} defines no GAME")
    check_declaration(game)
    if name is not None and game.name != name:
        raise RegistrationError(f"game {name!r}: {module_name}.GAME is named {game.name!r}")
    return game


def load_games(engines: Mapping[str, str]) -> dict[str, Game]:
    """Import each engine module and return ``{name: GAME}`` (each by
    :func:`load_game`, raising as it does)."""
    return {name: load_game(name, module_name) for name, module_name in engines.items()}


#: every registered game by name: pbem's own, then those :func:`register` added
GAMES: dict[str, Game] = load_games(ENGINES)


def get_game(name: str) -> Game:
    """The registered game called ``name``; ``KeyError`` if there is none."""
    try:
        return GAMES[name]
    except KeyError:
        raise KeyError(f"unknown game {name!r}; known: {', '.join(sorted(GAMES))}") from None


def register(game: Game | str) -> Game:
    """Register a game that is not one of pbem's own: ``game`` is a
    :class:`~pbem.engine.game.Game`, or the dotted name of a module that
    defines ``GAME`` (``register("tests.toygame")``). Returns the game, now
    in :data:`GAMES` under its ``name``.

    The game is checked as pbem's own are (:func:`check_declaration`).
    Raises :class:`RegistrationError` for a bad declaration, a module that
    does not exist or defines no ``GAME``, or a name already registered to
    another game; registering the same game again changes nothing.

    Registration lasts for the process: call it where every process that
    meets the game starts (the web app and the worker alike), before a game
    of its kind is created or read. Such a game needs no rules page,
    translations or golden game: the product falls back (``docs/adding-a-game.md``)."""
    if isinstance(game, str):
        game = load_game(None, game)
    check_declaration(game)
    known = GAMES.get(game.name)
    if known is not None and known is not game:
        raise RegistrationError(f"game {game.name!r} is already registered "
                                f"({type(known).__module__}.{type(known).__name__})")
    GAMES[game.name] = game
    return game
