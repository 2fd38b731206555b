"""SVG -> PNG with resvg, using only the fonts shipped in ``pbem/boards/fonts/``.

resvg is told to skip the system font database and load just the shipped
DejaVu Sans files, and every generic family (``sans-serif``, ``serif``...)
maps to DejaVu Sans. So a board picture is the same bytes on every machine,
whatever fonts it has installed, and text never silently disappears because
a family is missing: any family falls back to DejaVu Sans.
"""
from __future__ import annotations

from pathlib import Path

import resvg_py

FONT_DIR = Path(__file__).resolve().parent / "fonts"
FONT_FAMILY = "DejaVu Sans"
FONT_FILES = (FONT_DIR / "DejaVuSans.ttf", FONT_DIR / "DejaVuSans-Bold.ttf")

#: Largest PNG width we agree to render, in pixels (a guard for callers that
#: pass a user-chosen width: a 20 000 px board is a memory bomb, not a picture).
MAX_WIDTH = 4000


def svg_to_png(svg: str, *, width: int = 900, background: str | None = "#ffffff") -> bytes:
    """Render SVG text to PNG bytes ``width`` pixels wide (height keeps the
    SVG's aspect ratio).

    Only the shipped fonts are used (see module docstring). ``background``
    fills the canvas first (``None``: transparent); white by default because
    mail clients in dark mode show transparent pixels as black.

    Raises ``ValueError`` for an empty or unparseable SVG, or a width outside
    ``1 .. MAX_WIDTH``.
    """
    if not isinstance(width, int) or isinstance(width, bool) or not 1 <= width <= MAX_WIDTH:
        raise ValueError(f"width must be an int from 1 to {MAX_WIDTH} pixels, not {width!r}")
    if not svg or not svg.strip():
        raise ValueError("empty SVG")
    return bytes(resvg_py.svg_to_bytes(
        svg_string=svg,
        width=width,
        background=background,
        skip_system_fonts=True,
        font_files=[str(p) for p in FONT_FILES],
        font_family=FONT_FAMILY,
        serif_family=FONT_FAMILY,
        sans_serif_family=FONT_FAMILY,
        cursive_family=FONT_FAMILY,
        fantasy_family=FONT_FAMILY,
        monospace_family=FONT_FAMILY,
        # Fixed policies: the defaults could change between resvg releases.
        shape_rendering="geometric_precision",
        text_rendering="optimize_legibility",
        image_rendering="optimize_quality",
    ))
