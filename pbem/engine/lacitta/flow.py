"""The course of a year, from one decision to the next (la-citta.fi.txt
"Pelin kulku", phases 1-8, "Pelivuoden loppuminen", "Erikoinen kuudes
pelivuosi"): :func:`play` applies a checked order and runs everything the
engine decides on its own until a seat must decide again.

The rule modules each do one step and return its events; only this module
moves from phase to phase, so they never import each other in a circle.
Phases (``state.phase_name``): ``setup`` (experienced castle placement),
``political`` (phase 5), ``migration`` (phase 7 when a wish is asked),
``yearend`` (demolition, feeding, demolition; seats decide at once),
``over``.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from pbem.engine.api import Event, IllegalOrderError
from pbem.engine.lacitta import castles, demolition, feeding, migration, political, scoring, voice
from pbem.engine.lacitta import data as D
from pbem.engine.lacitta import year as years
from pbem.engine.lacitta.actions import Order
from pbem.engine.lacitta.explain import not_legal

if TYPE_CHECKING:  # pragma: no cover
    from pbem.engine.lacitta.state import LaCittaState


def play(s: "LaCittaState", seat: int, a: Order) -> list[Event]:
    """Apply the single order ``a`` of ``seat`` (already checked) and what follows it."""
    v = a.verb
    if v == "castle":
        ev, done = castles.place_setup_castle(s, seat, a.site)
        if done:
            s.phase_name = "political"
            ev += start_year(s, 1)
        return ev
    if s.phase_name == "political":
        ev = political.apply(s, seat, a)
        return ev + next_turn(s)
    if v == "wish":
        ev, done = migration.choose(s, seat, a)
        return ev + run_migration(s) if done else ev
    if v == "demolish":
        ev = demolition.demolish(s, seat, a.site)
        return ev + after_yearend_order(s, seat)
    if v == "starve":
        castle, k = a.extra[0]
        ev = feeding.starve(s, seat, castle, k)
        return ev + after_yearend_order(s, seat)
    raise IllegalOrderError(not_legal(a), text=a.to_text())


def play_parts(s: "LaCittaState", seat: int, a: Order) -> list[Event]:
    """Apply a checked multi-part ``demolish``/``starve`` order and what follows it."""
    ev: list[Event] = []
    for part in a.extra:
        if a.verb == "demolish":
            ev += demolition.demolish(s, seat, part)
        else:
            ev += feeding.starve(s, seat, *part)
    return ev + after_yearend_order(s, seat)


def start_year(s: "LaCittaState", year: int) -> list[Event]:
    """Phases 1–4 of a year, then the political turns nobody need be asked."""
    ev = years.begin(s, year)
    if political.settle_turn(s, s.start, ev):
        ev += next_turn(s)
    return ev


def next_turn(s: "LaCittaState") -> list[Event]:
    """The next political turn to ask; after round 5, phase 6 onwards."""
    ev: list[Event] = []
    if political.next_turn(s, ev):
        ev += end_politics(s)
    return ev


def end_politics(s: "LaCittaState") -> list[Event]:
    """Phase 6: reveal the Voice of the People; then migration."""
    ev = voice.reveal(s)
    s.phase_name = "migration"
    s.mig_index = 0
    s.wish_choice = {}
    return ev + run_migration(s)


def run_migration(s: "LaCittaState") -> list[Event]:
    """Phase 7 until a wish is asked or every seat has migrated."""
    ev, done = migration.run(s)
    return ev + begin_yearend(s) if done else ev


def begin_yearend(s: "LaCittaState") -> list[Event]:
    """Demolition, feeding and demolition for every seat, as far as forced."""
    s.phase_name = "yearend"
    s.yearend = {}
    ev: list[Event] = []
    for p in s.order():
        s.yearend[p] = {"stage": "demolish1", "excess": 0}
    for p in s.order():
        ev += yearend_progress(s, p)
    return ev + maybe_end_year(s)


def after_yearend_order(s: "LaCittaState", seat: int) -> list[Event]:
    """After a demolition or starve order: the seat's next forced steps,
    and the year's end once every seat is through."""
    ev = yearend_progress(s, seat)
    return ev + maybe_end_year(s)


def maybe_end_year(s: "LaCittaState") -> list[Event]:
    """End the year once no seat has a year-end step left."""
    return end_year(s) if s.phase_name == "yearend" and not s.yearend else []


def yearend_progress(s: "LaCittaState", p: int) -> list[Event]:
    """Advance seat ``p`` through demolition → feeding → demolition,
    taking every forced choice; stops at a real choice."""
    ev: list[Event] = []
    ye = s.yearend.get(p)
    while ye is not None:
        st = ye["stage"]
        if st in ("demolish1", "demolish2"):
            ev += demolition.auto_demolish(s, p)
            if demolition.pending(s, p):
                return ev
            if st == "demolish1":
                ev += feeding.feed(s, p)
                ye["stage"] = "starve"
            else:
                del s.yearend[p]
                ye = None
        elif st == "starve":
            more, done = feeding.starve_forced(s, p)
            ev += more
            if not done:
                return ev
            ye["stage"] = "demolish2"
    return ev


def end_year(s: "LaCittaState") -> list[Event]:
    """Pelivuoden loppuminen; after year 6 the game is over and scored."""
    ev = years.close(s)
    if s.year >= D.YEARS:
        s.phase_name = "over"
        ev.append(scoring.game_over(s))
        return ev
    return ev + start_year(s, s.year + 1)
