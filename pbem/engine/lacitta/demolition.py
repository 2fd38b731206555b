"""Demolishing empty buildings (la-citta.fi.txt "Tärkeää: Tyhjien
rakennusten tuhoaminen" (phase 7 end) and after feeding; RULINGS.md
"Demolition"; docs/rules/lacitta.md "Missed deadlines").

A city keeps one citizen per building; each building too many is
demolished, never the castle, and what stays must hang together around the
castle (:func:`removable`). A city whose last citizen leaves is lost. The
orders listed, the check of a whole ``demolish`` order and the refusal read
:func:`removable` and the same per-city count (:func:`surplus`).
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Callable

from pbem.engine.api import Event, IllegalOrderError
from pbem.engine.lacitta import data as D
from pbem.engine.lacitta.actions import Order, demolish as demolish_order
from pbem.engine.lacitta.city import City, connected
from pbem.engine.lacitta.geometry import ORDER
from pbem.engine.lacitta.sites import vacate
from pbem.engine.lacitta.terms import BUILDING
from pbem.engine.messages import Msg, Msgn
from pbem.engine.phrases import Seat, join

if TYPE_CHECKING:  # pragma: no cover
    from pbem.engine.lacitta.state import LaCittaState


def surplus(city: City) -> int:
    """Buildings ``city`` must lose (more buildings than citizens)."""
    return len(city.sites) - city.citizens


def removable(city: City) -> list[str]:
    """Buildings of ``city`` whose loss keeps the castle and the rest one
    connected city, in reading order; never the castle."""
    sites = set(city.sites)
    out = [b for b in city.sites[1:] if connected(city.castle, sites - {b})]
    out.sort(key=ORDER.__getitem__)
    return out


def forced(city: City) -> bool:
    """True when every way of demolishing the surplus buildings of
    ``city`` leaves the same buildings standing (searched within a budget;
    False when it runs out)."""
    need = surplus(city)
    if need <= 0 or need >= len(city.sites) - 1:
        return True
    finals: set = set()
    seen: set = set()
    budget = [3000]

    def walk(sites: frozenset, k: int) -> bool:
        if budget[0] <= 0:
            return False
        budget[0] -= 1
        if k == 0:
            finals.add(sites)
            return len(finals) <= 1
        if sites in seen:
            return True
        seen.add(sites)
        for b in sorted(sites, key=ORDER.__getitem__):   # deterministic budget use
            if b != city.castle and connected(city.castle, sites - {b}):
                if not walk(sites - {b}, k - 1):
                    return False
        return True

    ok = walk(frozenset(city.sites), need)
    return ok and budget[0] > 0 and len(finals) == 1


def demolish(s: "LaCittaState", p: int, site: str) -> list[Event]:
    """Remove the building at ``site`` (a farm takes its food along, and
    its notables and Reiche Ernte go)."""
    city = s.cities[s.occ[site]]
    kind = s.kind[site]
    city.sites.remove(site)
    vacate(s, site)
    s.used[D.PILE[kind]] -= 1
    extra: Msg | str = ""
    if kind == "farm":
        f = s.terrain.food[site]
        s.food[p] -= f
        if f:
            extra = Msg(" (−{food} food)", food=f)
        if site in s.harvest:
            s.harvest.remove(site)
    s.notables = [n for n in s.notables if n[0] != site]
    return [Event(Msg("{seat} demolishes the {building} at {site} in the city at {castle}{extra}.",
                      seat=Seat(p), building=BUILDING[kind], site=site, castle=city.castle,
                      extra=extra),
                  kind="demolish", data={"seat": p, "site": site, "building": kind,
                                         "city": city.castle})]


def lose_city(s: "LaCittaState", city: City) -> list[Event]:
    """A city without citizens: its buildings go, the castle back to its owner."""
    p = city.owner
    ev = []
    for x in list(city.sites[1:]):
        ev += demolish(s, p, x)
    f = s.terrain.food[city.castle]
    s.food[p] -= f
    vacate(s, city.castle)
    del s.cities[city.castle]
    s._by_owner = None
    if f:
        text = Msg("{seat} loses the city at {castle}: the castle goes back to its owner "
                   "(−{food} food).", seat=Seat(p), castle=city.castle, food=f)
    else:
        text = Msg("{seat} loses the city at {castle}: the castle goes back to its owner.",
                   seat=Seat(p), castle=city.castle)
    ev.append(Event(text, kind="lose_city", data={"seat": p, "city": city.castle}))
    return ev


def auto_demolish(s: "LaCittaState", p: int) -> list[Event]:
    """Take every demolition whose outcome is forced (and lose the cities
    with no citizen left)."""
    ev: list[Event] = []
    for c in s.cities_of(p):
        while surplus(c) > 0:
            if c.citizens <= 0:
                ev += lose_city(s, c)
                break
            if not forced(c):
                break
            ev += demolish(s, p, removable(c)[0])
    return ev


def pending(s: "LaCittaState", p: int) -> bool:
    """Some city of ``p`` still has a building too many."""
    return any(surplus(c) > 0 for c in s.cities_of(p))


def orders(s: "LaCittaState", seat: int) -> list[Order]:
    """``demolish X`` for each removable building of a city with a surplus."""
    return [demolish_order(b) for c in s.cities_of(seat) if surplus(c) > 0 for b in removable(c)]


def check(s: "LaCittaState", seat: int, action: Order, text: str) -> None:
    """A whole ``demolish F7 G7`` order: own buildings (never a castle) of
    cities that must lose buildings now, no more per city than it must
    lose, each city staying connected to its castle (raises
    :class:`IllegalOrderError` saying what is wrong)."""
    if s.yearend[seat]["stage"] == "starve":
        raise IllegalOrderError(Msg("{n} citizens must leave for lack of food first "
                                    "(starve E3 1).", n=s.yearend[seat]["excess"]), text=text)
    if len(set(action.extra)) != len(action.extra):
        raise IllegalOrderError(Msg("A site is named twice."), text=text)
    per: dict[str, set] = {}
    for part in action.extra:
        c = s.city_of(part)
        if c is None or c.owner != seat:
            raise IllegalOrderError(Msg("{site} is not one of your buildings.", site=part), text=text)
        if part == c.castle:
            raise IllegalOrderError(Msg("The castle at {castle} goes only with the city's "
                                        "last citizen.", castle=part), text=text)
        per.setdefault(c.castle, set()).add(part)
    for castle, gone in per.items():
        c = s.cities[castle]
        need = surplus(c)
        if len(gone) > need:
            raise IllegalOrderError(Msgn(
                "The city at {castle} must lose {n} building, not {named}.",
                "The city at {castle} must lose {n} buildings, not {named}.",
                max(need, 0), castle=castle, named=len(gone)), text=text)
        if not connected(castle, set(c.sites) - gone):
            raise IllegalOrderError(Msg(
                "Demolishing {sites} would cut the city at {castle} in two; the rest must "
                "stay connected to the castle.",
                sites=" ".join(sorted(gone, key=ORDER.__getitem__)), castle=castle), text=text)


def why_not(s: "LaCittaState", p: int, o: Order) -> Msg:
    """Why a single order is refused while ``p`` must demolish."""
    if o.verb != "demolish":
        return Msg("Now buildings without citizens must be demolished: demolish F6.")
    site = o.site
    c = s.city_of(site)
    if c is None or c.owner != p:
        return Msg("{site} is not one of your buildings.", site=site)
    if site == c.castle:
        return Msg("The castle goes only with the city's last citizen.")
    if surplus(c) <= 0:
        return Msg("The city at {castle} has a citizen for every building; nothing to demolish there.",
                   castle=c.castle)
    return Msg("Demolishing {site} would cut the city at {castle} in two; demolish from the edge: "
               "{sites}.", site=site, castle=c.castle, sites=join(removable(c)))


def _cost(s: "LaCittaState", site: str) -> tuple:
    """What losing the building at ``site`` costs, lowest first: food,
    a market/fountain/bathhouse, arches, then reading order."""
    kind = s.kind[site]
    food = s.terrain.food[site] if kind == "farm" else 0
    arches = sum(D.ARCHES[kind].values())
    keep = 1 if kind in ("market", "fountain", "bathhouse") else 0
    return (food, keep, arches, -ORDER[site])


def default(s: "LaCittaState", seat: int, play: Callable[["LaCittaState", int, Order], list]) -> Order:
    """Missed deadline: the cheapest buildings first (:func:`_cost`), tried
    on a copy with ``play`` (apply without the checks); only this
    demolition's buildings: the one after feeding is a decision of its own,
    defaulted in its turn."""
    trial = s.copy()
    parts = []
    stage = s.yearend[seat]["stage"]
    while seat in trial.yearend and trial.yearend[seat]["stage"] == stage:
        opts = trial.legal_actions(seat)
        if not opts:
            break
        best = min(opts, key=lambda o: _cost(trial, o.site))
        parts.append(best.site)
        trial._step += 1
        trial._legal_cache = None
        play(trial, seat, best)
    return demolish_order(*parts)
