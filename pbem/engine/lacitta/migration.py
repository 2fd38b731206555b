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

if TYPE_CHECKING:  # pragma: no cover
    from pbem.engine.lacitta.state import City, LaCittaState

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
    for castle in cities:
        others = [k for k in cities if k != castle]
        if len(cities) > MAX_EXACT_CITIES:
            combos = [(first,) * len(others)]
        else:
            combos = product(state.wishes, repeat=len(others))
        matters = any(
            outcome(state, seat, {**dict(zip(others, combo)), castle: first})
            != outcome(state, seat, {**dict(zip(others, combo)), castle: second})
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
