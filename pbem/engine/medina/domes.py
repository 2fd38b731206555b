"""Domes ("Kupolit"; docs/rules/medina.md "Domes"): which palace a seat may
claim, why not, and what claiming does. One :func:`check` decides.

- "Kun pelaaja laittaa kupolin palatsin päälle, hän valtaa palatsin
  itselleen ja samalla palatsi valmistuu": a dome goes on a piece of a
  palace under construction; the seat claims it and it is completed.
- "Jokainen pelaaja saa vallata vain YHDEN palatsin jokaista väriä".
- When every seat has claimed a palace of a colour, the remaining pieces
  of that colour go back to the box ("Palatsit").
- Claiming may take the palace tile and tower tiles (:mod:`tiles`).
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from pbem.engine.api import Event
from pbem.engine.medina import tiles
from pbem.engine.medina.actions import Place
from pbem.engine.medina.pieces import PALACE
from pbem.engine.medina.squares import Reason, nowhere, square_of
from pbem.engine.medina.terms import COLOUR, a_palace
from pbem.engine.messages import Msg
from pbem.engine.phrases import Seat

if TYPE_CHECKING:
    from pbem.engine.medina.state import MedinaState


# ----------------------------------------------------------------- reasons
def _no_palace(st: "MedinaState", seat: int, a: Place) -> Msg:
    return Msg("there is no palace piece on {site} to put a dome on", site=a.site)


def _complete(st: "MedinaState", seat: int, a: Place) -> Msg:
    return Msg("{palace} is already completed; domes go on palaces under construction",
               palace=st.palaces[st.pal[square_of(a)]].where())


def _claimed(st: "MedinaState", seat: int, a: Place) -> Msg:
    return Msg("you already own {a_palace}; each player claims only one "
               "palace of each colour", a_palace=a_palace(st.palaces[st.pal[square_of(a)]].colour))


# ------------------------------------------------------------------- rule
def check(st: "MedinaState", seat: int, i: int) -> Reason | None:
    """May ``seat`` (holding a dome) put a dome on square ``i``? ``None``
    or the reason."""
    if st.kind[i] != PALACE:
        return _no_palace
    p = st.palaces[st.pal[i]]
    if p.complete:
        return _complete
    return _claimed if p.colour in st.claimed[seat] else None


def verdict(st: "MedinaState", seat: int, a: Place) -> Reason | None:
    """``None`` when the dome ``a`` may go on its square (the screen aside)."""
    i = square_of(a)
    return nowhere if i is None else check(st, seat, i)


def sites(st: "MedinaState", seat: int) -> list[int]:
    """Every square ``seat`` may put a dome on, in reading order: each
    square of every palace it may claim."""
    return sorted(i for p in st.palaces if not p.complete for i in p.squares
                  if check(st, seat, i) is None)


def can_claim(st: "MedinaState", seat: int) -> bool:
    """True when ``seat`` has a dome and a palace it may put it on."""
    return bool(st.supply[seat]["domes"]) and any(
        check(st, seat, p.squares[0]) is None for p in st.palaces if not p.complete)


def place(st: "MedinaState", seat: int, a: Place, events: list[Event]) -> None:
    """``seat`` puts the dome ``a`` (legal) on its palace and claims it."""
    i = square_of(a)
    p = st.palaces[st.pal[i]]
    p.owner, p.dome, p.complete = seat, i, True
    st.supply[seat]["domes"] -= 1
    st.claimed[seat].append(p.colour)
    st.domed = True
    events.append(Event(
        Msg("{seat} places a dome on {site} and claims {palace} (size {size}).",
            seat=Seat(seat), site=a.site, palace=p.where(), size=p.size),
        kind="dome", data={"seat": seat, "site": a.site, "colour": p.colour, "palace": p.id}))
    p.towers = []
    tiles.connect(st, p, events)
    tiles.palace_tile(st, p, events)
    if all(p.colour in c for c in st.claimed):
        st.returned.append(p.colour)
        for sup in st.supply:
            sup[p.colour] = 0
        events.append(Event(
            Msg("Every seat has claimed {a_palace}: no more {colour} palaces; "
                "the remaining {colour} pieces go back to the box.",
                a_palace=a_palace(p.colour), colour=COLOUR[p.colour]),
            kind="returned", data={"colour": p.colour}))
