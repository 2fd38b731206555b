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


def _font_metrics(path: Path) -> tuple[int, dict[int, int], int]:
    """(unitsPerEm, {codepoint: advance}, default advance) read from a
    TrueType file's head, hhea, hmtx and cmap (format 4) tables."""
    import struct

    data = path.read_bytes()
    (num_tables,) = struct.unpack(">H", data[4:6])
    tables = {}
    for i in range(num_tables):
        tag, _, offset, length = struct.unpack(">4sIII", data[12 + 16 * i:28 + 16 * i])
        tables[tag.decode("latin-1")] = (offset, length)
    units = struct.unpack(">H", data[tables["head"][0] + 18:tables["head"][0] + 20])[0]
    n_metrics = struct.unpack(">H", data[tables["hhea"][0] + 34:tables["hhea"][0] + 36])[0]
    hmtx = tables["hmtx"][0]
    advances = [struct.unpack(">H", data[hmtx + 4 * i:hmtx + 4 * i + 2])[0] for i in range(n_metrics)]
    cmap = tables["cmap"][0]
    (n_sub,) = struct.unpack(">H", data[cmap + 2:cmap + 4])
    sub = None
    for i in range(n_sub):
        platform, encoding, offset = struct.unpack(">HHI", data[cmap + 4 + 8 * i:cmap + 12 + 8 * i])
        if (platform, encoding) in ((3, 1), (0, 3)) and struct.unpack(">H", data[cmap + offset:cmap + offset + 2])[0] == 4:
            sub = cmap + offset
            break
    widths: dict[int, int] = {}
    if sub is not None:
        seg_x2 = struct.unpack(">H", data[sub + 6:sub + 8])[0]
        ends = sub + 14
        starts = ends + seg_x2 + 2
        deltas = starts + seg_x2
        ranges = deltas + seg_x2
        for s in range(seg_x2 // 2):
            end, start = (struct.unpack(">H", data[p + 2 * s:p + 2 * s + 2])[0] for p in (ends, starts))
            delta = struct.unpack(">h", data[deltas + 2 * s:deltas + 2 * s + 2])[0]
            roff = struct.unpack(">H", data[ranges + 2 * s:ranges + 2 * s + 2])[0]
            for cp in range(start, min(end, 0x2FFF) + 1):
                if roff == 0:
                    glyph = (cp + delta) & 0xFFFF
                else:
                    at = ranges + 2 * s + roff + 2 * (cp - start)
                    glyph = struct.unpack(">H", data[at:at + 2])[0]
                    glyph = (glyph + delta) & 0xFFFF if glyph else 0
                if glyph:
                    widths[cp] = advances[min(glyph, n_metrics - 1)]
    return units, widths, advances[0]


_METRICS: dict[bool, tuple[int, dict[int, int], int]] = {}


def text_width(text: str, size: float, *, bold: bool = False) -> float:
    """Advance width of ``text`` set in the shipped DejaVu Sans at ``size``
    (user units; no kerning), for laying out labels without a browser."""
    if bold not in _METRICS:
        _METRICS[bold] = _font_metrics(FONT_FILES[1 if bold else 0])
    units, widths, default = _METRICS[bold]
    return sum(widths.get(ord(ch), default) for ch in text) * size / units
