"""How good a Die Stadt position looks for each seat, for the bots
(:meth:`pbem.engine.api.Game.evaluate`; docs/bots.md).

Points now (streets, markets and towers scored so far), plus what is open,
as the rules would score it, each term in points:

- ``OPEN``: a street or market not yet complete pays its seats with the
  most followers on it (DS-47 to DS-57) when it is completed, and nothing
  at the end (DS-99): its value now (tiles, or tiles times kinds of goods)
  times the chance it is completed, 0.75 while more than ten tiles are
  left, then falling to 0 with the last tile;
- ``OVERSEERS``: followers on a residential area score 2 per market
  bordering it at the end (DS-105): that value now, times 0.9;
- ``GUARDS``: a guard on the wall scores the buildings in its watch row at
  the end (DS-106 to DS-113): that value now, times 0.9;
- ``FOLLOWERS``: a follower in hand can still be placed: +1 each while
  twenty tiles are left, then falling to 0 with the last tile.

The bots call it only on a state dealt again for their seat
(:meth:`Game.redeal_hidden`): the pile order it implies is a sample.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from pbem.engine.diestadt.scoring import majority, market_points, street_points
from pbem.engine.diestadt.tiles import HOMES, STREET, building_points

if TYPE_CHECKING:  # pragma: no cover
    from pbem.engine.diestadt.state import DieStadtState

OPEN = 0.75
OVERSEERS = 0.9
GUARDS = 0.9
FOLLOWERS = 1.0
#: a lead of this many points is a clear one (Game.evaluation_scale)
SCALE = 10.0


def evaluate(st: "DieStadtState") -> list[float]:
    """One value per seat, in points (see the module docstring)."""
    values = [float(sum(p.values())) for p in st.points]
    if st.is_terminal():
        return values
    left = sum(len(p) for p in st.piles)
    chance = OPEN * min(1.0, left / 10)
    feats = st.feats
    bordering = None
    for root, nodes in feats.fols.items():
        if not nodes or feats.done[root]:
            continue
        if feats.ftype[root] == HOMES:
            if bordering is None:
                bordering = feats.bordering_markets()
            worth = OVERSEERS * 2 * len(bordering.get(root, ()))
        elif feats.ftype[root] == STREET:
            worth = chance * street_points(feats.size(root))
        else:
            worth = chance * market_points(feats.size(root), feats.kind_count(root))
        for s in majority([st.node_seat[n] for n in nodes]):
            values[s] += worth
    for edge, seat in st.wall.guards.items():
        values[seat] += GUARDS * sum(building_points(st.tile_at(sp))
                                     for sp in st.wall.watch_row(edge, st.board))
    hand = FOLLOWERS * min(1.0, left / 20)
    for seat in range(st.seats):
        values[seat] += hand * st.supply[seat]
    return values
