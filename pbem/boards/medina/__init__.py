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

Modules, by idea: :mod:`.geometry` (where each square, wall space and
tower lies), :mod:`.look` (colours, style, text), :mod:`.sites` (the board
and its pieces), :mod:`.strip` (seats, tiles, phase, legend). This module
puts them together.
"""
from __future__ import annotations

from typing import Any, Iterable

from pbem.boards.medina.geometry import (HEIGHT, M, STRIP_Y, TOWER_CENTRE, WB, WIDTH, later_neighbours, square_box,
                                         wall_box)
from pbem.boards.medina.look import SEAT_FILL, STYLE
from pbem.boards.medina.sites import coordinates, open_svg, pieces, square, tower, wall
from pbem.boards.medina.strip import legend, strip
from pbem.boards.words import words
from pbem.engine.medina import board as B


def _read(view: dict[str, Any], highlight: Iterable[str]):
    """(legal site names, seat -> colour, built wall spaces, sites of the latest turn) of ``view``."""
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
    out = open_svg() + coordinates() + _sites(legal, walls)
    out.append('<g class="pieces" pointer-events="none">')
    out += [svg for _, svg in pieces(view, seat_colour, walls, last)]
    out.append("</g>")
    out += [svg for _, svg in strip(view, seat_colour, t)]
    out.append(legend(M, STRIP_Y + 50, t))
    out.append("</svg>")
    return "\n".join(out)


def _sites(legal: set[str], walls: dict[str, Any]) -> list[str]:
    """The squares, then the wall spaces (``walls``: the built ones), those
    named in ``legal`` marked so; then the towers."""
    out = ['<g class="sites">']
    out += [square(i, B.square_name(i) in legal) for i in range(B.SQUARES)]
    out += [wall(wi, B.wall_name(wi) in walls, B.wall_name(wi) in legal) for wi in range(B.WALLS)]
    out.append("</g>")
    out.append('<g class="towers" pointer-events="none">')
    out += [tower(n) for n in TOWER_CENTRE]
    out.append("</g>")
    return out


def _static_svg(say, all_legal: bool = False) -> str:
    """The static raster layer: every site empty, every square legal when
    ``all_legal``; no pieces, no strip but the legend."""
    legal = {B.square_name(i) for i in range(B.SQUARES)} if all_legal else set()
    return "\n".join(open_svg() + coordinates() + _sites(legal, {}) + [legend(M, STRIP_Y + 50, say), "</svg>"])


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
    from pbem.boards.raster import Layers, Tile

    legal, seat_colour, walls, last = _read(view, highlight)
    say = words(lang)
    tiles = _site_tiles(legal, walls)
    tiles += _tower_tiles(tiles)
    tiles += _piece_tiles(pieces(view, seat_colour, walls, last))
    tiles += [Tile(box, svg) for box, svg in strip(view, seat_colour, say)]
    return Layers(game="medina", width=float(WIDTH), height=float(HEIGHT), static_key=(),
                  static_svg=lambda: _static_svg(say), prelude=f"<style>{STYLE}</style>", tiles=tuple(tiles),
                  variants={"legal": lambda: _static_svg(say, all_legal=True)}, shared=True)


def _grow(box: tuple[float, float, float, float], m: float) -> tuple[float, float, float, float]:
    """``box`` (x, y, width, height) as corners, ``m`` wider on every side."""
    x, y, w, h = box
    return (x - m, y - m, x + w + m, y + h + m)


def _site_tiles(legal: set[str], walls: dict[str, Any]) -> list:
    """The sites that look unlike the static layer.

    A legal square is the pixels wholly inside it taken from the static
    board with every square legal: its ring and label lie a quarter unit
    inside its edge, and what else reaches inside (the neighbours' edges)
    is the same there; only the pixels its edge crosses keep the static
    look. A wall space drawn anew (built or legal) is followed, if legal,
    by the later sites that overlap it: its ring reaches under their edge."""
    from pbem.boards.raster import Crop, Tile

    looks = [(B.square_name(i) in legal, False) for i in range(B.SQUARES)]
    looks += [(B.wall_name(wi) in legal, B.wall_name(wi) in walls) for wi in range(B.WALLS)]
    redraw, tiles = set(), []
    for k, (is_legal, built) in enumerate(looks):
        if k < B.SQUARES:
            if is_legal:
                tiles.append(Crop(_grow(square_box(k), 0), "legal"))
        elif built or is_legal:
            redraw.add(k)
            if is_legal:
                redraw.update(later_neighbours()[k])
    for k in sorted(redraw):
        if k < B.SQUARES:
            tiles.append(Tile(_grow(square_box(k), 2), square(k, looks[k][0])))
        else:
            wi = k - B.SQUARES
            tiles.append(Tile(_grow(wall_box(wi), 2), wall(wi, looks[k][1], looks[k][0])))
    return tiles


def _tower_tiles(tiles: list) -> list:
    """The towers again where a redrawn site of ``tiles`` touches one (they
    lie over the wall band)."""
    from pbem.boards.raster import Tile

    out, r = [], WB * 0.8 + 2
    for n, (cx, cy) in TOWER_CENTRE.items():
        box = (cx - r, cy - r, cx + r, cy + r)
        if any(isinstance(b, Tile) and b.box[0] < box[2] and box[0] < b.box[2] and b.box[1] < box[3]
               and box[1] < b.box[3] for b in tiles):
            out.append(Tile(box, tower(n)))
    return out


def _piece_tiles(drawn: list[tuple[tuple, str]]) -> list:
    """One tile per square or wall space with pieces (``drawn``: what
    :func:`.sites.pieces` gives), its pieces in drawing order."""
    from pbem.boards.raster import Tile

    by_box: dict[tuple, list[str]] = {}
    for box, svg in drawn:
        by_box.setdefault(tuple(box), []).append(svg)
    return [Tile(_grow(box, 2), "\n".join(svgs)) for box, svgs in by_box.items()]


def seat_colours(view: dict[str, Any]) -> list[str]:
    """Each seat's colour (``#rrggbb``, index = seat): its domes' colour."""
    colours = {p.get("seat"): SEAT_FILL.get(p.get("colour"), "#777777") for p in view.get("players") or []}
    return [colours.get(s, "#777777") for s in range(int(view.get("seats") or len(colours)))]
