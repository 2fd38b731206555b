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

#: rules summary section (pbem/web/templates/rules/lacitta.html) per phase
RULES_SECTION = {"setup": "setup", "political": "political", "migration": "migration",
                 "yearend": "yearend", "over": "scoring"}

#: the question each section answers, for the link from the order page
RULES_QUESTION = {"setup": "How does setup work?", "political": "How does a political round work?",
                  "migration": "How does migration work?",
                  "yearend": "How do demolition and feeding work?", "scoring": "How is the game scored?"}

#: event data keys that name a site (a building, a city by its castle)
_SITE_KEYS = ("site", "city", "from", "to")


def _plural(n: int, one: str, many: str | None = None) -> str:
    return f"{n} {one if n == 1 else (many or one + 's')}"


def rules_section(s) -> dict[str, str]:
    """``{"id": "migration", "question": "How does migration work?"}`` for
    the phase being played."""
    sid = RULES_SECTION.get(s.phase_name, "political")
    return {"id": sid, "question": RULES_QUESTION[sid]}


def decision(s, seat: int | None) -> dict[str, Any] | None:
    """The year-end or migration decision ``seat`` owes now, in words, or
    ``None`` (a political round needs no banner; a spectator owes nothing).

    Shape: ``{"kind": "starve" | "demolish" | "wish", "owes": one sentence
    saying what to decide, "why": why now, "rule": the rule in one
    sentence, "rules": section id}``. Rules: docs/rules/lacitta.md
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
        "owes": f"Famine: choose the cities that lose {_plural(excess, 'citizen')}.",
        "why": (f"Your cities hold {_plural(people, 'citizen')} but you have only {food} food, "
                f"so {excess} must leave; they may come from {', '.join(cities)}."),
        "rule": ("At the end of the year every citizen eats one food; those beyond your food leave "
                 "their cities (you choose which), and you lose your first political round next year "
                 "(in year 6: 5 points)."),
        "rules": "yearend",
    }


def _demolish(s, seat: int) -> dict[str, Any]:
    over = [(c.castle, len(c.sites) - c.citizens, len(c.sites), c.citizens)
            for c in s.cities_of(seat) if len(c.sites) > c.citizens]
    what = "; ".join(f"{_plural(k, 'building')} from the city at {castle}" for castle, k, _, _ in over)
    why = "; ".join(f"the city at {castle} has {_plural(b, 'building')} but {_plural(n, 'citizen')}"
                    for castle, _, b, n in over)
    return {
        "kind": "demolish",
        "owes": f"Demolition: choose {what}.",
        "why": why[:1].upper() + why[1:] + ".",
        "rule": ("A city keeps no more buildings than it has citizens: you choose which go, never the "
                 "castle, and every city stays one connected group around its castle."),
        "rules": "yearend",
    }


def _wish(s) -> dict[str, Any]:
    open_ = sorted((c for c, w in s.wish_choice.items() if w is None), key=ORDER.__getitem__)
    both = " and ".join(s.wishes)
    return {
        "kind": "wish",
        "owes": f"Choose the wish each city migrates by: {', '.join(open_)}.",
        "why": (f"The people wish for {both} this year, and for "
                f"{'these cities' if len(open_) > 1 else 'this city'} the two wishes beat different "
                f"neighbours."),
        "rules": "migration",
        "rule": ("In a year of two wishes each city migrates by one of them, its owner's choice: it "
                 "draws one citizen from every neighbouring city with fewer arches of that wish."),
    }


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
