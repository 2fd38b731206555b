"""Building: where a city may build, what it costs, and why not
(la-citta.fi.txt "A. Toimintakorttien pelaaminen" (build a small
building), "Poliittikkakortit joissa rakennuksia", "Mestari Rakentaja",
"Rakennuksen sijoittaminen"; RULINGS.md, La Città).

A building goes on a free site next to one of the city's buildings, used at
this player count and next to no other city; every building but a market
needs a spare citizen in the castle; a market comes with its own citizen and
one per city; fountains and bathhouses stand next to water; a pile can run
out. The listing (hot path of random play) and the refusal read the same
tests: :func:`front_entry` (frontier, water, market), :func:`has_spare`,
:func:`pile_empty`.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from pbem.engine.api import Event
from pbem.engine.lacitta import data as D
from pbem.engine.lacitta.actions import Order
from pbem.engine.lacitta.city import City
from pbem.engine.lacitta.geometry import NBR, ORDER, PLAYERS
from pbem.engine.lacitta.sites import city_for_site, next_to_mine, occupy, site_problem
from pbem.engine.lacitta.terms import BUILDING, CARD, PILE
from pbem.engine.messages import Msg
from pbem.engine.phrases import Seat, join, seat as seat_name

if TYPE_CHECKING:  # pragma: no cover
    from pbem.engine.lacitta.state import LaCittaState

_mk = tuple.__new__
_WATER = D.NEEDS_WATER
_CARD_COST = D.CARD_COST
#: Großer Baumeister's price per building (by its size)
MASTER = {k: D.MASTER_COST[D.BUILDINGS[k][0]] for k in D.BUILDABLE}
# orders made once per site (the listing reuses them)
_BUILD_ORDERS = {x: tuple(Order("build", x, k) for k in ("farm", "quarry", "statue", "school"))
                 for x in ORDER}
_FOUNTAIN_ORDERS = {x: Order("build", x, "fountain") for x in ORDER}
_MARKET_ORDERS = {x: Order("build", x, "market") for x in ORDER}
_CARD_ORDERS = {c: {x: Order("card", x, c) for x in ORDER} for c in _CARD_COST}
_MASTER_ORDERS = {k: {x: Order("master", x, k) for x in ORDER} for k in D.BUILDABLE}


def has_spare(city: City) -> bool:
    """A citizen beyond one per building, to move into a new building."""
    return city.citizens > len(city.sites)


def pile_empty(s: "LaCittaState", kind: str) -> bool:
    """The supply pile of ``kind`` is used up."""
    pile = D.PILE[kind]
    return s.used[pile] >= D.SUPPLY[pile]


def front_entry(s: "LaCittaState", city: City) -> tuple:
    """Cached ``(frontier, water sites of it, has a market, its
    farm/quarry/statue/school orders, fountain orders, market orders)``;
    callers must not change it. The frontier: free sites next to one of
    the city's buildings, used at this player count, and next to no other
    city, in reading order."""
    e = s._front.get(city.castle)
    if e is not None:
        return e
    occ = s.occ
    touch = s.touch
    seen = set()
    out = []
    n = s.n
    for b in city.sites:
        for j in NBR[b]:
            if j in seen or j in occ:
                continue
            seen.add(j)
            # next to this city only (touch[j] holds every city next to j)
            if PLAYERS[j] <= n and len(touch[j]) == 1:
                out.append(j)
    out.sort(key=ORDER.__getitem__)
    water = s.terrain.water
    wet = [x for x in out if water[x]]
    kind_of = s.kind
    builds: list[Order] = []
    for x in out:
        builds += _BUILD_ORDERS[x]
    e = s._front[city.castle] = (
        out, wet, any(kind_of[x] == "market" for x in city.sites), builds,
        [_FOUNTAIN_ORDERS[x] for x in wet], [_MARKET_ORDERS[x] for x in out])
    return e


def frontier(s: "LaCittaState", city: City) -> list[str]:
    """Free sites where ``city`` may build ("Rakennuksen sijoittaminen")."""
    return list(front_entry(s, city)[0])


def gather(s: "LaCittaState", mine: list[City]) -> tuple:
    """The seat's building room: ``(entries of cities with a spare citizen,
    entries of cities without a market, their sites, water sites of the
    first, sites of the second)``."""
    spare: list[tuple] = []
    no_market: list[tuple] = []
    spare_sites: list[str] = []
    water_sites: list[str] = []
    market_sites: list[str] = []
    fronts = s._front
    for c in mine:
        e = fronts.get(c.castle) or front_entry(s, c)
        if c.citizens > len(c.sites):
            spare.append(e)
            spare_sites += e[0]
            water_sites += e[1]
        if not e[2]:
            no_market.append(e)
            market_sites += e[0]
    return spare, no_market, spare_sites, water_sites, market_sites


def sites_for(s: "LaCittaState", room: tuple, kind: str) -> list[str]:
    """Sites where a ``kind`` may be built, from :func:`gather`'s ``room``."""
    if pile_empty(s, kind):
        return []
    if kind == "market":
        return room[4]
    return room[3] if kind in _WATER else room[2]


def list_action_builds(s: "LaCittaState", room: tuple, only: str | None, what: str,
                       acts: list) -> None:
    """Append the small buildings an action card may build (``only``/``what``:
    limit to one verb and building)."""
    if only is None and not any(pile_empty(s, k) for k in D.SMALL):
        # fast path: the small-building orders of each site are made once
        for e in room[0]:
            acts += e[3]
        for e in room[0]:
            acts += e[4]
        for e in room[1]:
            acts += e[5]
    elif only in (None, "build"):
        for kind in D.SMALL:
            if only and kind != what:
                continue
            for x in sites_for(s, room, kind):
                acts.append(_mk(Order, ("build", x, kind, 0, ())))


def list_card(s: "LaCittaState", room: tuple, card: str, gold: int, acts: list) -> None:
    """Append the orders of a building card in the display."""
    if gold >= _CARD_COST[card]:
        acts += map(_CARD_ORDERS[card].__getitem__, sites_for(s, room, card))


def list_master(s: "LaCittaState", room: tuple, gold: int, only: str | None, what: str,
                acts: list) -> None:
    """Append Großer Baumeister's orders (any building, priced by size)."""
    for kind in D.BUILDABLE:
        if only and kind != what:
            continue
        if gold >= MASTER[kind]:
            acts += map(_MASTER_ORDERS[kind].__getitem__, sites_for(s, room, kind))


def build(s: "LaCittaState", seat: int, site: str, kind: str, cost: int, how: Msg) -> list[Event]:
    """Build ``kind`` on ``site`` for the seat's city next to it, paying
    ``cost`` gold; a market brings a citizen from the bank, a farm its food."""
    city = city_for_site(s, seat, site)
    s.gold[seat] -= cost
    s.used[D.PILE[kind]] += 1
    city.sites.append(site)
    occupy(s, site, city, kind)
    extra: Msg | str = ""
    if kind == "market":
        city.citizens += 1           # the market's citizen comes from the bank
        s.bank -= 1
    if kind == "farm":
        f = s.terrain.food[site]
        s.food[seat] += f
        extra = Msg(" (+{food} food)", food=f) if f else Msg(" (no food: no field next to it)")
    paid = Msg(", paying {cost} gold", cost=cost) if cost else ""
    return [Event(Msg("{seat} builds a {building} at {site} for the city at {castle}{extra}{paid} "
                      "({how}).", seat=Seat(seat), building=BUILDING[kind], site=site,
                      castle=city.castle, extra=extra, paid=paid, how=how), kind="build",
                  data={"seat": seat, "site": site, "building": kind, "city": city.castle,
                        "cost": cost})]


def build_by_card(s: "LaCittaState", p: int, a: Order) -> list[Event]:
    """A building card (``card``) or Großer Baumeister (``master``), taken."""
    card = a.what if a.verb == "card" else "master builder"
    cost = _CARD_COST[a.what] if a.verb == "card" else MASTER[a.what]
    return build(s, p, a.site, a.what, cost, CARD[card])


def why_not(s: "LaCittaState", p: int, o: Order) -> Msg | None:
    """Why a ``build``/card/``master`` order is refused, or None."""
    gold = s.gold[p]
    if o.verb == "build" and o.what not in D.SMALL:
        return Msg("An action card builds only small buildings; a {building} needs its political "
                   "card.", building=BUILDING[o.what])
    if o.verb == "card" and gold < _CARD_COST[o.what]:
        return Msg("{card} costs {cost} gold; you have {gold}.", card=CARD[o.what],
                   cost=_CARD_COST[o.what], gold=gold)
    if o.verb == "master" and gold < MASTER[o.what]:
        return Msg("Großer Baumeister costs {cost} gold for a {building}; you have {gold}.",
                   cost=MASTER[o.what], building=BUILDING[o.what], gold=gold)
    return _site_why(s, p, o.site, o.what)


def _site_why(s: "LaCittaState", p: int, site: str, kind: str) -> Msg | None:
    prob = site_problem(s, site)
    if prob:
        return prob
    mine = s.cities_of(p)
    if not mine:
        return Msg("You have no city to build in.")
    city = next_to_mine(s, p, site)
    if city is None:
        names = join([c.castle for c in mine])
        if len(mine) == 1:
            return Msg("{site} is not next to your city at {castle}.", site=site, castle=names)
        return Msg("{site} is not next to any of your cities ({castles}).", site=site, castles=names)
    for n in NBR[site]:
        c = s.city_of(n)
        if c is not None and c is not city:
            if c.owner == p:
                return Msg("{site} is next to your city at {castle}: cities may not touch "
                           "(at least one free site between).", site=site, castle=c.castle)
            return Msg("{site} is next to {seat}'s city at {castle}: cities may not touch "
                       "(at least one free site between).", site=site, seat=seat_name(c.owner),
                       castle=c.castle)
    return _supply_why(s, city, site, kind)


def _supply_why(s: "LaCittaState", city: City, site: str, kind: str) -> Msg | None:
    if pile_empty(s, kind):
        return Msg("No {pile} tiles are left in the supply.", pile=PILE[D.PILE[kind]])
    if kind == "market":
        if front_entry(s, city)[2]:
            return Msg("The city at {castle} already has a market (one per city).", castle=city.castle)
    elif not has_spare(city):
        return Msg("The castle at {castle} has no spare citizen ({citizens} citizens, {buildings} "
                   "buildings); one must stay in the castle.", castle=city.castle,
                   citizens=city.citizens, buildings=len(city.sites))
    if kind in _WATER and not s.terrain.water[site]:
        return Msg("A {building} must stand next to water; {site} is not.", building=BUILDING[kind],
                   site=site)
    return None
