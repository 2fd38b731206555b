"""How good a Medina position looks for each seat, for the bots
(:meth:`pbem.engine.api.Game.evaluate`; docs/bots.md).

Points now, as the final scoring counts them (claimed palaces: pieces,
stables, merchants and wall pieces next to them; palace and tower tiles
held), plus what is open, each term in points:

- ``GROWING``: a claimed palace not yet complete still takes pieces and
  stables: +1 per such palace;
- ``KEPT``: pieces still behind the screen are moves still to come: +0.2
  per palace piece, stable, merchant and wall piece kept;
- ``DOMES``: a dome kept is a palace still to claim, and the palaces
  claimed late are the large ones: for each colour the seat has not
  claimed, while it keeps a dome, +7 times the share of that colour's
  palace pieces still behind its screen (how much of that colour's game is
  left to it), so a small palace is not claimed early for its few points;
- ``TILE_RISK``: a palace tile goes to whoever claims a larger palace of
  its colour later: -0.6 times its points times the share of the seat's
  pieces (domes aside) still behind its screen.

The bots call it only on a state dealt again for their seat
(:meth:`Game.redeal_hidden`): the other seats' pieces it reads are a sample.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from pbem.engine.medina.pieces import PALACE_COLOURS, starting_supply

if TYPE_CHECKING:  # pragma: no cover
    from pbem.engine.medina.state import MedinaState

GROWING = 1.0
KEPT = 0.2
DOMES = 7.0
TILE_RISK = 0.6
#: a lead of this many points is a clear one (Game.evaluation_scale)
SCALE = 8.0


def evaluate(st: "MedinaState") -> list[float]:
    """One value per seat, in points (see the module docstring)."""
    scores = st.scores()
    points = [float(x.points) for x in scores]
    if st.is_terminal():
        return points
    start = starting_supply(st.seats)
    full = sum(n for key, n in start.items() if key != "domes")
    values = []
    for seat in range(st.seats):
        value = points[seat]
        value += GROWING * sum(1 for p in st.palaces if p.owner == seat and not p.complete)
        supply = st.supply[seat]
        kept = sum(n for key, n in supply.items() if key != "domes")
        value += KEPT * kept
        value -= TILE_RISK * scores[seat].detail["palace_tiles"] * kept / full
        if supply.get("domes", 0):
            value += DOMES * sum(supply[c] / start[c] for c in PALACE_COLOURS
                                 if c not in st.claimed[seat])
        values.append(value)
    return values
