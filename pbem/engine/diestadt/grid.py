"""Board geometry: the 40 x 40 spaces, their names, tile edges and corners,
and the walk along the city's outer outline.

Spaces (design 6.1, A-31): columns ``A``-``Z``, ``AA``-``AN`` west to east,
rows ``1``-``40`` north to south; ``A1`` is the north-west corner. A space is
an ``int`` ``y * 40 + x``. The first tile goes on ``T20`` (A-30).

Sides are ``0..3`` = N E S W. A tile edge is ``(space, side)`` with the
*tile inside* (``F7 N``, named ``"F7N"``); wall pieces always have a tile
inside. A corner is named ``"F7NE"``.

The outline (A-16): walking clockwise around the city with the city on the
right, the next edge at a corner is the left turn if there is a tile there,
else straight on, else the right turn. Where two tiles touch only at a
corner the outline therefore goes on around both (the city counts as joined
at corners, open country only through sides). Off the board counts as open
country.
"""
from __future__ import annotations

import re

W = H = 40
SPACES = W * H
START = 19 * W + 19            # T20
N, E, S, WEST = 0, 1, 2, 3
SIDE_NAMES = "NESW"
DX = (0, 1, 0, -1)
DY = (-1, 0, 1, 0)
OPP = (2, 3, 0, 1)


def col_name(x: int) -> str:
    return chr(65 + x) if x < 26 else "A" + chr(65 + x - 26)


COLUMNS = tuple(col_name(x) for x in range(W))
_COL = {c: x for x, c in enumerate(COLUMNS)}
_SPACE_RE = re.compile(r"^([A-Za-z]{1,2})(\d{1,2})$")
_EDGE_RE = re.compile(r"^([A-Za-z]{1,2})(\d{1,2})\s*([NESWnesw])$")


#: every space's name, by index
SPACE_NAMES = tuple(f"{COLUMNS[i % W]}{i // W + 1}" for i in range(SPACES))
_BY_NAME = {name: i for i, name in enumerate(SPACE_NAMES)}


def space_name(i: int) -> str:
    """Space index -> its name (``"F7"``)."""
    return SPACE_NAMES[i]


def parse_space(text: str) -> int | None:
    """``"F7"`` -> space index, ``None`` when it names no space
    (lower case and surrounding blanks are fine)."""
    got = _BY_NAME.get(text)
    if got is not None:
        return got
    m = _SPACE_RE.match(text.strip())
    if not m:
        return None
    x = _COL.get(m.group(1).upper())
    y = int(m.group(2)) - 1
    if x is None or not 0 <= y < H:
        return None
    return y * W + x


def edge_name(edge: tuple[int, int]) -> str:
    return f"{space_name(edge[0])}{SIDE_NAMES[edge[1]]}"


def parse_edge(text: str) -> tuple[int, int] | None:
    """``"F7N"`` or ``"F7 N"`` -> ``(space, side)``."""
    m = _EDGE_RE.match(text.strip())
    if not m:
        return None
    sp = parse_space(m.group(1) + m.group(2))
    return None if sp is None else (sp, SIDE_NAMES.index(m.group(3).upper()))


def neighbour(i: int, side: int) -> int:
    """The space across ``side`` of ``i``, or -1 off the board."""
    x, y = i % W + DX[side], i // W + DY[side]
    return y * W + x if 0 <= x < W and 0 <= y < H else -1


def step(i: int, dx: int, dy: int) -> int:
    x, y = i % W + dx, i // W + dy
    return y * W + x if 0 <= x < W and 0 <= y < H else -1


#: NEIGHBOURS[i][side] (-1 off the board)
NEIGHBOURS = tuple(tuple(neighbour(i, s) for s in range(4)) for i in range(SPACES))
#: RING[i]: the 8 spaces around i, clockwise from north (-1 off the board)
RING = tuple(tuple(step(i, dx, dy) for dx, dy in
                   ((0, -1), (1, -1), (1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1)))
             for i in range(SPACES))

#: DIAG[i][side]: the space diagonally across the corner clockwise after
#: ``side`` (N -> the NE space, E -> SE, S -> SW, W -> NW)
DIAG = tuple(tuple(step(i, DX[s] + DX[(s + 1) % 4], DY[s] + DY[(s + 1) % 4]) for s in range(4))
             for i in range(SPACES))

# corner reached walking clockwise along a side / where that walk starts
END_CORNER = ("NE", "SE", "SW", "NW")
START_CORNER = ("NW", "NE", "SE", "SW")


def _build_simple_table() -> tuple[bool, ...]:
    """For each 8-bit pattern of occupied ring spaces (bit k = RING[k]):
    True when filling the centre cannot split the open country around it,
    i.e. its open side neighbours are joined through open ring spaces."""
    out = []
    for mask in range(256):
        open_ = [not (mask >> k) & 1 for k in range(8)]
        sides = [k for k in (0, 2, 4, 6) if open_[k]]
        if len(sides) <= 1:
            out.append(True)
            continue
        # walk the ring: open ring spaces joined by side adjacency along the ring
        group = [-1] * 8
        g = 0
        for start in range(8):
            if open_[start] and group[start] < 0:
                stack = [start]
                group[start] = g
                while stack:
                    k = stack.pop()
                    for d in (-1, 1):
                        j = (k + d) % 8
                        # ring neighbours k, j touch by a side only if one of them is a side space
                        if open_[j] and group[j] < 0 and (k % 2 == 0 or j % 2 == 0):
                            group[j] = g
                            stack.append(j)
                g += 1
        out.append(len({group[k] for k in sides}) == 1)
    return tuple(out)


SIMPLE = _build_simple_table()


class Outline:
    """Walks along the city's outer outline on an occupancy list
    (``occ[i]`` true when space ``i`` holds a tile)."""

    __slots__ = ("occ",)

    def __init__(self, occ: list) -> None:
        self.occ = occ

    def _has(self, i: int) -> bool:
        return i >= 0 and self.occ[i] >= 0

    def next_cw(self, edge: tuple[int, int]) -> tuple[int, int]:
        """The outline edge after ``edge`` walking clockwise (city on the right)."""
        t, side = edge
        h = (side + 1) % 4
        ahead = NEIGHBOURS[t][h]
        left = DIAG[t][side]
        if self._has(left):
            return (left, (side - 1) % 4)
        if self._has(ahead):
            return (ahead, side)
        return (t, h)

    def next_ccw(self, edge: tuple[int, int]) -> tuple[int, int]:
        """The outline edge before ``edge`` (walking counter-clockwise)."""
        t, side = edge
        back = (side - 1) % 4
        outer = DIAG[t][back]
        if self._has(outer):
            return (outer, (side + 1) % 4)
        inner = NEIGHBOURS[t][back]
        if self._has(inner):
            return (inner, side)
        return (t, back)

    def loop(self, start: tuple[int, int]) -> list[tuple[int, int]]:
        """The whole outline loop through ``start``, clockwise from it."""
        out = [start]
        e = self.next_cw(start)
        while e != start:
            out.append(e)
            e = self.next_cw(e)
            if len(out) > 4 * SPACES:   # pragma: no cover  (a bug, not a position)
                raise RuntimeError("outline walk does not close")
        return out


def top_edge(occ: list) -> tuple[int, int]:
    """An edge surely on the outer outline: the north side of the first
    tile in reading order."""
    for i in range(SPACES):
        if occ[i] >= 0:
            return (i, N)
    raise ValueError("no tile on the board")
