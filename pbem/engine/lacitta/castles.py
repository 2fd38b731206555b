"""Castles: placing them at setup and founding a city with an action card
(la-citta.fi.txt "Alkuasetus kokeneille", "A. Toimintakorttien
pelaaminen" (take one of your castles), "Asettelusääntö",
"Välimatkasääntö"; docs/rules/lacitta.md "Setup").

A castle needs 3 free sites to every building (:func:`sites.castle_sites`);
a founded city starts with 3 citizens, one of them the spare citizen of one
of the seat's castles; one founding per year, four castles per seat.
Listing and refusal read the same tests (:func:`may_found`, :func:`givers`,
:func:`sites.site_problem`).
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from pbem.engine.api import Event
from pbem.engine.lacitta import data as D
from pbem.engine.lacitta.actions import Order
from pbem.engine.lacitta.city import City
from pbem.engine.lacitta.geometry import ORDER
from pbem.engine.lacitta.sites import castle_sites, occupy, roomiest_sites, site_problem
from pbem.engine.lacitta.words import say
from pbem.engine.messages import Msg
from pbem.engine.phrases import Seat, or_list, seat as seat_name

if TYPE_CHECKING:  # pragma: no cover
    from pbem.engine.lacitta.state import LaCittaState

_mk = tuple.__new__
#: citizens of a founded city (the spare citizen moved in included)
FOUNDED_CITIZENS = 3
_FOUND_ORDERS = {x: Order("found", x) for x in ORDER}
_FOUND_FROM: dict[tuple[str, str], Order] = {}      # (site, giving castle) -> order, filled lazily


def castle_text(seat: int, site: str, citizens: int, food: int, setup: bool,
                giver: str | None = None) -> Msg:
    """The log line of a castle placed (setup) or a city founded (from ``giver``)."""
    if setup:
        if food:
            return Msg("{seat} places a castle at {site} with {n} citizens (+{food} food).",
                       seat=Seat(seat), site=site, n=citizens, food=food)
        return Msg("{seat} places a castle at {site} with {n} citizens.", seat=Seat(seat), site=site,
                   n=citizens)
    if giver is None:
        if food:
            return Msg("{seat} founds a city at {site} with {n} citizens (+{food} food).",
                       seat=Seat(seat), site=site, n=citizens, food=food)
        return Msg("{seat} founds a city at {site} with {n} citizens.", seat=Seat(seat), site=site,
                   n=citizens)
    if food:
        return Msg("{seat} founds a city at {site} with {n} citizens (+{food} food); one citizen came "
                   "from the castle at {castle}.", seat=Seat(seat), site=site, n=citizens, food=food,
                   castle=giver)
    return Msg("{seat} founds a city at {site} with {n} citizens; one citizen came from the castle at "
               "{castle}.", seat=Seat(seat), site=site, n=citizens, castle=giver)


def place_castle(s: "LaCittaState", seat: int, site: str, citizens: int, setup: bool) -> list[Event]:
    """A new city of ``seat`` at ``site`` with ``citizens`` from the bank and
    the castle site's food."""
    city = City(site, seat, citizens, [site])
    s.cities[site] = city
    s._by_owner = None
    occupy(s, site, city, "castle")
    s.bank -= citizens
    food = s.terrain.food[site]
    s.food[seat] += food
    return [Event(castle_text(seat, site, citizens, food, setup), kind="castle" if setup else "found",
                  data={"seat": seat, "site": site, "food": food})]


# ------------------------------------------------------------------ setup
def setup_orders(s: "LaCittaState") -> list[Order]:
    """The castle sites of an experienced setup (the roomiest free sites
    when none keeps the spacing)."""
    return [Order("castle", x) for x in castle_sites(s) or roomiest_sites(s)]


def place_setup_castle(s: "LaCittaState", seat: int, site: str) -> tuple[list[Event], bool]:
    """One snake-order castle placement; True once the last castle is placed
    (the seat after the last placer then starts)."""
    ev = place_castle(s, seat, site, D.START_CITIZENS, setup=True)
    s.turn += 1
    if s.turn < len(s.setup_order):
        return ev, False
    s.start = (s.setup_order[-1] + 1) % s.n
    ev.append(Event(Msg("Setup complete; {seat} is the start player.", seat=seat_name(s.start)),
                    kind="setup"))
    return ev, True


def why_not_setup(s: "LaCittaState", o: Order) -> Msg:
    """Why a setup order is refused."""
    if o.verb != "castle":
        return Msg("During setup the only order is '{example}' (now: {phase}).",
                   example=say(Order("castle", "F6")), phase=s.phase())
    return (site_problem(s, o.site, castle=True)
            or Msg("{site} cannot take a castle now.", site=o.site))


# --------------------------------------------------------------- founding
def may_found(s: "LaCittaState", p: int) -> bool:
    """Not yet founded this year and a castle left."""
    return not s.founded[p] and s.castles_left(p) > 0


def givers(mine: list[City]) -> list[City]:
    """The seat's cities with a spare citizen for a new city."""
    return [c for c in mine if c.citizens > len(c.sites)]


def list_found(s: "LaCittaState", p: int, mine: list[City], acts: list) -> None:
    """Append the found orders (``found X`` with one giver, else ``found X
    from C``); cached per giver set until the castle sites change."""
    if not may_found(s, p):
        return
    gives = tuple(c.castle for c in givers(mine))
    if not gives:
        return
    fc = s._found_cache
    if fc is None:
        fc = s._found_cache = {}
    key = gives if len(gives) > 1 else None
    found = fc.get(key)
    if found is None:
        sites = castle_sites(s)
        if len(gives) == 1:
            found = [_FOUND_ORDERS[x] for x in sites]
        else:
            found = []
            for x in sites:
                for g in gives:
                    o = _FOUND_FROM.get((x, g))
                    if o is None:
                        o = _FOUND_FROM[(x, g)] = _mk(Order, ("found", x, "", 0, (g,)))
                    found.append(o)
        fc[key] = found
    acts += found


def found(s: "LaCittaState", p: int, a: Order) -> list[Event]:
    """Found a city at ``a.site``; its third citizen leaves the giving castle."""
    giver = s.cities[a.extra[0]] if a.extra else next(c for c in s.cities_of(p) if c.spare() >= 1)
    giver.citizens -= 1
    s.bank += 1                     # the spare citizen moves (counted via the bank)
    s.founded[p] = True
    ev = place_castle(s, p, a.site, FOUNDED_CITIZENS, setup=False)
    text = castle_text(p, a.site, FOUNDED_CITIZENS, ev[0].data["food"], False, giver.castle)
    return [Event(text, kind="found", data=dict(ev[0].data, source=giver.castle))]


def why_not_found(s: "LaCittaState", p: int, o: Order) -> Msg | None:
    """Why a ``found`` order is refused, or None."""
    if s.founded[p]:
        return Msg("You have already founded a city this year (one new city per year).")
    if s.castles_left(p) <= 0:
        return Msg("You have no castle left (at most four cities).")
    gives = givers(s.cities_of(p))
    if not gives:
        return Msg("None of your castles has a spare citizen to send to the new city.")
    prob = site_problem(s, o.site, castle=True)
    if prob:
        return prob
    if not o.extra and len(gives) > 1:
        return Msg("Say which castle gives the spare citizen: {orders}.",
                   orders=or_list([f"found {o.site} from {c.castle}" for c in gives]))
    if o.extra and all(c.castle != o.extra[0] for c in gives):
        return Msg("{site} is not one of your castles with a spare citizen.", site=o.extra[0])
    return None
