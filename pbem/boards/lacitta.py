"""The La Città board picture: a ``State.view`` dict -> SVG text.

Geometry comes from :mod:`pbem.engine.lacitta.board` (``board_data()``:
pointy-top hexes of circumradius 1, site centres ``x, y``, landscape regions
as lattice triangles); this module only scales and styles it.

Layers, bottom to top: paper, landscape (slots and fixed edge regions, with
grain / mountain / wave symbols), sites (one ``<g class="site"
data-site="F7">`` each: hex, coordinate, legal ring; the sites of a city are
tinted in the owner's colour), buildings (two-letter glyphs with their arches in the
wish colours: culture white, education black, health blue), castles in the
owner's colour with the city's citizen count, then the player strip and the
legend. Sites that the player count leaves out are greyed (class ``off``).

Each site group has a ``<title>`` (tooltip on the web page: the coordinate
and what stands there). Highlighted sites get class ``legal``; the look of
``legal`` and ``picked`` is in the SVG's own ``<style>`` so the PNG and the
web page agree and ``board.js`` only toggles classes.

The view is read by :func:`read_view` (shape in its docstring); unknown keys
are ignored and missing ones drawn as empty, so a view from any point of the
game (setup included) renders.
"""
from __future__ import annotations

import html
import math
import re
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Iterable, Mapping

from pbem.boards.png import text_width
from pbem.boards.words import Msg, Msgc, Msgn, words

# --- scale and styles ----------------------------------------------------

S = 20.0                 # SVG user units per hex circumradius
FONT = "DejaVu Sans"
PAPER = "#f3ecda"
INK = "#2b2620"

LANDSCAPE_FILL = {
    "field": "#e8cf6e", "mountain": "#a8a094", "lake": "#6fa9d6", "water": "#4f8fc4",
    "": "#d9d4c7",          # slot with no tile yet
}
LANDSCAPE_EDGE = {
    "field": "#c9a93e", "mountain": "#7d766b", "lake": "#3f7fb3", "water": "#3f7fb3", "": "#b5ae9f",
}
TILE_KIND = {"F1": ("field", 1), "F2": ("field", 2), "F3": ("field", 3), "M": ("mountain", 0),
             "L": ("lake", 0), "W": ("water", 0)}

# Arch colours as printed on the tiles: culture white, education black, health blue.
ARCH_FILL = {"culture": "#ffffff", "education": "#1b1b1b", "health": "#2f7fe0"}
WISHES = ("culture", "education", "health")

#: every word the picture draws for a building, a wish or a castle
#: (translated with :func:`pbem.boards.words.words`)
WORDS = {
    "farm": Msg("farm"), "quarry": Msg("quarry"), "market": Msg("market"), "statue": Msg("statue"),
    "school": Msg("school"), "fountain": Msg("fountain"), "palazzo": Msg("palazzo"),
    "hospital": Msg("hospital"), "bathhouse": Msg("bathhouse"), "dom": Msg("dom"),
    "university": Msg("university"), "castle": Msg("castle"),
    "culture": Msg("culture"), "education": Msg("education"), "health": Msg("health"),
}

def _two(letters: str) -> Msg:
    """A building's letters on the board: each language writes its own
    (from the building's name there, docs/i18n/<lang>.md "Board letters")."""
    return Msgc("La Città building letters", letters)


# building -> (glyph, tile fill, glyph colour, arches in order). The tile takes
# the colour of its arches (culture white, education black, health blue; the
# hospital half blue, half black) so a city's appeal reads at a glance.
HOSPITAL_FILL = "url(#lc-hospital)"
BUILDINGS: dict[str, tuple[Msg, str, str, tuple[str, ...]]] = {
    "farm": (_two("Fa"), "#bcd98a", INK, ()),
    "quarry": (_two("Qu"), "#bdb6aa", INK, ()),
    "market": (_two("Ma"), "#f0b46c", INK, ()),
    "statue": (_two("St"), "#ffffff", INK, ("culture",)),
    "school": (_two("Sc"), "#1b1b1b", "#ffffff", ("education",)),
    "fountain": (_two("Fo"), "#2f7fe0", "#ffffff", ("health",)),
    "palazzo": (_two("Pa"), "#ffffff", INK, ("culture", "culture")),
    "hospital": (_two("Ho"), HOSPITAL_FILL, "#ffffff", ("health", "education")),
    "bathhouse": (_two("Ba"), "#2f7fe0", "#ffffff", ("health", "health")),
    "dom": (_two("Do"), "#ffffff", INK, ("culture", "culture", "culture")),
    "university": (_two("Un"), "#1b1b1b", "#ffffff", ("education", "education", "education")),
}
DEFS = (
    '<linearGradient id="lc-hospital" x1="0" y1="0" x2="1" y2="0">'
    f'<stop offset="0.5" stop-color="{ARCH_FILL["health"]}"/><stop offset="0.5" stop-color="{ARCH_FILL["education"]}"/>'
    '</linearGradient>'
)
# Names the engine or a translation may use for the same buildings.
BUILDING_ALIASES = {
    "bauernhof": "farm", "steinbruch": "quarry", "marktplatz": "market", "statue": "statue",
    "klosterschule": "school", "monastery school": "school", "brunnen": "fountain",
    "badhaus": "bathhouse", "bath house": "bathhouse", "bath": "bathhouse",
    "universität": "university", "universitaet": "university", "cathedral": "dom",
}

SEAT_COLOURS = ["#d0312d", "#2a62c9", "#2e9a48", "#e9b308", "#8e44ad"]
NAMED_COLOURS = {
    "red": "#d0312d", "blue": "#2a62c9", "green": "#2e9a48", "yellow": "#e9b308",
    "purple": "#8e44ad", "violet": "#8e44ad", "orange": "#e8731c", "black": "#333333",
    "white": "#f4f4f4", "brown": "#8b5a2b", "grey": "#8a8a8a", "gray": "#8a8a8a", "pink": "#e55d9b",
}

LEGAL = "#e6007e"        # magenta: unlike every seat colour and every landscape
PICKED = "#0a7d2c"

STYLE = f"""
text {{ font-family: '{FONT}'; }}
.site .ring {{ display: none; }}
.site.legal .ring {{ display: inline; fill: {LEGAL}; fill-opacity: 0.18; stroke: {LEGAL}; stroke-width: 4.5; }}
.site.legal text, .site.picked text {{ stroke: #ffffff; stroke-width: 2.2; paint-order: stroke; font-weight: bold; }}
.site.picked .ring {{ display: inline; fill: {PICKED}; fill-opacity: 0.2; stroke: {PICKED}; stroke-width: 5; }}
"""


# --- the view, normalised ----------------------------------------------


@dataclass
class Building:
    site: str
    kind: str                      # "castle", "farm", ... (data.BUILDINGS)
    owner: int
    city: str | None               # castle site of its city
    notables: list[str] = field(default_factory=list)   # wish per Brot und Spiele notable
    harvest: bool = False          # a Reiche Ernte notable on this farm


@dataclass
class Player:
    seat: int
    name: str
    colour: str
    food: int | None = None
    gold: int | None = None
    points: int | None = None


@dataclass
class BoardView:
    seats: int
    landscape: dict[str, str]      # slot id -> tile code ("F2", "M", "L") or "" (empty)
    buildings: dict[str, Building]  # site -> building
    citizens: dict[str, int]       # castle site -> citizens of that city
    players: list[Player]
    phase: str = ""
    viewer: int | None = None
    to_move: frozenset[int] = frozenset()
    wishes: tuple[str, ...] = ()
    last: frozenset[str] = frozenset()   # sites the latest turn changed (outlined)


def _int(x: Any) -> int | None:
    if isinstance(x, bool):
        return None
    try:
        return int(x)
    except (TypeError, ValueError):
        return None


def _colour(value: Any, seat: int) -> str:
    if isinstance(value, str):
        v = value.strip().lower()
        if v in NAMED_COLOURS:
            return NAMED_COLOURS[v]
        if len(v) in (4, 7) and v.startswith("#") and all(c in "0123456789abcdef" for c in v[1:]):
            return v
    return SEAT_COLOURS[seat % len(SEAT_COLOURS)]


def _kind(x: Any) -> str:
    k = str(x or "").strip().lower()
    return BUILDING_ALIASES.get(k, k)


def _seq(x: Any) -> list:
    return list(x) if isinstance(x, (list, tuple)) else []


def read_view(view: Mapping[str, Any]) -> BoardView:
    """Normalise a La Città view (``pbem.engine.lacitta.view.make_view``) for
    drawing. Reads, all optional (a missing or malformed entry is drawn as
    absent, never an error):

    - ``seats``; ``phase`` (header text); ``viewer`` (marked "you");
      ``current_seats`` (marked as to move); ``wishes`` (this year's, shown
      once revealed);
    - ``landscape``: ``{slot: tile code}`` (``board.TILES``: ``F1 F2 F3 M L``);
      a missing slot is drawn empty;
    - ``buildings``: ``[{"site", "kind", "owner", "city", "notables":
      [{"seat", "wish"}], "harvest"}]`` (castles included, ``kind="castle"``);
    - ``cities``: ``[{"castle", "owner", "citizens", ...}]`` for the number on
      each castle;
    - ``last_sites``: sites the latest turn changed, outlined;
    - ``players``: ``[{"seat", "food", "gold", "points"}]`` plus, if the
      caller adds them, ``"name"`` and ``"colour"`` (a name such as ``"red"``
      or ``#rrggbb``; default: red, blue, green, yellow, purple by seat).
    """
    players = []
    for i, p in enumerate(_seq(view.get("players"))):
        p = p if isinstance(p, Mapping) else {}
        seat = _int(p.get("seat"))
        seat = i if seat is None else seat
        players.append(Player(seat=seat, name=str(p.get("name") or ""),
                              colour=_colour(p.get("colour") or p.get("color"), seat),
                              food=_int(p.get("food")), gold=_int(p.get("gold")), points=_int(p.get("points"))))
    seats = _int(view.get("seats")) or len(players) or 5
    raw_land = view.get("landscape")
    landscape = {str(k): str(v or "") for k, v in raw_land.items()} if isinstance(raw_land, Mapping) else {}

    buildings: dict[str, Building] = {}
    for b in _seq(view.get("buildings")):
        if not isinstance(b, Mapping) or not b.get("site"):
            continue
        site = str(b["site"]).upper()
        owner = _int(b.get("owner"))
        notables = [str((n.get("wish") if isinstance(n, Mapping) else n) or "") for n in _seq(b.get("notables"))]
        buildings[site] = Building(site=site, kind=_kind(b.get("kind")), owner=0 if owner is None else owner,
                                   city=str(b["city"]).upper() if b.get("city") else None,
                                   notables=notables, harvest=bool(b.get("harvest")))
    citizens: dict[str, int] = {}
    for c in _seq(view.get("cities")):
        if isinstance(c, Mapping) and c.get("castle") and _int(c.get("citizens")) is not None:
            castle = str(c["castle"]).upper()
            citizens[castle] = _int(c["citizens"])
            if castle not in buildings:      # a city listed without its castle building
                owner = _int(c.get("owner"))
                buildings[castle] = Building(castle, "castle", 0 if owner is None else owner, castle)

    known = {p.seat for p in players}
    for seat in sorted({b.owner for b in buildings.values()} - known):
        players.append(Player(seat=seat, name="", colour=_colour(None, seat)))
    players.sort(key=lambda p: p.seat)
    to_move = frozenset(x for x in (_int(s) for s in _seq(view.get("current_seats"))) if x is not None)
    wishes = tuple(str(w) for w in _seq(view.get("wishes")) if w in WISHES)
    return BoardView(seats=seats, landscape=landscape, buildings=buildings, citizens=citizens,
                     players=players, phase=str(view.get("phase") or ""), viewer=_int(view.get("viewer")),
                     to_move=to_move, wishes=wishes,
                     last=frozenset(str(x).upper() for x in _seq(view.get("last_sites"))))


# --- drawing helpers -----------------------------------------------------


def _f(v: float) -> str:
    """A coordinate: one decimal, no trailing zero (small, deterministic SVG)."""
    s = f"{v:.1f}"
    if s.endswith(".0"):
        s = s[:-2]
    return "0" if s == "-0" else s


def _pts(points: Iterable[tuple[float, float]]) -> str:
    return " ".join(f"{_f(x)},{_f(y)}" for x, y in points)


# Characters XML 1.0 forbids (control codes, lone surrogates, U+FFFE/U+FFFF):
# a player's name must not be able to break the picture.
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def _esc(s: Any) -> str:
    return html.escape(_NOT_XML.sub("\ufffd", str(s)), quote=True)


def _hex(cx: float, cy: float, r: float) -> list[tuple[float, float]]:
    # pointy-top: corners at -90, -30, 30, 90, 150, 210 degrees
    return [(cx + r * math.cos(math.radians(a)), cy + r * math.sin(math.radians(a)))
            for a in (-90, -30, 30, 90, 150, 210)]


def _text(x: float, y: float, s: Any, size: float, *, fill: str = INK, bold: bool = False,
          anchor: str = "middle", extra: str = "") -> str:
    weight = ' font-weight="bold"' if bold else ""
    return (f'<text x="{_f(x)}" y="{_f(y)}" font-size="{_f(size)}"{weight} '
            f'text-anchor="{anchor}" fill="{fill}"{extra}>{_esc(s)}</text>')


def _luma(colour: str) -> float:
    c = colour.lstrip("#")
    if len(c) == 3:
        c = "".join(ch * 2 for ch in c)
    r, g, b = (int(c[i:i + 2], 16) for i in (0, 2, 4))
    return 0.299 * r + 0.587 * g + 0.114 * b


def _on(colour: str) -> str:
    """Text colour readable on ``colour``."""
    return INK if _luma(colour) > 150 else "#ffffff"


def _tint(colour: str, amount: float) -> str:
    """``colour`` mixed with white (``amount`` 0 = colour, 1 = white)."""
    c = colour.lstrip("#")
    if len(c) == 3:
        c = "".join(ch * 2 for ch in c)
    rgb = [int(c[i:i + 2], 16) for i in (0, 2, 4)]
    return "#" + "".join(f"{round(v + (255 - v) * amount):02x}" for v in rgb)


# --- symbols -------------------------------------------------------------


def _grain(x: float, y: float, h: float) -> str:
    """One ear of grain, ``h`` tall, standing on (x, y)."""
    parts = [f'<line x1="{_f(x)}" y1="{_f(y)}" x2="{_f(x)}" y2="{_f(y - h)}" stroke="#8a6a12" stroke-width="1.3"/>']
    for i in range(3):
        ky = y - h * (0.45 + 0.2 * i)
        for side in (-1, 1):
            parts.append(f'<ellipse cx="{_f(x + side * h * 0.13)}" cy="{_f(ky)}" rx="{_f(h * 0.1)}" '
                         f'ry="{_f(h * 0.17)}" fill="#a57d12" transform="rotate({side * 28} {_f(x + side * h * 0.13)} {_f(ky)})"/>')
    parts.append(f'<ellipse cx="{_f(x)}" cy="{_f(y - h * 0.98)}" rx="{_f(h * 0.09)}" ry="{_f(h * 0.16)}" fill="#a57d12"/>')
    return "".join(parts)


def _field_symbol(cx: float, cy: float, grain: int, size: float) -> str:
    out = []
    gap = size * 0.42
    x0 = cx - gap * (grain - 1) / 2
    for i in range(grain):
        out.append(_grain(x0 + gap * i, cy + size * 0.3, size * 0.9))
    return "".join(out)


def _mountain_symbol(cx: float, cy: float, size: float) -> str:
    w, h = size * 1.3, size * 0.95
    big = [(cx - w * 0.55, cy + h * 0.45), (cx - w * 0.05, cy - h * 0.55), (cx + w * 0.45, cy + h * 0.45)]
    small = [(cx + w * 0.05, cy + h * 0.45), (cx + w * 0.38, cy - h * 0.15), (cx + w * 0.72, cy + h * 0.45)]
    snow = [(cx - w * 0.05, cy - h * 0.55), (cx - w * 0.2, cy - h * 0.25), (cx - w * 0.05, cy - h * 0.32),
            (cx + w * 0.1, cy - h * 0.25)]
    return (f'<polygon points="{_pts(small)}" fill="#6f685e" stroke="#4d473f" stroke-width="1.2" stroke-linejoin="round"/>'
            f'<polygon points="{_pts(big)}" fill="#857d71" stroke="#4d473f" stroke-width="1.2" stroke-linejoin="round"/>'
            f'<polygon points="{_pts(snow)}" fill="#f5f3ef"/>')


def _wave_symbol(cx: float, cy: float, size: float, colour: str = "#e9f3fb") -> str:
    out = []
    w = size * 1.2
    for dy in (-size * 0.25, size * 0.2):
        x0, y = cx - w / 2, cy + dy
        d = f"M{_f(x0)},{_f(y)}"
        for _ in range(3):
            d += f" q{_f(w / 12)},{_f(-size * 0.22)} {_f(w / 6)},0 t{_f(w / 6)},0"
        out.append(f'<path d="{d}" fill="none" stroke="{colour}" stroke-width="2" stroke-linecap="round"/>')
    return "".join(out)


def _arch(x: float, y: float, w: float, h: float, wish: str, rim: str = INK, rim_width: float = 0.8) -> str:
    """An arch symbol (a door-shaped mark) standing on (x, y)."""
    fill = ARCH_FILL.get(wish, "#999999")
    r = w / 2
    d = (f"M{_f(x - r)},{_f(y)} V{_f(y - h + r)} A{_f(r)},{_f(r)} 0 0 1 {_f(x + r)},{_f(y - h + r)} "
         f"V{_f(y)} Z")
    return f'<path d="{d}" fill="{fill}" stroke="{rim}" stroke-width="{_f(rim_width)}"/>'


def _castle_symbol(cx: float, cy: float, size: float, colour: str, citizens: int | None) -> str:
    w, h = size * 1.5, size * 1.25
    x0, x1 = cx - w / 2, cx + w / 2
    top, bottom = cy - h * 0.5, cy + h * 0.5
    m = h * 0.22              # merlon height
    step = w / 5
    d = f"M{_f(x0)},{_f(bottom)} V{_f(top)}"
    for i in range(5):
        xa = x0 + step * i
        if i % 2 == 0:
            d += f" H{_f(xa + step)}"
            if i < 4:
                d += f" V{_f(top + m)}"
        else:
            d += f" H{_f(xa + step)} V{_f(top)}"
    d += f" V{_f(bottom)} Z"
    out = [f'<path d="{d}" fill="{colour}" stroke="{INK}" stroke-width="1.3" stroke-linejoin="round"/>']
    if citizens is not None:
        out.append(_text(cx, cy + h * 0.36, citizens, size * 0.95, fill=_on(colour), bold=True))
    return "".join(out)


def _notable_pawn(cx: float, cy: float, size: float, colour: str) -> str:
    """A notable (coloured citizen) standing at (cx, cy): head and body."""
    return (f'<path d="M{_f(cx - size * 0.5)},{_f(cy + size * 0.55)} Q{_f(cx)},{_f(cy - size * 0.45)} '
            f'{_f(cx + size * 0.5)},{_f(cy + size * 0.55)} Z" fill="{colour}" stroke="{INK}" stroke-width="0.9"/>'
            f'<circle cx="{_f(cx)}" cy="{_f(cy - size * 0.35)}" r="{_f(size * 0.28)}" fill="{colour}" '
            f'stroke="{INK}" stroke-width="0.9"/>')


def _building_glyph(cx: float, cy: float, kind: str, notables: list[str], colour: str, t=str) -> str:
    """A building: a tile with its two-letter glyph, framed in the owner's
    colour (thicker for the large Dom and University), and its arches in a
    row beneath (notables' arches last, rimmed in the owner's colour)."""
    glyph, fill, ink, arches = BUILDINGS.get(kind, (kind[:2].title() or "?", "#eeeeee", INK, ()))
    glyph = t(glyph)
    large = len(arches) >= 3
    arches = arches + tuple(w_ or "" for w_ in notables)
    w, h = S * 1.22, S * 0.68
    x0, y0 = cx - w / 2, cy - S * 0.36
    out = [f'<rect x="{_f(x0)}" y="{_f(y0)}" width="{_f(w)}" height="{_f(h)}" rx="2.5" fill="{fill}" '
           f'stroke="{colour}" stroke-width="{2.8 if large else 1.8}"/>']
    out.append(_text(cx, y0 + h - S * 0.15, glyph, S * 0.5, fill=ink, bold=True))
    if arches:
        aw, ah, gap = S * 0.22, S * 0.32, S * 0.07
        total = len(arches) * aw + (len(arches) - 1) * gap
        ax = cx - total / 2 + aw / 2
        ay = y0 + h + S * 0.05 + ah
        for i, wish in enumerate(arches):
            # a notable's arch gets a rim in the owner's colour: it leaves at the end of the year
            notable = i >= len(arches) - len(notables)
            out.append(_arch(ax + i * (aw + gap), ay, aw, ah, wish,
                             rim=colour if notable else INK, rim_width=1.5 if notable else 0.7))
    return "".join(out)


# --- the picture -----------------------------------------------------------


@lru_cache(maxsize=1)
def _board() -> dict[str, Any]:
    from pbem.engine.lacitta.board import board_data
    return board_data()


def _region_kind(rid: str, region: Mapping[str, Any], landscape: Mapping[str, str]) -> tuple[str, int]:
    if region.get("fixed"):
        return str(region.get("kind") or ""), int(region.get("grain") or 0)
    code = landscape.get(rid, "")
    return TILE_KIND.get(code.upper(), ("", 0)) if code else ("", 0)


CROP_MARGIN = 2.3        # hex radii of edge landscape shown around the outermost sites


@dataclass
class _Flow:
    """Items laid out left to right, wrapping at ``width``: the header and
    legend, whose text lengths vary (player names, player counts)."""

    width: float
    line_h: float
    items: list[tuple[float, Any]] = field(default_factory=list)

    def add(self, w: float, draw) -> None:
        self.items.append((w, draw))

    def newline(self) -> None:
        self.items.append((-1.0, None))

    def place(self, x0: float, y0: float) -> tuple[list[tuple[float, float, float, str]], float]:
        """``([(x, y, width, svg)] per item, height)``: ``y`` is the baseline."""
        out, x, y = [], x0, y0
        for w, draw in self.items:
            if draw is None or (x > x0 and x + w > self.width - x0):
                if x > x0:
                    x, y = x0, y + self.line_h
                if draw is None:
                    continue
            out.append((x, y, w, draw(x, y)))
            x += w
        return out, (y - y0) + self.line_h

    def render(self, x0: float, y0: float) -> tuple[str, float]:
        items, h = self.place(x0, y0)
        return "".join(svg for _, _, _, svg in items), h


def _tw(s: str, size: float, bold: bool = False) -> float:
    """Width of ``s`` in the shipped DejaVu Sans at ``size`` (for layout)."""
    return text_width(s, size, bold=bold)


@dataclass
class _Plan:
    """Everything the layers of one picture share: the normalised view,
    the crop of the board (``bx0``, ``by0``: board units at the top left)
    and the sizes of the bands (SVG user units)."""

    board: Mapping[str, Any]
    v: BoardView
    legal: set[str]
    colours: dict[int, str]
    bx0: float
    by0: float
    bx1: float
    by1: float
    width: float
    height: float
    bh: float
    header: str
    header_h: float
    header_items: list[tuple[float, float, float, str]]  # (x, baseline, width, svg) per entry
    legend: str
    legend_h: float
    t: Any = str                   # the picture's words: Msg -> text in its language

    def P(self, x: float, y: float) -> tuple[float, float]:
        return (x - self.bx0) * S, (y - self.by0) * S + self.header_h


def _plan(view: Mapping[str, Any], highlight: Iterable[str], board: Mapping[str, Any] | None,
          lang: str = "en") -> _Plan:
    b = board if board is not None else _board()
    t = words(lang)
    view = {**view, "phase": t(view.get("phase") or "")}  # the engine's Msg in the picture's language
    v = read_view(view)
    sites: Mapping[str, Mapping[str, Any]] = b["sites"]
    # Show the sites and a band of the edge landscape; the far tips of the
    # edge triangles would only shrink the board in an email.
    xs = [float(s["x"]) for s in sites.values()] or [0.0, float(b["width"])]
    ys = [float(s["y"]) for s in sites.values()] or [0.0, float(b["height"])]
    bx0 = max(0.0, min(xs) - CROP_MARGIN)
    by0 = max(0.0, min(ys) - CROP_MARGIN - 0.5)
    bx1 = min(float(b["width"]), max(xs) + CROP_MARGIN)
    by1 = min(float(b["height"]), max(ys) + CROP_MARGIN + 0.5)
    width = (bx1 - bx0) * S
    bh = (by1 - by0) * S
    header, header_h, header_items = _header(v, width, t)
    any_off = any(int(site.get("players") or 2) > v.seats for site in sites.values())
    legend, legend_h = _legend(v, width, t, any_off=any_off)
    return _Plan(board=b, v=v, legal={s.upper() for s in highlight}, colours={p.seat: p.colour for p in v.players},
                 bx0=bx0, by0=by0, bx1=bx1, by1=by1, width=width, height=header_h + bh + legend_h, bh=bh,
                 header=header, header_h=header_h, header_items=header_items, legend=legend, legend_h=legend_h,
                 t=t)


def _open(pl: _Plan) -> list[str]:
    """The SVG's first lines: root, style, defs, paper."""
    width, height = pl.width, pl.height
    label = pl.t(Msg("La Città board"))
    return [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {_f(width)} {_f(height)}" '
        f'width="{_f(width)}" height="{_f(height)}" font-family="{FONT}" class="board lacitta" '
        f'role="group" aria-label="{_esc(label)}">',
        f"<style>{STYLE}</style>",
        f"<defs>{DEFS}</defs>",
        f'<rect width="{_f(width)}" height="{_f(height)}" fill="{PAPER}"/>',
    ]


def _landscape(pl: _Plan) -> list[str]:
    # Edge triangles reach past the board area; the header and legend bands,
    # drawn over them later, hide that (cheaper to render than a clipPath).
    out = ['<g class="landscape">']
    symbols = []
    pad = 1.2
    bx0, by0, bx1, by1 = pl.bx0, pl.by0, pl.bx1, pl.by1
    P = pl.P
    for rid, region in pl.board["regions"].items():
        kind, grain = _region_kind(rid, region, pl.v.landscape)
        fill, edge = LANDSCAPE_FILL.get(kind, LANDSCAPE_FILL[""]), LANDSCAPE_EDGE.get(kind, LANDSCAPE_EDGE[""])
        out.append(f'<g class="region {kind or "empty"}" data-region="{_esc(rid)}">')
        for tri in region["triangles"]:
            out.append(f'<polygon points="{_pts(P(x, y) for x, y in tri)}" fill="{fill}" stroke="{edge}" '
                       f'stroke-width="1.5" stroke-linejoin="round"/>')
        out.append("</g>")
        rx, ry = region["centre"]
        cx, cy = P(min(max(rx, bx0 + pad), bx1 - pad), min(max(ry, by0 + pad), by1 - pad))
        if kind == "field":
            symbols.append(_field_symbol(cx, cy, grain, S * 1.35))
        elif kind == "mountain":
            symbols.append(_mountain_symbol(cx, cy, S * 1.1))
        elif kind in ("lake", "water"):
            symbols.append(_wave_symbol(cx, cy, S * 1.1))
        elif not region.get("fixed"):
            symbols.append(_text(cx, cy + 4, rid, S * 0.55, fill="#8d8676"))
    out.append("".join(symbols))
    out.append("</g>")
    return out


R_HEX = S * 0.97


def _site(pl: _Plan, name: str, site: Mapping[str, Any], *, plain: bool = False,
          legal: bool | None = None) -> list[str]:
    """One site's group: hex, legal ring, coordinate. ``plain``: drawn as if
    empty and not legal (the static layer's look of every site); ``legal``:
    legal or not whatever the highlight says."""
    v = pl.v
    cx, cy = pl.P(site["x"], site["y"])
    used = int(site.get("players") or 2) <= v.seats or v.seats >= 5
    classes = ["site"]
    if not used:
        classes.append("off")
    if (name.upper() in pl.legal and not plain) if legal is None else legal:
        classes.append("legal")
    building = None if plain else v.buildings.get(name.upper())
    if building is not None:
        fill = _tint(pl.colours.get(building.owner, _colour(None, building.owner)), 0.62)
    else:
        fill = "#fbf7ec" if used else "#c9c5bc"
    t, tip = pl.t, name
    if building is not None:
        kind = t(WORDS.get(building.kind, building.kind))
        owner = next((p.name for p in v.players if p.seat == building.owner and p.name), "") or \
            t(Msg("Seat {n}", n=building.owner + 1))
        tip += f": {kind}, {owner}"
        if building.kind == "castle" and name.upper() in v.citizens:
            tip += ", " + t(Msgn("{n} citizen", "{n} citizens", v.citizens[name.upper()]))
    elif not used:
        tip += " (" + t(Msgn("not used with {n} player", "not used with {n} players", v.seats)) + ")"
    last = not plain and name.upper() in v.last
    if last:
        tip += " (" + t(Msg("changed in the latest turn")) + ")"
    return [f'<g class="{" ".join(classes)}" data-site="{_esc(name)}"><title>{_esc(tip)}</title>',
            f'<polygon class="hex" points="{_pts(_hex(cx, cy, R_HEX))}" fill="{fill}" '
            f'stroke="{"#9a8d6e" if used else "#aaa59b"}" stroke-width="1"/>',
            *([f'<polygon class="last" points="{_pts(_hex(cx, cy, R_HEX - 1.6))}" fill="none" '
               f'stroke="{PICKED}" stroke-width="2.6" stroke-dasharray="4 2.5"/>'] if last else []),
            f'<polygon class="ring" points="{_pts(_hex(cx, cy, R_HEX - 2.6))}"/>',
            _text(cx, cy - S * 0.42, name, S * 0.46, fill="#5f5746" if used else "#8f8a80"),
            "</g>"]


def _piece(pl: _Plan, site: str, bld: Building) -> list[str]:
    """The building or castle on ``site`` (and a harvest notable)."""
    colour = pl.colours.get(bld.owner, _colour(None, bld.owner))
    sites = pl.board["sites"]
    cx, cy = pl.P(sites[site]["x"], sites[site]["y"])
    if bld.kind == "castle":
        out = [_castle_symbol(cx, cy + S * 0.16, S * 0.62, colour, pl.v.citizens.get(site))]
    else:
        out = [_building_glyph(cx, cy, bld.kind, bld.notables, colour, pl.t)]
    if bld.harvest:
        out.append(_notable_pawn(cx + S * 0.52, cy - S * 0.3, S * 0.3, colour))
    return out


def _bands(pl: _Plan, *, header: bool = True) -> list[str]:
    """Header band (and its text unless ``header`` is false) and the legend."""
    width, header_h, bh = pl.width, pl.header_h, pl.bh
    out = [f'<rect width="{_f(width)}" height="{_f(header_h)}" fill="{PAPER}"/>']
    if header:
        out.append(pl.header)
    out.append(f'<rect y="{_f(header_h + bh)}" width="{_f(width)}" height="{_f(pl.legend_h)}" fill="{PAPER}"/>')
    out.append(f'<g transform="translate(0 {_f(header_h + bh)})">{pl.legend}</g>')
    return out


def render_svg(view: Mapping[str, Any], highlight: Iterable[str] = (), *,
               board: Mapping[str, Any] | None = None, lang: str = "en") -> str:
    """The La Città board of ``view`` as SVG text (viewBox in user units,
    scalable; no external resources). ``highlight``: site names to mark
    ``legal``; every word in ``lang``. ``board`` overrides the engine's
    ``board_data()`` (tests)."""
    pl = _plan(view, highlight, board, lang)
    sites: Mapping[str, Mapping[str, Any]] = pl.board["sites"]
    out = _open(pl)
    out += _landscape(pl)
    out.append('<g class="sites">')
    for name, site in sites.items():
        out += _site(pl, name, site)
    out.append("</g>")
    # buildings and castles (decoration: clicks fall through to the site)
    out.append('<g class="buildings" pointer-events="none">')
    for site, bld in pl.v.buildings.items():
        if site in sites:
            out += _piece(pl, site, bld)
    out.append("</g>")
    out += _bands(pl)
    out.append("</svg>")
    return "\n".join(out)


def layers(view: Mapping[str, Any], highlight: Iterable[str] = (), *, lang: str = "en"):
    """The picture of :func:`render_svg` as a static and a dynamic layer for
    :mod:`pbem.boards.raster`.

    Static: paper, landscape, every site as if empty and not legal, the
    header band (no text) and the legend. It depends only on the seat count
    (sites left out, legend), the landscape and the header's height (which
    shifts the board), which is its key; a variant has every site legal.
    Dynamic tiles, in order: the sites that look different (occupied:
    tinted, and if legal with ring and bold coordinate; an empty legal site
    is cut, hexagon-shaped, from the variant), then the buildings and
    castles, then the header entries (one tile each, so a turn redraws only
    the entries it changed).
    """
    from pbem.boards.raster import Crop, Layers, Tile

    pl = _plan(view, highlight, None, lang)
    v = pl.v
    sites: Mapping[str, Mapping[str, Any]] = pl.board["sites"]
    key = (v.seats, tuple(sorted(v.landscape.items())), pl.header_h)

    def static_svg(all_legal: bool = False) -> str:   # a function of ``key`` only
        out = _open(pl)
        out += _landscape(pl)
        out.append('<g class="sites">')
        for name, site in sites.items():
            out += _site(pl, name, site, plain=True, legal=all_legal)
        out.append("</g>")
        out += _bands(pl, header=False)
        out.append("</svg>")
        return "\n".join(out)

    site_tiles, piece_tiles = [], []
    m = R_HEX + 3            # hex, its stroke and mitred corners
    pm = S * 1.3             # a building, its arches and a harvest notable
    for name, site in sites.items():
        key_name = name.upper()
        if key_name not in pl.legal and key_name not in v.buildings and key_name not in v.last:
            continue
        cx, cy = pl.P(site["x"], site["y"])
        box = (cx - m, cy - m, cx + m, cy + m)
        if key_name in v.buildings or key_name in v.last:
            site_tiles.append(Tile(box, "\n".join(_site(pl, name, site))))
        else:
            # An empty legal site: the pixels of its hex out to the stroke's
            # outer edge, from the variant with every site legal. Past that
            # edge lies only landscape and the neighbours' edges (their fills
            # start a unit further), the same in both.
            site_tiles.append(Crop(box, "legal", tuple(_hex(cx, cy, R_HEX + 0.5))))
    for site, bld in v.buildings.items():
        if site in sites:
            cx, cy = pl.P(sites[site]["x"], sites[site]["y"])
            piece_tiles.append(Tile((cx - pm, cy - pm, cx + pm, cy + pm), "\n".join(_piece(pl, site, bld))))
    # one tile per header entry (phase, wishes, each seat): a turn changes a few
    header = [Tile((x - 3, y - 17, min(x + w, pl.width), y + 7), svg) for x, y, w, svg in pl.header_items]
    return Layers(game="lacitta", width=float(_f(pl.width)), height=float(_f(pl.height)), static_key=key,
                  static_svg=static_svg, prelude=f"<style>{STYLE}</style><defs>{DEFS}</defs>",
                  tiles=tuple(site_tiles + piece_tiles + header),
                  variants={"legal": lambda: static_svg(all_legal=True)})


def _header(v: BoardView, width: float, t=str) -> tuple[str, float, list[tuple[float, float, float, str]]]:
    """Phase, this year's wishes, then one entry per seat: colour, the
    player's name (else "Seat 2"), food, gold, points; the viewer is marked "you" and the
    seats that owe a decision are in bold with an arrow."""
    size = 13.0
    flow = _Flow(width, 20.0)
    if v.phase:
        flow.add(_tw(v.phase, size, True) + 18, lambda x, y: _text(x, y, v.phase, size, anchor="start", bold=True))
    if v.wishes:
        label = t(Msg("wish: {wishes}", wishes=" + ".join(t(WORDS.get(w, w)) for w in v.wishes)))

        def wishes(x: float, y: float, label: str = label) -> str:
            marks = "".join(_arch(x + 5 + 12 * i, y + 1, 9, 13, w) for i, w in enumerate(v.wishes))
            return marks + _text(x + 12 * len(v.wishes) + 3, y, label, size, anchor="start")
        flow.add(12 * len(v.wishes) + 3 + _tw(label, size) + 18, wishes)
    for p in v.players:
        name = p.name if len(p.name) <= 18 else p.name[:17] + "…"
        label = name or t(Msg("Seat {n}", n=p.seat + 1))
        if p.seat == v.viewer:
            label = t(Msg("{name} (you)", name=label))
        extra = [t(m) for m in (Msg("food {n}", n=p.food) if p.food is not None else None,
                                Msg("gold {n}", n=p.gold) if p.gold is not None else None,
                                Msg("{n} pts", n=p.points) if p.points is not None else None) if m is not None]
        if extra:
            label += ": " + ", ".join(extra)
        bold = p.seat in v.to_move
        if bold:
            label = "▶ " + label

        def entry(x: float, y: float, p: Player = p, label: str = label, bold: bool = bold) -> str:
            return _castle_symbol(x + 9, y - 4, 12, p.colour, None) + _text(x + 22, y, label, size, anchor="start",
                                                                           bold=bold)
        flow.add(22 + _tw(label, size, bold) + 18, entry)
    items, h = flow.place(10, 20)
    body = "".join(svg for _, _, _, svg in items)
    return f'<g class="header">{body}</g>', h + 10, items


def _legend(v: BoardView, width: float, t=str, *, any_off: bool) -> tuple[str, float]:
    """Key to the symbols, in rows that wrap to ``width``."""
    size = 12.0
    flow = _Flow(width, 24.0)

    def item(label: Any, symbol, sw: float = 22) -> None:
        label = t(label)
        flow.add(sw + _tw(label, size) + 13, lambda x, y: symbol(x, y) + _text(x + sw, y, label, size, anchor="start"))

    for kind, label in (("field", Msg("field: 1 ear = 1 food")), ("mountain", Msg("mountain")),
                        ("lake", Msg("lake / water"))):
        item(label, lambda x, y, kind=kind: (
            f'<rect x="{_f(x)}" y="{_f(y - 12)}" width="16" height="14" rx="2" '
            f'fill="{LANDSCAPE_FILL[kind]}" stroke="{LANDSCAPE_EDGE[kind]}"/>'))
    item(Msg("castle: citizens in the city"), lambda x, y: _castle_symbol(x + 8, y - 5, 11, "#9a9a9a", None))
    item(Msg("legal site"), lambda x, y: (
        f'<polygon points="{_pts(_hex(x + 8, y - 5, 10))}" fill="{LEGAL}" fill-opacity="0.18" '
        f'stroke="{LEGAL}" stroke-width="2.5"/>'))
    item(Msg("latest turn"), lambda x, y: (
        f'<polygon points="{_pts(_hex(x + 8, y - 5, 10))}" fill="#fbf7ec" '
        f'stroke="{PICKED}" stroke-width="2" stroke-dasharray="3 2"/>'))
    if any_off:
        item(Msgn("not used with {n} player", "not used with {n} players", v.seats), lambda x, y: (
            f'<polygon points="{_pts(_hex(x + 8, y - 5, 10))}" fill="#c9c5bc" stroke="#aaa59b"/>'))
    flow.newline()
    for kind in ("farm", "quarry", "market", "statue", "school", "fountain", None, "palazzo", "hospital",
                 "bathhouse", "dom", "university"):
        if kind is None:        # small buildings on one line, political-card buildings on the next
            flow.newline()
            continue
        glyph, fill, ink, _ = BUILDINGS[kind]
        item(WORDS[kind], lambda x, y, glyph=glyph, fill=fill, ink=ink: (
            f'<rect x="{_f(x)}" y="{_f(y - 12)}" width="22" height="15" rx="2" fill="{fill}" stroke="#777"/>'
            + _text(x + 11, y, t(glyph), 10, fill=ink, bold=True)), sw=26)
    flow.newline()
    arches = t(Msg("arches:"))
    flow.add(_tw(arches, size) + 10, lambda x, y: _text(x, y, arches, size, anchor="start"))
    for wish in WISHES:
        item(WORDS[wish], lambda x, y, wish=wish: _arch(x + 5, y + 1, 9, 13, wish), sw=14)
    item(Msg("notable's arch (Bread and Games)"), lambda x, y: _arch(x + 5, y + 1, 9, 13, "", rim=SEAT_COLOURS[0],
                                                             rim_width=1.6), sw=14)
    item(Msg("notable on a farm (Rich Harvest)"), lambda x, y: _notable_pawn(x + 6, y - 5, 11, SEAT_COLOURS[0]), sw=16)
    body, h = flow.render(12, 26)
    line = f'<line x1="0" y1="0" x2="{_f(width)}" y2="0" stroke="#c8bc9c"/>'
    return f'<g class="legend">{line}{body}</g>', h + 14


def seat_colours(view: Mapping[str, Any]) -> list[str]:
    """Each seat's colour (``#rrggbb``, index = seat) as this board draws it."""
    players = {p.seat: p.colour for p in read_view(view).players}
    seats = _int(view.get("seats")) or len(players)
    return [players.get(s, _colour(None, s)) for s in range(seats)]
