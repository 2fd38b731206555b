"""The 75 city tiles as data, and their four rotations.

Source: the tile set proposed in carcassonne-die-stadt.design.md section 5.3
(the rule text publishes only totals: 75 tiles, 32 public and 7 historic
buildings, fish, grain and cattle markets; rulings A-1, A-2). Changing a
count, a market kind or a building is a change of the tables below only.

Model (design 5.2): each tile side has three *slots*, clockwise from the
north-west corner: ``N1 N2 N3 E1 E2 E3 S1 S2 S3 W1 W2 W3`` (slot index 0..11).
A street always takes a middle slot; a side whose middle slot is a street is
an S edge. Each slot belongs to a *region* of the tile (``s1``, ``m1``,
``r1`` ...): streets, markets and residential areas. Across an edge slot
``3*side + k`` faces slot ``3*opposite + 2 - k`` of the neighbour. Turning
a tile a quarter clockwise moves slot ``i`` to ``i + 3``.
"""
from __future__ import annotations

from dataclasses import dataclass

STREET, MARKET, HOMES = 0, 1, 2
TYPE_NAMES = ("street", "market", "residential")
KINDS = ("fish", "grain", "cattle")
KIND_BIT = {k: 1 << i for i, k in enumerate(KINDS)}
HISTORIC_NAMES = ("Petit Puits", "Grand Puits", "Tour Carrée", "Batiment",
                  "Saint Sernin", "Saint Nazaire", "Chateau Comtal")
ROTATIONS = (0, 90, 180, 270)
SIDES = "NESW"
#: Points on a tile (board compass): the slots each point stands for.
POINTS = ("N", "NE", "E", "SE", "S", "SW", "W", "NW")
POINT_SLOTS = {"N": (1,), "NE": (2, 3), "E": (4,), "SE": (5, 6), "S": (7,),
               "SW": (8, 9), "W": (10,), "NW": (11, 0)}

# pattern -> (layout of the 12 slots, market/residential borders inside the tile)
PATTERNS: dict[str, tuple[str, tuple[tuple[str, str], ...]]] = {
    "P01": ("r1 r1 r1 r1 r1 r1 r1 r1 r1 r1 r1 r1", ()),
    "P02": ("m1 m1 m1 r1 r1 r1 r1 r1 r1 r1 r1 r1", (("m1", "r1"),)),
    "P03": ("m1 m1 m1 m1 m1 m1 r1 r1 r1 r1 r1 r1", (("m1", "r1"),)),
    "P04": ("m1 m1 m1 r1 r1 r1 m2 m2 m2 r1 r1 r1", (("m1", "r1"), ("m2", "r1"))),
    "P05": ("m1 m1 m1 m1 m1 m1 m1 m1 m1 r1 r1 r1", (("m1", "r1"),)),
    "P06": ("m1 m1 m1 m1 m1 m1 m1 m1 m1 m1 m1 m1", ()),
    "P07": ("r1 s1 r1 r1 r1 r1 r1 r1 r1 r1 r1 r1", ()),
    "P08": ("r1 s1 m1 m1 m1 m1 r1 r1 r1 r1 r1 r1", (("m1", "r1"),)),
    "P09": ("r2 s1 r1 r1 r1 r1 m1 m1 m1 r2 r2 r2", (("m1", "r1"), ("m1", "r2"))),
    "P10": ("r2 s1 r1 r1 r1 r1 r1 s1 r2 r2 r2 r2", ()),
    "P11": ("r1 s1 m1 m1 m1 m1 m1 s1 r1 r1 r1 r1", ()),
    "P12": ("m2 s1 m1 m1 m1 m1 m1 s1 m2 m2 m2 m2", ()),
    "P13": ("r2 s1 r1 r1 s1 r2 r2 r2 r2 r2 r2 r2", ()),
    "P14": ("r2 s1 r1 r1 s1 m1 m1 m1 m1 r2 r2 r2", (("m1", "r2"),)),
    "P15": ("r1 s1 m1 m1 s1 r1 r1 r1 r1 r1 r1 r1", ()),
    "P16": ("m1 s1 r1 r1 s1 m1 m1 m1 m1 m1 m1 m1", ()),
    "P17": ("r1 s1 m1 m1 m1 m1 m1 s2 r1 r1 r1 r1", (("m1", "r1"),)),
    "P18": ("r3 s1 r1 r1 s2 r2 r2 s3 r3 r3 r3 r3", ()),
    "P19": ("m1 s1 r1 r1 s2 r2 r2 s3 m1 m1 m1 m1", ()),
    "P20": ("r2 s1 m1 m1 s2 r1 r1 s3 r2 r2 r2 r2", ()),
    "P21": ("r4 s1 r1 r1 s2 r2 r2 s3 r3 r3 s4 r4", ()),
    "P22": ("r3 s1 m1 m1 s2 r1 r1 s3 r2 r2 s4 r3", ()),
}

# id: (pattern, market kinds for m1[, m2], building ("public"/"historic"/None),
#      region holding the building, historic name)
_P, _H = "public", "historic"
TILE_TABLE: dict[int, tuple[str, tuple[str, ...], str | None, str | None, str | None]] = {
    1: ("P01", (), _H, "r1", "Chateau Comtal"),
    2: ("P01", (), _H, "r1", "Saint Nazaire"),
    3: ("P02", ("fish",), _H, "r1", "Batiment"),
    4: ("P02", ("grain",), _P, "r1", None),
    5: ("P02", ("cattle",), _P, "r1", None),
    6: ("P02", ("fish",), None, None, None),
    7: ("P02", ("grain",), None, None, None),
    8: ("P03", ("cattle",), _P, "r1", None),
    9: ("P03", ("fish",), _P, "r1", None),
    10: ("P03", ("grain",), None, None, None),
    11: ("P03", ("cattle",), None, None, None),
    12: ("P03", ("fish",), None, None, None),
    13: ("P04", ("grain", "cattle"), _P, "r1", None),
    14: ("P04", ("fish", "grain"), None, None, None),
    15: ("P05", ("cattle",), _P, "r1", None),
    16: ("P05", ("fish",), None, None, None),
    17: ("P06", ("grain",), None, None, None),
    18: ("P06", ("cattle",), None, None, None),
    19: ("P07", (), _P, "r1", None),
    20: ("P07", (), _P, "r1", None),
    21: ("P08", ("fish",), _P, "r1", None),
    22: ("P08", ("grain",), _P, "r1", None),
    23: ("P08", ("cattle",), None, None, None),
    24: ("P09", ("fish",), _P, "r2", None),
    25: ("P09", ("grain",), _P, "r2", None),
    26: ("P09", ("cattle",), None, None, None),
    27: ("P10", (), _H, "r2", "Saint Sernin"),
    **{i: ("P10", (), _P, "r2", None) for i in (28, 29, 30)},
    **{i: ("P10", (), None, None, None) for i in (31, 32, 33, 34)},
    35: ("P11", ("fish",), _P, "r1", None),
    36: ("P11", ("grain",), _P, "r1", None),
    37: ("P11", ("cattle",), None, None, None),
    38: ("P11", ("fish",), None, None, None),
    39: ("P11", ("grain",), None, None, None),
    40: ("P11", ("cattle",), None, None, None),
    41: ("P12", ("fish", "grain"), None, None, None),
    42: ("P12", ("cattle", "fish"), None, None, None),
    43: ("P12", ("grain", "cattle"), None, None, None),
    44: ("P13", (), _H, "r2", "Tour Carrée"),
    **{i: ("P13", (), _P, "r2", None) for i in (45, 46, 47)},
    48: ("P13", (), None, None, None),
    49: ("P13", (), None, None, None),
    50: ("P14", ("fish",), _P, "r2", None),
    51: ("P14", ("grain",), _P, "r2", None),
    52: ("P14", ("cattle",), None, None, None),
    53: ("P14", ("fish",), None, None, None),
    54: ("P14", ("grain",), None, None, None),
    55: ("P15", ("cattle",), _P, "r1", None),
    56: ("P15", ("fish",), None, None, None),
    57: ("P15", ("grain",), None, None, None),
    58: ("P16", ("cattle",), _P, "r1", None),
    59: ("P16", ("fish",), None, None, None),
    60: ("P17", ("grain",), _P, "r1", None),
    61: ("P17", ("cattle",), None, None, None),
    62: ("P18", (), _H, "r3", "Petit Puits"),
    **{i: ("P18", (), _P, "r3", None) for i in (63, 64, 65)},
    66: ("P18", (), None, None, None),
    67: ("P18", (), None, None, None),
    68: ("P19", ("fish",), _P, "r2", None),
    69: ("P19", ("grain",), None, None, None),
    70: ("P20", ("cattle",), _P, "r2", None),
    71: ("P20", ("fish",), None, None, None),
    72: ("P21", (), _H, "r4", "Grand Puits"),
    73: ("P21", (), _P, "r4", None),
    74: ("P22", ("grain",), _P, "r3", None),
    75: ("P22", ("cattle",), None, None, None),
}
TILE_IDS = tuple(sorted(TILE_TABLE))
#: Tiles per pile (DS-13): 30, 25, 20.
PILE_SIZES = (30, 25, 20)
MAX_REGIONS = 8   # node ids are placement index * MAX_REGIONS + region index


@dataclass(frozen=True)
class Turned:
    """One tile in one rotation, in board compass.

    ``slots[i]``: region index of board slot ``i``; ``labels``/``types``/
    ``kinds`` per region (``kinds`` a bit set of KINDS, markets only);
    ``edges`` like ``"SMSR"`` (N E S W); ``street_mask`` bit ``s`` set when
    side ``s`` is an S edge; ``points[r]`` the points region ``r`` touches;
    ``borders`` pairs (market region, residential region) inside the tile;
    ``building``/``building_region``/``name`` as in TILE_TABLE.
    """

    tile: int
    pattern: str
    rotation: int
    slots: tuple[int, ...]
    labels: tuple[str, ...]
    types: tuple[int, ...]
    kinds: tuple[int, ...]
    edges: str
    street_mask: int
    points: tuple[tuple[str, ...], ...]
    borders: tuple[tuple[int, int], ...]
    building: str | None
    building_region: int | None
    name: str | None
    first_point: tuple[int, ...] = ()   # per region: index in POINTS of its first point
    side_regions: tuple[tuple[int, int, int], ...] = ()   # per side: regions of its 3 slots
    shape: int = 0     # equal for tiles whose regions lie alike (kinds and buildings aside)
    #: per side: regions of its 3 slots in the order of the facing slots of the space across
    facing_slots: tuple[tuple[int, int, int], ...] = ()

    def region_at(self, point: str, rtype: int) -> int | None:
        """The region of type ``rtype`` touching ``point`` (``"NE"``), or None."""
        for r, pts in enumerate(self.points):
            if self.types[r] == rtype and point in pts:
                return r
        return None


def _turn(tile: int, quarter: int) -> Turned:
    pattern, kinds, building, breg, name = TILE_TABLE[tile]
    layout, borders = PATTERNS[pattern]
    base = layout.split()
    labels: list[str] = []
    for lab in base:
        if lab not in labels:
            labels.append(lab)
    idx = {lab: i for i, lab in enumerate(labels)}
    board = [base[(i - 3 * quarter) % 12] for i in range(12)]
    slots = tuple(idx[lab] for lab in board)
    types = tuple({"s": STREET, "m": MARKET, "r": HOMES}[lab[0]] for lab in labels)
    kbits = tuple(KIND_BIT[kinds[int(lab[1:]) - 1]] if lab[0] == "m" else 0 for lab in labels)
    edges = "".join("S" if types[slots[3 * s + 1]] == STREET else
                    ("M" if types[slots[3 * s + 1]] == MARKET else "R") for s in range(4))
    mask = sum(1 << s for s in range(4) if edges[s] == "S")
    points = tuple(tuple(p for p in POINTS if any(slots[i] == r for i in POINT_SLOTS[p]))
                   for r in range(len(labels)))
    first = tuple(POINTS.index(pts[0]) for pts in points)
    return Turned(tile, pattern, 90 * quarter, slots, tuple(labels), types, kbits, edges, mask,
                  points, tuple((idx[a], idx[b]) for a, b in borders), building,
                  idx[breg] if breg else None, name, first,
                  tuple(slots[3 * s:3 * s + 3] for s in range(4)), _shape(slots, types),
                  tuple(tuple(slots[3 * s + 2 - k] for k in range(3)) for s in range(4)))


_SHAPES: dict[tuple, int] = {}


def _shape(slots: tuple, types: tuple) -> int:
    return _SHAPES.setdefault((slots, types), len(_SHAPES))


def _signature(t: Turned) -> tuple:
    return (t.slots, t.building_region)


#: TURNED[tile][q]: the tile turned q quarter turns clockwise.
TURNED: dict[int, tuple[Turned, ...]] = {t: tuple(_turn(t, q) for q in range(4)) for t in TILE_IDS}
#: The quarter turns of each tile that look different (P01, P06: only 0).
DISTINCT_TURNS: dict[int, tuple[int, ...]] = {}
for _t in TILE_IDS:
    _seen: list[tuple] = []
    _keep = []
    for _q in range(4):
        _sig = _signature(TURNED[_t][_q])
        if _sig not in _seen:
            _seen.append(_sig)
            _keep.append(_q)
    DISTINCT_TURNS[_t] = tuple(_keep)


def pattern_of(tile: int) -> str:
    return TILE_TABLE[tile][0]


def building_points(tile: int) -> int:
    """What a guard scores for the tile's building (DS-110, DS-111): 2 for
    a public, 3 for a historic building, 0 without one."""
    b = TILE_TABLE[tile][2]
    return 3 if b == "historic" else 2 if b == "public" else 0
