"""Why an order is refused, in words a player understands (the rule tests
themselves live in :mod:`placement`, :mod:`wall` and :mod:`flow`; each
sentence here names the rule it explains)."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pbem.engine.diestadt import followers, placement
from pbem.engine.diestadt.actions import BuildGate, BuildWall, PlaceTile, PlaceTower
from pbem.engine.diestadt.grid import edge_name, parse_edge, parse_space, space_name
from pbem.engine.diestadt.tiles import TURNED
from pbem.engine.diestadt.words import say, say_end
from pbem.engine.messages import Msg

if TYPE_CHECKING:
    from pbem.engine.diestadt.state import DieStadtState

_NOW = {"tile": Msg("place the drawn tile (e.g. '{example}')", example=say(PlaceTile("F7", 90))),
        "gate": Msg("place the city gate on an edge of the city (e.g. '{example}')",
                    example=say(BuildGate("H3N"))),
        "wall": Msg("build a wall piece at one end ('{cw}' or '{ccw}')", cw=say(BuildWall("cw")),
                    ccw=say(BuildWall("ccw"))),
        "tower": Msg("place a tower or not ('{cw}', '{ccw}' or '{none}')", cw=say(PlaceTower("cw")),
                     ccw=say(PlaceTower("ccw")), none=say(PlaceTower(None)))}
_KIND = {PlaceTile: "tile", BuildGate: "gate", BuildWall: "wall", PlaceTower: "tower"}
#: the order kinds as words players read
KIND_WORD = {"tile": Msg("tile"), "gate": Msg("gate"), "wall": Msg("wall"), "tower": Msg("tower")}


def why_illegal(st: "DieStadtState", seat: int, a: Any) -> Msg:
    """A sentence saying why ``a`` is not legal for ``seat`` now."""
    kind = _KIND.get(type(a))
    if kind is None:
        return Msg("that is not a Die Stadt order")
    if kind != st.decision:
        nothing = Msg("owe nothing")      # not inside the call below: pybabel would miss it
        return Msg("that is a {kind} order, but now you {now}", kind=KIND_WORD[kind],
                   now=_NOW.get(st.decision or "", nothing))
    if kind == "tile":
        return _why_tile(st, seat, a)
    if kind == "gate":
        edge = parse_edge(a.site)
        if edge is None or edge not in set(_outline(st)):
            return Msg("{edge} is not an edge of the city's outer outline; the gate goes next "
                       "to a tile, on the border between the city and open country (DS-70, A-13)",
                       edge=a.site)
        if a.guard and st.supply[seat] <= 0:
            return Msg("you have no follower left for a guard (DS-76, A-34)")
        why = _guard_barred(st, seat, edge) if a.guard else None
        if why is not None:
            return Msg("no guard may go on the gate on {edge}: {why}", edge=a.site, why=why)
    if kind == "wall" and a.guard:
        why = _why_wall_guard(st, seat, a.end)
        if why is not None:
            return why
    if kind == "tower":
        if st.towers_left[seat] <= 0:
            return Msg("you have no tower left (DS-12)")
        if a.end and st.wall.tower_points(a.end) <= 0:
            return Msg("the {end} end has no wall piece since the gate or the last tower there, "
                       "so no tower can stand there now (DS-80, A-22)", end=say_end(a.end))
    return Msg("that order is not legal now")


def _guard_barred(st: "DieStadtState", seat: int, edge: tuple[int, int]) -> Msg | None:
    """Why no guard of ``seat`` may go on a piece on ``edge`` (DS-76, DS-77,
    A-18, A-19, A-34), or None when one may."""
    if st.supply[seat] <= 0:
        return Msg("you have no follower left for a guard (DS-76, A-34)")
    far = st.wall.opposite_guard(edge, st.board)
    if far is None:
        return None
    return Msg("seat {seat}'s guard on {edge} faces it across an unbroken row of tiles (DS-77)",
               seat=far[1] + 1, edge=edge_name(far[0]))


def _why_wall_guard(st: "DieStadtState", seat: int, end: str) -> Msg | None:
    """``wall <end> guard`` refused (docs/rules/diestadt.md "Guards"): the
    piece, why its guard is barred, and every legal choice in words; None
    when the guard is not what makes the order illegal."""
    from pbem.engine.diestadt.flow import options, wall_ends
    from pbem.engine.diestadt.orders import _or

    ends = dict(wall_ends(st))
    end = "cw" if end == "ccw" and "ccw" not in ends else end
    why = _guard_barred(st, seat, ends[end]) if end in ends else None
    if why is None:
        return None
    choices = [Msg("at the {end} end with a guard", end=say_end(a.end)) if a.guard else
               Msg("at the {end} end without a guard", end=say_end(a.end)) for a in options(st)]
    return Msg("no guard may go on the piece at the {end} end ({edge}): {why}; you may build {choices}",
               end=say_end(end), edge=edge_name(ends[end]), why=why, choices=_or(choices))


def _outline(st: "DieStadtState"):
    from pbem.engine.diestadt.flow import gate_edges
    return gate_edges(st)


def _why_tile(st: "DieStadtState", seat: int, a: PlaceTile) -> Msg:
    space = parse_space(a.site)
    q = a.rotation // 90
    if space is None or a.rotation % 90 or not 0 <= q < 4:
        return Msg("{space} {rotation} names no space and rotation", space=a.site, rotation=a.rotation)
    fits = set(placement.placements(st, st.drawn))
    if (space, q) not in fits:
        why = placement.why_not_placed(st, st.drawn, space, q)
        if st.placed_count and st.board[space] < 0 and not any(s == space for s, _ in fits) \
                and why.startswith(f"on {space_name(space)} turned"):
            return Msg("the drawn tile fits on {space} in no rotation (for example, {why})",
                       space=space_name(space), why=why)
        return why
    if a.role:
        return followers.why_no_follower(st, seat, space, TURNED[st.drawn][q], a.role, a.point or "")
    return Msg("that placement is not legal now")


def describe_edge(edge: tuple[int, int]) -> str:
    return edge_name(edge)
