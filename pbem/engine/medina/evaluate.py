"""How good a Medina position looks for each seat, for the bots
(:meth:`pbem.engine.api.Game.evaluate`; docs/bots.md).

Points now, as the final scoring counts them (claimed palaces: pieces,
stables, merchants and wall pieces next to them; palace and tower tiles
held), plus what is open, each term in points:

- ``GROWING``: a claimed palace not yet complete still takes pieces and
  stables: +1 per such palace;
- ``KEPT``: pieces still behind the screen are moves still to come: +0.2
  per palace piece, stable, merchant and wall piece kept;
- ``DOMES``: a dome kept is a palace still to claim: +1.5 per dome whose
  colour the seat has not claimed and an unclaimed palace of which stands.

The bots call it only on a state dealt again for their seat
(:meth:`Game.redeal_hidden`): the other seats' pieces it reads are a sample.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pragma: no cover
    from pbem.engine.medina.state import MedinaState

GROWING = 1.0
KEPT = 0.2
DOMES = 1.5
#: a lead of this many points is a clear one (Game.evaluation_scale)
SCALE = 8.0


def evaluate(st: "MedinaState") -> list[float]:
    """One value per seat, in points (see the module docstring)."""
    points = [float(x.points) for x in st.scores()]
    if st.is_terminal():
        return points
    open_colours = {p.colour for p in st.palaces if p.owner is None and not p.complete}
    values = []
    for seat in range(st.seats):
        value = points[seat]
        value += GROWING * sum(1 for p in st.palaces if p.owner == seat and not p.complete)
        supply = st.supply[seat]
        value += KEPT * sum(n for key, n in supply.items() if key != "domes")
        if supply.get("domes", 0):
            value += DOMES * len(open_colours - set(st.claimed[seat]))
        values.append(value)
    return values
