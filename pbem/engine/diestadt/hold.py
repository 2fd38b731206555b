"""Early wall orders (design 6.4 "Early orders"): which Die Stadt order
lines a seat may send before their decision comes due, and when a held
line is due. The service keeps them (docs/service.md "Held orders") and
applies each when the seat's decision of its kind comes up.

Holdable lines name no edge, so they mean the same whenever they come due:

* ``wall cw`` / ``wall ccw``, optionally ``guard``: the seat's next wall
  piece at that end of the wall ("guard" is "if still legal": a barred
  guard is left out and the piece still built, docs/rules/diestadt.md);
* ``tower cw`` / ``tower ccw`` / ``no tower``: the seat's next tower
  decision (a tower at an end that scores nothing then is refused when due,
  and the seat is asked).

``wall F7 N``, the gate and tiles are never held: they name a place that
is only known when the decision comes. The words of every language are
read as in :mod:`~pbem.engine.diestadt.orders` (:mod:`~pbem.engine.diestadt.words`:
``muuri myötä vartija``, ``kein Turm``).
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from pbem.engine.diestadt.actions import BuildWall, PlaceTower
from pbem.engine.diestadt.words import ENDS as _END, GUARD as _GUARD, KINDS as _KIND, NO as _NO, WORDS, split
from pbem.engine.diestadt.words import order_text

if TYPE_CHECKING:
    from pbem.engine.diestadt.state import DieStadtState


def hold_order(text: str) -> str | None:
    """``"wall cw guard"``, ``"wall ccw"``, ``"tower cw"``, ``"no tower"``:
    the canonical text of a holdable line, else ``None``. Reads the words
    only (any order, any case): a wall end, optionally ``wall`` or
    ``tower``, ``guard`` (walls only) or ``no`` (towers only); any other
    word makes the line not holdable."""
    words = split(text)
    kind = end = None
    guard = no = False
    for w in words:
        if w in _KIND and kind is None and _KIND[w] in ("wall", "tower"):
            kind = _KIND[w]
        elif w in _END and end is None:
            end = _END[w]
        elif w in _GUARD and not guard:
            guard = True
        elif w in _NO and not no:
            no = True
        else:
            return None
    if no:
        ok = kind == "tower" and end is None and not guard
        return "no tower" if ok else None
    if end is None:
        return None
    if kind == "tower":
        return None if guard else f"tower {end}"
    return f"wall {end}" + (" guard" if guard else "")


def held_text(text: str, lang: str = "en") -> str:
    """A held line (canonical, as :func:`hold_order` returns it) in
    ``lang``'s words: ``"wall cw guard"`` in ``fi`` -> ``"muuri myötä
    vartija"``, ``"no tower"`` in ``de`` -> ``"kein Turm"``. A line that is
    not holdable, or a language without words, is returned as it is."""
    canonical = hold_order(text)
    if canonical is None or lang not in WORDS:
        return text
    kind, *rest = canonical.split()
    if kind == "no":
        action: BuildWall | PlaceTower = PlaceTower(None)
    elif kind == "tower":
        action = PlaceTower(rest[0])
    else:
        action = BuildWall(rest[0], guard=rest[1:] == ["guard"])
    return order_text(action, lang)


def held_order_due(state: "DieStadtState", seat: int, text: str) -> bool:
    """Whether held line ``text`` answers ``seat``'s decision now: a wall
    line when the seat is to build a wall piece (never the gate), a tower
    line when it is to place a tower."""
    if state.over or seat not in state.current_seats():
        return False
    kind = "tower" if "tower" in text.split() else "wall"
    return state.decision == kind
