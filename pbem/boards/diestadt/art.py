"""Die Stadt picture parts: one city tile, followers, wall pieces, towers.

Helpers for :mod:`pbem.boards.diestadt` (which lays them out); every
function returns an SVG fragment in the board's user units and knows
nothing of the view's other parts.

A tile is drawn from its twelve edge slots (``N1 N2 N3 E1 ... W3``,
:mod:`pbem.engine.diestadt.tiles`): each slot is a triangle from the tile's
centre to its third of a side (a street's slot is split between the regions
on either side of it), consecutive slots of one region merge into one
polygon. Streets are bands from a side's middle: a street through the tile
bends at the centre, a street alone ends short of it, three or more meet at
a well. Markets are coloured by kind and carry its symbol (fish, ear of
grain, cow's head, so colour is not the only cue); residential areas are
light brick; public buildings a red-roofed house, historic ones a
tower with a flag (their names are drawn by the caller, over every tile).
"""
from __future__ import annotations

import html
import math
import re
from functools import lru_cache
from typing import Any, Iterable

from pbem.engine.diestadt.tiles import KINDS, TILE_TABLE, TURNED
from pbem.boards.words import Msg

#: a market's kind as the picture names it (legend, tooltips)
MARKET_WORDS = {"fish": Msg("fish market"), "grain": Msg("grain market"), "cattle": Msg("cattle market")}

INK = "#2b2620"
RESIDENTIAL = "#e9c79a"
MARKET_FILL = {"fish": "#8fc3ea", "grain": "#f1d36a", "cattle": "#a9d58c"}
MARKET_INK = {"fish": "#1f5f8f", "grain": "#8a6a12", "cattle": "#3c6e26"}
STREET = "#fbf8f1"
STREET_EDGE = "#6f6757"
TILE_EDGE = "#5f5446"
WALL = "#8d867b"
WALL_EDGE = "#4a453e"
GATE = "#7a4a22"
#: the fill of each seat colour the engine's view names (the engine's
#: ``SEAT_COLOURS`` gives seat i its colour: the board, the page's panels
#: and the mail's words all follow it, :func:`pbem.boards.diestadt.seat_colours`)
SEAT_FILL = {"red": "#d0312d", "blue": "#2a62c9", "yellow": "#f2c014", "green": "#2e9a48"}

#: where a follower stands on a point of the tile (tile units, 0..1)
POINT_POS = {"N": (0.5, 0.15), "NE": (0.83, 0.17), "E": (0.85, 0.5), "SE": (0.83, 0.83),
             "S": (0.5, 0.85), "SW": (0.17, 0.83), "W": (0.15, 0.5), "NW": (0.17, 0.17)}
_CORNERS = ((0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0))      # NW NE SE SW: sides run clockwise
_SIDE_OUT = ((0, -1), (1, 0), (0, 1), (-1, 0))                   # outward normal of N E S W
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def f(v: float) -> str:
    """A coordinate: one decimal, no trailing zero."""
    s = f"{v:.1f}"
    s = s[:-2] if s.endswith(".0") else s
    return "0" if s == "-0" else s


def esc(s: Any) -> str:
    return html.escape(_NOT_XML.sub("\ufffd", str(s)), quote=True)


def text(x: float, y: float, s: Any, size: float, *, fill: str = INK, bold: bool = False,
         anchor: str = "middle", halo: bool = False) -> str:
    extra = ' stroke="#ffffff" stroke-width="3" paint-order="stroke" stroke-linejoin="round"' if halo else ""
    weight = ' font-weight="bold"' if bold else ""
    return (f'<text x="{f(x)}" y="{f(y)}" font-size="{f(size)}"{weight} text-anchor="{anchor}" '
            f'fill="{fill}"{extra}>{esc(s)}</text>')


def seat_fill(colour: Any, seat: int) -> str:
    """The fill for a seat's pieces (the view's colour name, else by seat)."""
    if colour in SEAT_FILL:
        return SEAT_FILL[colour]
    from pbem.engine.diestadt.view import SEAT_COLOURS

    return SEAT_FILL[SEAT_COLOURS[seat % len(SEAT_COLOURS)]] if isinstance(seat, int) else "#888888"


def on(colour: str) -> str:
    """Ink readable on ``colour``."""
    r, g, b = (int(colour[i:i + 2], 16) for i in (1, 3, 5))
    return INK if 0.299 * r + 0.587 * g + 0.114 * b > 150 else "#ffffff"


# --- a tile ------------------------------------------------------------------


def _at(side: int, frac: float) -> tuple[float, float]:
    (x0, y0), (x1, y1) = _CORNERS[side], _CORNERS[(side + 1) % 4]
    return x0 + (x1 - x0) * frac, y0 + (y1 - y0) * frac


def _segments(slots: list[str], kind: dict[str, str]) -> list[tuple[str, float, float]]:
    """The tile's border as ``(region, start, end)`` in boundary position
    (0..12, a third of a side per unit), streets' slots split in halves."""
    out = []
    for i, label in enumerate(slots):
        if kind.get(label) == "street":
            out += [(slots[i - 1], i, i + 0.5), (slots[(i + 1) % 12], i + 0.5, i + 1)]
        else:
            out.append((label, i, i + 1))
    return out


def _point(pos: float) -> tuple[float, float]:
    side, k = divmod(pos % 12, 3)
    return _at(int(side), k / 3)


def fans(slots: list[str], kind: dict[str, str]) -> list[tuple[str, list[tuple[float, float]], float, float]]:
    """The non-street regions as polygons from the centre:
    ``[(region, points in tile units, start, end)]`` (boundary positions)."""
    segs = _segments(slots, kind)
    if all(s[0] == segs[0][0] for s in segs):
        return [(segs[0][0], [(0, 0), (1, 0), (1, 1), (0, 1)], 0.0, 12.0)]
    k = next(i for i in range(len(segs)) if segs[i][0] != segs[i - 1][0])
    segs = segs[k:] + segs[:k]
    groups: list[list] = []
    for label, a, b in segs:
        if groups and groups[-1][0] == label:
            groups[-1][2] = b if b > groups[-1][1] else b + 12
        else:
            groups.append([label, a, b if b > a else b + 12])
    out = []
    for label, a, b in groups:
        marks = [a] + [float(m) for m in range(math.floor(a) + 1, math.ceil(b)) if m % 3 == 0] + [b]
        out.append((label, [(0.5, 0.5)] + [_point(m) for m in marks], a, b))
    return out


def anchor(a: float, b: float, dist: float = 0.27) -> tuple[float, float]:
    """A point inside a fan from boundary position ``a`` to ``b``: towards
    the middle of its border, ``dist`` from the centre."""
    if b - a >= 12:
        return 0.5, 0.5
    x, y = _point((a + b) / 2)
    dx, dy = x - 0.5, y - 0.5
    n = math.hypot(dx, dy) or 1.0
    return 0.5 + dx / n * dist, 0.5 + dy / n * dist


def _streets(slots: list[str], kind: dict[str, str], u: float) -> str:
    """Street bands (tile units scaled by ``u``), ends, and a well where
    three or more streets meet."""
    ends: dict[str, list[int]] = {}
    for s in range(4):
        if kind.get(slots[3 * s + 1]) == "street":
            ends.setdefault(slots[3 * s + 1], []).append(s)
    paths, caps = [], []
    w = u * 0.17
    for label, sides in ends.items():
        mids = [_at(s, 0.5) for s in sides]
        if len(sides) == 1:
            (x, y), (dx, dy) = mids[0], _SIDE_OUT[sides[0]]
            ex, ey = (x - dx * 0.36) * u, (y - dy * 0.36) * u
            paths.append(f"M{f(x * u)},{f(y * u)} L{f(ex)},{f(ey)}")
            if len(ends) < 3:   # a dead end: the band closed across
                h = w / 2 + 1
                caps.append(f"M{f(ex - dy * h)},{f(ey - dx * h)} L{f(ex + dy * h)},{f(ey + dx * h)}")
        else:
            paths.append("M" + " L".join(f"{f(x * u)},{f(y * u)}" for x, y in (mids[0], (0.5, 0.5), *mids[1:])))
    if not paths:
        return ""
    d = " ".join(paths)
    out = (f'<path d="{d}" fill="none" stroke="{STREET_EDGE}" stroke-width="{f(w + 2)}" stroke-linejoin="round"/>'
           f'<path d="{d}" fill="none" stroke="{STREET}" stroke-width="{f(w - 1)}" stroke-linejoin="round"/>')
    if caps:
        out += f'<path d="{" ".join(caps)}" stroke="{STREET_EDGE}" stroke-width="1.5"/>'
    if len(ends) >= 3:
        out += (f'<circle cx="{f(u / 2)}" cy="{f(u / 2)}" r="{f(u * 0.12)}" fill="#9cc7dd" '
                f'stroke="{STREET_EDGE}" stroke-width="1.5"/>')
    return out


def fish(x: float, y: float, s: float) -> str:
    return (f'<path d="M{f(x - s * 0.45)},{f(y)} Q{f(x - s * 0.05)},{f(y - s * 0.32)} {f(x + s * 0.3)},{f(y)} '
            f'Q{f(x - s * 0.05)},{f(y + s * 0.32)} {f(x - s * 0.45)},{f(y)} Z M{f(x + s * 0.22)},{f(y)} '
            f'L{f(x + s * 0.5)},{f(y - s * 0.2)} L{f(x + s * 0.5)},{f(y + s * 0.2)} Z" '
            f'fill="{MARKET_INK["fish"]}"/>')


def grain(x: float, y: float, s: float) -> str:
    out = [f'<path d="M{f(x)},{f(y + s * 0.5)} L{f(x)},{f(y - s * 0.45)}" stroke="{MARKET_INK["grain"]}" '
           f'stroke-width="{f(max(1.0, s * 0.07))}"/>']
    for i in range(3):
        ky = y - s * (0.05 + 0.16 * i)
        for side in (-1, 1):
            out.append(f'<ellipse cx="{f(x + side * s * 0.11)}" cy="{f(ky)}" rx="{f(s * 0.08)}" '
                       f'ry="{f(s * 0.15)}" fill="{MARKET_INK["grain"]}" '
                       f'transform="rotate({side * 30} {f(x + side * s * 0.11)} {f(ky)})"/>')
    return "".join(out)


def cattle(x: float, y: float, s: float) -> str:
    c = MARKET_INK["cattle"]
    return (f'<path d="M{f(x - s * 0.45)},{f(y - s * 0.35)} Q{f(x - s * 0.3)},{f(y - s * 0.05)} '
            f'{f(x - s * 0.12)},{f(y - s * 0.12)} M{f(x + s * 0.45)},{f(y - s * 0.35)} '
            f'Q{f(x + s * 0.3)},{f(y - s * 0.05)} {f(x + s * 0.12)},{f(y - s * 0.12)}" fill="none" '
            f'stroke="{c}" stroke-width="{f(max(1.0, s * 0.08))}" stroke-linecap="round"/>'
            f'<ellipse cx="{f(x)}" cy="{f(y + s * 0.08)}" rx="{f(s * 0.2)}" ry="{f(s * 0.28)}" fill="{c}"/>')


MARKET_SYMBOL = {"fish": fish, "grain": grain, "cattle": cattle}


def public(x: float, y: float, s: float) -> str:
    """A house with a red roof, ``s`` wide, centred on (x, y)."""
    h = s / 2
    return (f'<path d="M{f(x - h * 0.8)},{f(y)} L{f(x - h * 0.8)},{f(y + h * 0.75)} L{f(x + h * 0.8)},'
            f'{f(y + h * 0.75)} L{f(x + h * 0.8)},{f(y)} Z" fill="#fbf3e4" stroke="{INK}" stroke-width="1"/>'
            f'<path d="M{f(x - h)},{f(y + h * 0.05)} L{f(x)},{f(y - h * 0.8)} L{f(x + h)},{f(y + h * 0.05)} Z" '
            f'fill="#c0392b" stroke="{INK}" stroke-width="1"/>')


def historic(x: float, y: float, s: float) -> str:
    """A tower with a flag, ``s`` wide."""
    h = s / 2
    return (f'<path d="M{f(x - h * 0.55)},{f(y + h)} L{f(x - h * 0.55)},{f(y - h * 0.35)} L{f(x - h * 0.75)},'
            f'{f(y - h * 0.35)} L{f(x - h * 0.75)},{f(y - h * 0.7)} L{f(x + h * 0.75)},{f(y - h * 0.7)} '
            f'L{f(x + h * 0.75)},{f(y - h * 0.35)} L{f(x + h * 0.55)},{f(y - h * 0.35)} L{f(x + h * 0.55)},'
            f'{f(y + h)} Z" fill="#d9d2c3" stroke="{INK}" stroke-width="1.2"/>'
            f'<path d="M{f(x)},{f(y - h * 0.7)} L{f(x)},{f(y - h * 1.3)} L{f(x + h * 0.5)},{f(y - h * 1.12)} '
            f'L{f(x)},{f(y - h * 0.95)}" fill="#7a2a8c" stroke="{INK}" stroke-width="1"/>'
            f'<path d="M{f(x - h * 0.2)},{f(y + h)} L{f(x - h * 0.2)},{f(y + h * 0.5)} Q{f(x)},{f(y + h * 0.3)} '
            f'{f(x + h * 0.2)},{f(y + h * 0.5)} L{f(x + h * 0.2)},{f(y + h)} Z" fill="{INK}"/>')


def regions_of_tile(tile: int, q: int) -> dict[str, tuple[str, str | None]]:
    """``{label: (type, market kind)}`` for a tile turned ``q`` quarters (the
    drawn tile, which the view gives without its regions)."""
    t = TURNED[tile][q]
    names = ("street", "market", "residential")
    return {lab: (names[t.types[r]], next((k for i, k in enumerate(KINDS) if t.kinds[r] >> i & 1), None))
            for r, lab in enumerate(t.labels)}


def tile_art(slots: list[str], regions: dict[str, tuple[str, str | None]], building: str | None,
             building_region: str | None, u: float) -> str:
    """The tile's picture at the origin, ``u`` units a side (translate it)."""
    return _tile_art(tuple(slots), tuple(sorted(regions.items(), key=lambda kv: str(kv[0]))), building,
                     building_region, u)


@lru_cache(maxsize=1024)
def _tile_art(slots: tuple[str, ...], region_items: tuple, building: str | None, building_region: str | None,
              u: float) -> str:
    regions = dict(region_items)
    kind = {lab: r[0] for lab, r in regions.items()}
    out = [f'<rect width="{f(u)}" height="{f(u)}" fill="{RESIDENTIAL}"/>']
    symbols, spots = [], {}
    for label, poly, a, b in fans(slots, kind):
        rtype, market = regions.get(label, ("residential", None))
        fill = MARKET_FILL.get(market or "", "#c9c3b5") if rtype == "market" else RESIDENTIAL
        pts = " ".join(f"{f(x * u)},{f(y * u)}" for x, y in poly)
        out.append(f'<polygon points="{pts}" fill="{fill}" stroke="{fill}" stroke-width="0.8"/>')
        if label not in spots or b - a > spots[label][1] - spots[label][0]:
            spots[label] = (a, b)
    for label, (a, b) in spots.items():
        rtype, market = regions.get(label, ("residential", None))
        if rtype == "market" and market in MARKET_SYMBOL:
            x, y = anchor(a, b, 0.3 if label != building_region else 0.15)
            symbols.append(MARKET_SYMBOL[market](x * u, y * u, u * 0.2))
    out.append(_streets(slots, kind, u))
    if building and building_region in spots:
        x, y = anchor(*spots[building_region])
        draw = historic if building == "historic" else public
        symbols.append(draw(x * u, y * u, u * (0.26 if building == "historic" else 0.24)))
    out += symbols
    out.append(f'<rect width="{f(u)}" height="{f(u)}" fill="none" stroke="{TILE_EDGE}" stroke-width="1"/>')
    return "".join(out)


def building_spot(slots: list[str], regions: dict[str, tuple[str, str | None]], building_region: str | None
                  ) -> tuple[float, float] | None:
    """Where :func:`tile_art` draws the building (tile units), for its name."""
    kind = {lab: r[0] for lab, r in regions.items()}
    best = None
    for label, _, a, b in fans(slots, kind):
        if label == building_region and (best is None or b - a > best[1] - best[0]):
            best = (a, b)
    return anchor(*best) if best else None


def table_regions(tile: int) -> tuple[str | None, str | None, str | None]:
    """(building, building region, historic name) of a tile id."""
    _, _, building, breg, name = TILE_TABLE[tile]
    return building, breg, name


# --- pieces ------------------------------------------------------------------

_MEEPLE = ("M10,1 C13,1 13.5,5 12,6.5 L18,9 C19.5,10 19,12 17,12 L14,11.5 L16.5,19 L11.5,19 L10,15 "
           "L8.5,19 L3.5,19 L6,11.5 L3,12 C1,12 0.5,10 2,9 L8,6.5 C6.5,5 7,1 10,1 Z")


def follower(x: float, y: float, s: float, colour: str, posture: str, seat: int | None) -> str:
    """A follower ``s`` tall centred on (x, y): standing, lying (overseer,
    turned on its side) or guard (standing on a wall, with a pike). The
    seat number is printed on its body."""
    k = s / 20
    turn = f" rotate(-90 10 10)" if posture == "lying" else ""
    out = [f'<g transform="translate({f(x - s / 2)} {f(y - s / 2)}) scale({k:.3f}){turn}">']
    if posture == "guard":
        out.append(f'<path d="M19.5,0 L19.5,19" stroke="{INK}" stroke-width="1.6"/>')
    out.append(f'<path d="{_MEEPLE}" fill="{colour}" stroke="{INK}" stroke-width="{1.4 if s > 16 else 1.8}" '
               f'stroke-linejoin="round"/>')
    out.append("</g>")
    if seat is not None and s >= 18:
        out.append(text(x, y + s * 0.2, seat + 1, s * 0.34, fill=on(colour), bold=True))
    return "".join(out)


def wall_piece(x0: float, y0: float, x1: float, y1: float, *, dashed: bool = False) -> str:
    """A wall piece filling the box (user units)."""
    dash = ' stroke-dasharray="4 3" fill-opacity="0.35"' if dashed else ""
    return (f'<rect x="{f(x0)}" y="{f(y0)}" width="{f(x1 - x0)}" height="{f(y1 - y0)}" fill="{WALL}" '
            f'stroke="{WALL_EDGE}" stroke-width="1.2"{dash}/>')


def gate(cx: float, cy: float, along: float, across: float, vertical: bool) -> str:
    """The gate: a dark arch over the wall band, centred on (cx, cy)."""
    w, h = (across, along) if vertical else (along, across)
    r = min(w, h) * 0.32
    return (f'<rect x="{f(cx - w / 2)}" y="{f(cy - h / 2)}" width="{f(w)}" height="{f(h)}" rx="2" fill="{GATE}" '
            f'stroke="{INK}" stroke-width="1.4"/>'
            f'<circle cx="{f(cx)}" cy="{f(cy)}" r="{f(r)}" fill="#f3e2c0" stroke="{INK}" stroke-width="1"/>')


def tower(cx: float, cy: float, s: float, colour: str, points: Any) -> str:
    """A tower ``s`` wide in the seat's colour, with the points it scored."""
    h = s / 2
    c = s / 5
    top = cy - h * 0.55
    crenels = "".join(f" L{f(cx - h + i * c)},{f(top - (c if i % 2 == 0 else 0))}"
                      f" L{f(cx - h + (i + 1) * c)},{f(top - (c if i % 2 == 0 else 0))}" for i in range(5))
    return (f'<path d="M{f(cx - h)},{f(cy + h)}{crenels} L{f(cx + h)},{f(cy + h)} Z" fill="{colour}" '
            f'stroke="{INK}" stroke-width="1.5" stroke-linejoin="round"/>'
            + (text(cx, cy + h * 0.55, points, s * 0.5, fill=on(colour), bold=True) if points is not None else ""))


def legend_symbols() -> Iterable[tuple[str, Any]]:
    """(label, draw(x, y, s) -> SVG) for the legend, in order; each label
    a :class:`~pbem.engine.messages.Msg` (the caller translates it)."""
    def swatch(fill):
        return lambda x, y, s: (f'<rect x="{f(x)}" y="{f(y - s / 2)}" width="{f(s)}" height="{f(s)}" fill="{fill}" '
                                f'stroke="{TILE_EDGE}"/>')

    for kind in KINDS:
        yield (MARKET_WORDS[kind], lambda x, y, s, k=kind: swatch(MARKET_FILL[k])(x, y, s)
               + MARKET_SYMBOL[k](x + s / 2, y, s * 0.8))
    yield (Msg("residential"), swatch(RESIDENTIAL))
    yield (Msg("street"), lambda x, y, s: (f'<rect x="{f(x)}" y="{f(y - s / 2)}" width="{f(s)}" height="{f(s)}" '
                                      f'fill="{RESIDENTIAL}"/><path d="M{f(x)},{f(y)} L{f(x + s)},{f(y)}" '
                                      f'stroke="{STREET_EDGE}" stroke-width="{f(s * 0.4)}"/><path d="M{f(x)},{f(y)} '
                                      f'L{f(x + s)},{f(y)}" stroke="{STREET}" stroke-width="{f(s * 0.25)}"/>'))
    yield (Msg("public building"), lambda x, y, s: public(x + s / 2, y, s))
    yield (Msg("historic building"), lambda x, y, s: historic(x + s / 2, y + s * 0.1, s * 0.8))
    yield (Msg("citizen, merchant"), lambda x, y, s: follower(x + s / 2, y, s, "#bbbbbb", "standing", None))
    yield (Msg("overseer"), lambda x, y, s: follower(x + s / 2, y, s, "#bbbbbb", "lying", None))
    yield (Msg("guard"), lambda x, y, s: wall_piece(x - 1, y + s * 0.2, x + s + 1, y + s * 0.5)
           + follower(x + s / 2, y - s * 0.1, s * 0.9, "#bbbbbb", "guard", None))
    yield (Msg("wall"), lambda x, y, s: wall_piece(x, y - s * 0.2, x + s, y + s * 0.2))
    yield (Msg("gate"), lambda x, y, s: gate(x + s / 2, y, s, s * 0.5, False))
    yield (Msg("tower: points"), lambda x, y, s: tower(x + s / 2, y + s * 0.1, s * 0.85, "#bbbbbb", 4))
