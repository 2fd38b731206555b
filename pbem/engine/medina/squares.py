"""What the rules for the squares share ("Säännöt nappuloiden asettamiseen";
docs/rules/medina.md "Palaces", "Stables", "Merchants"): one piece on a
square, and the street between palaces: "palaa ei saa asettaa vierekkäin
tai kulmittain laudalla jo olevan minkä tahansa värisen palatsipalan
viereen. Näin palatsien väliin jää aina vähintään kapea katu", stables
included ("samalla tavalla kuin palatsienkin tapauksessa").

How every placement rule is written (:mod:`palaces`, :mod:`domes`,
:mod:`stables`, :mod:`merchants`, :mod:`walls`): one ``check`` per rule
returns ``None`` when a piece may go on a site, else a :data:`Reason`, a
function ``reason(state, seat, place) -> Msg`` that words the refusal. The
same check lists the legal sites (over a few candidate sites), accepts an
order and, through its reason, explains a refusal; no message is built
while listing.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Callable

from pbem.engine.medina import board as B
from pbem.engine.medina.actions import Place
from pbem.engine.medina.pieces import MERCHANT, PALACE, STABLE
from pbem.engine.messages import Msg

if TYPE_CHECKING:
    from pbem.engine.medina.state import MedinaState

Reason = Callable[["MedinaState", int, Place], Msg]
"""Words a refusal: ``reason(state, seat, place)`` -> the sentence."""

NOBODY, SEVERAL = -1, -2
"""``MedinaState.touch`` values besides a palace id: no palace's piece or
stable is among the 8 squares around, or pieces of two or more are."""


def square_of(a: Place) -> int | None:
    """The square index a placement names, or ``None`` (not a square)."""
    i = B.SQUARE_INDEX.get(a.site)
    return B.parse_square(a.site) if i is None else i


def street_clear(st: "MedinaState", i: int, pid: int) -> bool:
    """The street rule: True when square ``i`` touches (even diagonally) no
    palace piece or stable of a palace other than ``pid`` (-1: of any)."""
    t = st.touch[i]
    return t == NOBODY or t == pid


def occupant(st: "MedinaState", i: int) -> Msg:
    """What stands on square ``i``, in words (``"a merchant"``)."""
    k = st.kind[i]
    if k == MERCHANT:
        return Msg("a merchant")
    if k == PALACE:
        return Msg("a piece of {palace}", palace=st.palaces[st.pal[i]].where())
    if k == STABLE:
        return Msg("a stable of {palace}", palace=st.palaces[st.pal[i]].where())
    return Msg("nothing")


def nowhere(st: "MedinaState", seat: int, a: Place) -> Msg:
    """Reason: the order names no site of its kind (a wall on a square, say)."""
    return Msg("that placement is not legal now")


def taken(st: "MedinaState", seat: int, a: Place) -> Msg:
    """Reason: one piece on a square."""
    return Msg("{site} is taken by {occupant}", site=a.site, occupant=occupant(st, square_of(a)))


def touching(st: "MedinaState", i: int, pid: int) -> Msg:
    """The other palace square ``i`` touches (for the street rule's refusal)."""
    for j in B.NEAR[i]:
        if st.kind[j] in (PALACE, STABLE) and st.pal[j] != pid:
            where, at = st.palaces[st.pal[j]].where(), B.square_name(j)
            if st.kind[j] == STABLE:
                return Msg("a stable of {palace} (at {square})", palace=where, square=at)
            return Msg("{palace} (at {square})", palace=where, square=at)
    return Msg("another palace")
