"""Palace pieces ("Palatsit"; docs/rules/medina.md "Palaces"): where a piece
of a colour may go, why not, what placing it does, and when a palace under
construction is boxed in. One :func:`check` decides all four.

- The first piece of a colour goes on any empty square that touches no
  piece or stable of any palace (the street, :mod:`squares`).
- "Jos pelaaja asettaa laudalle palatsipalan, joka on samaa väriä kuin
  laudalla jo oleva pala, hänen täytyy laittaa se vierekkäin": while a
  palace of the colour is under construction, a piece goes orthogonally
  next to it, and still touches no other palace.
- "Kun kaikki pelaajat ovat laittaneet oman kupolinsa kyseistä väriä olevan
  palatsin päälle, tämän värisiä palatseja ei saa enää rakentaa": a colour
  every seat has claimed is back in the box (:mod:`domes` returns it).
- "Jos keskeneräisen palatsin ympärillä ei ole tilaa ...": a palace under
  construction with no square left for a piece is completed, nobody's.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from pbem.engine.api import Event
from pbem.engine.medina import board as B
from pbem.engine.medina.actions import Place
from pbem.engine.medina.pieces import EMPTY, PALACE
from pbem.engine.medina.squares import Reason, nowhere, square_of, street_clear, taken, touching
from pbem.engine.medina.terms import COLOUR, a_palace
from pbem.engine.messages import Msg
from pbem.engine.phrases import Seat

if TYPE_CHECKING:
    from pbem.engine.medina.state import MedinaState, Palace


# ----------------------------------------------------------------- reasons
def _returned(st: "MedinaState", seat: int, a: Place) -> Msg:
    return Msg("every seat has claimed {a_palace}, so no more {colour} palaces "
               "are built; the {colour} pieces are back in the box",
               a_palace=a_palace(a.colour), colour=COLOUR[a.colour])


def _away(st: "MedinaState", seat: int, a: Place) -> Msg:
    return Msg("{palace} is still under construction: a {colour} piece must go "
               "orthogonally next to it (a new {colour} palace may start only when it "
               "is completed)", palace=st.unfinished(a.colour).where(), colour=COLOUR[a.colour])


def _street(st: "MedinaState", seat: int, a: Place) -> Msg:
    u = st.unfinished(a.colour)
    pid = -1 if u is None else u.id
    return Msg("{site} touches {other}; palaces never touch, not even "
               "diagonally, so a street stays between them", site=a.site,
               other=touching(st, square_of(a), pid))


# ------------------------------------------------------------------- rule
def check(st: "MedinaState", i: int, u: "Palace | None") -> Reason | None:
    """May a piece of the colour whose palace under construction is ``u``
    (``None``: there is none) go on square ``i``? ``None`` or the reason."""
    if st.kind[i] != EMPTY:
        return taken
    pid = -1
    if u is not None:
        pid = u.id
        kind, pal = st.kind, st.pal
        for j in B.ORTH[i]:
            if pal[j] == pid and kind[j] == PALACE:
                break
        else:
            return _away
    return None if street_clear(st, i, pid) else _street


def in_box(st: "MedinaState", colour: str) -> Reason | None:
    """The colour's pieces are back in the box once every seat has claimed
    a palace of it: the reason, else ``None``."""
    return _returned if colour in st.returned else None


def verdict(st: "MedinaState", seat: int, a: Place) -> Reason | None:
    """``None`` when the palace piece ``a`` may go on its square (the
    screen and the box aside: :mod:`placing`), else the reason."""
    i = square_of(a)
    return nowhere if i is None else check(st, i, st.unfinished(a.colour))


def sites(st: "MedinaState", colour: str) -> list[int]:
    """Every square a ``colour`` piece may go on now, in reading order
    (whoever holds one, the box aside: :func:`in_box`)."""
    u = st.unfinished(colour)
    if u is None:
        return _fresh(st)
    return [j for j in sorted({j for i in u.squares for j in B.ORTH[i]}) if check(st, j, u) is None]


def _fresh(st: "MedinaState") -> list[int]:
    """Where a new palace may start: :func:`check` with no palace under
    construction, kept in ``st.fresh`` and checked again only on the
    squares changed since (``st.changed``: a new piece and the squares
    around it, the only ones whose answer can change)."""
    if st.fresh is None:
        st.fresh = [i for i in range(B.SQUARES) if check(st, i, None) is None]
    elif st.changed:
        again = set(st.changed)
        st.fresh = [i for i in st.fresh if i not in again or check(st, i, None) is None]
    st.changed = []
    return st.fresh


def can_grow(st: "MedinaState", p: "Palace") -> bool:
    """True while a piece could still go next to ``p`` (under construction)."""
    return any(check(st, j, p) is None for i in p.squares for j in B.ORTH[i])


def box_in(st: "MedinaState", events: list[Event]) -> None:
    """Complete, ownerless, every palace under construction that cannot grow."""
    for p in st.palaces:
        if not p.complete and not can_grow(st, p):
            p.complete = True
            events.append(Event(
                Msg("The {colour} palace at {squares} has no room left to grow: it is "
                    "completed and belongs to nobody.", colour=COLOUR[p.colour],
                    squares=" ".join(B.square_name(i) for i in sorted(p.squares))), kind="boxed_in",
                data={"palace": p.id, "colour": p.colour}))


def place(st: "MedinaState", seat: int, a: Place, events: list[Event]) -> None:
    """Put the palace piece ``a`` (legal) from ``seat``'s screen on the board."""
    c, i, who = a.colour, square_of(a), Seat(seat)
    p = st.unfinished(c)
    started = p is None
    if p is None:
        p = st.new_palace(c)
    p.squares.append(i)
    st.occupy(i, PALACE, p.id)
    st.supply[seat][c] -= 1
    if started:
        text = Msg("{seat} starts a new {colour} palace on {site}.", seat=who,
                   colour=COLOUR[c], site=a.site)
    elif c[0] in "aeiou":
        text = Msg("{seat} adds an {colour} palace piece on {site} ({colour} palace of {size}).",
                   seat=who, colour=COLOUR[c], site=a.site, size=len(p.squares))
    else:
        text = Msg("{seat} adds a {colour} palace piece on {site} ({colour} palace of {size}).",
                   seat=who, colour=COLOUR[c], site=a.site, size=len(p.squares))
    events.append(Event(text, kind="palace",
                        data={"seat": seat, "site": a.site, "colour": c, "palace": p.id}))
