"""What the order page says about a La Città position beyond the view:
the decision a seat owes (the banner), the section of the rules summary
for the phase being played, and the sites a turn changed.

Pure functions of a :class:`~pbem.engine.lacitta.state.LaCittaState`;
:func:`pbem.engine.lacitta.view.make_view` puts their results in the view
(``"decision"``, ``"rules_section"``, ``"last_sites"``).
"""
from __future__ import annotations

from typing import Any, Iterable

from pbem.engine.api import Event
from pbem.engine.lacitta.geometry import ORDER
from pbem.engine.lacitta.terms import WISH
from pbem.engine.messages import Msg, Msgn
from pbem.engine.phrases import and_list, join, semi_list

#: rules summary section (pbem/web/templates/rules/lacitta.html) per phase
RULES_SECTION = {"setup": "setup", "political": "political", "migration": "migration",
                 "yearend": "yearend", "over": "scoring"}

#: the question each section answers, for the link from the order page
RULES_QUESTION = {"setup": Msg("How does setup work?"),
                  "political": Msg("How does a political round work?"),
                  "migration": Msg("How does migration work?"),
                  "yearend": Msg("How do demolition and feeding work?"),
                  "scoring": Msg("How is the game scored?")}

#: event data keys that name a site (a building, a city by its castle)
_SITE_KEYS = ("site", "city", "from", "to")


def _citizens(n: int) -> Msg:
    return Msgn("{n} citizen", "{n} citizens", n)


def _buildings(n: int) -> Msg:
    return Msgn("{n} building", "{n} buildings", n)


def rules_section(s) -> dict[str, Any]:
    """``{"id": "migration", "question": "How does migration work?"}`` for
    the phase being played."""
    sid = RULES_SECTION.get(s.phase_name, "political")
    return {"id": sid, "question": RULES_QUESTION[sid]}


def decision(s, seat: int | None) -> dict[str, Any] | None:
    """The year-end or migration decision ``seat`` owes now, in words, or
    ``None`` (a political round needs no banner; a spectator owes nothing).

    Shape: ``{"kind": "starve" | "demolish" | "wish", "owes": one sentence
    saying what to decide, "why": why now, "rule": the rule in one
    sentence, "rules": section id}`` and, for "wish", ``"draws"``: one
    sentence per open city and wish naming whom it would draw from; the
    sentences are :class:`Msg`. Rules: docs/rules/lacitta.md
    "Migration (phase 7)" and "Demolition, feeding, cleanup"."""
    if seat is None or not 0 <= seat < s.n or seat not in s.current_seats():
        return None
    if s.phase_name == "yearend":
        ye = s.yearend.get(seat)
        if ye is None:
            return None
        if ye["stage"] == "starve":
            return _starve(s, seat, ye["excess"])
        return _demolish(s, seat)
    if s.phase_name == "migration" and s.wish_choice:
        return _wish(s)
    return None


def _starve(s, seat: int, excess: int) -> dict[str, Any]:
    food = s.food[seat] + s.harvest_bonus(seat)
    people = s.citizens(seat)
    cities = [c.castle for c in s.cities_of(seat) if c.citizens > 0]
    return {
        "kind": "starve",
        "owes": Msg("Famine: choose the cities that lose {citizens}.", citizens=_citizens(excess)),
        "why": Msg("Your cities hold {citizens} but you have only {food} food, so {n} must leave; "
                   "they may come from {castles}.", citizens=_citizens(people), food=food, n=excess,
                   castles=join(cities)),
        "rule": Msg("At the end of the year every citizen eats one food; those beyond your food leave "
                    "their cities (you choose which), and you lose your first political round next "
                    "year (in year 6: 5 points)."),
        "rules": "yearend",
    }


def _demolish(s, seat: int) -> dict[str, Any]:
    over = [(c.castle, len(c.sites) - c.citizens, len(c.sites), c.citizens)
            for c in s.cities_of(seat) if len(c.sites) > c.citizens]
    what = semi_list([Msg("{buildings} from the city at {castle}", buildings=_buildings(k),
                          castle=castle) for castle, k, _, _ in over])
    why = [Msg("the city at {castle} has {buildings} but {citizens}", castle=castle,
               buildings=_buildings(b), citizens=_citizens(n)) for castle, _, b, n in over]
    if why:
        c0, _, b0, n0 = over[0]
        why[0] = Msg("The city at {castle} has {buildings} but {citizens}", castle=c0,
                     buildings=_buildings(b0), citizens=_citizens(n0))
    return {
        "kind": "demolish",
        "owes": Msg("Demolition: choose {what}.", what=what),
        "why": Msg("{reasons}.", reasons=semi_list(why)),
        "rule": Msg("A city keeps no more buildings than it has citizens: you choose which go, never "
                    "the castle, and every city stays one connected group around its castle."),
        "rules": "yearend",
    }


def _wish(s) -> dict[str, Any]:
    open_ = sorted((c for c, w in s.wish_choice.items() if w is None), key=ORDER.__getitem__)
    both = and_list([WISH[w] for w in s.wishes])
    if len(open_) > 1:
        why = Msg("The people wish for {wishes} this year, and for these cities the two wishes beat "
                  "different neighbours.", wishes=both)
    else:
        why = Msg("The people wish for {wishes} this year, and for this city the two wishes beat "
                  "different neighbours.", wishes=both)
    return {
        "kind": "wish",
        "owes": Msg("Choose the wish each city migrates by: {castles}.", castles=join(open_)),
        "why": why,
        "draws": _draws(s, open_),
        "rules": "migration",
        "rule": Msg("In a year of two wishes each city migrates by one of them, its owner's choice: "
                    "it draws one citizen from every neighbouring city with fewer arches of that "
                    "wish."),
    }


def _draws(s, castles: list[str]) -> list[Msg]:
    """For each city still to choose and each wish of the year, whom it
    would draw a citizen from (:func:`pbem.engine.lacitta.migration.beaten`;
    rules: "Migration (phase 7)")."""
    from pbem.engine.lacitta import migration

    out = []
    for castle in castles:
        for w in s.wishes:
            drawn = migration.beaten(s, s.cities[castle], w)
            out.append(Msg("The city at {castle} by {wish} draws one citizen from each of {castles}.",
                           castle=castle, wish=WISH[w], castles=join(drawn)) if drawn else
                       Msg("The city at {castle} by {wish} draws from no neighbour.", castle=castle, wish=WISH[w]))
    return out


def changed_sites(events: Iterable[Event]) -> list[str]:
    """The sites the events of one turn name (buildings built or demolished,
    cities that grew, starved or gained and lost citizens), each once, in
    reading order: what the board marks as the latest change."""
    found: set[str] = set()
    for e in events:
        for key in _SITE_KEYS:
            v = e.data.get(key)
            if isinstance(v, str) and v in ORDER:
                found.add(v)
        for v in e.data.get("cities") or ():
            if isinstance(v, str) and v in ORDER:
                found.add(v)
    return sorted(found, key=ORDER.__getitem__)
