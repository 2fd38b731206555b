"""Board PNGs for mail, fast: a cached static layer plus small dynamic tiles.

Rasterising a whole board SVG with resvg costs 150-250 ms of CPU, nearly all
of it on what never changes during a game (landscape, empty sites,
coordinates, legend): resvg-py spends ~0.1 ms per element and per glyph.
So a board module that has ``layers(view, highlight)`` describes its
picture as layers (:class:`Layers`):

- the **static layer**: a complete SVG (same viewBox as ``render_svg``'s)
  with the board as it looks with no pieces, no highlights and no player
  strip. It is a pure function of :attr:`Layers.static_key` (the module
  builds it from exactly those values), so it is rasterised once per
  process per key and kept (:data:`STATIC_CACHE_SIZE` entries, RGB).
  *Variants* of it (:attr:`Layers.variants`, e.g. every site legal) are
  cached the same way.
- the **dynamic layer**, drawn in order over a copy of the static raster,
  so the z-order of ``render_svg`` holds where parts overlap (sites before
  pieces before the player strip):

  - :class:`Tile`: an SVG fragment, exactly as ``render_svg`` writes it,
    with a box (user units) holding all its ink: an occupied site, a
    piece, one entry of the player strip;
  - :class:`Crop`: the pixels of a box (or a polygon) cut from a variant:
    an empty legal site, a look that many sites share.

The tiles of one picture not drawn before are rasterised in **one** resvg
call: packed into an atlas (rows, a few pixels apart), each translated by a
whole number of pixels, so it keeps the sub-pixel phase it has in the full
picture and its anti-aliasing matches the full rendering. resvg-py rounds
the SVG's size to whole units and scales x and y apart; the tiles use the
same scales. Drawn tiles are kept per process (:data:`TILE_CACHE_PIXELS`),
keyed by fragment, pixel box and scale: sites, pieces and strip entries
recur from turn to turn and across games of the same board, so a turn
usually draws only the strip entries and pieces it changed. The pieces are
composited with Pillow ("over", through the tile's alpha) and Pillow
encodes the PNG, by default as a 256-colour palette image (adaptive, fast
octree; a board has few flat colours, so the mail is ~3x smaller for a mean
error of about one level per channel; see :data:`COMPRESS_LEVEL`).

The result differs from ``svg_to_png(render_svg(...))`` only on a few
anti-aliased edges drawn twice (a site's hex over its static look) and by
the palette (tests/boards/test_raster.py compares them).

Determinism: a tile is only ever moved up and left in the atlas (see
:func:`_pack`), where its coordinates stay exact in resvg's f32 arithmetic,
so its pixels are the same wherever it lands, alone or with others: the
output never depends on what the caches held. The static rasters are always
drawn from the same SVGs, and resvg uses only the shipped fonts
(:mod:`pbem.boards.png`), so the same input gives the same bytes with the
same resvg-py and Pillow versions.

Privacy: the layers are drawn from the same view and highlight as
``render_svg`` (every tile is a piece of that SVG); the static layer and
its variants only from their key (game kind, seat count, landscape, band
heights), never from pieces, names or highlights.
"""
from __future__ import annotations

import io
import math
import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any, Callable, Hashable, Iterable

from PIL import Image, ImageDraw

from pbem.boards.png import FONT_FAMILY, MAX_WIDTH, svg_to_png

#: static rasters kept per process (one per game kind, seat count,
#: landscape and header height in play, and one per variant of those; RGB,
#: ~2 MB each at 900 px)
STATIC_CACHE_SIZE = 24
#: pixels of dynamic tiles kept per process (RGBA, 4 bytes each: 6 M
#: pixels is 24 MB; a La Città site or piece is ~45 x 45 pixels)
TILE_CACHE_PIXELS = 6_000_000
#: pixels between tiles in the atlas (anti-aliasing never reaches that far
#: past a tile's box, which already has a margin)
GAP = 4
#: PNG encoding of the mail picture, chosen by measurement (La Città board,
#: 900 px): a 256-colour palette image (fast octree, ~7 ms) at zlib level 3
#: (~4 ms) is ~78 KB; level 6 saves 9 KB for 4 ms more, level 1 costs 5 KB
#: for 0.5 ms less; RGB at level 1 is ~210 KB and ~17 ms.
PALETTE = True
COMPRESS_LEVEL = 3


@dataclass(frozen=True)
class Tile:
    """Part of the dynamic layer: ``svg`` (a fragment in the board's user
    units, as it appears in ``render_svg``) whose ink lies inside ``box``
    ``(x0, y0, x1, y1)`` (user units)."""

    box: tuple[float, float, float, float]
    svg: str


@dataclass(frozen=True)
class Crop:
    """Part of the dynamic layer taken from a *variant* of the static layer
    (:attr:`Layers.variants`, rasterised once per key like the static layer
    itself): the pixels wholly inside ``box`` (user units) are copied as
    they are. For a look that many sites share (a legal site) whose
    difference from the static look lies inside the site, away from its
    edges: the board's drawing order outside ``box`` stays the static one."""

    box: tuple[float, float, float, float]
    variant: str
    #: if given, a polygon (user units): instead of the pixels wholly inside
    #: ``box``, those of ``box`` whose centre lies inside the polygon (for a
    #: hexagonal site whose neighbours reach into its box's corners)
    shape: tuple[tuple[float, float], ...] | None = None


@dataclass(frozen=True)
class Layers:
    """A board picture as a static and a dynamic layer (see module doc).

    ``width``/``height``: the SVG's size in user units; ``static_key``:
    hashable, equal keys give the same ``static_svg()``; ``prelude``: what
    the tiles need from the SVG's head (``<style>``, ``<defs>``);
    ``tiles``: drawn in this order over the static layer; ``variants``:
    the static layer as other whole SVGs (for :class:`Crop` tiles), each a
    pure function of ``static_key`` too.
    """

    game: str
    width: float
    height: float
    static_key: Hashable
    static_svg: Callable[[], str]
    prelude: str
    tiles: tuple[Tile | Crop, ...] = field(default=())
    variants: dict[str, Callable[[], str]] = field(default_factory=dict)
    #: the static layer is the same for every game of the kind (its key
    #: holds only the seat count, the set-up and the language): a few keys
    #: serve every game, so a close-up is cut from it drawn large and
    #: cached (:func:`pbem.boards.closeup.render_png`); False for a board
    #: whose static layer is each game's own (Die Stadt's grows with the city)
    shared: bool = False


_static: OrderedDict[Hashable, Image.Image] = OrderedDict()
_lock = threading.Lock()


def static_raster(layers: Layers, width: int, variant: str | None = None) -> Image.Image:
    """The static layer of ``layers`` (or its ``variant``) at ``width``
    pixels, RGB (cached per ``(game, static_key, width, variant)``; do not
    modify the returned image)."""
    key = (layers.game, layers.static_key, width, variant)
    with _lock:
        img = _static.get(key)
        if img is not None:
            _static.move_to_end(key)
            return img
    svg = layers.static_svg() if variant is None else layers.variants[variant]()
    img = Image.open(io.BytesIO(svg_to_png(svg, width=width))).convert("RGB")
    img.load()
    with _lock:
        _static[key] = img
        while len(_static) > STATIC_CACHE_SIZE:
            _static.popitem(last=False)
    return img


def _num(x: float) -> str:
    return repr(float(x))


_tiles: OrderedDict[Hashable, Image.Image] = OrderedDict()
_tile_pixels = 0


def _pack(todo: list) -> tuple[list, list]:
    """Atlas places for ``todo`` (``[(key, tile, (px0, py0, w, h))]``):
    ``([(key, tile, box, (ax, ay))], [left over])``. A tile is only ever
    placed up and to the left of its canvas place (``ax <= px0``,
    ``ay <= py0``): translated by a whole number of pixels towards the
    origin, its coordinates stay exact in resvg's f32 arithmetic, so its
    pixels are the same wherever it lands in the atlas (and the same as
    alone): what a tile looks like never depends on which others were drawn
    with it (that is what makes caching tiles safe for determinism)."""
    placed, left = [], []
    x = y = row_h = 0
    for item in sorted(todo, key=lambda t: (t[2][1], t[2][0])):
        px0, py0, tw, th = item[2]
        if x > px0 or y > py0:          # not in this row: next row
            x, y, row_h = 0, y + row_h + GAP, 0
        if y > py0:                     # the atlas has grown past it: next atlas
            left.append(item)
            continue
        placed.append((*item, (x, y)))
        row_h = max(row_h, th)
        x += tw + GAP
    return placed, left


def _render_atlas(layers: Layers, sx: float, sy: float, placed: list) -> list[Image.Image]:
    aw = max(ax + box[2] for _, _, box, (ax, _) in placed)
    ah = max(ay + box[3] for _, _, box, (_, ay) in placed)
    body = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{aw}" height="{ah}" viewBox="0 0 {aw} {ah}" '
            f'font-family="{FONT_FAMILY}">', layers.prelude]
    for _, tile, (px0, py0, _, _), (ax, ay) in placed:
        body.append(f'<g transform="matrix({_num(sx)} 0 0 {_num(sy)} {ax - px0} {ay - py0})">{tile.svg}</g>')
    body.append("</svg>")
    atlas = Image.open(io.BytesIO(svg_to_png("\n".join(body), width=aw, background=None))).convert("RGBA")
    return [atlas.crop((ax, ay, ax + tw, ay + th)) for _, _, (_, _, tw, th), (ax, ay) in placed]


def dynamic_tiles(layers: Layers, width: int, size: tuple[int, int],
                  region: tuple[int, int, int, int] | None = None) -> list[tuple[Image.Image, tuple[int, int]]]:
    """The tiles of ``layers`` rasterised: ``[(RGBA image, (x, y) of its top
    left on the canvas)]`` in drawing order. A :class:`Crop` is cut from its
    variant raster. A :class:`Tile` drawn before (same SVG fragment at the
    same pixel box and scale) comes from a per-process cache
    (:data:`TILE_CACHE_PIXELS`); the others are drawn together in one resvg
    call (more only when the atlas cannot hold them all, see :func:`_pack`).
    ``region`` (pixels ``(left, top, right, bottom)``): only the tiles whose
    box meets it (a tile's ink lies inside its box, so the others cannot
    change a pixel of it).
    """
    # resvg-py rounds the SVG's size to whole user units, then scales x and
    # y apart: to the width asked for and to the height it rounded to whole
    # pixels (the static raster's size)
    sx = size[0] / math.floor(layers.width + 0.5)
    sy = size[1] / math.floor(layers.height + 0.5)
    out: list = []           # [key or image, (x, y)] in drawing order
    todo, got = {}, {}
    for tile in layers.tiles:
        x0, y0, x1, y1 = tile.box
        if region is not None and (x1 * sx <= region[0] or x0 * sx >= region[2]
                                   or y1 * sy <= region[1] or y0 * sy >= region[3]):
            continue
        if isinstance(tile, Crop):
            cut = _cut(layers, width, tile, sx, sy, size)
            if cut is not None:
                out.append(list(cut))
            continue
        px0, py0 = max(0, math.floor(x0 * sx)), max(0, math.floor(y0 * sy))
        px1, py1 = min(size[0], math.ceil(x1 * sx)), min(size[1], math.ceil(y1 * sy))
        if px1 <= px0 or py1 <= py0:
            continue
        box = (px0, py0, px1 - px0, py1 - py0)
        key = (layers.game, sx, sy, box, layers.prelude, tile.svg)
        out.append([key, (px0, py0)])
        with _lock:
            img = _tiles.get(key)
            if img is not None:
                _tiles.move_to_end(key)
                got[key] = img
            elif key not in todo:
                todo[key] = (key, tile, box)
    left = list(todo.values())
    while left:
        placed, left = _pack(left)
        for (key, _, _, _), img in zip(placed, _render_atlas(layers, sx, sy, placed)):
            got[key] = img
    _remember({key: got[key] for key, _, _ in todo.values()})
    return [(got[k] if isinstance(k, tuple) else k, dest) for k, dest in out]


def _cut(layers: Layers, width: int, tile: Crop, sx: float, sy: float,
         size: tuple[int, int]) -> tuple[Image.Image, tuple[int, int]] | None:
    """A :class:`Crop` from its variant raster: the pixels wholly inside its
    box, or (with a ``shape``) inside the shape; ``(image, (x, y))``, or
    ``None`` when no pixel is left on the canvas."""
    x0, y0, x1, y1 = tile.box
    if tile.shape is None:
        px0, py0 = max(0, math.ceil(x0 * sx)), max(0, math.ceil(y0 * sy))
        px1, py1 = min(size[0], math.floor(x1 * sx)), min(size[1], math.floor(y1 * sy))
    else:
        px0, py0 = max(0, math.floor(x0 * sx)), max(0, math.floor(y0 * sy))
        px1, py1 = min(size[0], math.ceil(x1 * sx)), min(size[1], math.ceil(y1 * sy))
    if px1 <= px0 or py1 <= py0:
        return None
    img = static_raster(layers, width, tile.variant).crop((px0, py0, px1, py1))
    if tile.shape is not None:
        mask = Image.new("L", img.size, 0)
        ImageDraw.Draw(mask).polygon([(x * sx - px0 - 0.5, y * sy - py0 - 0.5) for x, y in tile.shape], fill=255)
        img.putalpha(mask)
    return img, (px0, py0)


def _remember(drawn: dict) -> None:
    """Keep the tiles just drawn (``{key: image}``) in the per-process cache,
    dropping the least recently used past :data:`TILE_CACHE_PIXELS`."""
    global _tile_pixels
    with _lock:
        for key, img in drawn.items():
            if key not in _tiles:
                _tiles[key] = img
                _tile_pixels += img.width * img.height
        while _tile_pixels > TILE_CACHE_PIXELS and _tiles:
            _, old = _tiles.popitem(last=False)
            _tile_pixels -= old.width * old.height


def composite(layers: Layers, width: int = 900, region: tuple[int, int, int, int] | None = None) -> Image.Image:
    """The picture of ``layers`` at ``width`` pixels as an RGB image; with
    ``region`` (pixels ``(left, top, right, bottom)`` of that picture) only
    that part, the same pixels as the whole picture cropped, drawing only
    the tiles that meet it (a close-up: :mod:`pbem.boards.closeup`)."""
    base = static_raster(layers, width)
    left, top = (region[0], region[1]) if region is not None else (0, 0)
    out = base.crop(region) if region is not None else base.copy()
    for img, (x, y) in dynamic_tiles(layers, width, base.size, region):
        # "over" onto an opaque base: pasting through the tile's alpha gives
        # the same colours as alpha_composite, in one call instead of three
        # (an RGB crop of a variant replaces the pixels it covers)
        out.paste(img, (x - left, y - top), img if img.mode == "RGBA" else None)
    return out


def encode(img: Image.Image, *, palette: bool = PALETTE, compress_level: int = COMPRESS_LEVEL) -> bytes:
    """``img`` as PNG bytes: a 256-colour palette image (``palette``) or RGB."""
    if palette:
        img = img.quantize(256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    buf = io.BytesIO()
    img.save(buf, "PNG", compress_level=compress_level)
    return buf.getvalue()


def _layers(game: str, view: dict[str, Any], highlight: Iterable[str], lang: str = "en") -> Layers | None:
    """The board module's layers, the static key prefixed with ``lang``
    (legends are words: each language has its own static layer)."""
    import dataclasses

    from pbem.boards import board_module

    module = board_module(game)
    sites = tuple(dict.fromkeys(s for s in highlight if s))
    if not callable(getattr(module, "layers", None)):
        return None
    layers = module.layers(view, sites, lang=lang)
    return dataclasses.replace(layers, static_key=(lang, layers.static_key))


def picture_key(game: str, view: dict[str, Any], *, highlight: Iterable[str] = (), width: int = 900,
                lang: str = "en") -> bytes:
    """SHA-256 naming the picture :func:`render_png` draws for these
    arguments: equal keys, same PNG (it covers everything the picture is
    drawn from: the static layer's key, every tile, the size). Cheaper than
    drawing the SVG (~1.5 ms for a La Città board). Raises ``KeyError`` for
    a game without a board picture."""
    import hashlib

    from pbem.boards import render_svg

    layers = _layers(game, view, highlight, lang)
    h = hashlib.sha256()
    if layers is None:
        h.update(repr(("svg", width, lang)).encode())
        h.update(render_svg(game, view, highlight=highlight, lang=lang).encode())
        return h.digest()
    h.update(repr((layers.game, layers.static_key, layers.width, layers.height, width)).encode())
    h.update(layers.prelude.encode())
    for t in layers.tiles:
        h.update(repr(t.box).encode())
        h.update(b"\0" + (t.svg if isinstance(t, Tile) else f"crop of {t.variant}").encode() + b"\0")
    return h.digest()


def render_png(game: str, view: dict[str, Any], *, highlight: Iterable[str] = (), width: int = 900,
               palette: bool = PALETTE, compress_level: int = COMPRESS_LEVEL, lang: str = "en") -> bytes:
    """The board of ``game`` for ``view`` with ``highlight`` sites marked, as
    PNG bytes ``width`` pixels wide: what ``svg_to_png(render_svg(...))``
    draws, made from the cached static layer and the dynamic tiles. A game
    whose module has no ``layers`` is drawn the slow way.

    Raises ``KeyError`` for a game without a board picture and
    ``ValueError`` for a width outside ``1 .. MAX_WIDTH``.
    """
    from pbem.boards import render_svg

    if not isinstance(width, int) or isinstance(width, bool) or not 1 <= width <= MAX_WIDTH:
        raise ValueError(f"width must be an int from 1 to {MAX_WIDTH} pixels, not {width!r}")
    layers = _layers(game, view, highlight, lang)
    if layers is None:
        img = Image.open(io.BytesIO(svg_to_png(render_svg(game, view, highlight=highlight, lang=lang), width=width)))
        return encode(img.convert("RGB"), palette=palette, compress_level=compress_level)
    return encode(composite(layers, width), palette=palette, compress_level=compress_level)
