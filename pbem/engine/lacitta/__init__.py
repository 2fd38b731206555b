"""La Città rules engine (issue 2). ``GAME`` is the registered game.

Modules: ``board`` (the board as data), ``geometry`` (site-graph tables),
``data`` (components), ``actions`` (orders), ``state`` (the position only),
``city`` and ``sites`` (cities, where things may stand, the site indexes),
one module per rule, each listing, applying and explaining its own orders:
``setup``, ``castles``, ``building``, ``cards`` (the political cards with
actions), ``political`` (the political rounds), ``voice``, ``migration``,
``demolition``, ``feeding``, ``year``, ``scoring``; ``flow`` (from one
decision to the next), ``turns`` (legal orders, checks, missed-deadline
orders), ``explain`` (why an order is refused, asking the rule modules),
``parse`` (command language), ``view`` / ``text`` (what a seat sees),
``game`` (the :class:`~pbem.engine.api.Game`). Rules as played:
docs/rules/lacitta.md.
"""
from __future__ import annotations

from pbem.engine.lacitta.game import GAME  # noqa: F401
