"""Migration (phase 7): which citizens move, and when a wish is worth asking.

Rule text: la-citta.fi.txt, "Kansalaisten muutto" (phase 7); RULINGS.md, La
Città. A seat's city takes one citizen from each neighbouring city (another
seat's, 1 or 2 sites between) with fewer arches of the wish; a city at its
population limit does not stop the loss (the citizen goes to the bank); a
city with no citizens left gives nothing.

Our decisions (docs/rules/lacitta.md, "Migration"), both what a player at
the table would do:

* When a full city and another city of the same seat with room both beat a
  neighbour, the city with room draws first, so a citizen the neighbour
  cannot spare twice is not thrown away. Otherwise cities draw in reading
  order of their castles, neighbours likewise.
* In a two-wish year a city's wish is asked only when the two wishes lead to
  a different migration (citizens of every city and the bank) for some
  choice of the seat's other cities. A neighbour already emptied no longer
  counts as beaten.

Everything here is computed on a plain ``{castle: citizens}`` dict first
(:func:`plan`), so the question asked and the migration applied come from
one function and cannot drift apart.
"""
from __future__ import annotations

from dataclasses import dataclass
from itertools import product
from typing import TYPE_CHECKING

from pbem.engine.api import Event
from pbem.engine.lacitta.actions import Order
from pbem.engine.lacitta.geometry import ORDER
from pbem.engine.lacitta.terms import WISH
from pbem.engine.messages import Msg
from pbem.engine.phrases import Seat, and_list, seat as seat_name

if TYPE_CHECKING:  # pragma: no cover
    from pbem.engine.lacitta.city import City
    from pbem.engine.lacitta.state import LaCittaState

#: above this many cities of one seat the question falls back to comparing
#: beaten neighbours per city (2**(n-1) plans per city otherwise)
MAX_EXACT_CITIES = 8


@dataclass(frozen=True)
class Draw:
    """One citizen leaving ``source`` (castle site) for ``target``;
    ``arrived`` is False when ``target`` was full and it went to the bank."""

    source: str
    target: str
    wish: str
    arrived: bool


def _beating_pairs(state: "LaCittaState", seat: int,
                   choice: dict[str, str | None]) -> list[tuple["City", "City", str]]:
    """(city, neighbour, wish) for every neighbour a city of ``seat`` beats,
    cities and neighbours in reading order."""
    pairs = []
    for city in state.cities_of(seat):
        wish = choice.get(city.castle) or state.wishes[0]
        mine = state.arches(city, wish)
        pairs += [(city, o, wish) for o in state.neighbours(city) if state.arches(o, wish) < mine]
    return pairs


def plan(state: "LaCittaState", seat: int, choice: dict[str, str | None],
         citizens: dict[str, int] | None = None) -> list[Draw]:
    """The draws of ``seat``'s migration with the wish ``choice`` per castle
    (``None`` or missing: the first wish), starting from ``citizens``
    (castle -> citizens; default: the state's). Pure: the state is not
    changed. A full city's draw from a neighbour that another city of the
    seat with room also beats waits until that city has drawn."""
    left = dict(citizens) if citizens is not None else {k: c.citizens for k, c in state.cities.items()}
    pairs = _beating_pairs(state, seat, choice)
    caps = {c.castle: state.capacity(c) for c, _, _ in pairs}
    done: set[tuple[str, str]] = set()
    draws: list[Draw] = []

    def draw(city: "City", o: "City", wish: str) -> None:
        done.add((city.castle, o.castle))
        if left[o.castle] <= 0:
            return
        left[o.castle] -= 1
        arrived = left[city.castle] < caps[city.castle]
        if arrived:
            left[city.castle] += 1
        draws.append(Draw(o.castle, city.castle, wish, arrived))

    def roomy_rival(city: "City", o: "City") -> bool:
        return any(c2 is not city and o2 is o and (c2.castle, o.castle) not in done
                   and left[c2.castle] < caps[c2.castle] for c2, o2, _ in pairs)

    deferred = []
    for city, o, wish in pairs:
        if left[city.castle] >= caps[city.castle] and roomy_rival(city, o):
            deferred.append((city, o, wish))
        else:
            draw(city, o, wish)
    for city, o, wish in deferred:
        draw(city, o, wish)
    return draws


def outcome(state: "LaCittaState", seat: int, choice: dict[str, str | None]) -> tuple:
    """What a migration leaves behind: citizens per castle and the citizens
    sent to the bank, as a comparable tuple."""
    left = {k: c.citizens for k, c in state.cities.items()}
    bank = 0
    for d in plan(state, seat, choice):
        left[d.source] -= 1
        if d.arrived:
            left[d.target] += 1
        else:
            bank += 1
    return tuple(sorted(left.items())), bank


def wish_questions(state: "LaCittaState", seat: int) -> dict[str, str | None]:
    """Two-wish year: castle -> ``None`` for each city of ``seat`` whose wish
    changes the migration (asked with ``wish C3 culture``), else the first
    wish, fixed without asking."""
    cities = [c.castle for c in state.cities_of(seat)]
    first, second = state.wishes
    questions: dict[str, str | None] = {}
    seen: dict[tuple, tuple] = {}

    def result(choice: dict[str, str | None]) -> tuple:
        # the same full choice comes up once per castle: plan it once
        key = tuple(sorted(choice.items()))
        got = seen.get(key)
        if got is None:
            got = seen[key] = outcome(state, seat, choice)
        return got

    for castle in cities:
        others = [k for k in cities if k != castle]
        if len(cities) > MAX_EXACT_CITIES:
            combos = [(first,) * len(others)]
        else:
            combos = product(state.wishes, repeat=len(others))
        matters = any(
            result({**dict(zip(others, combo)), castle: first})
            != result({**dict(zip(others, combo)), castle: second})
            for combo in combos)
        questions[castle] = None if matters else first
    return questions


def beaten(state: "LaCittaState", city: "City", wish: str) -> list[str]:
    """Castles of the neighbours ``city`` beats with ``wish`` that still have
    citizens to give (the missed-deadline default picks the wish beating
    most)."""
    mine = state.arches(city, wish)
    return [o.castle for o in state.neighbours(city)
            if o.citizens > 0 and state.arches(o, wish) < mine]


# ------------------------------------------------------- the phase itself
def run(s: "LaCittaState") -> tuple[list[Event], bool]:
    """Phase 7, seat by seat from the start player; True when every seat
    has migrated, False when a wish must be asked first (only in a two-wish
    year and only where the two wishes differ)."""
    ev: list[Event] = []
    while s.mig_index < s.n:
        p = s.order()[s.mig_index]
        if len(s.wishes) == 2 and not s.wish_choice:
            choice = wish_questions(s, p)
            if any(w is None for w in choice.values()):
                s.wish_choice = choice
                return ev, False
        ev += migrate_seat(s, p)
        s.mig_index += 1
    return ev, True


def migrate_seat(s: "LaCittaState", p: int) -> list[Event]:
    """Apply seat ``p``'s migration as :func:`plan` lays it out."""
    ev = []
    for d in plan(s, p, s.wish_choice):
        c, o = s.cities[d.target], s.cities[d.source]
        o.citizens -= 1
        if d.arrived:
            c.citizens += 1
            tail = Msg(".")
        else:
            s.bank += 1
            # name the full city: "that city" read as the city drawn from (issue 29)
            tail = Msg(", but the city at {castle} is full: the citizen goes back to the bank.",
                       castle=c.castle)
        ev.append(Event(Msg("Migration ({wish} {arches} against {other}): {seat}'s city at "
                            "{castle} draws a citizen from {from_seat}'s city at {from_castle}"
                            "{tail}", wish=WISH[d.wish], arches=s.arches(c, d.wish),
                            other=s.arches(o, d.wish), seat=seat_name(p), castle=c.castle,
                            from_seat=seat_name(o.owner), from_castle=o.castle, tail=tail),
                        kind="migration",
                        data={"from": o.castle, "to": c.castle, "wish": d.wish,
                              "arrived": d.arrived}))
    s.wish_choice = {}
    return ev


def wish_orders(s: "LaCittaState") -> list[Order]:
    """``wish C w`` for each city still asked, each of the year's wishes."""
    return [Order("wish", c, w) for c in sorted(s.wish_choice, key=ORDER.__getitem__)
            if s.wish_choice[c] is None for w in s.wishes]


def choose(s: "LaCittaState", seat: int, a: Order) -> tuple[list[Event], bool]:
    """Take ``wish C w``; once every asked city has its wish the seat
    migrates (True: the phase goes on)."""
    s.wish_choice[a.site] = a.what
    ev = [Event(Msg("{seat} chooses {wish} for the city at {castle}.", seat=Seat(seat),
                    wish=WISH[a.what], castle=a.site), kind="wish",
                data={"seat": seat, "city": a.site, "wish": a.what})]
    if any(w is None for w in s.wish_choice.values()):
        return ev, False
    ev += migrate_seat(s, s.order()[s.mig_index])
    s.mig_index += 1
    return ev, True


def why_not(s: "LaCittaState", o: Order) -> Msg:
    """Why an order is refused while a wish is asked."""
    if o.verb != "wish":
        return Msg("Now each city's wish is chosen: wish E3 culture.")
    if o.site not in s.wish_choice:
        return Msg("{site} is not one of your cities that needs a wish now.", site=o.site)
    if o.what not in s.wishes:
        return Msg("The people wish for {wishes} this year, not {wish}.",
                   wishes=and_list([WISH[w] for w in s.wishes]), wish=WISH.get(o.what, o.what))
    return Msg("The wish for the city at {site} is already chosen.", site=o.site)


def default(s: "LaCittaState") -> Order:
    """Missed deadline: for the first city asked, the wish that beats the
    most neighbours (the first wish on a tie)."""
    city = next(c for c in sorted(s.wish_choice, key=ORDER.__getitem__)
                if s.wish_choice[c] is None)
    c = s.cities[city]
    best = max(s.wishes, key=lambda w: (len(beaten(s, c, w)), -s.wishes.index(w)))
    return Order("wish", city, best)
