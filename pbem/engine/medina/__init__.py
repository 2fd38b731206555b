"""Medina (first edition, 3-4 players): rules engine.

``GAME`` is the registered :class:`~pbem.engine.medina.game.MedinaGame`.
Modules, one idea each: ``board`` (geometry and site names), ``pieces``
(components, what a square holds), ``actions`` (the ``Place`` order),
``state`` (the position only). One module per rule, each deciding from one
``check`` where its pieces may go, why not, and what placing one does:
``palaces``, ``domes``, ``stables``, ``merchants``, ``walls`` (sharing
``squares``: one piece a square, the street between palaces), ``tiles``
(palace and tower tiles changing hands), ``placing`` (the screen, and the
rules in the order legal placements are listed), ``lone`` (the lone seat's
dome), ``turns`` (setup, two pieces a turn, the end), ``scoring``,
``view``, ``decision``. Then ``orders`` (command language), ``text``
(plain-text view), ``position`` (compact position text for tests and tools).
Rule decisions: docs/rules/medina.md.
"""
from pbem.engine.medina.actions import Place  # noqa: F401
from pbem.engine.medina.game import GAME, MedinaGame  # noqa: F401
from pbem.engine.medina.state import MedinaState  # noqa: F401
