"""Why a La Città order is refused, in a player's words: each answer a
translatable :class:`~pbem.engine.messages.Msg` (docs/rules/lacitta.md).

``explain(state, seat, order)`` is called by :func:`pbem.engine.lacitta.parse.parse`
once an order has read well but is not among the legal orders.
"""
from __future__ import annotations

from pbem.engine.lacitta import data as D
from pbem.engine.lacitta.actions import Order
from pbem.engine.lacitta.board import SITES
from pbem.engine.lacitta.terms import BUILDING, CARD, PILE, WISH
from pbem.engine.lacitta.words import say
from pbem.engine.messages import Msg, Msgn
from pbem.engine.phrases import and_list, join, or_list, seat as seat_name

_CARD_OF = {"master": "master builder", "bread": "bread and games", "golden": "golden age",
            "harvest": "rich harvest", "citizens": "citizens"}


def _not_legal(o: Order) -> Msg:
    return Msg("{order} is not legal now.", order=say(o, quoted=True))


def explain(s, p: int, o: Order) -> Msg:
    """Why ``o`` is not legal for seat ``p`` now (a ``Msg``)."""
    ph = s.phase_name
    if ph == "setup":
        if o.verb != "castle":
            return Msg("During setup the only order is '{example}' (now: {phase}).",
                       example=say(Order("castle", "F6")), phase=s.phase())
        return (_site_problem(s, p, o.site, castle=True)
                or Msg("{site} cannot take a castle now.", site=o.site))
    if o.verb == "castle":
        return Msg("Castles are placed only during setup; now: {phase}. To start a new city: found F6.",
                   phase=s.phase())
    if ph == "migration":
        return _migration(s, o)
    if ph == "yearend":
        return _yearend(s, p, o)
    return _political(s, p, o)


def _migration(s, o: Order) -> Msg:
    if o.verb != "wish":
        return Msg("Now each city's wish is chosen: wish E3 culture.")
    if o.site not in s.wish_choice:
        return Msg("{site} is not one of your cities that needs a wish now.", site=o.site)
    if o.what not in s.wishes:
        return Msg("The people wish for {wishes} this year, not {wish}.",
                   wishes=and_list([WISH[w] for w in s.wishes]), wish=WISH.get(o.what, o.what))
    return Msg("The wish for the city at {site} is already chosen.", site=o.site)


def _yearend(s, p: int, o: Order) -> Msg:
    if s.yearend[p]["stage"] == "starve":
        return _starve(s, p, o)
    if o.verb != "demolish":
        return Msg("Now buildings without citizens must be demolished: demolish F6.")
    site = o.site
    c = s.city_of(site)
    if c is None or c.owner != p:
        return Msg("{site} is not one of your buildings.", site=site)
    if site == c.castle:
        return Msg("The castle goes only with the city's last citizen.")
    if len(c.sites) <= c.citizens:
        return Msg("The city at {castle} has a citizen for every building; nothing to demolish there.",
                   castle=c.castle)
    return Msg("Demolishing {site} would cut the city at {castle} in two; demolish from the edge: "
               "{sites}.", site=site, castle=c.castle, sites=join(s.removable(c)))


def _starve(s, p: int, o: Order) -> Msg:
    ex = s.yearend[p]["excess"]
    if o.verb != "starve":
        return Msg("{n} of your citizens must leave for lack of food first: starve E3 1.", n=ex)
    castle, k = o.extra[0]
    c = s.cities.get(castle)
    if c is None or c.owner != p:
        return Msg("{castle} is not one of your cities.", castle=castle)
    if k > ex:
        return Msgn("Only {n} citizen must leave.", "Only {n} citizens must leave.", ex)
    return Msg("The city at {castle} has only {n} citizens.", castle=castle, n=c.citizens)


def _political(s, p: int, o: Order) -> Msg:
    v = o.verb
    if v in ("wish", "demolish", "starve"):
        return Msg("'{verb}' orders come at the end of the year; now: {phase}.", verb=o.verb,
                   phase=s.phase())
    if v == "pass":
        return Msg("You may pass only when no other order is legal.")
    if v in ("gold", "build", "found") and s.actions[p] <= 0:
        return Msg("You have no action card left this year (gold, build and found use one).")
    card = o.what if v == "card" else _CARD_OF.get(v)
    if card and card not in s.display:
        shown = join([CARD[c] for c in s.display]) or Msg("none")
        return Msg("No {card} card is in the display (display: {shown}).", card=CARD[card],
                   shown=shown)
    if v in ("build", "card", "master"):
        return _building(s, p, o)
    if v == "found":
        return _found(s, p, o)
    if v == "bread":
        return _bread(s, p, o)
    if v == "golden":
        return _golden(s, p, o)
    if v == "harvest":
        return _harvest(s, p, o)
    if v == "citizens" and o.n == 3 and s.gold[p] < 2:
        return Msg("Looking at all three cards costs 2 gold; you have {gold}.", gold=s.gold[p])
    return _not_legal(o)


def _building(s, p: int, o: Order) -> Msg:
    gold = s.gold[p]
    if o.verb == "build" and o.what not in D.SMALL:
        return Msg("An action card builds only small buildings; a {building} needs its political "
                   "card.", building=BUILDING[o.what])
    if o.verb == "card" and gold < D.CARD_COST[o.what]:
        return Msg("{card} costs {cost} gold; you have {gold}.", card=CARD[o.what],
                   cost=D.CARD_COST[o.what], gold=gold)
    if o.verb == "master":
        cost = D.MASTER_COST[D.BUILDINGS[o.what][0]]
        if gold < cost:
            return Msg("Großer Baumeister costs {cost} gold for a {building}; you have {gold}.",
                       cost=cost, building=BUILDING[o.what], gold=gold)
    return _build_problem(s, p, o.site, o.what) or _not_legal(o)


def _found(s, p: int, o: Order) -> Msg:
    if s.founded[p]:
        return Msg("You have already founded a city this year (one new city per year).")
    if s.castles_left(p) <= 0:
        return Msg("You have no castle left (at most four cities).")
    givers = [c for c in s.cities_of(p) if c.spare() >= 1]
    if not givers:
        return Msg("None of your castles has a spare citizen to send to the new city.")
    prob = _site_problem(s, p, o.site, castle=True)
    if prob:
        return prob
    if not o.extra and len(givers) > 1:
        return Msg("Say which castle gives the spare citizen: {orders}.",
                   orders=or_list([f"found {o.site} from {c.castle}" for c in givers]))
    if o.extra and all(c.castle != o.extra[0] for c in givers):
        return Msg("{site} is not one of your castles with a spare citizen.", site=o.extra[0])
    return _not_legal(o)


def _bread(s, p: int, o: Order) -> Msg:
    gold, site = s.gold[p], o.site
    cost = D.NOTABLE_COST[o.n]
    c = s.city_of(site)
    if c is None or c.owner != p:
        return Msg("{site} is not one of your buildings.", site=site)
    arches = D.ARCHES[s.kind[site]]
    if not arches:
        return Msg("A notable goes only on a building with arches; the {building} at {site} has none.",
                   building=BUILDING[s.kind[site]], site=site)
    if s.notables_free(p) < o.n:
        # English keeps "1 notables" (as the tests read it); other languages get their plural forms
        return Msgn("You have {n} notables left this year.", "You have {n} notables left this year.",
                    s.notables_free(p))
    if gold < cost:
        return Msgn("{n} notable costs {cost} gold; you have {gold}.",
                    "{n} notables cost {cost} gold; you have {gold}.", o.n, cost=cost, gold=gold)
    if len(arches) == 2 and len(o.extra) != o.n:
        example = say(Order("bread", site, n=o.n, extra=("education",) * o.n))
        return Msg("Say the colour of each notable on the hospital, like: {order}.", order=example)
    return Msg("Those colours do not match the {building}'s arches.", building=BUILDING[s.kind[site]])


def _golden(s, p: int, o: Order) -> Msg:
    c = s.cities.get(o.site)
    if c is None or c.owner != p:
        return Msg("{castle} is not one of your cities.", castle=o.site)
    cost, gold = D.NOTABLE_COST[o.n], s.gold[p]
    if gold < cost:
        return Msgn("{n} citizen costs {cost} gold; you have {gold}.",
                    "{n} citizens cost {cost} gold; you have {gold}.", o.n, cost=cost, gold=gold)
    return Msg("The city at {castle} would exceed its limit of {limit} citizens (it has {n}).",
               castle=c.castle, limit=s.capacity(c), n=c.citizens)


def _harvest(s, p: int, o: Order) -> Msg:
    if s.year >= D.YEARS:
        return Msg("Reiche Ernte may not be played in the last year.")
    c = s.city_of(o.site)
    if c is None or c.owner != p or s.kind.get(o.site) != "farm":
        return Msg("{site} is not one of your farms.", site=o.site)
    if o.site in s.harvest:
        return Msg("The farm at {site} already has a Reiche Ernte this year.", site=o.site)
    if s.notables_free(p) < 1:
        return Msg("You have no notable left this year.")
    return Msg("The farm at {site} produces no food to double.", site=o.site)


def _site_problem(s, p: int, site: str, castle: bool = False) -> Msg | None:
    if site in s.occ:
        return Msg("{site} is already built on.", site=site)
    if not s.usable(site):
        return Msg("{site} is not used in a {n}-player game.", site=site, n=s.n)
    if castle and s.near.get(site):
        near = min((x for x in s.occ), key=lambda x: _dist(site, x))
        return Msg("{site} is too close to the {building} at {near}: a castle needs at least 3 free "
                   "sites between it and every other city.", site=site,
                   building=BUILDING[s.kind[near]], near=near)
    return None


def _dist(a: str, b: str) -> int:
    from pbem.engine.lacitta.geometry import DIST
    return DIST[a][b]


def _build_problem(s, p: int, site: str, kind: str) -> Msg | None:
    prob = _site_problem(s, p, site)
    if prob:
        return prob
    mine = s.cities_of(p)
    if not mine:
        return Msg("You have no city to build in.")
    city = _my_city_next_to(s, p, site)
    if city is None:
        names = join([c.castle for c in mine])
        if len(mine) == 1:
            return Msg("{site} is not next to your city at {castle}.", site=site, castle=names)
        return Msg("{site} is not next to any of your cities ({castles}).", site=site, castles=names)
    for n in SITES[site].neighbours:
        c = s.city_of(n)
        if c is not None and c is not city:
            if c.owner == p:
                return Msg("{site} is next to your city at {castle}: cities may not touch "
                           "(at least one free site between).", site=site, castle=c.castle)
            return Msg("{site} is next to {seat}'s city at {castle}: cities may not touch "
                       "(at least one free site between).", site=site, seat=seat_name(c.owner),
                       castle=c.castle)
    return _supply_problem(s, city, site, kind)


def _my_city_next_to(s, p: int, site: str):
    for n in SITES[site].neighbours:
        c = s.city_of(n)
        if c is not None and c.owner == p:
            return c
    return None


def _supply_problem(s, city, site: str, kind: str) -> Msg | None:
    if s.supply_left(kind) <= 0:
        return Msg("No {pile} tiles are left in the supply.", pile=PILE[D.PILE[kind]])
    if kind == "market":
        if any(s.kind[x] == "market" for x in city.sites):
            return Msg("The city at {castle} already has a market (one per city).", castle=city.castle)
    elif city.spare() < 1:
        return Msg("The castle at {castle} has no spare citizen ({citizens} citizens, {buildings} "
                   "buildings); one must stay in the castle.", castle=city.castle,
                   citizens=city.citizens, buildings=len(city.sites))
    if kind in D.NEEDS_WATER and not s.terrain.water[site]:
        return Msg("A {building} must stand next to water; {site} is not.", building=BUILDING[kind],
                   site=site)
    return None
