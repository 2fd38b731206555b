"""The Medina picture's colours, its own ``<style>`` (``legal``,
``picked``), and its text: escaped, in the shipped font.
"""
from __future__ import annotations

import html
from typing import Any

from pbem.boards.medina.geometry import FONT
from pbem.boards.words import Msg


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


def esc(s: Any) -> str:
    """``s`` escaped as XML text or attribute value."""
    return html.escape(str(s), quote=True)


def text(x: float, y: float, s: str, size: float, *, fill: str = INK, anchor: str = "middle",
         bold: bool = False) -> str:
    """A ``<text>`` element: ``s`` escaped, at (``x``, ``y``) (baseline), ``size`` user units."""
    weight = ' font-weight="bold"' if bold else ""
    return (f'<text x="{x:.1f}" y="{y:.1f}" font-size="{size:.1f}" text-anchor="{anchor}" '
            f'fill="{fill}"{weight}>{esc(s)}</text>')


#: the palace colours as the picture names them (palace tiles line)
COLOUR_WORDS = {"grey": Msg("grey"), "black": Msg("black"), "brown": Msg("brown"), "orange": Msg("orange")}
