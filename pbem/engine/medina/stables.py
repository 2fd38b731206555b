"""Stables ("Tallit"; docs/rules/medina.md "Stables"): where a stable may
go, why not, and what placing it does. One :func:`check` decides.

- "laudalla olevan palatsipalan viereen": orthogonally next to a palace
  piece, of a palace under construction or completed, whoever owns it;
  "Pelaaja ei saa asettaa tallia paikkaan, jossa sen vierekkäin ainoastaan
  toisen tallin kanssa": not only next to another stable.
- "Pelaajien täytyy jättää palatsien väliin tilaa kadulle samalla tavalla
  kuin palatsienkin tapauksessa": it touches no piece or stable of another
  palace (:mod:`squares`), so it belongs to exactly one palace.
- It adds 1 to its palace's size; next to a claimed palace it may move a
  palace or tower tile (:mod:`tiles`).
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from pbem.engine.api import Event
from pbem.engine.medina import board as B
from pbem.engine.medina import tiles
from pbem.engine.medina.actions import Place
from pbem.engine.medina.pieces import EMPTY, PALACE, STABLE
from pbem.engine.medina.squares import Reason, nowhere, square_of, street_clear, taken, touching
from pbem.engine.messages import Msg
from pbem.engine.phrases import Seat

if TYPE_CHECKING:
    from pbem.engine.medina.state import MedinaState


def _palace_next_to(st: "MedinaState", i: int) -> int:
    """The palace of a piece orthogonally next to square ``i``, or -1."""
    kind, pal = st.kind, st.pal
    for j in B.ORTH[i]:
        if kind[j] == PALACE:
            return pal[j]
    return -1


# ----------------------------------------------------------------- reasons
def _not_next(st: "MedinaState", seat: int, a: Place) -> Msg:
    if any(st.kind[j] == STABLE for j in B.ORTH[square_of(a)]):
        return Msg("{site} is next only to a stable; a stable goes orthogonally next to a "
                   "palace piece, not only next to another stable", site=a.site)
    return Msg("{site} is not orthogonally next to a palace piece; stables go next to palaces",
               site=a.site)


def _street(st: "MedinaState", seat: int, a: Place) -> Msg:
    i = square_of(a)
    pid = next(iter({st.pal[j] for j in B.ORTH[i] if st.kind[j] == PALACE}))
    return Msg("a stable on {site} would touch {other}; stables keep the "
               "street between palaces like palace pieces", site=a.site,
               other=touching(st, i, pid))


# ------------------------------------------------------------------- rule
def check(st: "MedinaState", i: int) -> Reason | None:
    """May a stable go on square ``i``? ``None`` or the reason."""
    if st.kind[i] != EMPTY:
        return taken
    pid = _palace_next_to(st, i)
    if pid < 0:
        return _not_next
    return None if street_clear(st, i, pid) else _street


def verdict(st: "MedinaState", seat: int, a: Place) -> Reason | None:
    """``None`` when the stable ``a`` may go on its square (the screen aside)."""
    i = square_of(a)
    return nowhere if i is None else check(st, i)


def sites(st: "MedinaState") -> list[int]:
    """Every square a stable may go on now, in reading order."""
    near = {j for p in st.palaces for i in p.squares for j in B.ORTH[i]}
    return [i for i in sorted(near) if check(st, i) is None]


def place(st: "MedinaState", seat: int, a: Place, events: list[Event]) -> None:
    """Put the stable ``a`` (legal) from ``seat``'s screen next to its palace."""
    i = square_of(a)
    pid = _palace_next_to(st, i)
    p = st.palaces[pid]
    st.occupy(i, STABLE, pid)
    p.stables.append(i)
    st.supply[seat]["stables"] -= 1
    events.append(Event(Msg("{seat} places a stable on {site} at {palace}.",
                            seat=Seat(seat), site=a.site, palace=p.where()),
                        kind="stable", data={"seat": seat, "site": a.site, "palace": pid}))
    if p.owner is not None:
        tiles.connect(st, p, events)
        tiles.palace_tile(st, p, events)
