"""The start and the end of a year (la-citta.fi.txt "Pelin kulku": "1.
Aloittavan pelaajan vaihto", "3. Tulot louhoksista", "4. Asukkaiden
lisääntyminen"; "Pelivuoden loppuminen"). Phase 2 is
:func:`voice.deal`."""
from __future__ import annotations

from typing import TYPE_CHECKING

from pbem.engine.api import Event
from pbem.engine.lacitta import data as D
from pbem.engine.lacitta import voice
from pbem.engine.messages import Msg, Msgn
from pbem.engine.phrases import Seat, join, seat as seat_name

if TYPE_CHECKING:  # pragma: no cover
    from pbem.engine.lacitta.state import LaCittaState


def begin(s: "LaCittaState", year: int) -> list[Event]:
    """Phases 1–4 of ``year``; the state is then at political round 1,
    the start player's turn (not yet settled)."""
    s.year = year
    if year > 1:
        s.start = (s.start + 1) % s.n
    ev = [Event(Msg("Year {year} begins; {seat} is the start player.", year=year,
                    seat=seat_name(s.start)), kind="year",
                data={"year": year, "start": s.start})]
    ev += voice.deal(s)
    ev += _income(s)
    ev += _growth(s)
    s.phase_name = "political"
    s.round = 1
    s.turn = 0
    return ev


def _income(s: "LaCittaState") -> list[Event]:
    """Phase 3: each quarry pays a gold per mountain next to it."""
    ev = []
    for p in s.order():
        income = sum(s.terrain.mountains[x] for c in s.cities_of(p) for x in c.sites
                     if s.kind[x] == "quarry")
        if income:
            s.gold[p] += income
            ev.append(Event(Msg("{seat} receives {income} gold from quarries (now {gold}).",
                                seat=Seat(p), income=income, gold=s.gold[p]),
                            kind="income", data={"seat": p, "gold": income}))
    return ev


def _growth(s: "LaCittaState") -> list[Event]:
    """Phase 4: a citizen into each city below its population limit."""
    ev = []
    for p in s.order():
        grown = []
        for c in s.cities_of(p):
            if c.citizens < s.capacity(c):
                c.citizens += 1
                s.bank -= 1
                grown.append(c.castle)
        if grown:
            ev.append(Event(Msgn("Growth: {seat} gains a citizen in the city at {castles}.",
                                 "Growth: {seat} gains a citizen in the cities at {castles}.",
                                 len(grown), seat=seat_name(p), castles=join(grown)),
                            kind="growth", data={"seat": p, "cities": grown}))
    return ev


def close(s: "LaCittaState") -> list[Event]:
    """Pelivuoden loppuminen: played cards to the discards, notables and
    action cards back, the year's marks cleared."""
    s.discard += [c for p in range(s.n) for c in s.played[p]]
    s.played = [[] for _ in range(s.n)]
    s.voice = []
    s.wishes = []
    s.revealed = False
    s.peeked = [[] for _ in range(s.n)]
    s.notables = []
    s.harvest = []
    s.actions = [D.ACTION_CARDS] * s.n
    s.founded = [False] * s.n
    s.famine_now = [False] * s.n
    return [Event(Msg("End of year {year}.", year=s.year), kind="year_end", data={"year": s.year})]
