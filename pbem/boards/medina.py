"""The Medina board picture: a ``State.view`` dict -> SVG text.

Geometry from :mod:`pbem.engine.medina.board`: 16 x 11 squares (columns
A-P west to east, rows 1-11 north to south) inside a ring of 54 wall spaces
``W1``-``W54`` numbered clockwise from tower 1 in the north-west corner.
Column letters and row numbers are printed around the city, every square
carries its name in a corner and every wall space its ``W`` number, so the
picture alone is enough to write an order.

Layers, bottom to top: paper, sites (one ``<g class="site" data-site="E5">``
per square and ``data-site="W12"`` per wall space, each with a ``hex``
shape and a ``ring`` shown when the site is ``legal``), towers, pieces
(palace pieces in their colour, dashed while under construction, a dome in
the owner's colour, stables, merchants, wall pieces; drawn with
``pointer-events="none"`` so clicks reach the site), the pieces placed in
the latest turn outlined, then a strip with the seats, their domes and points,
and who holds the palace and tower tiles. Other seats' pieces behind their
screens are not in the view, so they cannot be drawn.
"""
from __future__ import annotations

import html
from functools import lru_cache
from typing import Any, Iterable

from pbem.boards.png import text_width
from pbem.boards.words import Msg, words
from pbem.engine.medina import board as B

FONT = "DejaVu Sans"
U = 40            # square size, SVG user units
WB = 22           # wall band width
M = 24            # margin for the coordinates
STRIP = 92        # bottom strip with seats, tiles, phase and legend
X0 = M + WB
Y0 = M + WB
WIDTH = 2 * (M + WB) + B.COLS * U
HEIGHT = 2 * (M + WB) + B.ROWS * U + STRIP

PAPER = "#f4ead3"
SAND = "#ead7ae"
INK = "#2b2620"
LEGAL = "#e6007e"
PICKED = "#0a7d2c"
PALACE_FILL = {"grey": "#a3a3a3", "black": "#2e2e2e", "brown": "#8b5a2b", "orange": "#f0901e"}
PALACE_EDGE = {"grey": "#5e5e5e", "black": "#000000", "brown": "#53331a", "orange": "#a85a00"}
SEAT_FILL = {"red": "#d0312d", "yellow": "#e9b308", "blue": "#2a62c9", "green": "#2e9a48"}
STABLE_FILL = "#d8b878"
MERCHANT_FILL = "#fff6dc"
WALL_FILL = "#b08d57"
TOWER_FILL = "#f7f3ea"

STYLE = f"""
text {{ font-family: '{FONT}'; }}
.site .ring {{ display: none; }}
.site .dot {{ display: none; }}
.site.legal .dot {{ display: inline; fill: {LEGAL}; stroke: #ffffff; stroke-width: 1.2; }}
.site.picked .ring {{ display: inline; fill: {PICKED}; fill-opacity: 0.25; stroke: {PICKED}; stroke-width: 4; }}
.site.picked text {{ font-weight: bold; }}
"""


def _esc(s: Any) -> str:
    return html.escape(str(s), quote=True)


def _text(x: float, y: float, s: str, size: float, *, fill: str = INK, anchor: str = "middle",
          bold: bool = False) -> str:
    weight = ' font-weight="bold"' if bold else ""
    return (f'<text x="{x:.1f}" y="{y:.1f}" font-size="{size:.1f}" text-anchor="{anchor}" '
            f'fill="{fill}"{weight}>{_esc(s)}</text>')


def square_box(i: int) -> tuple[float, float, float, float]:
    """x, y, width, height of square ``i``."""
    r, c = divmod(i, B.COLS)
    return X0 + c * U, Y0 + r * U, U, U


def wall_box(w: int) -> tuple[float, float, float, float]:
    """x, y, width, height of wall space ``w`` (0-based)."""
    side = B.WALL_SIDE[w]
    first = B.SIDES[side][1]
    k = w - first
    if side == 0:
        return X0 + k * U, Y0 - WB, U, WB
    if side == 1:
        return X0 + B.COLS * U, Y0 + k * U, WB, U
    if side == 2:
        return X0 + (B.COLS - 1 - k) * U, Y0 + B.ROWS * U, U, WB
    return X0 - WB, Y0 + (B.ROWS - 1 - k) * U, WB, U


TOWER_CENTRE = {1: (X0 - WB / 2, Y0 - WB / 2), 2: (X0 + B.COLS * U + WB / 2, Y0 - WB / 2),
                3: (X0 + B.COLS * U + WB / 2, Y0 + B.ROWS * U + WB / 2),
                4: (X0 - WB / 2, Y0 + B.ROWS * U + WB / 2)}


#: the palace colours as the picture names them (palace tiles line)
COLOUR_WORDS = {"grey": Msg("grey"), "black": Msg("black"), "brown": Msg("brown"), "orange": Msg("orange")}


def _seat_label(seat: Any, names: dict | None = None, t=str) -> str:
    if seat is None:
        return t(Msg("none"))
    return str((names or {}).get(int(seat)) or t(Msg("Seat {n}", n=int(seat) + 1)))


def _legend(x: float, y: float, t=str) -> str:
    """One row: what each piece looks like, the labels in the picture's
    language (smaller type when they would not fit the width)."""
    items = [  # (symbol width + gap to its label, symbol at x0, label)
        (20, lambda x0: f'<rect x="{x0}" y="{y}" width="16" height="16" rx="2" fill="{PALACE_FILL["orange"]}" '
                        f'stroke="{PALACE_EDGE["orange"]}" stroke-width="2" stroke-dasharray="4 3"/>',
         Msg("under construction")),
        (20, lambda x0: f'<rect x="{x0}" y="{y}" width="16" height="16" rx="2" fill="{PALACE_FILL["grey"]}" '
                        f'stroke="{PALACE_EDGE["grey"]}" stroke-width="2"/>'
                        f'<path d="M{x0 + 3},{y + 12} A5,5 0 0 1 {x0 + 13},{y + 12} Z" fill="{SEAT_FILL["red"]}" '
                        f'stroke="#ffffff" stroke-width="1"/>', Msg("claimed (dome)")),
        (18, lambda x0: f'<rect x="{x0}" y="{y + 4}" width="14" height="12" fill="{STABLE_FILL}" '
                        f'stroke="#6b5122" stroke-width="1.2"/>', Msg("stable")),
        (16, lambda x0: f'<circle cx="{x0 + 6}" cy="{y + 5}" r="3.5" fill="{MERCHANT_FILL}" stroke="{INK}"/>'
                        f'<path d="M{x0},{y + 16} Q{x0 + 6},{y + 3} {x0 + 12},{y + 16} Z" '
                        f'fill="{MERCHANT_FILL}" stroke="{INK}"/>', Msg("merchant")),
        (24, lambda x0: f'<rect x="{x0}" y="{y + 2}" width="20" height="13" fill="{WALL_FILL}" '
                        f'stroke="#6f5430" stroke-width="1.2"/>', Msg("wall")),
        (20, lambda x0: f'<rect x="{x0}" y="{y}" width="16" height="16" fill="{SAND}" stroke="#c4ab78"/>'
                        f'<circle cx="{x0 + 11}" cy="{y + 11}" r="4" fill="{LEGAL}" stroke="#ffffff" '
                        f'stroke-width="1.2"/>', Msg("legal now")),
        (20, lambda x0: f'<rect x="{x0}" y="{y}" width="16" height="16" fill="none" stroke="{PICKED}" '
                        f'stroke-width="2" stroke-dasharray="3 2"/>', Msg("latest turn")),
    ]
    labels = [t(label) for _, _, label in items]
    gap, size = 16.0, 10.5
    room = WIDTH - M - x - sum(sw for sw, _, _ in items) - gap * (len(items) - 1)
    written = sum(text_width(label, 1.0) for label in labels)
    size = min(size, room / written) if written > 0 else size
    out = ['<g class="legend" pointer-events="none">']
    x0 = float(x)
    for (sw, symbol, _), label in zip(items, labels):
        out.append(symbol(round(x0, 1)))
        out.append(_text(x0 + sw, y + 13, label, size, anchor="start"))
        x0 += sw + text_width(label, size) + gap
    out.append("</g>")
    return "".join(out)


def _open() -> list[str]:
    return [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" '
            f'width="{WIDTH}" height="{HEIGHT}" font-family="{FONT}" class="pbem-board medina">',
            f"<style>{STYLE}</style>",
            f'<rect x="0" y="0" width="{WIDTH}" height="{HEIGHT}" fill="{PAPER}"/>']


def _coordinates() -> list[str]:
    """Column letters and row numbers around the city."""
    out = []
    for c, letter in enumerate(B.COLUMN_LETTERS):
        x = X0 + c * U + U / 2
        out.append(_text(x, M - 8, letter, 13, bold=True))
        out.append(_text(x, Y0 + B.ROWS * U + WB + 17, letter, 13, bold=True))
    for r in range(B.ROWS):
        y = Y0 + r * U + U / 2 + 5
        out.append(_text(M / 2, y, str(r + 1), 13, bold=True))
        out.append(_text(WIDTH - M / 2, y, str(r + 1), 13, bold=True))
    return out


def _square(i: int, legal: bool) -> str:
    name = B.square_name(i)
    x, y, w, h = square_box(i)
    cls = "site legal" if legal else "site"
    return (f'<g class="{cls}" data-site="{name}">'
            f'<rect class="hex" x="{x}" y="{y}" width="{w}" height="{h}" fill="{SAND}" '
            f'stroke="#c4ab78" stroke-width="1"/>'
            f'<rect class="ring" x="{x + 2}" y="{y + 2}" width="{w - 4}" height="{h - 4}"/>'
            f'<circle class="dot" cx="{x + w - 7}" cy="{y + h - 7}" r="4"/>'
            + _text(x + 3, y + 9, name, 7.5, fill="#8f7a52", anchor="start") + "</g>")


def _wall(wi: int, built: bool, legal: bool) -> str:
    name = B.wall_name(wi)
    x, y, w, h = wall_box(wi)
    cls = "site legal" if legal else "site"
    fill = WALL_FILL if built else "#f9f3e3"
    return (f'<g class="{cls}" data-site="{name}">'
            f'<rect class="hex" x="{x}" y="{y}" width="{w}" height="{h}" fill="{fill}" '
            f'stroke="#9c8458" stroke-width="1"/>'
            f'<rect class="ring" x="{x + 1.5}" y="{y + 1.5}" width="{w - 3}" height="{h - 3}"/>'
            f'<circle class="dot" cx="{x + w - 5}" cy="{y + 5}" r="3"/>'
            + _text(x + w / 2, y + h / 2 + 3, name, 7.5,
                    fill="#fff8e6" if built else "#8f7a52") + "</g>")


def _tower(t: int) -> str:
    cx, cy = TOWER_CENTRE[t]
    return (f'<circle cx="{cx}" cy="{cy}" r="{WB * 0.8:.1f}" fill="{TOWER_FILL}" '
            f'stroke="{INK}" stroke-width="2"/>' + _text(cx, cy + 5, str(t), 14, bold=True))


def _pieces(view: dict[str, Any], seat_colour: dict, walls: dict, last: set[str]):
    """The pieces in drawing order: ``[(box of the square or wall space
    they stand on, SVG)]`` (a piece never leaves its square)."""
    out = []
    for wname in walls:   # crenels on built wall pieces
        wi = B.parse_wall(wname)
        if wi is None:
            continue
        x, y, w, h = wall_box(wi)
        out.append(((x, y, w, h), f'<rect class="piece wall" x="{x + 2}" y="{y + 2}" width="{w - 4}" height="{h - 4}" fill="none" '
                    f'stroke="#6f5430" stroke-width="1.5"/>'))
    for p in view.get("palaces") or []:
        colour = p.get("colour", "grey")
        dash = "" if p.get("complete") else ' stroke-dasharray="4 3"'
        for s in p.get("squares") or []:
            i = B.parse_square(s)
            if i is None:
                continue
            x, y, w, h = square_box(i)
            out.append(((x, y, w, h), f'<rect class="piece palace {_esc(colour)}" x="{x + 3}" y="{y + 3}" width="{w - 6}" height="{h - 6}" rx="2" '
                        f'fill="{PALACE_FILL.get(colour, "#999")}" '
                        f'stroke="{PALACE_EDGE.get(colour, "#000")}" stroke-width="2"{dash}/>'))
        for s in p.get("stables") or []:
            i = B.parse_square(s)
            if i is None:
                continue
            x, y, w, h = square_box(i)
            out.append(((x, y, w, h), f'<rect class="piece stable" x="{x + 8}" y="{y + 10}" width="{w - 16}" height="{h - 16}" '
                        f'fill="{STABLE_FILL}" stroke="#6b5122" stroke-width="1.5"/>'
                        f'<polygon points="{x + 6},{y + 12} {x + U / 2},{y + 4} {x + U - 6},{y + 12}" '
                        f'fill="#a67c3d" stroke="#6b5122" stroke-width="1"/>'))
        if p.get("dome"):
            i = B.parse_square(p["dome"])
            if i is not None:
                x, y, w, h = square_box(i)
                fill = seat_colour.get(p.get("owner"), "#777777")
                out.append(((x, y, w, h), f'<path class="piece dome" d="M{x + 8},{y + 28} A12,12 0 0 1 {x + 32},{y + 28} Z" '
                            f'fill="{fill}" stroke="#ffffff" stroke-width="2"/>'))
    for s in view.get("merchants") or []:
        i = B.parse_square(s)
        if i is None:
            continue
        x, y, w, h = square_box(i)
        cx, cy = x + U / 2, y + U / 2 + 2
        out.append(((x, y, w, h), f'<circle class="piece merchant" cx="{cx}" cy="{cy - 7}" r="5" fill="{MERCHANT_FILL}" stroke="{INK}" '
                    f'stroke-width="1.3"/><path d="M{cx - 8},{cy + 11} Q{cx},{cy - 8} {cx + 8},{cy + 11} Z" '
                    f'fill="{MERCHANT_FILL}" stroke="{INK}" stroke-width="1.3"/>'))
    for s in sorted(last):   # the latest turn's pieces
        i = B.parse_square(s)
        box = square_box(i) if i is not None else (
            wall_box(B.parse_wall(s)) if B.parse_wall(s) is not None else None)
        if box:
            x, y, w, h = box
            out.append((box, f'<rect class="last" x="{x + 0.5}" y="{y + 0.5}" width="{w - 1}" '
                        f'height="{h - 1}" fill="none" stroke="{PICKED}" stroke-width="2" '
                        f'stroke-dasharray="3 2"/>'))
    return out


STRIP_Y = Y0 + B.ROWS * U + WB + 30


SEAT_SLOT = 172   # the strip's width per seat


def _fit(s: str, size: float, room: float, bold: bool = False) -> float:
    """``size``, or smaller so that ``s`` fits ``room`` units (translations run long)."""
    w = text_width(s, 1.0, bold=bold)
    return size if w * size <= room else room / w


def _strip(view: dict[str, Any], seat_colour: dict, t=str) -> list[tuple[tuple[float, float, float, float], str]]:
    """Seats, palace and tower tiles, phase (the legend below is static):
    ``[(box, SVG)]``, one entry per seat and one per line of text."""
    out = []
    y = STRIP_Y
    scores = {s.get("seat"): s.get("points") for s in view.get("scores") or []}
    x = M
    for p in view.get("players") or []:
        seat = p.get("seat")
        name = str(p.get("name") or _seat_label(seat, t=t))
        name = name if len(name) <= 12 else name[:11] + "…"
        label = t(Msg("{name}: {points} pts, domes {domes}", name=name, points=scores.get(seat, 0),
                      domes=p.get("domes", 0)))
        size = _fit(label, 11.5, SEAT_SLOT - 22)
        out.append(((x - 2, y - 14, x + 20 + text_width(label, size), y + 5),
                    f'<rect x="{x}" y="{y - 10}" width="12" height="12" fill="{seat_colour.get(seat)}" '
                    f'stroke="{INK}" stroke-width="1"/>\n' + _text(x + 16, y, label, size, anchor="start")))
        x += SEAT_SLOT
    pt = view.get("palace_tiles") or {}
    tt = view.get("tower_tiles") or {}
    names = {p.get("seat"): p.get("name") for p in view.get("players") or []}
    palace = ", ".join(f"{t(COLOUR_WORDS[c])} {_seat_label(pt.get(c), names, t)}" for c in PALACE_FILL)
    tower = ", ".join(f"{k}: {_seat_label(tt.get(k), names, t)}" for k in sorted(tt))
    tiles = t(Msg("Palace tiles: {palace}", palace=palace)) + "  |  " + t(Msg("Tower tiles: {towers}", towers=tower))
    phase = t(view.get("phase") or "")
    out.append(((0, y + 7, WIDTH, y + 25), _text(M, y + 20, tiles, _fit(tiles, 11, WIDTH - 2 * M), anchor="start")))
    out.append(((0, y + 23, WIDTH, y + 41), _text(M, y + 36, phase, _fit(phase, 11, WIDTH - 2 * M, True),
                                                  anchor="start", bold=True)))
    return out


def _read(view: dict[str, Any], highlight: Iterable[str]):
    legal = {str(s).upper() for s in highlight}
    seat_colour = {p.get("seat"): SEAT_FILL.get(p.get("colour"), "#777777") for p in view.get("players") or []}
    walls = {str(k).upper(): v for k, v in (view.get("walls") or {}).items()}
    last = {str(s).upper() for s in view.get("last_sites") or []}
    return legal, seat_colour, walls, last


def render_svg(view: dict[str, Any], highlight: Iterable[str] = (), *, lang: str = "en") -> str:
    """The board for ``view`` (``MedinaState.view``), sites in ``highlight``
    (``"E5"``, ``"W12"``) marked legal, words in ``lang``. Missing keys draw
    as empty, so any view (setup included) renders."""
    t = words(lang)
    legal, seat_colour, walls, last = _read(view, highlight)
    out = _open() + _coordinates()
    # sites: squares, then wall spaces
    out.append('<g class="sites">')
    for i in range(B.SQUARES):
        out.append(_square(i, B.square_name(i) in legal))
    for wi in range(B.WALLS):
        name = B.wall_name(wi)
        out.append(_wall(wi, name in walls, name in legal))
    out.append("</g>")
    out.append('<g class="towers" pointer-events="none">')
    out += [_tower(t) for t in TOWER_CENTRE]
    out.append("</g>")
    out.append('<g class="pieces" pointer-events="none">')
    out += [svg for _, svg in _pieces(view, seat_colour, walls, last)]
    out.append("</g>")
    out += [svg for _, svg in _strip(view, seat_colour, t)]
    out.append(_legend(M, STRIP_Y + 50, t))
    out.append("</svg>")
    return "\n".join(out)


@lru_cache(maxsize=1)
def _later_neighbours() -> tuple[tuple[int, ...], ...]:
    """For each site (squares, then wall spaces, in drawing order) the
    later sites whose box, half a stroke wider, meets its own."""
    boxes = [square_box(i) for i in range(B.SQUARES)] + [wall_box(w) for w in range(B.WALLS)]

    def meet(a, b) -> bool:
        return (a[0] - 0.5 < b[0] + b[2] + 0.5 and b[0] - 0.5 < a[0] + a[2] + 0.5
                and a[1] - 0.5 < b[1] + b[3] + 0.5 and b[1] - 0.5 < a[1] + a[3] + 0.5)
    return tuple(tuple(j for j in range(k + 1, len(boxes)) if meet(boxes[k], boxes[j])) for k in range(len(boxes)))


def layers(view: dict[str, Any], highlight: Iterable[str] = (), *, lang: str = "en"):
    """The picture of :func:`render_svg` as a static and a dynamic layer for
    :mod:`pbem.boards.raster`.

    Static (the same for every Medina game, key ``()``): paper,
    coordinates, every square and wall space empty and not legal, towers,
    legend; and a variant with every square legal. Dynamic tiles, in order:
    legal squares (their inside cut from the variant), wall spaces that
    look different (built, legal; a legal one followed by the later sites
    that overlap it), the towers again where such a wall space touches one
    (they lie over the wall band), the pieces grouped by the square or wall
    space they stand on (in drawing order within it), the strip: one tile
    per seat, one for the palace and tower tiles, one for the phase (so a
    turn redraws only what it changed).
    """
    from pbem.boards.raster import Crop, Layers, Tile

    legal, seat_colour, walls, last = _read(view, highlight)
    say = words(lang)

    def static_svg(all_legal: bool = False) -> str:
        out = _open() + _coordinates()
        out.append('<g class="sites">')
        out += [_square(i, all_legal) for i in range(B.SQUARES)]
        out += [_wall(wi, False, False) for wi in range(B.WALLS)]
        out.append("</g>")
        out.append('<g class="towers" pointer-events="none">')
        out += [_tower(t) for t in TOWER_CENTRE]
        out.append("</g>")
        out.append(_legend(M, STRIP_Y + 50, say))
        out.append("</svg>")
        return "\n".join(out)

    def grow(box, m):
        x, y, w, h = box
        return (x - m, y - m, x + w + m, y + h + m)

    # A legal square is the pixels wholly inside it taken from the static
    # board with every square legal: its ring and label lie a quarter unit
    # inside its edge, and what else reaches inside (the neighbours' edges)
    # is the same there; only the pixels its edge crosses keep the static
    # look. A
    # wall space drawn anew (built or legal) is followed, if legal, by the
    # later sites that overlap it: its ring reaches under their edge.
    looks = [(B.square_name(i) in legal, False) for i in range(B.SQUARES)]
    looks += [(B.wall_name(wi) in legal, B.wall_name(wi) in walls) for wi in range(B.WALLS)]
    redraw, tiles = set(), []
    for k, (is_legal, built) in enumerate(looks):
        if k < B.SQUARES:
            if is_legal:
                tiles.append(Crop(grow(square_box(k), 0), "legal"))
        elif built or is_legal:
            redraw.add(k)
            if is_legal:
                redraw.update(_later_neighbours()[k])
    for k in sorted(redraw):
        if k < B.SQUARES:
            tiles.append(Tile(grow(square_box(k), 2), _square(k, looks[k][0])))
        else:
            wi = k - B.SQUARES
            tiles.append(Tile(grow(wall_box(wi), 2), _wall(wi, looks[k][1], looks[k][0])))
    r = WB * 0.8 + 2
    for t, (cx, cy) in TOWER_CENTRE.items():
        box = (cx - r, cy - r, cx + r, cy + r)
        if any(isinstance(b, Tile) and b.box[0] < box[2] and box[0] < b.box[2] and b.box[1] < box[3]
               and box[1] < b.box[3] for b in tiles):
            tiles.append(Tile(box, _tower(t)))
    pieces: dict[tuple, list[str]] = {}
    for box, svg in _pieces(view, seat_colour, walls, last):
        pieces.setdefault(tuple(box), []).append(svg)
    for box, svgs in pieces.items():
        tiles.append(Tile(grow(box, 2), "\n".join(svgs)))
    tiles += [Tile(box, svg) for box, svg in _strip(view, seat_colour, say)]
    return Layers(game="medina", width=float(WIDTH), height=float(HEIGHT), static_key=(), static_svg=static_svg,
                  prelude=f"<style>{STYLE}</style>", tiles=tuple(tiles),
                  variants={"legal": lambda: static_svg(all_legal=True)})


def seat_colours(view: dict[str, Any]) -> list[str]:
    """Each seat's colour (``#rrggbb``, index = seat): its domes' colour."""
    colours = {p.get("seat"): SEAT_FILL.get(p.get("colour"), "#777777") for p in view.get("players") or []}
    return [colours.get(s, "#777777") for s in range(int(view.get("seats") or len(colours)))]
