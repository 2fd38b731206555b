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

The view is read by :func:`.view.read_view` (shape in its docstring); unknown keys
are ignored and missing ones drawn as empty, so a view from any point of the
game (setup included) renders.

Modules, by idea: :mod:`.palette` (colours, glyphs, words, style),
:mod:`.view` (the view normalised), :mod:`.svg` (text primitives),
:mod:`.symbols`, :mod:`.sites` (landscape, sites, pieces), :mod:`.bands`
(header and legend), :mod:`.plan` (crop and sizes one picture's layers
share). This module puts them together.
"""
from __future__ import annotations

from typing import Any, Iterable, Mapping

from pbem.boards.lacitta.palette import ARCH_FILL, BUILDINGS, DEFS, NAMED_COLOURS, S, STYLE, WORDS
from pbem.boards.lacitta.plan import Plan, bands, open_svg, plan
from pbem.boards.lacitta.sites import R_HEX, draw_landscape, draw_piece, draw_site
from pbem.boards.lacitta.svg import hexagon, num
from pbem.boards.lacitta.view import as_int, colour_of, read_view

__all__ = ["ARCH_FILL", "BUILDINGS", "NAMED_COLOURS", "WORDS", "layers", "read_view", "render_svg", "seat_colours"]


def render_svg(view: Mapping[str, Any], highlight: Iterable[str] = (), *,
               board: Mapping[str, Any] | None = None, lang: str = "en") -> str:
    """The La Città board of ``view`` as SVG text (viewBox in user units,
    scalable; no external resources). ``highlight``: site names to mark
    ``legal``; every word in ``lang``. ``board`` overrides the engine's
    ``board_data()`` (tests)."""
    return _picture(plan(view, highlight, board, lang))


def _picture(pl: Plan, *, static: bool = False, all_legal: bool = False) -> str:
    """The whole picture of ``pl``; ``static``: its static raster layer
    (every site plain, legal when ``all_legal``; no pieces, no header text)."""
    sites: Mapping[str, Mapping[str, Any]] = pl.board["sites"]
    out = open_svg(pl)
    out += draw_landscape(pl)
    out.append('<g class="sites">')
    for name, site in sites.items():
        out += draw_site(pl, name, site, plain=True, legal=all_legal) if static else draw_site(pl, name, site)
    out.append("</g>")
    if not static:
        # buildings and castles (decoration: clicks fall through to the site)
        out.append('<g class="buildings" pointer-events="none">')
        for site, bld in pl.v.buildings.items():
            if site in sites:
                out += draw_piece(pl, site, bld)
        out.append("</g>")
    out += bands(pl, header=not static)
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
    from pbem.boards.raster import Layers

    pl = plan(view, highlight, None, lang)
    key = (pl.v.seats, tuple(sorted(pl.v.landscape.items())), pl.header_h)   # all the static layer depends on
    return Layers(game="lacitta", width=float(num(pl.width)), height=float(num(pl.height)), static_key=key,
                  static_svg=lambda: _picture(pl, static=True),
                  prelude=f"<style>{STYLE}</style><defs>{DEFS}</defs>", tiles=_tiles(pl),
                  variants={"legal": lambda: _picture(pl, static=True, all_legal=True)}, shared=True)


def _tiles(pl: Plan) -> tuple:
    """The dynamic tiles of :func:`layers`, in drawing order."""
    from pbem.boards.raster import Crop, Tile

    v, sites = pl.v, pl.board["sites"]
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
            site_tiles.append(Tile(box, "\n".join(draw_site(pl, name, site))))
        else:
            # An empty legal site: the pixels of its hex out to the stroke's
            # outer edge, from the variant with every site legal. Past that
            # edge lies only landscape and the neighbours' edges (their fills
            # start a unit further), the same in both.
            site_tiles.append(Crop(box, "legal", tuple(hexagon(cx, cy, R_HEX + 0.5))))
    for site, bld in v.buildings.items():
        if site in sites:
            cx, cy = pl.P(sites[site]["x"], sites[site]["y"])
            piece_tiles.append(Tile((cx - pm, cy - pm, cx + pm, cy + pm), "\n".join(draw_piece(pl, site, bld))))
    # one tile per header entry (phase, wishes, each seat): a turn changes a few
    header = [Tile((x - 3, y - 17, min(x + w, pl.width), y + 7), svg) for x, y, w, svg in pl.header_items]
    return tuple(site_tiles + piece_tiles + header)


def seat_colours(view: Mapping[str, Any]) -> list[str]:
    """Each seat's colour (``#rrggbb``, index = seat) as this board draws it."""
    players = {p.seat: p.colour for p in read_view(view).players}
    seats = as_int(view.get("seats")) or len(players)
    return [players.get(s, colour_of(None, s)) for s in range(seats)]
