"""The engine API shared by every game.

Shape (after OpenSpiel and python-chess): a :class:`Game` holds what never
changes (seat counts, components, the command language); a :class:`State`
holds one position and the seeded random generator, so a game replays exactly
from ``(seed, options, action log)``.

Seats are ``int`` indices ``0 .. seats-1`` in clockwise order ("left" is the
next seat). Players see them numbered from 1 ("seat 1" is index 0).

Nothing here does I/O or imports from the web, database or mail layers.

One module per idea, all re-exported here (games import them from here):
:mod:`pbem.engine.game` (:class:`Game`), :mod:`pbem.engine.state`
(:class:`State`), :mod:`pbem.engine.action` (:class:`Action`),
:mod:`pbem.engine.records` (:class:`Event`, :class:`Score`) and
:mod:`pbem.engine.errors` (:class:`OrderError` and its kinds). How a game
is registered: :mod:`pbem.engine.registry`; how to add one:
``docs/adding-a-game.md``.
"""
from __future__ import annotations

from pbem.engine.action import Action
from pbem.engine.errors import IllegalOrderError, NotYourTurnError, OrderError, OrderParseError
from pbem.engine.game import Game
from pbem.engine.records import Event, Score
from pbem.engine.state import State

__all__ = ["Action", "Event", "Game", "IllegalOrderError", "NotYourTurnError", "OrderError",
           "OrderParseError", "Score", "State"]
