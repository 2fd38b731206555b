"""Why an order is refused, in words a player understands: the order kind
against the decision owed here, then the rule module that lists the
orders of that kind says why (:mod:`~pbem.engine.diestadt.placement` and
:mod:`~pbem.engine.diestadt.followers` for the tile,
:mod:`~pbem.engine.diestadt.wall_orders` for the wall round); each
sentence names the rule it explains."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pbem.engine.diestadt import followers, placement, wall_orders
from pbem.engine.diestadt.actions import BuildGate, BuildWall, PlaceTile, PlaceTower
from pbem.engine.diestadt.grid import parse_space, space_name
from pbem.engine.diestadt.tiles import TURNED
from pbem.engine.diestadt.words import say
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
    why = _WHY[kind](st, seat, a)
    return Msg("that order is not legal now") if why is None else why


def _why_tile(st: "DieStadtState", seat: int, a: PlaceTile) -> Msg | None:
    """Why the tile order ``a`` is refused (DS-24 to DS-41), or None."""
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


_WHY = {"tile": _why_tile, "gate": wall_orders.why_gate, "wall": wall_orders.why_wall,
        "tower": wall_orders.why_tower}
