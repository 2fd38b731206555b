"""A close-up of the board for a phone: the region with the legal sites,
at a scale where site coordinates are legible.

A mailed board is ~900 px wide, and a phone shows it ~315 CSS px wide
(375 px screen less the mail's margins, :data:`PHONE_WIDTH`): a 9-unit
coordinate label of a 870-unit board becomes ~3 px. So a turn notice also
carries a second picture: a window of the board, chosen to hold as many of
the seat's legal sites as fit at a scale where a site's coordinate label
is at least :data:`LABEL_PX` CSS px on that phone.

Game-agnostic: everything is read from the board's SVG (``render_svg``),
through the conventions every board module keeps: each site is a
``<g class="site" data-site="F7">`` holding a ``class="ring"`` shape
(``polygon``, ``rect`` or ``circle``) and, if labelled, a ``<text>`` with a
``font-size``. A board already legible at full width, or a turn without
legal sites, gets no close-up (:func:`window` returns ``None``).
"""
from __future__ import annotations

import io
import math
import re
from typing import Any, Iterable

#: CSS px a 375 px phone gives the mail's picture (screen less the layout's
#: outer 8 px padding, 1 px borders and 20 px inner padding each side)
PHONE_WIDTH = 315
#: smallest coordinate label, in CSS px on that phone, that reads comfortably
LABEL_PX = 10.0
#: pixels of the close-up PNG per CSS px (sharp on 2x phone screens)
DENSITY = 2
#: aspect (height / width) of the close-up window; a phone scrolls down easily
ASPECT = 0.9

Box = tuple[float, float, float, float]

_SITE = re.compile(r'<g class="[^"]*\bsite\b[^"]*" data-site="([^"]+)">(.*?)</g>', re.S)
_RING_POLY = re.compile(r'<polygon class="ring" points="([^"]+)"')
_RING_RECT = re.compile(r'<rect class="ring" x="([-\d.]+)" y="([-\d.]+)" width="([-\d.]+)" height="([-\d.]+)"')
_RING_CIRCLE = re.compile(r'<circle class="ring" cx="([-\d.]+)" cy="([-\d.]+)" r="([-\d.]+)"')
_FONT = re.compile(r'<text [^>]*font-size="([\d.]+)"')
_VIEWBOX = re.compile(r'viewBox="([-\d.]+) ([-\d.]+) ([-\d.]+) ([-\d.]+)"')


def sites(svg: str) -> dict[str, tuple[Box, float | None]]:
    """Every site of a board SVG: ``{name: ((x0, y0, x1, y1), label font
    size or None)}`` in user units, from its ``ring`` shape."""
    out: dict[str, tuple[Box, float | None]] = {}
    for name, body in _SITE.findall(svg):
        box = _ring_box(body)
        if box is None:
            continue
        font = _FONT.search(body)
        out[name] = (box, float(font.group(1)) if font else None)
    return out


def _ring_box(body: str) -> Box | None:
    if m := _RING_POLY.search(body):
        nums = [float(n) for n in re.split(r"[ ,]+", m.group(1).strip())]
        xs, ys = nums[0::2], nums[1::2]
        return min(xs), min(ys), max(xs), max(ys)
    if m := _RING_RECT.search(body):
        x, y, w, h = map(float, m.groups())
        return x, y, x + w, y + h
    if m := _RING_CIRCLE.search(body):
        cx, cy, r = map(float, m.groups())
        return cx - r, cy - r, cx + r, cy + r
    return None


def board_size(svg: str) -> tuple[float, float]:
    """(width, height) of the SVG's viewBox in user units."""
    m = _VIEWBOX.search(svg)
    if not m:
        raise ValueError("board SVG without a viewBox")
    return float(m.group(3)), float(m.group(4))


def label_px(label: float, board_width: float, shown_width: float = PHONE_WIDTH) -> float:
    """CSS px of a ``label``-unit label when a ``board_width``-unit picture
    is shown ``shown_width`` CSS px wide."""
    return label * shown_width / board_width


def _max_width() -> int:
    from pbem.boards.png import MAX_WIDTH

    return MAX_WIDTH


def window(svg: str, highlight: Iterable[str]) -> tuple[Box, list[str]] | None:
    """The close-up of ``svg`` for the legal sites ``highlight``:
    ``((x0, y0, x1, y1) in user units, [the legal sites inside it])``, or
    ``None`` when the full board already shows its labels at
    :data:`LABEL_PX` on a phone or no highlighted site is on the board.

    The window is as wide as the labels allow (``label * PHONE_WIDTH /
    LABEL_PX`` units), never wider than the board nor narrower than
    :func:`render_png` can draw (the board at most
    :data:`pbem.boards.png.MAX_WIDTH` px), and placed to hold the
    most legal sites (ties: nearest the middle of all of them), then
    centred on those it holds and kept inside the board."""
    return _window(sites(svg), board_size(svg), highlight)


def _window(all_sites: dict[str, tuple[Box, float | None]], size: tuple[float, float],
            highlight: Iterable[str]) -> tuple[Box, list[str]] | None:
    """:func:`window` from the board's sites and size (user units)."""
    legal = [s for s in dict.fromkeys(highlight) if s in all_sites]
    if not legal:
        return None
    bw, bh = size
    labels = [f for _, f in all_sites.values() if f]
    label = min(labels) if labels else min(b[3] - b[1] for b, _ in all_sites.values()) * 0.4
    if label_px(label, bw) >= LABEL_PX:
        return None
    # as wide as legible labels need, but never so narrow that the board
    # behind it would exceed the widest picture drawn (a growing board, such
    # as Die Stadt's late city, then gets labels a little under LABEL_PX)
    w = min(bw, max(label * PHONE_WIDTH / LABEL_PX, bw * PHONE_WIDTH * DENSITY / _max_width()))
    h = min(bh, w * ASPECT)
    boxes = {s: all_sites[s][0] for s in legal}
    mx = sum((b[0] + b[2]) / 2 for b in boxes.values()) / len(boxes)
    my = sum((b[1] + b[3]) / 2 for b in boxes.values()) / len(boxes)

    def inside(x0: float, y0: float) -> list[str]:
        return [s for s, b in boxes.items() if b[0] >= x0 and b[1] >= y0 and b[2] <= x0 + w and b[3] <= y0 + h]

    best: tuple[int, float, list[str]] | None = None
    for s0, b0 in boxes.items():       # windows whose corner sits at a legal site's corner
        for x0 in (b0[0], b0[2] - w):
            for y0 in (b0[1], b0[3] - h):
                got = inside(x0, y0)
                dist = math.hypot(x0 + w / 2 - mx, y0 + h / 2 - my)
                if best is None or (len(got), -dist) > (best[0], -best[1]):
                    best = (len(got), dist, got)
    held = best[2] if best and best[2] else legal[:1]
    x0 = min(boxes[s][0] for s in held)
    x1 = max(boxes[s][2] for s in held)
    y0 = min(boxes[s][1] for s in held)
    y1 = max(boxes[s][3] for s in held)
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    left = min(max(0.0, cx - w / 2), bw - w)
    top = min(max(0.0, cy - h / 2), bh - h)
    box = (left, top, left + w, top + h)
    return box, sorted((s for s in legal if _within(all_sites[s][0], box)), key=_natural)


def window_of(game: str, view: dict[str, Any], highlight: Iterable[str], lang: str = "en") -> tuple[Box, list[str]] | None:
    """:func:`window` of ``game``'s board for ``view``: from the shared
    static layer's SVG when the board has one (:attr:`pbem.boards.raster.
    Layers.shared`: the same sites, boxes and labels in every game, read
    once per key, :func:`_static_sites`), else from the whole picture's SVG
    (~40 ms for a La Città board). Raises ``KeyError`` for a game without a
    board picture."""
    from pbem.boards import raster, render_svg

    highlight = tuple(highlight)
    layers = raster._layers(game, view, highlight, lang)
    if layers is not None and layers.shared:
        return _window(_static_sites(layers), (layers.width, layers.height), highlight)
    svg = render_svg(game, view, highlight=highlight, lang=lang)
    return _window(sites(svg), board_size(svg), highlight)


_SHARED_SITES: dict = {}


def _static_sites(layers) -> dict[str, tuple[Box, float | None]]:
    """:func:`sites` of a shared static layer's SVG, kept per key (a few
    keys: seat counts, set-ups, languages)."""
    key = (layers.game, layers.static_key)
    found = _SHARED_SITES.get(key)
    if found is None:
        if len(_SHARED_SITES) > 64:
            _SHARED_SITES.clear()
        found = _SHARED_SITES[key] = sites(layers.static_svg())
    return found


def _natural(name: str) -> list:
    """``A2`` before ``A10``."""
    return [int(p) if p.isdigit() else p for p in re.split(r"(\d+)", name)]


def _within(b: Box, box: Box) -> bool:
    return b[0] >= box[0] - 0.01 and b[1] >= box[1] - 0.01 and b[2] <= box[2] + 0.01 and b[3] <= box[3] + 0.01


def render_png(game: str, view: dict[str, Any], box: Box, *, highlight: Iterable[str] = (),
               width: int = PHONE_WIDTH * DENSITY, lang: str = "en") -> bytes:
    """The part ``box`` (user units) of ``game``'s board picture as PNG
    bytes ``width`` pixels wide, drawn one of two ways, fixed per board:

    - a board whose static layer every game shares (:attr:`pbem.boards.
      raster.Layers.shared`: La Città, Medina): the mailed picture composed
      at the scale that makes ``box`` that wide (the static layer drawn
      large once per seat count and language, cached like the full
      picture's), then cropped: ~10 ms;
    - any other (Die Stadt, whose static layer is each game's own, and a
      board without layers): the board's SVG with its ``viewBox`` set to
      ``box`` and the sites wholly outside it left out, so resvg draws
      only those pixels: ~60–110 ms, where a static layer of its own,
      ~1,900 px wide, would cost ~0.5 s a game and push the shared ones
      out of the cache (2026-11-29, issue 24).

    Either way the bytes depend only on the arguments, never on the cache.
    Raises ``KeyError`` for a game without a board picture and
    ``ValueError`` for an empty box or one needing a picture wider than
    :data:`pbem.boards.png.MAX_WIDTH`."""
    from PIL import Image

    from pbem.boards import raster, render_svg
    from pbem.boards.png import MAX_WIDTH, svg_to_png

    x0, y0, x1, y1 = box
    if not (x1 > x0 and y1 > y0):
        raise ValueError(f"empty close-up box {box!r}")
    layers = raster._layers(game, view, highlight, lang)
    svg = None if layers is not None and layers.shared else render_svg(game, view, highlight=highlight, lang=lang)
    bw = layers.width if svg is None else board_size(svg)[0]
    full_width = round(width * bw / (x1 - x0))
    if full_width > MAX_WIDTH:
        raise ValueError(f"close-up {box!r} needs a {full_width} px board, more than {MAX_WIDTH}")
    if svg is not None:
        png = svg_to_png(_boxed(svg, box), width=width)
        return raster.encode(Image.open(io.BytesIO(png)).convert("RGB"))
    # the crop of the whole picture at that width, drawn alone: the static
    # layer's part and the tiles that meet it
    full = raster.static_raster(layers, full_width).size
    scale = full[0] / math.floor(bw + 0.5)   # resvg rounds the SVG's size to whole units
    region = (round(x0 * scale), round(y0 * scale), min(full[0], round(x1 * scale)), min(full[1], round(y1 * scale)))
    return raster.encode(raster.composite(layers, full_width, region))


_ROOT = re.compile(r"<svg\b[^>]*>")
_SIZE = re.compile(r'\s(?:width|height|viewBox)="[^"]*"')


def _boxed(svg: str, box: Box) -> str:
    """``svg`` with its root's ``viewBox`` set to ``box``, its own
    ``width``/``height`` dropped (the picture's width is the caller's) and
    every site wholly outside ``box`` left out (its label would cost resvg
    as much as one inside)."""
    x0, y0, x1, y1 = box
    root = _ROOT.search(svg)
    if root is None:
        raise ValueError("board SVG without an <svg> element")
    tag = _SIZE.sub("", root.group(0))
    tag = tag[:-1].rstrip("/") + f' viewBox="{x0:g} {y0:g} {x1 - x0:g} {y1 - y0:g}">'

    def unless_outside(site: re.Match) -> str:
        whole, b = site.group(0), _ring_box(site.group(2))
        if whole.count("<g") != whole.count("</g>"):   # a group inside: the match is not the whole site
            return whole
        return "" if b is not None and (b[2] < x0 or b[0] > x1 or b[3] < y0 or b[1] > y1) else whole

    return svg[:root.start()] + tag + _SITE.sub(unless_outside, svg[root.end():])


__all__ = ["PHONE_WIDTH", "LABEL_PX", "sites", "board_size", "label_px", "window", "window_of", "render_png"]
