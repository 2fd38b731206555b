"""A legal order close to a line that was not one ("did you mean
`build farm D8`?"), by :mod:`difflib` similarity over the legal orders."""
from __future__ import annotations

import difflib
import re
from typing import Iterable

__all__ = ["suggest", "CUTOFF"]

#: least :class:`difflib.SequenceMatcher` ratio for a suggestion
CUTOFF = 0.75


def _norm(text: str) -> str:
    return re.sub(r"\s+", " ", text.casefold()).strip()


def suggest(line: str, legal: Iterable[str], *, cutoff: float = CUTOFF) -> str | None:
    """The legal order most like ``line`` (case and spacing ignored), or
    ``None`` when none is at least ``cutoff`` alike or ``line`` already is
    one of them."""
    by_norm: dict[str, str] = {}
    for order in legal:
        by_norm.setdefault(_norm(order), order)
    want = _norm(line)
    if not want or want in by_norm:
        return None
    close = difflib.get_close_matches(want, list(by_norm), n=1, cutoff=cutoff)
    return by_norm[close[0]] if close else None
