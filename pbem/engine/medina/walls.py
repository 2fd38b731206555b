"""Wall pieces ("Muurit"; docs/rules/medina.md "Walls"): where a wall piece
may go, why not, and what placing it does. One :func:`check` decides.

- "Muuripaloja saa laittaa ainoastaan toisen muuripalan tai tornin
  viereen": on an empty wall space next to a tower or a wall piece along
  the ring; the piece extends that tower's wall.
- "Pelaajien pitää jättää vähintään yksi muuripala tyhjäksi jokaiselle
  kaupungin laidalle portiksi": never on the last empty space of a side.
- A wall piece next to a claimed palace may move a tower tile (:mod:`tiles`).
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from pbem.engine.api import Event
from pbem.engine.medina import board as B
from pbem.engine.medina import tiles
from pbem.engine.medina.actions import Place
from pbem.engine.medina.pieces import PALACE, STABLE
from pbem.engine.medina.squares import Reason, nowhere
from pbem.engine.medina.terms import SIDE
from pbem.engine.messages import Msg
from pbem.engine.phrases import Seat

if TYPE_CHECKING:
    from pbem.engine.medina.state import MedinaState

_TOWER_SPACES = tuple(w for w in range(B.WALLS) if B.WALL_NEXT_TOWER[w])


def space_of(a: Place) -> int | None:
    """The wall space index a placement names, or ``None``."""
    w = B.WALL_INDEX.get(a.site)
    return B.parse_wall(a.site) if w is None else w


def tower_of(st: "MedinaState", w: int) -> int:
    """The tower whose wall a piece on empty space ``w`` would extend, or 0."""
    t = B.WALL_NEXT_TOWER[w]
    if t:
        return t
    walls = st.walls
    for n in B.WALL_NEXT_WALLS[w]:
        if walls[n]:
            return walls[n]
    return 0


def gaps(st: "MedinaState") -> list[int]:
    """How many empty wall spaces each side (:data:`board.SIDES`) has."""
    out = [count for _, _, count in B.SIDES]
    for w, t in enumerate(st.walls):
        if t:
            out[B.WALL_SIDE[w]] -= 1
    return out


# ----------------------------------------------------------------- reasons
def _built(st: "MedinaState", seat: int, a: Place) -> Msg:
    return Msg("{site} already has a wall piece", site=a.site)


def _loose(st: "MedinaState", seat: int, a: Place) -> Msg:
    return Msg("{site} is not next to a tower or a wall piece; walls grow from the towers",
               site=a.site)


def _last_gate(st: "MedinaState", seat: int, a: Place) -> Msg:
    side = B.SIDES[B.WALL_SIDE[space_of(a)]][0]
    return Msg("{site} is the last gap on the {side} side; every side keeps at least one gate open",
               site=a.site, side=SIDE[side])


# ------------------------------------------------------------------- rule
def check(st: "MedinaState", w: int, gaps_now: list[int]) -> Reason | None:
    """May a wall piece go on space ``w``, the sides having ``gaps_now``
    empty spaces (:func:`gaps`)? ``None`` or the reason."""
    if st.walls[w]:
        return _built
    if not tower_of(st, w):
        return _loose
    return _last_gate if gaps_now[B.WALL_SIDE[w]] < 2 else None


def verdict(st: "MedinaState", seat: int, a: Place) -> Reason | None:
    """``None`` when the wall piece ``a`` may go on its space (the screen aside)."""
    w = space_of(a)
    return nowhere if w is None else check(st, w, gaps(st))


def sites(st: "MedinaState") -> list[int]:
    """Every wall space a piece may go on now, ascending (W1 first); kept
    in ``st.wall_sites`` until a wall piece is built."""
    if st.wall_sites is None:
        walls = st.walls
        near = {w for w in _TOWER_SPACES if not walls[w]}
        for w in range(B.WALLS):
            if walls[w]:
                near.update(B.WALL_NEXT_WALLS[w])
        gaps_now = gaps(st)
        st.wall_sites = [w for w in sorted(near) if check(st, w, gaps_now) is None]
    return st.wall_sites


def place(st: "MedinaState", seat: int, a: Place, events: list[Event]) -> None:
    """Put the wall piece ``a`` (legal) from ``seat``'s screen on its space."""
    w = space_of(a)
    t = tower_of(st, w)
    st.build_wall(w, t)
    st.supply[seat]["walls"] -= 1
    events.append(Event(Msg("{seat} builds a wall on {site} (from tower {tower}).",
                            seat=Seat(seat), site=a.site, tower=t),
                        kind="wall", data={"seat": seat, "site": a.site, "tower": t}))
    i = B.WALL_SQUARE[w]
    if st.kind[i] in (PALACE, STABLE):
        tiles.connect(st, st.palaces[st.pal[i]], events)
