"""Feeding the people and famine (la-citta.fi.txt "8. Asukkaiden
ruokkiminen", "Rangaistus nälän takia poismuuttavista asukkaista",
"Erikoinen kuudes pelivuosi"; docs/rules/lacitta.md "Missed deadlines").

Citizens beyond a seat's food tokens (plus Reiche Ernte) leave; the seat
says from which cities (``starve C3 2, K9 1``) unless only one way is
possible. A famine costs the first political round of next year, or 5
points in year 6. The orders listed, the check of a whole ``starve`` order,
and the refusal read the same ``excess`` and city citizens.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from pbem.engine.api import Event, IllegalOrderError
from pbem.engine.lacitta import data as D
from pbem.engine.lacitta.actions import Order, starve as starve_order
from pbem.engine.lacitta.geometry import ORDER
from pbem.engine.messages import Msg, Msgn
from pbem.engine.phrases import Seat

if TYPE_CHECKING:  # pragma: no cover
    from pbem.engine.lacitta.state import LaCittaState

_mk = tuple.__new__


def feed(s: "LaCittaState", p: int) -> list[Event]:
    """Phase 8: citizens beyond food tokens (plus Reiche Ernte) must leave."""
    people = s.citizens(p)
    food = s.food[p] + s.harvest_bonus(p)
    excess = max(0, people - food)
    s.yearend[p]["excess"] = excess
    if not excess:
        return []
    s.famine_now[p] = True
    if s.year >= D.YEARS:
        s.famine6[p] = True
        text = Msg("Famine: {seat} has {citizens} citizens and {food} food; {n} must leave "
                   "(−5 points).", seat=Seat(p), citizens=people, food=food, n=excess)
    else:
        s.famine_next[p] = True
        text = Msg("Famine: {seat} has {citizens} citizens and {food} food; {n} must leave and "
                   "the first political round of next year is lost.", seat=Seat(p),
                   citizens=people, food=food, n=excess)
    return [Event(text, kind="famine", data={"seat": p, "citizens": people, "food": food,
                                              "excess": excess})]


def starve(s: "LaCittaState", p: int, castle: str, k: int) -> list[Event]:
    """``k`` citizens leave the city at ``castle`` for the bank."""
    city = s.cities[castle]
    k = min(k, city.citizens)
    city.citizens -= k
    s.bank += k
    s.yearend[p]["excess"] -= k
    return [Event(Msgn("{seat}: {n} citizen leaves the city at {castle} for lack of food.",
                       "{seat}: {n} citizens leave the city at {castle} for lack of food.", k,
                       seat=Seat(p), castle=castle), kind="starve", data={"seat": p, "city": castle, "n": k})]


def starve_forced(s: "LaCittaState", p: int) -> tuple[list[Event], bool]:
    """Take the leaving citizens when there is one way only (one city with
    people, or everyone leaves); True when nobody (more) must leave by
    choice."""
    ev: list[Event] = []
    k = s.yearend[p]["excess"]
    with_people = [c for c in s.cities_of(p) if c.citizens > 0]
    if k > 0 and (len(with_people) == 1 or k >= sum(c.citizens for c in with_people)):
        for c in with_people:
            if k > 0:
                take = min(k, c.citizens)
                ev += starve(s, p, c.castle, take)
                k -= take
        k = 0
    return ev, k <= 0


def orders(s: "LaCittaState", seat: int) -> list[Order]:
    """``starve C n``: each own city, up to the excess or its citizens."""
    k = s.yearend[seat]["excess"]
    return [_mk(Order, ("starve", c.castle, "", 0, ((c.castle, m),)))
            for c in s.cities_of(seat) for m in range(1, min(k, c.citizens) + 1)]


def check(s: "LaCittaState", seat: int, action: Order, text: str) -> None:
    """A whole ``starve C3 2, K9 1`` order: own cities, no more citizens
    than a city has, exactly the excess in total (raises
    :class:`IllegalOrderError` saying what is wrong)."""
    ye = s.yearend[seat]
    if ye["stage"] != "starve":
        raise IllegalOrderError(Msg("None of your citizens must leave for lack of food."), text=text)
    per_n: dict[str, int] = {}
    for castle, k in action.extra:
        c = s.cities.get(castle)
        if c is None or c.owner != seat:
            raise IllegalOrderError(Msg("{castle} is not one of your cities.", castle=castle),
                                    text=text)
        per_n[castle] = per_n.get(castle, 0) + k
        if per_n[castle] > c.citizens:
            raise IllegalOrderError(Msg("The city at {castle} has only {n} citizens.",
                                        castle=castle, n=c.citizens), text=text)
    total = sum(per_n.values())
    if total != ye["excess"]:
        raise IllegalOrderError(Msg("Exactly {n} citizens must leave; the order names {named}.",
                                    n=ye["excess"], named=total), text=text)


def why_not(s: "LaCittaState", p: int, o: Order) -> Msg:
    """Why a single order is refused while ``p``'s citizens must leave."""
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


def default(s: "LaCittaState", seat: int) -> Order:
    """Missed deadline: citizens leave the cities with the most spare
    citizens first (docs/rules/lacitta.md "Missed deadlines")."""
    left = {c.castle: [c.citizens, len(c.sites)] for c in s.cities_of(seat)}
    merged: dict[str, int] = {}
    for _ in range(s.yearend[seat]["excess"]):
        castle = max((k for k in left if left[k][0] > 0),
                     key=lambda k: (left[k][0] - left[k][1], left[k][0], -ORDER[k]))
        left[castle][0] -= 1
        merged[castle] = merged.get(castle, 0) + 1
    return starve_order(*merged.items())


def famine_skip(s: "LaCittaState", p: int) -> list[Event]:
    """Rangaistus nälän takia: the first political round is lost; one
    action card is turned face down unplayed."""
    s.famine_next[p] = False
    s.actions[p] -= 1
    return [Event(Msg("{seat} loses the first political round (famine last year): one action "
                      "card is turned face down.", seat=Seat(p)), kind="famine_round", data={"seat": p})]
