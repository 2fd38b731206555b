"""The lone seat's dome ("Pelin kulku", "Pelin loppuminen"; docs/rules/medina.md
"The end"): "Kun vain yhdellä pelaajalla on enää jäljellä paloja, jokaisella
jatkovuorolla täytyy pelata vähintään yksi kupoli". While only one seat has
pieces, its first piece is a dome or a piece after which a dome can still
be placed, and if it was not a dome the second piece is one. One
:func:`verdict` decides, on top of :func:`placing.verdict`.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pbem.engine.medina import domes, palaces, placing
from pbem.engine.medina.actions import Place
from pbem.engine.medina.squares import Reason
from pbem.engine.messages import Msg

if TYPE_CHECKING:
    from pbem.engine.medina.state import MedinaState


def owes_dome(st: "MedinaState") -> bool:
    """True while the seat to move alone has pieces and has placed no dome this turn."""
    return st.lone and not st.domed


def dome_after(st: "MedinaState", seat: int, a: Place) -> bool:
    """May the legal placement ``a`` come first and a dome still follow?"""
    trial = st.copy()
    placing.place(trial, seat, a, [])
    palaces.box_in(trial, [])
    return domes.can_claim(trial, seat)


def _dome_now(st: "MedinaState", seat: int, a: Place) -> Msg:
    return Msg("only you have pieces left, so this turn must include a dome: place a dome now")


def _no_dome_after(st: "MedinaState", seat: int, a: Place) -> Msg:
    return Msg("only you have pieces left, so this turn must include a dome, and after this "
               "piece no dome could be placed")


def check(st: "MedinaState", seat: int, a: Place) -> Reason | None:
    """May the placement ``a``, legal by the other rules, be placed now by
    the lone seat's dome rule? ``None`` or the reason."""
    if a.kind == "dome" or not owes_dome(st):
        return None
    if st.placed:
        return _dome_now
    return None if dome_after(st, seat, a) else _no_dome_after


def verdict(st: "MedinaState", seat: int, a: Any) -> Reason | None:
    """``None`` when ``seat`` may place ``a`` now, else the reason. For a
    second piece the dome rule is said first (the piece could be nothing
    but a dome); a first piece must be legal before it is tried for a dome
    after it."""
    if isinstance(a, Place) and st.placed:
        return check(st, seat, a) or placing.verdict(st, seat, a)
    return placing.verdict(st, seat, a) or check(st, seat, a)


def placements(st: "MedinaState", seat: int) -> list[Place]:
    """Every placement :func:`verdict` allows ``seat`` now, in the order of
    :func:`placing.placements`."""
    acts = placing.placements(st, seat)
    return [a for a in acts if check(st, seat, a) is None] if owes_dome(st) else acts
