"""Medina (first edition, 3-4 players): rules engine.

``GAME`` is the registered :class:`~pbem.engine.medina.game.MedinaGame`.
Modules: ``board`` (geometry and site names), ``pieces`` (components),
``actions`` (the ``Place`` order), ``state`` (position and rules),
``explain`` (refusal reasons), ``orders`` (command language), ``text``
(plain-text view), ``position`` (compact position text for tests and tools).
Rule decisions: docs/rules/medina.md.
"""
from pbem.engine.medina.actions import Place  # noqa: F401
from pbem.engine.medina.game import GAME, MedinaGame  # noqa: F401
from pbem.engine.medina.state import MedinaState  # noqa: F401
