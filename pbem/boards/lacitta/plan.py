"""What every layer of one La Città picture shares (:class:`Plan`): the
normalised view, the crop of the engine's board, the bands' sizes; and the
SVG's frame (root, style, paper, header and legend bands).
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Iterable, Mapping

from pbem.boards.lacitta.bands import header_band, legend_band
from pbem.boards.lacitta.palette import DEFS, FONT, PAPER, S, STYLE
from pbem.boards.lacitta.svg import esc, num
from pbem.boards.lacitta.view import BoardView, read_view
from pbem.boards.words import Msg, words


@lru_cache(maxsize=1)
def engine_board() -> dict[str, Any]:
    """The engine's board (:func:`pbem.engine.lacitta.board.board_data`), read once."""
    from pbem.engine.lacitta.board import board_data
    return board_data()


CROP_MARGIN = 2.3        # hex radii of edge landscape shown around the outermost sites


@dataclass
class Plan:
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


def plan(view: Mapping[str, Any], highlight: Iterable[str], board: Mapping[str, Any] | None,
         lang: str = "en") -> Plan:
    """The :class:`Plan` of one picture of ``view`` with ``highlight`` (site names) legal, words in
    ``lang``; ``board`` overrides the engine's board (tests)."""
    b = board if board is not None else engine_board()
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
    header, header_h, header_items = header_band(v, width, t)
    any_off = any(int(site.get("players") or 2) > v.seats for site in sites.values())
    legend, legend_h = legend_band(v, width, t, any_off=any_off)
    return Plan(board=b, v=v, legal={s.upper() for s in highlight}, colours={p.seat: p.colour for p in v.players},
                bx0=bx0, by0=by0, bx1=bx1, by1=by1, width=width, height=header_h + bh + legend_h, bh=bh,
                header=header, header_h=header_h, header_items=header_items, legend=legend, legend_h=legend_h,
                t=t)


def open_svg(pl: Plan) -> list[str]:
    """The SVG's first lines: root, style, defs, paper."""
    width, height = pl.width, pl.height
    label = pl.t(Msg("La Città board"))
    return [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {num(width)} {num(height)}" '
        f'width="{num(width)}" height="{num(height)}" font-family="{FONT}" class="board lacitta" '
        f'role="group" aria-label="{esc(label)}">',
        f"<style>{STYLE}</style>",
        f"<defs>{DEFS}</defs>",
        f'<rect width="{num(width)}" height="{num(height)}" fill="{PAPER}"/>',
    ]


def bands(pl: Plan, *, header: bool = True) -> list[str]:
    """Header band (and its text unless ``header`` is false) and the legend."""
    width, header_h, bh = pl.width, pl.header_h, pl.bh
    out = [f'<rect width="{num(width)}" height="{num(header_h)}" fill="{PAPER}"/>']
    if header:
        out.append(pl.header)
    out.append(f'<rect y="{num(header_h + bh)}" width="{num(width)}" height="{num(pl.legend_h)}" fill="{PAPER}"/>')
    out.append(f'<g transform="translate(0 {num(header_h + bh)})">{pl.legend}</g>')
    return out
