"""The La Città board as data (our own design, RULINGS.md "The board").

Geometry
--------
Building sites are hexes (pointy-top) in one-hex-wide lanes that run along
the lines of a triangular lattice with side ``LANE = 5`` hexes.  The lattice
triangles between the lanes are the landscape *slots*: 22 inner slots
``T1``..``T22`` (each holding one landscape tile, 6 hexes) and the fixed
landscape printed around the edge, grouped into 8 *edge regions*
``E1``..``E8`` (water on two sides).  Because every lane hex lies on one
lattice line, a site touches at most two landscape regions (asserted below).

Coordinates
-----------
- Axial ``(q, r)``: ``r`` grows downwards (one hex row per ``r``), ``q`` grows
  to the right along a row.  Neighbours differ by (±1,0), (0,±1), (+1,-1),
  (-1,+1).
- Site name: column letter + row number, ``f"{COLUMNS[col]}{row}"`` with
  ``row = r + 1`` and ``col = q + r // 2`` (odd rows are shifted half a hex
  to the right, "odd-r" offset coordinates).  ``"A1"`` is top left.
- Pixel centre of a hex with circumradius 1: ``x = sqrt(3) * (q + r / 2) - X0``,
  ``y = 1.5 * r - Y0`` where ``X0, Y0`` put the leftmost/topmost drawn thing
  at ``MARGIN``.  Multiply by the desired hex radius to draw.  ``WIDTH`` and
  ``HEIGHT`` bound everything (edge landscape included) in the same units.

Data shape (all immutable; :func:`board_data` gives the same as plain JSON)
---------------------------------------------------------------------------
``SITES: dict[str, Site]`` — ``Site(name, q, r, col, row, x, y, players,
neighbours, regions)``: ``players`` is the smallest player count that uses
the site (2, 3 or 4; a 5-player game uses all); ``neighbours`` the adjacent
site names; ``regions`` the ids of the landscape regions it touches
(0, 1 or 2 of ``T1..T22``, ``E1..E8``).

``REGIONS: dict[str, Region]`` — ``Region(id, fixed, kind, grain, cells,
triangles, centre)``: ``fixed`` is True for edge regions, which carry their
``kind`` (``"field"``, ``"mountain"``, ``"water"``) and ``grain``; for inner
slots ``kind`` is ``""`` and the landscape comes from a layout.  ``cells`` are
the axial hexes the region covers (inner hexes of its lattice triangles);
``triangles`` the lattice triangles as pixel polygons (three ``(x, y)``
points each, corners at lane crossings); ``centre`` a pixel point for a label.

Landscape tiles (RULINGS.md): 14 fields (7 with 1 grain, 6 with 2, 1 with 3),
3 mountains, 5 lakes, written as tile codes ``"F1" "F2" "F3" "M" "L"``.
A *layout* maps each slot id to a tile code.  ``BEGINNER[seats]`` gives for
2..5 players ``{"landscape": {slot: code}, "castles": [[site, site], ...]}``
(castles per seat index; each castle touches grain, 2 to 4 food, and every
seat starts with 6 food).  Landscape effects: a ``"field"`` region gives its grain to an
adjacent castle or farm; ``"mountain"`` gives 1 gold a year to an adjacent
quarry; ``"L"`` lakes and ``"water"`` edges allow fountains and bathhouses.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

LANE = 5                     # hexes per lattice side (4 sites between crossings)
MARGIN = 1.0
COLUMNS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
TILES: dict[str, int] = {"F1": 7, "F2": 6, "F3": 1, "M": 3, "L": 5}
TILE_NAMES = {"F1": "field (1 grain)", "F2": "field (2 grain)", "F3": "field (3 grain)",
              "M": "mountain", "L": "lake"}

# Rows of inner lattice triangles: row b -> (first a, first orientation, count).
# 7 + 8 + 7 = 22 slots, numbered T1..T22 row by row, left to right.
_ROWS = {0: (0, 0, 7), 1: (-1, 1, 8), 2: (-1, 0, 7)}
# Edge regions clockwise from the top left: (kind, grain).  Water on the
# right and bottom sides.
_EDGE_KINDS = [("field", 1), ("mountain", 0), ("field", 2), ("water", 0),
               ("water", 0), ("field", 1), ("mountain", 0), ("field", 1)]

_DIRS = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1))


@dataclass(frozen=True)
class Site:
    name: str
    q: int
    r: int
    col: int
    row: int
    x: float
    y: float
    players: int
    neighbours: tuple[str, ...]
    regions: tuple[str, ...]


@dataclass(frozen=True)
class Region:
    id: str
    fixed: bool
    kind: str
    grain: int
    cells: tuple[tuple[int, int], ...]
    triangles: tuple[tuple[tuple[float, float], ...], ...]
    centre: tuple[float, float]


def site_name(q: int, r: int) -> str:
    return f"{COLUMNS[q + r // 2]}{r + 1}"


def _verts(t):
    a, b, o = t
    return [(a, b), (a + 1, b), (a, b + 1)] if o == 0 else [(a + 1, b), (a, b + 1), (a + 1, b + 1)]


def _edges(t):
    v = _verts(t)
    return [tuple(sorted((v[i], v[j]))) for i, j in ((0, 1), (0, 2), (1, 2))]


def _tri_of(q, r):
    if q % LANE == 0 or r % LANE == 0 or (q + r) % LANE == 0:
        return None
    a, b = q // LANE, r // LANE
    return (a, b, 0 if (q - a * LANE) + (r - b * LANE) < LANE else 1)


def _tri_cells(t):
    a, b, _ = t
    return [(q, r) for q in range(a * LANE, a * LANE + LANE) for r in range(b * LANE, b * LANE + LANE)
            if _tri_of(q, r) == t]


def _inner_triangles() -> list[tuple[int, int, int]]:
    """The lattice triangles of the 22 inner slots, row by row, left to right."""
    inner = []
    for b, (a, o, n) in _ROWS.items():
        for _ in range(n):
            inner.append((a, b, o))
            if o == 1:
                a += 1
            o ^= 1
    return inner


def _site_players(inner: list) -> dict[tuple[int, int], int]:
    """Each lane hex and the smallest player count that uses it: the two
    outermost slots of each row are 4-player land, the next ones 3-player,
    the centre 2-player; a hex on the lanes around slots takes the least."""
    tag = {}
    for b, (_, _, n) in _ROWS.items():
        row = [t for t in inner if t[1] == b]
        for i, t in enumerate(row):
            d = min(i, n - 1 - i)
            tag[t] = 2 if d >= 2 else (3 if d == 1 else 4)
    cells_players: dict[tuple[int, int], int] = {}
    for t in inner:
        for p1, p2 in _edges(t):
            for i in range(LANE + 1):
                c = (p1[0] * LANE + (p2[0] - p1[0]) * i, p1[1] * LANE + (p2[1] - p1[1]) * i)
                cells_players[c] = min(cells_players.get(c, 9), tag[t])
    return cells_players


def _outside_triangles(inner: list) -> set[tuple[int, int, int]]:
    """The lattice triangles across the inner slots' boundary edges: the edge landscape."""
    edge_count: dict[tuple, int] = {}
    for t in inner:
        for e in _edges(t):
            edge_count[e] = edge_count.get(e, 0) + 1
    inner_set = set(inner)
    outside = set()
    for e, n in edge_count.items():
        if n == 1:
            for t in _neighbour_tris(e):
                if t not in inner_set:
                    outside.add(t)
    return outside


def _px(q, r):
    return math.sqrt(3) * (q + r / 2), 1.5 * r


def _tri_centre(t):
    pts = [_px(a * LANE, b * LANE) for a, b in _verts(t)]
    return sum(p[0] for p in pts) / 3, sum(p[1] for p in pts) / 3


def _edge_groups(outside: set, allpts: list) -> list[list]:
    """The outside triangles in 8 edge regions, clockwise from the top left
    (sorted by angle around the centre of ``allpts``, from the upper left)."""
    cx = sum(p[0] for p in allpts) / len(allpts)
    cy = sum(p[1] for p in allpts) / len(allpts)

    def ang(t):
        x, y = _tri_centre(t)
        return (math.atan2(y - cy, x - cx) - math.atan2(-1.0, -1.3)) % (2 * math.pi)
    ring = sorted(outside, key=ang)
    return [ring[i * len(ring) // 8:(i + 1) * len(ring) // 8] for i in range(8)]


def _regions(inner: list, groups: list, shift) -> tuple[dict[str, Region], dict[tuple[int, int], str]]:
    """The regions ``T1``..``T22`` and ``E1``..``E8``, and the region of each
    hex they cover; ``shift`` moves a pixel point into the drawing."""
    def poly(t):
        return tuple(shift(_px(a * LANE, b * LANE)) for a, b in _verts(t))

    regions: dict[str, Region] = {}
    cell_region: dict[tuple[int, int], str] = {}
    order_inner = sorted(inner, key=lambda t: (t[1], _tri_centre(t)[0]))
    for i, t in enumerate(order_inner, 1):
        rid = f"T{i}"
        cells = tuple(_tri_cells(t))
        regions[rid] = Region(rid, False, "", 0, cells, (poly(t),), shift(_tri_centre(t)))
        for c in cells:
            cell_region[c] = rid
    for i, (grp, (kind, grain)) in enumerate(zip(groups, _EDGE_KINDS), 1):
        rid = f"E{i}"
        cells = tuple(c for t in grp for c in _tri_cells(t))
        mid = grp[len(grp) // 2]
        regions[rid] = Region(rid, True, kind, grain, cells, tuple(poly(t) for t in grp),
                              shift(_tri_centre(mid)))
        for c in cells:
            cell_region[c] = rid
    return regions, cell_region


def _sites(cells_players: dict, cell_region: dict, shift) -> dict[str, Site]:
    """Every site, row by row, with its neighbours and the regions it touches."""
    sites: dict[str, Site] = {}
    for (q, r), players in sorted(cells_players.items(), key=lambda kv: (kv[0][1], kv[0][0])):
        nbs = []
        regs = []
        for dq, dr in _DIRS:
            c = (q + dq, r + dr)
            if c in cells_players:
                nbs.append(site_name(*c))
            elif c in cell_region and cell_region[c] not in regs:
                regs.append(cell_region[c])
        x, y = shift(_px(q, r))
        name = site_name(q, r)
        sites[name] = Site(name, q, r, q + r // 2, r + 1, x, y, players,
                           tuple(sorted(nbs, key=_site_key)), tuple(sorted(regs, key=_region_key)))
    return sites


def _build():
    """``SITES``, ``REGIONS``, ``WIDTH`` and ``HEIGHT`` (the module docstring)."""
    inner = _inner_triangles()
    cells_players = _site_players(inner)
    outside = _outside_triangles(inner)
    allpts = [_px(a * LANE, b * LANE) for t in set(inner) | outside for a, b in _verts(t)]
    groups = _edge_groups(outside, allpts)
    x0 = min(p[0] for p in allpts) - MARGIN
    y0 = min(p[1] for p in allpts) - MARGIN
    width = max(p[0] for p in allpts) - x0 + MARGIN
    height = max(p[1] for p in allpts) - y0 + MARGIN

    def shift(p):
        return (round(p[0] - x0, 4), round(p[1] - y0, 4))
    regions, cell_region = _regions(inner, groups, shift)
    return _sites(cells_players, cell_region, shift), regions, round(width, 4), round(height, 4)


def _neighbour_tris(edge):
    (a1, b1), (a2, b2) = edge
    # the two lattice triangles sharing this lattice edge
    out = []
    for a in range(min(a1, a2) - 1, max(a1, a2) + 1):
        for b in range(min(b1, b2) - 1, max(b1, b2) + 1):
            for o in (0, 1):
                if edge in _edges((a, b, o)):
                    out.append((a, b, o))
    return out


def _site_key(name: str) -> tuple[int, int]:
    return int(name[1:]), COLUMNS.index(name[0])


def _region_key(rid: str) -> tuple[str, int]:
    return rid[0], int(rid[1:])


SITES, REGIONS, WIDTH, HEIGHT = _build()
SLOTS: tuple[str, ...] = tuple(r for r in REGIONS if not REGIONS[r].fixed)
EDGE_REGIONS: tuple[str, ...] = tuple(r for r in REGIONS if REGIONS[r].fixed)

assert len(SLOTS) == 22 and sum(TILES.values()) == 22
assert all(len(s.regions) <= 2 for s in SITES.values())


# Beginner layouts (found by scripts in pbem_dev/bench/lacitta_layouts.py and checked by
# tests/engine/lacitta): landscape per slot and two castles per seat.
_LANDSCAPE = {"T1": "M", "T2": "F1", "T3": "L", "T4": "F2", "T5": "F2", "T6": "F1", "T7": "L",
              "T8": "F2", "T9": "F2", "T10": "M", "T11": "F1", "T12": "F2", "T13": "M", "T14": "F1",
              "T15": "L", "T16": "F1", "T17": "F1", "T18": "F3", "T19": "L", "T20": "F2", "T21": "L",
              "T22": "F1"}
# two castles per seat; each touches grain (2..4 food), 6 food per seat,
# castles at least 4 free sites apart (pbem_dev/bench/lacitta_layouts.py 1)
_CASTLES = {2: [["I14", "K6"], ["F12", "O9"]],
            3: [["F6", "O2"], ["E9", "K12"], ["D14", "L4"]],
            4: [["G14", "N1"], ["A10", "F6"], ["L11", "T11"], ["M5", "T1"]],
            5: [["E10", "Q11"], ["B8", "I6"], ["L11", "N15"], ["L4", "N1"], ["D15", "H15"]]}
BEGINNER: dict[int, dict[str, Any]] = {
    n: {"landscape": dict(_LANDSCAPE), "castles": [list(c) for c in cs]} for n, cs in _CASTLES.items()}


def board_data() -> dict[str, Any]:
    """The board as plain JSON-able data (shape in the module docstring)."""
    return {
        "width": WIDTH,
        "height": HEIGHT,
        "hex_radius": 1.0,
        "sites": {n: {"q": s.q, "r": s.r, "col": s.col, "row": s.row, "x": s.x, "y": s.y,
                      "players": s.players, "neighbours": list(s.neighbours),
                      "regions": list(s.regions)} for n, s in SITES.items()},
        "regions": {i: {"fixed": g.fixed, "kind": g.kind, "grain": g.grain,
                        "cells": [list(c) for c in g.cells],
                        "triangles": [[list(p) for p in t] for t in g.triangles],
                        "centre": list(g.centre)} for i, g in REGIONS.items()},
    }
