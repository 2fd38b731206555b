"""SVG text primitives of the La Città picture: numbers, points, escaped
text, hexagons and colour arithmetic. Deterministic: one decimal, no
trailing zero.
"""
from __future__ import annotations

import html
import math
import re
from typing import Any, Iterable

from pbem.boards.lacitta.palette import INK


def num(v: float) -> str:
    """A coordinate: one decimal, no trailing zero (small, deterministic SVG)."""
    s = f"{v:.1f}"
    if s.endswith(".0"):
        s = s[:-2]
    return "0" if s == "-0" else s


def pts(points: Iterable[tuple[float, float]]) -> str:
    """``points`` as an SVG ``points`` attribute (``"1,2.5 3,4"``)."""
    return " ".join(f"{num(x)},{num(y)}" for x, y in points)


# Characters XML 1.0 forbids (control codes, lone surrogates, U+FFFE/U+FFFF):
# a player's name must not be able to break the picture.
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def esc(s: Any) -> str:
    """``s`` as text or an attribute value of XML: escaped, characters XML forbids replaced by U+FFFD."""
    return html.escape(_NOT_XML.sub("\ufffd", str(s)), quote=True)


def hexagon(cx: float, cy: float, r: float) -> list[tuple[float, float]]:
    """The six corners of the pointy-top hexagon of circumradius ``r`` centred on (``cx``, ``cy``),
    from the top clockwise (-90, -30, 30, 90, 150, 210 degrees)."""
    return [(cx + r * math.cos(math.radians(a)), cy + r * math.sin(math.radians(a)))
            for a in (-90, -30, 30, 90, 150, 210)]


def text(x: float, y: float, s: Any, size: float, *, fill: str = INK, bold: bool = False,
         anchor: str = "middle", extra: str = "") -> str:
    """A ``<text>`` element: ``s`` escaped, at (``x``, ``y``) (baseline), ``size`` user units."""
    weight = ' font-weight="bold"' if bold else ""
    return (f'<text x="{num(x)}" y="{num(y)}" font-size="{num(size)}"{weight} '
            f'text-anchor="{anchor}" fill="{fill}"{extra}>{esc(s)}</text>')


def _luma(colour: str) -> float:
    c = colour.lstrip("#")
    if len(c) == 3:
        c = "".join(ch * 2 for ch in c)
    r, g, b = (int(c[i:i + 2], 16) for i in (0, 2, 4))
    return 0.299 * r + 0.587 * g + 0.114 * b


def ink_on(colour: str) -> str:
    """Text colour readable on ``colour``."""
    return INK if _luma(colour) > 150 else "#ffffff"


def tint(colour: str, amount: float) -> str:
    """``colour`` mixed with white (``amount`` 0 = colour, 1 = white)."""
    c = colour.lstrip("#")
    if len(c) == 3:
        c = "".join(ch * 2 for ch in c)
    rgb = [int(c[i:i + 2], 16) for i in (0, 2, 4)]
    return "#" + "".join(f"{round(v + (255 - v) * amount):02x}" for v in rgb)
