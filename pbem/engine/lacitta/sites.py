"""Where buildings and castles may stand (la-citta.fi.txt "Rakennuksen
sijoittaminen", "Asettelusääntö", "Välimatkasääntö"), and the site indexes
a position keeps so those questions are lookups.

Indexes on the state (rebuilt by :func:`occupy` whenever a position is
loaded): ``occ`` site -> castle of its city, ``kind`` site -> building,
``touch`` site -> {castle: its buildings next to the site}, ``near`` site ->
buildings within distance 3, ``open`` usable sites with none within 3 (the
castle sites). Caches they invalidate: ``_front`` (building frontier,
:mod:`building`), ``_zone`` (:func:`neighbours`), ``_found_cache``
(:mod:`castles`).
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from pbem.engine.api import IllegalOrderError
from pbem.engine.lacitta.city import City
from pbem.engine.lacitta.geometry import BALL3, DIST, NBR, ORDER, PLAYERS, USABLE
from pbem.engine.lacitta.terms import BUILDING
from pbem.engine.messages import Msg

if TYPE_CHECKING:  # pragma: no cover
    from pbem.engine.lacitta.state import LaCittaState


def occupy(s: "LaCittaState", site: str, city: City, kind: str) -> None:
    """Put a ``kind`` building of ``city`` on ``site`` in the indexes."""
    castle = city.castle
    s.occ[site] = castle
    s.kind[site] = kind
    touch = s.touch
    front = s._front
    pop = front.pop
    if front:
        t = touch.get(site)
        if t:
            for c in t:
                pop(c, None)
    for j in NBR[site]:
        t = touch.get(j)
        if t is None:
            touch[j] = {castle: 1}
        else:
            if front:
                for c in t:
                    pop(c, None)
            t[castle] = t.get(castle, 0) + 1
    pop(castle, None)
    s._zone.pop(castle, None)
    near = s.near
    opened = s.open
    for m in BALL3[site]:
        k = near.get(m, 0)
        if not k:
            # the castle sites change: so do the found orders
            opened.discard(m)
            s._found_cache = None
        near[m] = k + 1


def vacate(s: "LaCittaState", site: str) -> None:
    """Take the building on ``site`` out of the indexes."""
    castle = s.occ.pop(site)
    del s.kind[site]
    touch = s.touch
    front = s._front
    pop = front.pop
    pop(castle, None)
    s._zone.pop(castle, None)
    if front:
        t = touch.get(site)
        if t:
            for c in t:
                pop(c, None)
    for j in NBR[site]:
        t = touch[j]
        if front:
            for c in t:
                pop(c, None)
        if t[castle] == 1:
            del t[castle]
        else:
            t[castle] -= 1
    near = s.near
    opened = s.open
    usable = s.n
    for m in BALL3[site]:
        k = near[m] - 1
        near[m] = k
        if not k and PLAYERS[m] <= usable:
            opened.add(m)
            s._found_cache = None


def castle_sites(s: "LaCittaState") -> list[str]:
    """Free sites at least 3 free sites from every building, in reading
    order ("Asettelusääntö", "Välimatkasääntö")."""
    return sorted(s.open, key=ORDER.__getitem__)


def roomiest_sites(s: "LaCittaState") -> list[str]:
    """Setup fallback when no site keeps 3 free sites to every castle
    (a crowded 5-player board): the free sites farthest from the
    nearest building (docs/rules/lacitta.md "Setup")."""
    free = [x for x in USABLE[s.n] if x not in s.occ
            and all(n not in s.occ for n in NBR[x])]
    if not free:
        return []
    best = {x: min(DIST[x][b] for b in s.occ) for x in free}
    top = max(best.values())
    return [x for x in free if best[x] == top]


def neighbours(s: "LaCittaState", city: City) -> list[City]:
    """Cities of other players with 1 or 2 sites between their closest
    buildings and ``city``'s (distance at most 3; "Asukkaiden
    muuttoliike"), in reading order of their castles."""
    zone = s._zone.get(city.castle)
    if zone is None:
        zone = s._zone[city.castle] = set()
        for a in city.sites:
            zone.update(BALL3[a])
    out = [o for o in s.cities.values()
           if o.owner != city.owner and not zone.isdisjoint(o.sites)]
    out.sort(key=lambda c: ORDER[c.castle])
    return out


def next_to_mine(s: "LaCittaState", seat: int, site: str) -> City | None:
    """The first city of ``seat`` with a building next to ``site``, or None."""
    for k in NBR[site]:
        c = s.occ.get(k)
        if c is not None and s.cities[c].owner == seat:
            return s.cities[c]
    return None


def city_for_site(s: "LaCittaState", seat: int, site: str) -> City:
    """The city of ``seat`` that a building on ``site`` joins; raises
    :class:`IllegalOrderError` when none of its cities is next to it."""
    city = next_to_mine(s, seat, site)
    if city is None:
        raise IllegalOrderError(Msg("{site} is not next to any of your cities.", site=site))
    return city


def site_problem(s: "LaCittaState", site: str, castle: bool = False) -> Msg | None:
    """Why nothing (``castle``: no castle) may go on ``site``, or None: it
    is built on, unused at this player count, or (a castle) within 3 sites
    of a building — the test :func:`castle_sites` reads from ``near``."""
    if site in s.occ:
        return Msg("{site} is already built on.", site=site)
    if PLAYERS[site] > s.n:
        return Msg("{site} is not used in a {n}-player game.", site=site, n=s.n)
    if castle and s.near.get(site):
        near = min((x for x in s.occ), key=lambda x: DIST[site][x])
        return Msg("{site} is too close to the {building} at {near}: a castle needs at least 3 free "
                   "sites between it and every other city.", site=site,
                   building=BUILDING[s.kind[near]], near=near)
    return None
