"""Setup and turns ("Alkutoimet", "Pelin kulku", "Pelin loppuminen";
docs/rules/medina.md "Setup", "Turns", "The end"): seat 1 places the start
merchant, then each seat in turn places two pieces (one when it can place
only one, none: it misses the turn) until no seat can place any. What may
be placed is :mod:`~pbem.engine.medina.lone` over
:mod:`~pbem.engine.medina.placing`.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pbem.engine.api import Event, IllegalOrderError, NotYourTurnError
from pbem.engine.medina import lone, palaces, placing
from pbem.engine.medina.actions import Place
from pbem.engine.messages import Msg
from pbem.engine.phrases import Seat, join, seat as seat_name

if TYPE_CHECKING:
    from pbem.engine.medina.state import MedinaState


def phase(st: "MedinaState") -> Msg:
    """The phase in words (a :class:`Msg`): ``"Turn 3: seat 2, piece 1 of 2"``."""
    if st.over:
        return Msg("Game over")
    if st.setup:
        return Msg("Setup: seat 1 places the start merchant")
    if lone.owes_dome(st):
        return Msg("Turn {turn}: {seat}, piece {n} of 2, must place a dome", turn=st.turn_no,
                   seat=seat_name(st.seat), n=st.placed + 1)
    return Msg("Turn {turn}: {seat}, piece {n} of 2", turn=st.turn_no,
               seat=seat_name(st.seat), n=st.placed + 1)


def legal_actions(st: "MedinaState", seat: int) -> list[Place]:
    """Every legal placement of ``seat`` now (:func:`lone.placements`;
    empty when not its turn), kept for the step."""
    if st.over or seat != st.seat:
        return []
    cache = st._legal_cache
    if cache is None or cache[0] != st._step:
        cache = st._legal_cache = (st._step, lone.placements(st, seat))
    return list(cache[1])


def refusal(st: "MedinaState", seat: int, a: Any) -> Msg | None:
    """Why ``seat``, whose turn it is, may not place ``a`` now (a ``Msg``),
    or ``None`` when it may."""
    why = lone.verdict(st, seat, a)
    return None if why is None else why(st, seat, a)


def apply(st: "MedinaState", seat: int, a: Place) -> list[Event]:
    """Place ``a`` for ``seat`` and play on to the next decision.
    ``NotYourTurnError`` when the game is over or it is another seat's
    turn, ``IllegalOrderError`` (with the reason) when ``a`` is not legal."""
    if st.over:
        raise NotYourTurnError(Msg("the game is over"))
    if seat != st.seat:
        raise NotYourTurnError(Msg("it is {seat}'s turn, not {other}'s",
                                   seat=seat_name(st.seat), other=seat_name(seat)))
    why = refusal(st, seat, a)
    if why is not None:
        raise IllegalOrderError(why, text=a.to_text(),
                                legal=[x.to_text() for x in legal_actions(st, seat)[:8]])
    events: list[Event] = []
    if st.placed == 0:
        st.last_sites = []
    st.last_sites.append(a.site)
    placing.place(st, seat, a, events)
    st._step += 1
    _after_placement(st, events)
    return events


def _after_placement(st: "MedinaState", events: list[Event]) -> None:
    """Box in palaces, then the turn's second piece or the next turn."""
    palaces.box_in(st, events)
    if st.setup:
        st.setup = False
        _next_turn(st, events, start=0)
        return
    st.placed += 1
    if st.placed < 2 and st.pieces_left(st.seat) and legal_actions(st, st.seat):
        return
    if st.placed < 2 and st.pieces_left(st.seat):
        if lone.owes_dome(st):
            text = Msg("{seat} can place no dome; the turn ends.", seat=Seat(st.seat))
        else:
            text = Msg("{seat} has no legal place for a second piece; the turn ends.",
                       seat=Seat(st.seat))
        events.append(Event(text, kind="turn_short", data={"seat": st.seat}))
    _next_turn(st, events, start=(st.seat + 1) % st.seats)


def _next_turn(st: "MedinaState", events: list[Event], start: int) -> None:
    """Hand the turn to the next seat clockwise from ``start`` that can
    place a piece; end the game when none can."""
    holders = [s for s in range(st.seats) if st.pieces_left(s)]
    alone = len(holders) == 1
    skipped: list[Event] = []
    for k in range(st.seats):
        cand = (start + k) % st.seats
        if cand not in holders:
            continue
        st.seat, st.placed, st.domed = cand, 0, False
        st._legal_cache = None
        if alone and not st.lone:
            events.append(Event(
                Msg("Only {seat} has pieces left: each of their turns must now include a dome.",
                    seat=seat_name(cand)), kind="lone", data={"seat": cand}))
        st.lone = alone
        if legal_actions(st, cand):
            st.turn_no += 1
            events.extend(skipped)
            return
        if alone:
            events.append(Event(Msg("{seat} cannot place a dome this turn.", seat=Seat(cand)),
                                kind="no_dome", data={"seat": cand}))
            break
        skipped.append(Event(
            Msg("{seat} can place none of their pieces and misses the turn.", seat=Seat(cand)),
            kind="skip", data={"seat": cand}))
    if skipped:
        events.append(Event(Msg("No seat can place any of its remaining pieces."),
                            kind="stuck", data={}))
    _end(st, events)


def _end(st: "MedinaState", events: list[Event]) -> None:
    """The game is over: the final scores."""
    st.over = True
    st._legal_cache = None
    scores = st.scores()
    ranking = join([Msg("{seat} {points}", seat=seat_name(s.seat), points=s.points)
                    for s in sorted(scores, key=lambda s: s.rank)])
    events.append(Event(Msg("Game over. Final scores: {ranking}.", ranking=ranking), kind="end",
                        data={"scores": [s.points for s in scores]}))
