"""The city wall: gate, pieces, ends, guards' rows and towers, on the
city's outer outline ("Muurit, tornit ja kaupungin portti"; rulings A-13 to
A-22).

The wall is one path of tile edges along the outer outline. The gate is its
first edge (A-13, A-14); pieces are added at either end (DS-71, DS-75):
``cw`` is the end reached walking clockwise around the city from the gate,
``ccw`` the other. Each end has exactly one next edge (A-16), so a wall
decision is only "which end" and "guard or not". Edges are ``(space, side)``
with the tile inside (:mod:`~pbem.engine.diestadt.grid`).
"""
from __future__ import annotations

from typing import Any

from pbem.engine.diestadt.grid import NEIGHBOURS, OPP, Outline, space_name
from pbem.engine.diestadt.grid import END_CORNER, START_CORNER

WALL_PIECES = 70          # DS-1 (the two short walls are not modelled, A-15)
ENDS = ("cw", "ccw")


class Wall:
    """The wall as built so far (empty until the gate is placed)."""

    __slots__ = ("gate", "cw", "ccw", "guards", "towers", "supply", "closed")

    def __init__(self) -> None:
        self.gate: tuple[int, int] | None = None
        self.cw: list[tuple[int, int]] = []    # pieces from the gate going clockwise
        self.ccw: list[tuple[int, int]] = []   # pieces from the gate going counter-clockwise
        self.guards: dict[tuple[int, int], int] = {}   # edge -> seat (gate included)
        #: towers: {"end", "after" (pieces on that side when placed), "seat", "points", "corner"}
        self.towers: list[dict[str, Any]] = []
        self.supply = WALL_PIECES
        self.closed = False

    # ---------------------------------------------------------------- shape
    @property
    def built(self) -> bool:
        return self.gate is not None

    def edges(self) -> list[tuple[int, int]]:
        """Every walled edge in clockwise order, gate included."""
        if self.gate is None:
            return []
        return self.ccw[::-1] + [self.gate] + self.cw

    def pieces(self) -> int:
        return len(self.cw) + len(self.ccw)

    def end_edge(self, end: str) -> tuple[int, int]:
        """The last walled edge at ``end`` (the gate while that side is empty)."""
        side = self.cw if end == "cw" else self.ccw
        return side[-1] if side else self.gate  # type: ignore[return-value]

    def next_edge(self, end: str, outline: Outline) -> tuple[int, int]:
        """The outline edge a piece at ``end`` would go on (A-16)."""
        e = self.end_edge(end)
        return outline.next_cw(e) if end == "cw" else outline.next_ccw(e)

    def end_corner(self, end: str, pieces: int | None = None) -> str:
        """The corner at ``end`` (where a tower stands), e.g. ``"F7NE"``;
        with ``pieces``: where that end was when that side had that many
        pieces (the gate's corner for 0)."""
        side = self.cw if end == "cw" else self.ccw
        if pieces is None:
            pieces = len(side)
        sp, s = side[pieces - 1] if pieces else self.gate  # type: ignore[misc]
        return space_name(sp) + (END_CORNER[s] if end == "cw" else START_CORNER[s])

    def add(self, end: str, edge: tuple[int, int], outline: Outline) -> None:
        """Build a piece on ``edge`` at ``end`` (one from the supply)."""
        (self.cw if end == "cw" else self.ccw).append(edge)
        self.supply -= 1
        self.closed = outline.next_cw(self.end_edge("cw")) == self.end_edge("ccw")

    def open_edges(self, outline: Outline, limit: int = 10 ** 6) -> list[tuple[int, int]]:
        """The unbuilt outline edges between the wall's ends, clockwise from
        the cw end (DS-92 c, A-25); at most ``limit`` of them."""
        if self.gate is None or self.closed:
            return []
        stop = self.end_edge("ccw")
        out = []
        e = outline.next_cw(self.end_edge("cw"))
        while e != stop and len(out) < limit:
            out.append(e)
            e = outline.next_cw(e)
        return out

    def blocked_spaces(self) -> set[int]:
        """Spaces across a wall piece or the gate: no tile may go there (DS-72)."""
        out = set()
        for sp, side in self.edges():
            nb = NEIGHBOURS[sp][side]
            if nb >= 0:
                out.add(nb)
        return out

    def stays_outer(self, outline: Outline, top: tuple[int, int]) -> bool:
        """True when the wall is still one run of the outer outline on the
        board ``outline`` looks at (A-17): walking clockwise from the ccw end
        meets every piece in order, and that loop passes ``top`` (an edge
        surely on the outer outline)."""
        edges = self.edges()
        e = edges[0]
        seen_top = e == top
        for want in edges[1:]:
            e = outline.next_cw(e)
            if e != want:
                return False
            seen_top = seen_top or e == top
        start = edges[0]
        e = outline.next_cw(e)
        steps = 0
        while e != start and not seen_top:
            seen_top = e == top
            e = outline.next_cw(e)
            steps += 1
            if steps > 10000:   # pragma: no cover
                return False
        return seen_top

    # --------------------------------------------------------------- guards
    @staticmethod
    def watch_row(edge: tuple[int, int], board: list[int]) -> list[int]:
        """The guard's watch area (DS-108, DS-109, A-19): the straight row of
        tiles from the tile inside ``edge`` inward, up to the first empty
        space."""
        sp, side = edge
        inward = OPP[side]
        out = []
        while sp >= 0 and board[sp] >= 0:
            out.append(sp)
            sp = NEIGHBOURS[sp][inward]
        return out

    def opposite_guard(self, edge: tuple[int, int], board: list[int]) -> tuple[tuple[int, int], int] | None:
        """The guard on the far end of ``edge``'s row, when that far edge is
        walled and guarded (DS-77, A-19): ``(edge, seat)`` or None. An empty
        space in the row (a gap) ends the row before any far wall."""
        row = self.watch_row(edge, board)
        far = (row[-1], OPP[edge[1]])
        seat = self.guards.get(far)
        return None if seat is None else (far, seat)

    # --------------------------------------------------------------- towers
    def tower_points(self, end: str) -> int:
        """Pieces between ``end`` and the previous tower or the gate on that
        side (DS-80, A-22); 0 when a tower already stands at that end."""
        side = self.cw if end == "cw" else self.ccw
        last = max((t["after"] for t in self.towers if t["end"] == end), default=0)
        if self.closed and any(t.get("closing") for t in self.towers):
            return 0     # the two ends meet at one corner, which has its tower
        return len(side) - last

    def add_tower(self, end: str, seat: int, after: int | None = None,
                  closing: bool | None = None) -> int:
        """Put ``seat``'s tower at ``end`` and return its points (DS-79,
        DS-80). By default the tower stands at the end now; ``after`` (the
        pieces on that side when it was placed) and ``closing`` (whether the
        wall was closed then) put back a tower placed earlier, as position
        text does (``ValueError`` when no tower could have stood there)."""
        side = self.cw if end == "cw" else self.ccw
        if after is None:
            points, after, closing = self.tower_points(end), len(side), self.closed
        else:
            last = max((t["after"] for t in self.towers if t["end"] == end), default=0)
            if not last < after <= len(side) or (closing and not self.closed):
                raise ValueError(f"no tower can stand at the {end} end after {after} pieces")
            points = after - last
        self.towers.append({"end": end, "after": after, "seat": seat, "points": points,
                            "corner": self.end_corner(end, after), "closing": bool(closing)})
        return points

    # ----------------------------------------------------------------- JSON
    def to_dict(self) -> dict[str, Any]:
        return {"gate": None if self.gate is None else list(self.gate),
                "cw": [list(e) for e in self.cw], "ccw": [list(e) for e in self.ccw],
                "guards": [[e[0], e[1], s] for e, s in sorted(self.guards.items())],
                "towers": [dict(t) for t in self.towers], "supply": self.supply,
                "closed": self.closed}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "Wall":
        w = cls()
        w.gate = None if d["gate"] is None else (d["gate"][0], d["gate"][1])
        w.cw = [(e[0], e[1]) for e in d["cw"]]
        w.ccw = [(e[0], e[1]) for e in d["ccw"]]
        w.guards = {(g[0], g[1]): g[2] for g in d["guards"]}
        w.towers = [dict(t) for t in d["towers"]]
        w.supply, w.closed = d["supply"], d["closed"]
        return w

    def clone(self) -> "Wall":
        w = Wall()
        w.gate, w.cw, w.ccw = self.gate, self.cw[:], self.ccw[:]
        w.guards, w.towers = dict(self.guards), [dict(t) for t in self.towers]
        w.supply, w.closed = self.supply, self.closed
        return w
