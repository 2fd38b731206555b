"""Carcassonne: Die Stadt (2-4 players): rules engine.

``GAME`` is the registered :class:`~pbem.engine.diestadt.game.DieStadtGame`.
Modules, one idea each: ``tiles`` (the 75 tiles as data, rotations),
``grid`` (spaces, edges, the outline walk), ``features`` (streets, markets,
residential areas as a union-find), ``placement`` (where a tile and a
follower may go, and why not), ``wall`` (gate, pieces, ends, guards' rows,
towers), ``scoring``, ``flow`` (the turn and its decisions), ``actions``,
``orders`` (command language), ``explain`` (refusals), ``view`` and
``text``, ``position`` (compact position text for tests and tools).
Rule decisions: docs/rules/diestadt.md.
"""
from pbem.engine.diestadt.actions import BuildGate, BuildWall, PlaceTile, PlaceTower  # noqa: F401
from pbem.engine.diestadt.game import GAME, DieStadtGame  # noqa: F401
from pbem.engine.diestadt.state import DieStadtState  # noqa: F401
