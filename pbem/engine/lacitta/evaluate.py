"""How good a La Città position looks for each seat, for the bots
(:meth:`pbem.engine.api.Game.evaluate`; docs/bots.md).

Points now, as final scoring counts them (1 per citizen, 3 per complete
city, -5 for a year-6 famine), plus what is open, each term in points:

- ``FAMINE``: a citizen the seat's food (farms and Reiche Ernte) cannot feed
  leaves at the year's end, and a famine costs a political round (or 5
  points in year 6): -1 per citizen short, -1 more for the famine itself
  (-5 in year 6);
- ``PULL``: the cities with the most arches of the wishes on this year's
  Voice of the People cards draw citizens from their neighbours: +0.25 per
  arch of a wish per card showing it, in the cities' other years shrinking
  (only the rest of the game counts);
- ``NEAR_COMPLETE``: a city with two of the three colours of arch is one
  building from +3: +1;
- ``ROOM``: a city at its population limit (no market: 5, no fountain or
  bathhouse: 8) grows no more: -0.5 for each;
- ``GOLD``: gold buys buildings and breaks ties: +0.3 each;
- ``CASTLES``: a castle still in hand founds a city of 3 citizens, worth
  more the more years are left: +0.3 per castle per year left.

The bots call it only on a state dealt again for their seat
(:meth:`Game.redeal_hidden`), so the Voice cards it reads are a sample.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from pbem.engine.lacitta import data as D

if TYPE_CHECKING:  # pragma: no cover
    from pbem.engine.lacitta.state import LaCittaState

PULL = 0.25
NEAR_COMPLETE = 1.0
ROOM = 0.5
GOLD = 0.3
CASTLES = 0.3
#: a lead of this many points is a clear one (Game.evaluation_scale)
SCALE = 6.0


def evaluate(s: "LaCittaState") -> list[float]:
    """One value per seat, in points (see the module docstring). One pass
    over the cities: each city's arches are counted once."""
    if s.is_terminal():
        return [float(x.points) for x in s.scores()]
    years_left = max(0, D.YEARS - max(s.year, 1))
    voice = s.voice
    weight = [(w, voice.count(w)) for w in D.WISHES]
    notable_arches: dict[str, int] = {}
    for site, _seat, wish in s.notables:
        castle = s.occ.get(site)
        if castle is not None:
            notable_arches[castle] = notable_arches.get(castle, 0) + voice.count(wish)
    values = [GOLD * s.gold[p] - (D.FAMINE_PENALTY if s.famine6[p] else 0) for p in range(s.n)]
    citizens = [0] * s.n
    castles = [0] * s.n
    arches, kind = D.ARCHES, s.kind
    for city in s.cities.values():
        p = city.owner
        citizens[p] += city.citizens
        castles[p] += 1
        counts = dict.fromkeys(D.WISHES, 0)
        for site in city.sites:
            for w, n in arches[kind[site]].items():
                counts[w] += n
        colours = sum(1 for w in D.WISHES if counts[w] > 0)
        value = D.COMPLETE_CITY_BONUS if colours == 3 else NEAR_COMPLETE if colours == 2 else 0.0
        if city.citizens >= s.capacity(city):
            value -= ROOM
        pull = sum(k * counts[w] for w, k in weight) + notable_arches.get(city.castle, 0)
        values[p] += value + PULL * pull
    for p in range(s.n):
        values[p] += citizens[p] + CASTLES * (D.CASTLES_PER_PLAYER - castles[p]) * years_left
        short = citizens[p] - s.food[p] - s.harvest_bonus(p)
        if short > 0:
            values[p] -= short + (D.FAMINE_PENALTY if s.year >= D.YEARS else 1)
    return values
