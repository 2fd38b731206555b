"""Placing a piece from behind the screen ("Säännöt nappuloiden
asettamiseen"): every legal placement of a seat, the verdict on one, and
putting it on the board, each by the rule of its kind (:mod:`merchants`,
:mod:`walls`, :mod:`stables`, :mod:`palaces`, :mod:`domes`). A piece comes
from the seat's screen ("pelaaja ... laittaa rakennuspalat sen taakse");
in setup only the start merchant may go. The lone seat's dome rule wraps
this in :mod:`~pbem.engine.medina.lone`.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pbem.engine.api import Event
from pbem.engine.medina import domes, merchants, palaces, stables, walls
from pbem.engine.medina.actions import PALACE_ACTIONS, SQUARE_ACTIONS, WALL_ACTIONS, Place
from pbem.engine.medina.pieces import PALACE_COLOURS, SUPPLY_KEY
from pbem.engine.medina.squares import Reason
from pbem.engine.medina.terms import COLOUR, PIECES
from pbem.engine.messages import Msg

if TYPE_CHECKING:
    from pbem.engine.medina.state import MedinaState

#: piece kind -> the module of its rule (``verdict`` and ``place``)
RULES = {"merchant": merchants, "wall": walls, "stable": stables, "palace": palaces, "dome": domes}


# ----------------------------------------------------------------- reasons
def _not_medina(st: "MedinaState", seat: int, a: Any) -> Msg:
    return Msg("that is not a Medina order")


def _none_left(st: "MedinaState", seat: int, a: Place) -> Msg:
    if a.kind == "palace":
        return Msg("you have no {colour} palace pieces left behind your screen",
                   colour=COLOUR[a.colour])
    return Msg("you have no {pieces} left behind your screen", pieces=PIECES[SUPPLY_KEY[a.kind]])


# ------------------------------------------------------------------- rule
def screen(st: "MedinaState", seat: int, key: str) -> Reason | None:
    """Has ``seat`` a piece of supply ``key`` (``"walls"``, ``"orange"``)
    behind its screen? ``None`` or the reason."""
    return None if st.supply[seat][key] else _none_left


def verdict(st: "MedinaState", seat: int, a: Any) -> Reason | None:
    """``None`` when ``seat`` may place ``a`` now (the lone seat's dome rule
    aside), else the reason: in setup the start merchant's; then a colour
    back in the box, the screen, and the rule of the piece."""
    if not isinstance(a, Place):
        return _not_medina
    if st.setup:
        return merchants.verdict(st, seat, a)
    if a.kind == "palace":
        why = palaces.in_box(st, a.colour) or screen(st, seat, a.colour)
    else:
        why = screen(st, seat, SUPPLY_KEY[a.kind])
    return why or RULES[a.kind].verdict(st, seat, a)


def placements(st: "MedinaState", seat: int) -> list[Place]:
    """Every placement :func:`verdict` allows ``seat`` now, in the fixed
    order merchant, wall, stable, palace (grey, black, brown, orange),
    dome, each by site in reading order (A1, B1, ..., then W1..W54)."""
    if st.setup:
        table = SQUARE_ACTIONS["merchant"]
        return [table[i] for i in merchants.sites(st)]
    acts: list[Place] = []
    if screen(st, seat, "merchants") is None:
        table = SQUARE_ACTIONS["merchant"]
        acts += [table[i] for i in merchants.sites(st)]
    if screen(st, seat, "walls") is None:
        acts += [WALL_ACTIONS[w] for w in walls.sites(st)]
    if screen(st, seat, "stables") is None:
        table = SQUARE_ACTIONS["stable"]
        acts += [table[i] for i in stables.sites(st)]
    for c in PALACE_COLOURS:
        if screen(st, seat, c) is None and palaces.in_box(st, c) is None:
            table = PALACE_ACTIONS[c]
            acts += [table[i] for i in palaces.sites(st, c)]
    if screen(st, seat, "domes") is None:
        table = SQUARE_ACTIONS["dome"]
        acts += [table[i] for i in domes.sites(st, seat)]
    return acts


def place(st: "MedinaState", seat: int, a: Place, events: list[Event]) -> None:
    """Put ``a`` (legal) on the board by the rule of its kind."""
    RULES[a.kind].place(st, seat, a, events)
