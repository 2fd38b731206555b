"""How good a Medina position looks for each seat, for the bots
(:meth:`pbem.engine.api.Game.evaluate`; docs/bots.md; rules: medina.fi.txt
"Kupolit", "Pisteytys").

Points now, as the final scoring counts them (claimed palaces: pieces,
stables, merchants and wall pieces next to them; palace and tower tiles
held), plus what is open, each term in points:

- ``OPEN``: a palace under construction is worth its points now (pieces,
  stables, merchants and walls next to it) to whoever claims it, and only
  a seat keeping a dome and not owning that colour may: to such a seat, all
  of it when the seat is placing its second piece (it may claim the palace
  now), ``OPEN_NEXT`` (0.8) of it when the seat is about to start its turn
  (two pieces: one to add, a dome to claim), ``OPEN_LATER`` (0.7) to the
  others;
- ``DOMES``: a dome kept claims a palace still to be built, and the later
  palaces of a colour are built from its pieces not yet on the board: for
  each colour the seat has not claimed, while it keeps a dome, +10 times
  the share of that colour's pieces (every seat's) not yet on the board (0
  once the colour is back in the box), so a small palace is not claimed
  early while most of its colour is still to come;
- ``KEPT``: pieces still behind the screen are moves still to come: +0.2
  per palace piece, stable, merchant and wall piece kept;
- ``TILE_RISK``: a palace tile goes to whoever claims a larger palace of
  its colour later: -0.6 times its points times the share of the seat's
  pieces (domes aside) still behind its screen.

What it reads is public but the other seats' pieces behind their screens
(``KEPT``, ``TILE_RISK``): the bots call it only on a state dealt again for
their seat (:meth:`Game.redeal_hidden`), where those are a sample.
Measured (docs/bots.md): greedy over this evaluation wins about 97 % of
3-seat games against two random seats.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from pbem.engine.medina.pieces import PALACE_COLOURS, starting_supply
from pbem.engine.medina.scoring import palace_points

if TYPE_CHECKING:  # pragma: no cover
    from pbem.engine.medina.state import MedinaState

OPEN = 1.0
OPEN_NEXT = 0.8
OPEN_LATER = 0.7
DOMES = 10.0
KEPT = 0.2
TILE_RISK = 0.6
#: a lead of this many points is a clear one (Game.evaluation_scale): 3
#: (was 8) made the standard bot's search tell its orders apart (43.4 % of
#: 78 paired games against greedy, 28.0 % at 8; docs/bots.md)
SCALE = 3.0


def colour_left(st: "MedinaState") -> dict[str, float]:
    """Per palace colour, the share (0..1) of all seats' pieces of it not
    yet on the board; 0 for a colour back in the box."""
    total = starting_supply(st.seats)
    on = dict.fromkeys(PALACE_COLOURS, 0)
    for p in st.palaces:
        on[p.colour] += len(p.squares)
    return {c: 0.0 if c in st.returned else max(0.0, 1.0 - on[c] / (total[c] * st.seats))
            for c in PALACE_COLOURS}


def open_share(st: "MedinaState", seat: int) -> float:
    """How much of a palace under construction ``seat`` may count on
    claiming (it keeps a dome and does not own the colour): ``OPEN`` on its
    second piece, ``OPEN_NEXT`` before its first, ``OPEN_LATER`` otherwise."""
    if seat != st.seat:
        return OPEN_LATER
    return OPEN if st.placed == 1 else OPEN_NEXT


def evaluate(st: "MedinaState") -> list[float]:
    """One value per seat, in points (see the module docstring); the
    final points once the game is over."""
    scores = st.scores()
    points = [float(x.points) for x in scores]
    if st.is_terminal():
        return points
    start = starting_supply(st.seats)
    full = sum(n for key, n in start.items() if key != "domes")
    left = colour_left(st)
    opens = [(p.colour, sum(palace_points(st, p).values())) for p in st.palaces if not p.complete]
    values = []
    for seat in range(st.seats):
        value = points[seat]
        supply = st.supply[seat]
        kept = sum(n for key, n in supply.items() if key != "domes")
        value += KEPT * kept
        value -= TILE_RISK * scores[seat].detail["palace_tiles"] * kept / full
        if supply.get("domes", 0):
            mine = st.claimed[seat]
            value += DOMES * sum(left[c] for c in PALACE_COLOURS if c not in mine)
            share = open_share(st, seat)
            value += share * sum(v for c, v in opens if c not in mine)
        values.append(value)
    return values
