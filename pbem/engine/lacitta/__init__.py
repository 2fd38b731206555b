"""La Città rules engine (issue 2). ``GAME`` is the registered game.

Modules: ``board`` (the board as data), ``geometry`` (site-graph tables),
``data`` (components), ``actions`` (orders), ``state`` (position and rules),
``parse`` (command language), ``view`` / ``text`` (what a seat sees),
``game`` (the :class:`~pbem.engine.api.Game`). Rules as played:
docs/rules/lacitta.md.
"""
from __future__ import annotations

from pbem.engine.lacitta.game import GAME  # noqa: F401
