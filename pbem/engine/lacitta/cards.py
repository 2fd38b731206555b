"""The political cards with actions other than building, and the display
they are taken from (la-citta.fi.txt "B. Poliittikkakorttien pelaaminen",
"Leipä ja Pelit" (bread and games), "Hyvät Ajat" (golden age), "Runsas
Sato" (rich harvest), "Ihmisläheisyys" (citizens); RULINGS.md, La Città).

For each card, the orders it allows, what it does, and why an order of it
is refused sit side by side and read the same limits
(:func:`notable_top`, :func:`golden_room`, :func:`harvest_farms`).
"""
from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from pbem.engine.api import Event
from pbem.engine.lacitta import data as D
from pbem.engine.lacitta.actions import Order
from pbem.engine.lacitta.city import City
from pbem.engine.lacitta.geometry import ORDER
from pbem.engine.lacitta.terms import BUILDING, WISH
from pbem.engine.lacitta.words import say
from pbem.engine.messages import Msg, Msgn
from pbem.engine.phrases import Seat, and_list, join

if TYPE_CHECKING:  # pragma: no cover
    from pbem.engine.lacitta.state import LaCittaState

_mk = tuple.__new__
_PEEK2 = Order("citizens", n=2)
_PEEK3 = Order("citizens", n=3)
# hospital notables: e for education, the rest health (canonical order)
_HOSPITAL = {k: [("education",) * e + ("health",) * (k - e) for e in range(k + 1)] for k in (1, 2, 3)}


def paid(cost: int) -> Msg:
    """The tail of an event that cost gold: ``", paying 2 gold."`` (or ``"."``)."""
    return Msg(", paying {cost} gold.", cost=cost) if cost else Msg(".")


# ------------------------------------------------------------ the display
def draw(s: "LaCittaState") -> str | None:
    """The top political card (the discards reshuffled when the deck is
    empty), or None when there is none."""
    if not s.deck and s.discard:
        s.deck = s.discard
        s.discard = []
        s.rng.shuffle(s.deck)
    return s.deck.pop(0) if s.deck else None


def take(s: "LaCittaState", card: str) -> None:
    """Take ``card`` from the display; the top card fills the gap."""
    i = s.display.index(card)
    top = draw(s)
    if top is None:
        del s.display[i]
    else:
        s.display[i] = top


# -------------------------------------------------------- bread and games
def notable_top(s: "LaCittaState", p: int, gold: int) -> int:
    """Most notables ``p`` may place now (at most 3, as many as are free
    and as gold pays for)."""
    top = min(3, s.notables_free(p))
    while top and gold < D.NOTABLE_COST[top]:
        top -= 1
    return top


def list_bread(s: "LaCittaState", p: int, mine: list[City], gold: int, acts: list) -> None:
    """``bread and games X xN`` on each own building with arches (a hospital
    names the colour of each notable)."""
    top = notable_top(s, p, gold)
    if not top:
        return
    kind_of = s.kind
    add = acts.append
    for c in mine:
        for x in sorted(c.sites, key=ORDER.__getitem__):
            arch = D.ARCHES[kind_of[x]]
            if not arch:
                continue
            for k in range(1, top + 1):
                if len(arch) == 1:
                    add(_mk(Order, ("bread", x, "", k, ())))
                else:
                    for extra in _HOSPITAL[k]:
                        add(_mk(Order, ("bread", x, "", k, extra)))


def bread(s: "LaCittaState", p: int, a: Order, title: Msg) -> list[Event]:
    """Place ``a.n`` notables on the building at ``a.site``."""
    cost = D.NOTABLE_COST[a.n]
    s.gold[p] -= cost
    kind = s.kind[a.site]
    wishes = a.extra or tuple(D.ARCHES[kind]) * a.n
    for w in wishes:
        s.notables.append([a.site, p, w])
    counts = Counter(wishes)
    what = and_list([Msg("{n} {wish}", n=n, wish=WISH[w]) for w, n in sorted(counts.items())])
    return [Event(Msgn("{seat} plays {card}: {n} notable on the {building} at {site} "
                       "({wishes}){paid}",
                       "{seat} plays {card}: {n} notables on the {building} at {site} "
                       "({wishes}){paid}", a.n, seat=Seat(p), card=title, building=BUILDING[kind],
                       site=a.site, wishes=what, paid=paid(cost)),
                  kind="bread", data={"seat": p, "site": a.site, "wishes": list(wishes)})]


def why_not_bread(s: "LaCittaState", p: int, o: Order) -> Msg:
    """Why a ``bread and games`` order is refused."""
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


# ------------------------------------------------------------ golden age
def golden_room(s: "LaCittaState", city: City) -> int:
    """Citizens ``city`` may still take below its population limit."""
    return s.capacity(city) - city.citizens


def list_golden(s: "LaCittaState", p: int, mine: list[City], gold: int, acts: list) -> None:
    """``golden age C xN``: 1-3 citizens into a city with room, paid by count."""
    for c in mine:
        for k in range(1, min(3, golden_room(s, c)) + 1):
            if gold < D.NOTABLE_COST[k]:
                break
            acts.append(_mk(Order, ("golden", c.castle, "", k, ())))


def golden(s: "LaCittaState", p: int, a: Order, title: Msg) -> list[Event]:
    """``a.n`` citizens from the bank into the city at ``a.site``."""
    cost = D.NOTABLE_COST[a.n]
    s.gold[p] -= cost
    city = s.cities[a.site]
    city.citizens += a.n
    s.bank -= a.n
    return [Event(Msgn("{seat} plays {card}: {n} citizen into the city at {castle} (now "
                       "{citizens}){paid}",
                       "{seat} plays {card}: {n} citizens into the city at {castle} (now "
                       "{citizens}){paid}", a.n, seat=Seat(p), card=title, castle=a.site,
                       citizens=city.citizens, paid=paid(cost)),
                  kind="golden", data={"seat": p, "city": a.site, "n": a.n})]


def why_not_golden(s: "LaCittaState", p: int, o: Order) -> Msg:
    """Why a ``golden age`` order is refused."""
    c = s.cities.get(o.site)
    if c is None or c.owner != p:
        return Msg("{castle} is not one of your cities.", castle=o.site)
    cost, gold = D.NOTABLE_COST[o.n], s.gold[p]
    if gold < cost:
        return Msgn("{n} citizen costs {cost} gold; you have {gold}.",
                    "{n} citizens cost {cost} gold; you have {gold}.", o.n, cost=cost, gold=gold)
    # o.n > golden_room(s, c): the limit of list_golden
    return Msg("The city at {castle} would exceed its limit of {limit} citizens (it has {n}).",
               castle=c.castle, limit=s.capacity(c), n=c.citizens)


# ----------------------------------------------------------- rich harvest
def harvest_farms(s: "LaCittaState", p: int, mine: list[City]) -> list[str]:
    """Farms of ``p`` a Reiche Ernte may go on (not in the last year, a
    notable free, the farm feeds and has none yet)."""
    if s.year >= D.YEARS or s.notables_free(p) <= 0:
        return []
    food = s.terrain.food
    kind_of = s.kind
    return [x for c in mine for x in sorted(c.sites, key=ORDER.__getitem__)
            if kind_of[x] == "farm" and x not in s.harvest and food[x] > 0]


def list_harvest(s: "LaCittaState", p: int, mine: list[City], gold: int, acts: list) -> None:
    """``rich harvest F``."""
    for x in harvest_farms(s, p, mine):
        acts.append(_mk(Order, ("harvest", x, "", 0, ())))


def harvest(s: "LaCittaState", p: int, a: Order, title: Msg) -> list[Event]:
    """A notable on the farm: its food counts twice at this year's feeding."""
    s.harvest.append(a.site)
    return [Event(Msg("{seat} plays {card} on the farm at {site} (+{food} food at this year's "
                      "feeding).", seat=Seat(p), card=title, site=a.site,
                      food=s.terrain.food[a.site]), kind="harvest", data={"seat": p, "site": a.site})]


def why_not_harvest(s: "LaCittaState", p: int, o: Order) -> Msg:
    """Why a ``rich harvest`` order is refused."""
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


# -------------------------------------------------------------- citizens
def list_citizens(s: "LaCittaState", p: int, mine: list[City], gold: int, acts: list) -> None:
    """``citizens 2`` (free) and ``citizens 3`` (2 gold)."""
    acts.append(_PEEK2)
    if gold >= D.PEEK_COST[3]:
        acts.append(_PEEK3)


def citizens(s: "LaCittaState", p: int, a: Order, title: Msg) -> list[Event]:
    """Look at 2 or 3 hidden Voice of the People cards (only ``p`` sees them)."""
    cost = D.PEEK_COST[a.n]
    s.gold[p] -= cost
    if a.n == 3:
        positions = [1, 2, 3]
    else:
        # the two hidden cards this seat has not seen yet, lowest first
        # (which two is otherwise a blind choice; a second Bürgernähe
        # in one year thus shows the third card)
        unseen = [i for i in (1, 2, 3) if i not in s.peeked[p]]
        positions = sorted((unseen + [i for i in (1, 2, 3) if i not in unseen])[:2])
    for i in positions:
        if i not in s.peeked[p]:
            s.peeked[p].append(i)
    s.peeked[p].sort()
    seen = join([Msg("card {n}: {wish}", n=i + 1, wish=WISH[s.voice[i]]) for i in positions])
    return [Event(Msg("{seat} plays {card} and looks at {n} hidden Voice of the People "
                      "cards{paid}", seat=Seat(p), card=title, n=a.n, paid=paid(cost)),
                  kind="citizens", data={"seat": p, "n": a.n}),
            Event(Msg("You see the Voice of the People: {cards}.", cards=seen), seat=p,
                  kind="peek",
                  data={"cards": {str(i + 1): s.voice[i] for i in positions}})]


def why_not_citizens(s: "LaCittaState", p: int, o: Order) -> Msg | None:
    """Why a ``citizens`` order is refused, or None."""
    if o.n == 3 and s.gold[p] < D.PEEK_COST[3]:
        return Msg("Looking at all three cards costs 2 gold; you have {gold}.", gold=s.gold[p])
    return None


#: verb -> (card, its listing, what it does, why an order of it is refused)
RULES = {
    "bread": ("bread and games", list_bread, bread, why_not_bread),
    "golden": ("golden age", list_golden, golden, why_not_golden),
    "harvest": ("rich harvest", list_harvest, harvest, why_not_harvest),
    "citizens": ("citizens", list_citizens, citizens, why_not_citizens),
}
#: card -> its listing
LISTING = {card: lister for card, lister, _, _ in RULES.values()}
