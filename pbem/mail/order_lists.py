"""Lists of orders as a player reads them: common orders first, then in
natural order (``A2`` before ``A10``, ``W9`` before ``W12``).

"Common" is by shape, for any game: an order that names no square or site
(``gold``, ``pass``, ``citizens 2``) is one a player looks for by name, and
it must never be hidden behind forty ``build …`` orders.
"""
from __future__ import annotations

import re
from typing import Iterable

__all__ = ["arrange", "natural_key"]

_SITE = re.compile(r"\b[A-Za-z]{1,2}\d{1,3}\b")
_PARTS = re.compile(r"(\d+)")


def natural_key(text: str) -> tuple:
    """Sort key comparing digit runs as numbers: ``found A2`` < ``found A10``."""
    return tuple(int(p) if p.isdigit() else p.casefold() for p in _PARTS.split(text))


def arrange(orders: Iterable[str]) -> list[str]:
    """Distinct ``orders``: those naming no site first, each group in natural order."""
    unique = set(orders)
    return sorted(unique, key=lambda o: (_SITE.search(o) is not None, natural_key(o)))
