"""Palace tiles and tower tiles changing hands ("Laatat"; RULINGS.md;
docs/rules/medina.md "Palace tiles", "Tower tiles"). Called by the rules
whose pieces can move a tile: a dome, a stable, a wall piece."""
from __future__ import annotations

from typing import TYPE_CHECKING

from pbem.engine.api import Event
from pbem.engine.medina import board as B
from pbem.engine.medina.pieces import PALACE_TILE_POINTS, TOWER_TILE_POINTS
from pbem.engine.medina.terms import COLOUR
from pbem.engine.messages import Msg, Msgn
from pbem.engine.phrases import Seat, seat as seat_name

if TYPE_CHECKING:
    from pbem.engine.medina.state import MedinaState, Palace


def towers_of(st: "MedinaState", p: "Palace") -> list[int]:
    """Towers whose walls touch a piece or stable of ``p``, ascending."""
    ts = {st.walls[w] for i in p.squares + p.stables for w in B.SQUARE_WALLS[i]}
    ts.discard(0)
    return sorted(ts)


def connect(st: "MedinaState", p: "Palace", events: list[Event]) -> None:
    """Tower tiles: the owner of a claimed palace takes the tile of each
    tower it newly became connected to by walls or a stable; growth of an
    already connected palace is no new connection."""
    if p.owner is None:
        return
    now = towers_of(st, p)
    for t in now:
        if t in p.towers:
            continue
        old = st.tower_tiles[t]
        st.tower_tiles[t] = p.owner
        if old != p.owner:
            frm = Msg("the table") if old is None else seat_name(old)
            events.append(Event(
                Msgn("{seat} takes tower tile {tower} ({n} point) from {source}: {palace} is "
                     "connected to tower {tower}.",
                     "{seat} takes tower tile {tower} ({n} points) from {source}: {palace} is "
                     "connected to tower {tower}.", TOWER_TILE_POINTS[t], seat=Seat(p.owner),
                     tower=t, source=frm, palace=p.where()), kind="tower_tile",
                data={"tower": t, "seat": p.owner, "from": old}))
    p.towers = now


def palace_tile(st: "MedinaState", p: "Palace", events: list[Event]) -> None:
    """Palace tiles: the first claimed palace of a colour takes its tile; a
    strictly larger claimed one takes it over (size: pieces and stables)."""
    c, holder = p.colour, st.palace_tiles[p.colour]
    if p.owner is None or holder == p.owner:
        return
    if holder is not None:
        theirs = next((q for q in st.palaces if q.colour == c and q.owner == holder), None)
        if theirs is not None and p.size <= theirs.size:
            return
    st.palace_tiles[c] = p.owner
    frm = Msg("the table") if holder is None else seat_name(holder)
    events.append(Event(
        Msgn("{seat} takes the {colour} palace tile ({n} point) from {source} with {palace} "
             "(size {size}).",
             "{seat} takes the {colour} palace tile ({n} points) from {source} with {palace} "
             "(size {size}).", PALACE_TILE_POINTS[c], seat=Seat(p.owner), colour=COLOUR[c],
             source=frm, palace=p.where(), size=p.size),
        kind="palace_tile", data={"colour": c, "seat": p.owner, "from": holder}))
