"""The Carcassonne: Die Stadt board picture: a ``State.view`` dict -> SVG.

The view's shape is in :mod:`pbem.engine.diestadt.view`. Bands, top to
bottom: the phase; the city (only its used part of the 40 x 40 grid, scaled
to the picture's width: :mod:`.geometry`); the seats (colour, points,
followers and towers in supply; ``▶`` marks who decides, "you" the viewer);
the drawn tile in each rotation it looks different in, labelled with the
degrees an order names and how many spaces take it so; piles and wall
supply; a legend (:mod:`.strip`).

Sites (``class="site"``, ``data-site``, a ``<title>`` each, class ``legal``
when highlighted; :mod:`.city`): every placed tile (``"T20"``), every space
the drawn tile may go on (its name and the rotations that fit printed
inside), the other empty spaces beside the city while a tile is drawn
(invisible, never legal: a click there is answered with why), and the highlighted outline edges (``"T20N"``: gate and wall
pieces) and corners (``"U20NE"``: towers) of a wall decision. Pieces
(followers in seat colours standing, lying or on guard; wall, gate, towers
with their points; where each wall end goes next; historic names; the
latest tile outlined) are drawn with ``pointer-events="none"`` so clicks
reach the sites. Tile art and piece shapes: :mod:`.art`.
"""
from __future__ import annotations

from typing import Any, Iterable

from pbem.boards.diestadt.city import frontier, frontier_site, pieces, sites
from pbem.boards.diestadt.geometry import STYLE, WIDTH, plan, static
from pbem.boards.diestadt.strip import description, strip


def render_svg(view: dict[str, Any], highlight: Iterable[str] = (), *, lang: str = "en") -> str:
    """The city of ``view`` (``DieStadtState.view``) as SVG text, the sites
    in ``highlight`` (``"F7"`` spaces, ``"T20N"`` edges, ``"U20NE"``
    corners) marked legal, every word in ``lang``. Missing keys draw as
    empty, so any view renders."""
    pl = plan(view, highlight, lang)
    title, desc = description(pl)
    out = static(pl, title, desc)
    out.append('<g class="sites">')
    # invisible, so only the page's picture has them (not the raster layers)
    out += [frontier_site(pl, name) for name in frontier(pl)]
    out += [svg for _, svg in sites(pl)]
    out.append("</g>")
    out.append('<g class="pieces" pointer-events="none">')
    out += [svg for _, svg in pieces(pl)]
    out.append("</g>")
    out += [svg for _, svg in strip(pl)]
    out.append("</svg>")
    return "\n".join(out)


def seat_colours(view: dict[str, Any]) -> list[str]:
    """Each seat's colour (``#rrggbb``, index = seat) as this board draws its
    followers: the colour the view names for the seat (``players[i].colour``,
    the engine's, which the mail's words use too), else the engine's colour
    of that seat number."""
    from pbem.boards.diestadt.art import seat_fill

    named = {p.get("seat"): p.get("colour") for p in view.get("players") or []}
    seats = int(view.get("seats") or len(named) or 0)
    return [seat_fill(named.get(s), s) for s in range(seats)]


def layers(view: dict[str, Any], highlight: Iterable[str] = (), *, lang: str = "en"):
    """The picture of :func:`render_svg` as a static and a dynamic layer for
    :mod:`pbem.boards.raster`.

    Static: paper, the grid of the drawn part of the board, coordinates and
    legend; its key is that part and the language (``(column, row,
    columns, rows, lang)``), which changes only when the city grows past it. Dynamic tiles, in drawing
    order: one per site (a placed tile with its art, a space for the drawn
    tile, an edge or corner), one per piece, one per strip entry, so a turn
    redraws only the tiles, pieces and entries it changed (the others come
    from the raster's tile cache).
    """
    from pbem.boards.raster import Layers, Tile

    pl = plan(view, highlight, lang)
    key = (pl.gx0, pl.gy0, pl.cols, pl.rows, lang)

    def static_svg() -> str:   # a function of ``key`` only
        return "\n".join(static(pl) + ["</svg>"])

    tiles = [Tile(box, svg) for box, svg in sites(pl) + pieces(pl) + strip(pl) if svg]
    return Layers(game="diestadt", width=WIDTH, height=pl.height, static_key=key, static_svg=static_svg,
                  prelude=f"<style>{STYLE}</style>", tiles=tuple(tiles))


__all__ = ["render_svg", "layers"]
