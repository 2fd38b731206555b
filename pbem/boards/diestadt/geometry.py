"""Die Stadt picture geometry: which part of the grid is drawn, at what
scale, and the static layer (paper, grid, coordinates, legend).

The board grows: only the used part of the 40 x 40 grid is drawn, the
tiles' bounding box with one space of margin on every side, where the next
tile and the wall go (so the drawn part changes only when the city grows
past it, and the static raster layer, keyed by it, is drawn again only then). It is
scaled to fill a picture 900 units wide (at most 110 units a space, and
small enough to keep the city under ~1100 units tall), so the labels,
whose sizes are fixed, stay legible whatever the city's extent. Column
letters and row numbers are printed on all four sides.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Iterable

from pbem.boards.diestadt import art as A
from pbem.boards.diestadt.art import esc, f, text
from pbem.boards.png import text_width
from pbem.boards.words import Msg, words
from pbem.engine.diestadt.grid import COLUMNS, H, W, parse_space

FONT = "DejaVu Sans"
WIDTH = 900.0
M = 30.0                  # coordinate band around the city
HEADER = 40.0             # the phase
MAX_BOARD_H = 1100.0
MAX_U = 110.0
PAPER = "#f4ecd8"
CELL = "#f8f5ee"
LEGAL = "#e6007e"
PICKED = "#0a7d2c"
FS = 17.0                 # strip text
ROT = 92.0                # a rotation of the drawn tile in the strip
SEAT_LINE = 28.0
DRAWN_Y = 2 * SEAT_LINE + 22        # strip offsets from its top
LEGEND_Y = DRAWN_Y + ROT + 84
LEGEND_LINE = 30.0
LEGEND_SIZE = 15.0        # legend text and symbol
LEGEND_SYMBOL = 22.0

STYLE = f"""
text {{ font-family: '{FONT}'; }}
.site .ring {{ display: none; }}
.site.legal .ring {{ display: inline; fill: {LEGAL}; fill-opacity: 0.16; stroke: {LEGAL}; stroke-width: 4; }}
.site.picked .ring {{ display: inline; fill: {PICKED}; fill-opacity: 0.2; stroke: {PICKED}; stroke-width: 5; }}
.site.legal text {{ fill: {LEGAL}; font-weight: bold; }}
"""
CORNER = re.compile(r"^([A-Za-z]{1,2}\d{1,2})(NE|SE|SW|NW)$", re.I)
_CORNER_AT = {"NW": (0, 0), "NE": (1, 0), "SE": (1, 1), "SW": (0, 1)}


@dataclass
class Plan:
    """The picture's geometry: grid spaces ``gx0..`` (``cols`` x ``rows``)
    at ``u`` units a side, the grid's top left at (``bx``, ``by``)."""

    view: dict[str, Any]
    legal: set[str]
    colours: dict[int, str]
    gx0: int
    gy0: int
    cols: int
    rows: int
    u: float
    bx: float
    by: float
    strip_y: float
    height: float
    lang: str = "en"
    say: Any = str      # the picture's words: Msg -> text in ``lang`` (pbem.boards.words)

    def xy(self, space: int) -> tuple[float, float]:
        """Top left of a space (user units)."""
        return self.bx + (space % W - self.gx0) * self.u, self.by + (space // W - self.gy0) * self.u

    @property
    def t(self) -> float:
        """Wall band thickness."""
        return max(5.0, self.u * 0.14)


def _spaces(view: dict[str, Any], legal: set[str]) -> list[int]:
    """The placed tiles' spaces (the spaces a tile may go on, and those
    highlighted, lie next to them; only without tiles do they count)."""
    out = [t["y"] * W + t["x"] for t in view.get("tiles") or [] if "x" in t and "y" in t]
    if out:
        return out
    for name in list(view.get("legal_spaces") or {}) + sorted(legal):
        sp = parse_space(name)
        if sp is not None:
            out.append(sp)
    return out


def plan(view: dict[str, Any], highlight: Iterable[str], lang: str = "en") -> Plan:
    """The geometry for ``view`` (see :class:`Plan`), its words in ``lang``."""
    legal = {str(s).upper() for s in highlight}
    spaces = _spaces(view, legal) or [19 * W + 19]
    xs, ys = [s % W for s in spaces], [s // W for s in spaces]
    gx0, gy0 = max(0, min(xs) - 1), max(0, min(ys) - 1)
    cols, rows = min(W - 1, max(xs) + 1) - gx0 + 1, min(H - 1, max(ys) + 1) - gy0 + 1
    u = min((WIDTH - 2 * M) / cols, MAX_BOARD_H / rows, MAX_U)
    u = int(u * 2) / 2
    bx, by = (WIDTH - cols * u) / 2, HEADER + M
    strip_y = by + rows * u + M
    colours = {p.get("seat"): A.seat_fill(p.get("colour"), p.get("seat")) for p in view.get("players") or []}
    return Plan(view, legal, colours, gx0, gy0, cols, rows, u, bx, by, strip_y,
                strip_y + strip_height(lang), lang, words(lang))


# --- static: paper, coordinates, grid, legend -------------------------------------


def svg_open(pl: Plan, title: str, desc: str) -> list[str]:
    return [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {f(WIDTH)} {f(pl.height)}" '
            f'width="{f(WIDTH)}" height="{f(pl.height)}" font-family="{FONT}" class="pbem-board diestadt" '
            f'role="group" aria-label="{esc(title)}">',
            f"<title>{esc(title)}</title>", f"<desc>{esc(desc)}</desc>",
            f"<style>{STYLE}</style>",
            f'<rect width="{f(WIDTH)}" height="{f(pl.height)}" fill="{PAPER}"/>']


def coordinates(pl: Plan) -> list[str]:
    size = min(15.0, pl.u * 0.45)
    out = ['<g class="coordinates">']
    top, bottom = pl.by - 9, pl.by + pl.rows * pl.u + size + 7
    for c in range(pl.cols):
        x = pl.bx + (c + 0.5) * pl.u
        out += [text(x, top, COLUMNS[pl.gx0 + c], size, bold=True), text(x, bottom, COLUMNS[pl.gx0 + c], size,
                                                                         bold=True)]
    for r in range(pl.rows):
        y = pl.by + (r + 0.5) * pl.u + size * 0.36
        out += [text(pl.bx - 6, y, pl.gy0 + r + 1, size, bold=True, anchor="end"),
                text(pl.bx + pl.cols * pl.u + 6, y, pl.gy0 + r + 1, size, bold=True, anchor="start")]
    out.append("</g>")
    return out


def grid(pl: Plan) -> str:
    x1, y1 = pl.bx + pl.cols * pl.u, pl.by + pl.rows * pl.u
    d = [f"M{f(pl.bx + c * pl.u)},{f(pl.by)} V{f(y1)}" for c in range(pl.cols + 1)]
    d += [f"M{f(pl.bx)},{f(pl.by + r * pl.u)} H{f(x1)}" for r in range(pl.rows + 1)]
    return (f'<rect x="{f(pl.bx)}" y="{f(pl.by)}" width="{f(x1 - pl.bx)}" height="{f(y1 - pl.by)}" fill="{CELL}"/>'
            f'<path d="{" ".join(d)}" stroke="#e3dccb" stroke-width="1" fill="none"/>')


def static(pl: Plan, title: str = "Carcassonne: Die Stadt", desc: str = "") -> list[str]:
    """The static layer: a function of the drawn part of the grid and ``pl.lang``."""
    return svg_open(pl, title, desc) + [grid(pl)] + coordinates(pl) + [legend(pl)]


@lru_cache(maxsize=8)
def legend_items(lang: str = "en") -> list[tuple[float, int, str, Any]]:
    """The legend in ``lang`` laid out in rows: ``[(x, row, label, draw)]``."""
    say = words(lang)
    items = list(A.legend_symbols()) + [(Msg("legal space"), lambda x, y, s: (
        f'<rect x="{f(x)}" y="{f(y - s / 2)}" width="{f(s)}" height="{f(s)}" fill="{LEGAL}" fill-opacity="0.16" '
        f'stroke="{LEGAL}" stroke-width="2.5"/>'))]
    out, x, row = [], M, 0
    for label, draw in items:
        label = say(label)
        w = LEGEND_SYMBOL + 6 + text_width(label, LEGEND_SIZE) + 16
        if x + w > WIDTH - M:
            x, row = M, row + 1
        out.append((x, row, label, draw))
        x += w
    return out


def strip_height(lang: str = "en") -> float:
    """The strip's height below the city (its legend wraps by the words' length)."""
    return LEGEND_Y + (legend_items(lang)[-1][1] + 1) * LEGEND_LINE


def legend(pl: Plan) -> str:
    """The key to the symbols (static)."""
    y0 = pl.strip_y + LEGEND_Y
    out = [f'<g class="legend"><line x1="{f(M)}" y1="{f(y0 - 22)}" x2="{f(WIDTH - M)}" y2="{f(y0 - 22)}" '
           f'stroke="#c8bc9c"/>']
    for x, row, label, draw in legend_items(pl.lang):
        y = y0 + row * LEGEND_LINE
        out.append(draw(x, y, LEGEND_SYMBOL) + text(x + LEGEND_SYMBOL + 6, y + LEGEND_SIZE * 0.36, label,
                                                    LEGEND_SIZE, anchor="start"))
    out.append("</g>")
    return "".join(out)


def corner_xy(pl: Plan, name: str) -> tuple[float, float] | None:
    """The point of a corner name (``"U20NE"``), or None."""
    m = CORNER.match(str(name))
    sp = parse_space(m.group(1)) if m else None
    if sp is None:
        return None
    x, y = pl.xy(sp)
    dx, dy = _CORNER_AT[m.group(2).upper()]
    return x + dx * pl.u, y + dy * pl.u
