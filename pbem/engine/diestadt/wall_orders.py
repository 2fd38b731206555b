"""The orders of a wall round: the gate, wall pieces with or without a
guard, and towers ("Muurit, tornit ja kaupungin portti"; DS-70 to DS-80,
rulings A-13 to A-22; design 6.4).

Each rule here lists its legal orders and says why an order is refused
from the same test: :func:`guard_barred` and :func:`tower_barred` answer
None when the order may be given and the reason in words when not, and
both the lists (:func:`gate_options`, :func:`wall_options`,
:func:`tower_options`) and the refusals (:func:`why_gate`,
:func:`why_wall`, :func:`why_tower`) ask them. The wall itself (its
edges, ends, guards' rows and tower points) is :mod:`~pbem.engine.diestadt.wall`.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from pbem.engine.diestadt.actions import BuildGate, BuildWall, PlaceTower
from pbem.engine.diestadt.grid import edge_name, parse_edge, top_edge
from pbem.engine.diestadt.words import say_end, say_or
from pbem.engine.messages import Msg

if TYPE_CHECKING:
    from pbem.engine.diestadt.state import DieStadtState

Edge = tuple[int, int]

_WALL_ORDERS: dict[tuple[str, bool, Edge], BuildWall] = {}
#: the reasons that take no detail of the position, made once (the lists ask
#: about 75 wall decisions a game)
_NO_FOLLOWER = Msg("you have no follower left for a guard (DS-76, A-34)")
_NO_TOWER = Msg("you have no tower left (DS-12)")
_NO_PIECE = {end: Msg("the {end} end has no wall piece since the gate or the last tower there, "
                      "so no tower can stand there now (DS-80, A-22)", end=say_end(end))
             for end in ("cw", "ccw")}


def gate_edges(st: "DieStadtState") -> list[Edge]:
    """Every edge of the city's outer outline, in reading order: where the
    gate may go (DS-70, A-13)."""
    return sorted(st.outline.loop(top_edge(st.board)))


def wall_ends(st: "DieStadtState") -> list[tuple[str, Edge]]:
    """The ends that can grow and their next edges; one entry when both ends
    would take the same edge (DS-71, DS-75, A-16)."""
    cw = st.wall.next_edge("cw", st.outline)
    ccw = st.wall.next_edge("ccw", st.outline)
    return [("cw", cw)] if cw == ccw else [("cw", cw), ("ccw", ccw)]


def end_named(ends, end: str) -> str:
    """The end an order for ``end`` builds at, given the ``ends`` that can
    grow (:func:`wall_ends`, or their names): when both ends take the same
    last edge it is listed once, as ``cw``, and ``ccw`` means it (A-16)."""
    return "cw" if end == "ccw" and "ccw" not in ends else end


def guard_barred(st: "DieStadtState", seat: int, edge: Edge) -> Msg | None:
    """Why no guard of ``seat`` may go on the piece (or gate) on ``edge``
    (DS-76, DS-77, A-18, A-19, A-34): no follower left, or a guard faces it
    from the far end of an unbroken row of tiles; None when one may."""
    if st.supply[seat] <= 0:
        return _NO_FOLLOWER
    far = st.wall.opposite_guard(edge, st.board)
    if far is None:
        return None
    return Msg("seat {seat}'s guard on {edge} faces it across an unbroken row of tiles (DS-77)",
               seat=far[1] + 1, edge=edge_name(far[0]))


def tower_barred(st: "DieStadtState", seat: int, end: str | None) -> Msg | None:
    """Why ``seat`` may place no tower at ``end`` now (DS-12, DS-79, DS-80,
    A-22): no tower left, or no piece at that end since the gate or its last
    tower; None when it may (``end`` None: no tower, always allowed)."""
    if end is None:
        return None
    if st.towers_left[seat] <= 0:
        return _NO_TOWER
    if st.wall.tower_points(end) <= 0:
        return _NO_PIECE[end]
    return None


def wall_order(end: str, guard: bool, edge: Edge) -> BuildWall:
    """The one :class:`BuildWall` for a piece at ``end`` on ``edge``
    (made once: a game asks about 75 wall decisions)."""
    a = _WALL_ORDERS.get((end, guard, edge))
    if a is None:
        a = _WALL_ORDERS[(end, guard, edge)] = BuildWall(end, guard, edge_name(edge))
    return a


# ------------------------------------------------------------------ lists
def gate_options(st: "DieStadtState") -> list[BuildGate]:
    """The gate on every edge of the outline, with a guard where one may stand."""
    seat = st.queue[0][0]
    out = []
    for e in gate_edges(st):
        out.append(BuildGate(edge_name(e)))
        if guard_barred(st, seat, e) is None:
            out.append(BuildGate(edge_name(e), True))
    return out


def wall_options(st: "DieStadtState") -> list[BuildWall]:
    """A piece at each end, with a guard where one may stand."""
    seat = st.queue[0][0]
    out = []
    for end, e in wall_ends(st):
        out.append(wall_order(end, False, e))
        if guard_barred(st, seat, e) is None:
            out.append(wall_order(end, True, e))
    return out


def tower_options(st: "DieStadtState") -> list[PlaceTower]:
    """A tower at each end where one may stand, and "no tower"."""
    return [PlaceTower(end, st.wall.end_corner(end)) for end in ("cw", "ccw")
            if tower_barred(st, st.active, end) is None] + [PlaceTower(None)]


# --------------------------------------------------------------- refusals
def why_gate(st: "DieStadtState", seat: int, a: BuildGate) -> Msg | None:
    """Why the gate order ``a`` is refused (DS-70, DS-76, DS-77, A-13), or None."""
    edge = parse_edge(a.site)
    if edge is None or edge not in set(gate_edges(st)):
        return Msg("{edge} is not an edge of the city's outer outline; the gate goes next "
                   "to a tile, on the border between the city and open country (DS-70, A-13)",
                   edge=a.site)
    why = guard_barred(st, seat, edge) if a.guard else None
    if why is None or st.supply[seat] <= 0:
        return why
    return Msg("no guard may go on the gate on {edge}: {why}", edge=a.site, why=why)


def why_wall(st: "DieStadtState", seat: int, a: BuildWall) -> Msg | None:
    """``wall <end> guard`` refused (docs/rules/diestadt.md "Guards"): the
    piece, why its guard is barred, and every legal choice in words; None
    when the guard is not what makes the order illegal."""
    if not a.guard:
        return None
    ends = dict(wall_ends(st))
    end = end_named(ends, a.end)
    why = guard_barred(st, seat, ends[end]) if end in ends else None
    if why is None:
        return None
    choices = [Msg("at the {end} end with a guard", end=say_end(o.end)) if o.guard else
               Msg("at the {end} end without a guard", end=say_end(o.end)) for o in wall_options(st)]
    return Msg("no guard may go on the piece at the {end} end ({edge}): {why}; you may build {choices}",
               end=say_end(end), edge=edge_name(ends[end]), why=why, choices=say_or(choices))


def why_tower(st: "DieStadtState", seat: int, a: PlaceTower) -> Msg | None:
    """Why the tower order ``a`` is refused (:func:`tower_barred`), or None."""
    return tower_barred(st, seat, a.end)
