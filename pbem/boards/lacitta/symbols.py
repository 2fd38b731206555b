"""La Città picture symbols: grain, mountain and waves on the landscape,
arches, castles, notables and building tiles. Each function returns an SVG
fragment centred or standing where it is told, in board user units.
"""
from __future__ import annotations

from pbem.boards.lacitta.palette import ARCH_FILL, BUILDINGS, INK, S
from pbem.boards.lacitta.svg import ink_on, num, pts, text


def _grain(x: float, y: float, h: float) -> str:
    """One ear of grain, ``h`` tall, standing on (x, y)."""
    parts = [f'<line x1="{num(x)}" y1="{num(y)}" x2="{num(x)}" y2="{num(y - h)}" stroke="#8a6a12" stroke-width="1.3"/>']
    for i in range(3):
        ky = y - h * (0.45 + 0.2 * i)
        for side in (-1, 1):
            parts.append(f'<ellipse cx="{num(x + side * h * 0.13)}" cy="{num(ky)}" rx="{num(h * 0.1)}" '
                         f'ry="{num(h * 0.17)}" fill="#a57d12" transform="rotate({side * 28} {num(x + side * h * 0.13)} {num(ky)})"/>')
    parts.append(f'<ellipse cx="{num(x)}" cy="{num(y - h * 0.98)}" rx="{num(h * 0.09)}" ry="{num(h * 0.16)}" fill="#a57d12"/>')
    return "".join(parts)


def field_symbol(cx: float, cy: float, grain: int, size: float) -> str:
    """``grain`` ears of grain side by side, centred on (``cx``, ``cy``)."""
    out = []
    gap = size * 0.42
    x0 = cx - gap * (grain - 1) / 2
    for i in range(grain):
        out.append(_grain(x0 + gap * i, cy + size * 0.3, size * 0.9))
    return "".join(out)


def mountain_symbol(cx: float, cy: float, size: float) -> str:
    """Two peaks, the larger with snow, centred on (``cx``, ``cy``)."""
    w, h = size * 1.3, size * 0.95
    big = [(cx - w * 0.55, cy + h * 0.45), (cx - w * 0.05, cy - h * 0.55), (cx + w * 0.45, cy + h * 0.45)]
    small = [(cx + w * 0.05, cy + h * 0.45), (cx + w * 0.38, cy - h * 0.15), (cx + w * 0.72, cy + h * 0.45)]
    snow = [(cx - w * 0.05, cy - h * 0.55), (cx - w * 0.2, cy - h * 0.25), (cx - w * 0.05, cy - h * 0.32),
            (cx + w * 0.1, cy - h * 0.25)]
    return (f'<polygon points="{pts(small)}" fill="#6f685e" stroke="#4d473f" stroke-width="1.2" stroke-linejoin="round"/>'
            f'<polygon points="{pts(big)}" fill="#857d71" stroke="#4d473f" stroke-width="1.2" stroke-linejoin="round"/>'
            f'<polygon points="{pts(snow)}" fill="#f5f3ef"/>')


def wave_symbol(cx: float, cy: float, size: float, colour: str = "#e9f3fb") -> str:
    """Two wavy lines (lake, water) centred on (``cx``, ``cy``)."""
    out = []
    w = size * 1.2
    for dy in (-size * 0.25, size * 0.2):
        x0, y = cx - w / 2, cy + dy
        d = f"M{num(x0)},{num(y)}"
        for _ in range(3):
            d += f" q{num(w / 12)},{num(-size * 0.22)} {num(w / 6)},0 t{num(w / 6)},0"
        out.append(f'<path d="{d}" fill="none" stroke="{colour}" stroke-width="2" stroke-linecap="round"/>')
    return "".join(out)


def arch_symbol(x: float, y: float, w: float, h: float, wish: str, rim: str = INK, rim_width: float = 0.8) -> str:
    """An arch symbol (a door-shaped mark) standing on (x, y)."""
    fill = ARCH_FILL.get(wish, "#999999")
    r = w / 2
    d = (f"M{num(x - r)},{num(y)} V{num(y - h + r)} A{num(r)},{num(r)} 0 0 1 {num(x + r)},{num(y - h + r)} "
         f"V{num(y)} Z")
    return f'<path d="{d}" fill="{fill}" stroke="{rim}" stroke-width="{num(rim_width)}"/>'


def castle_symbol(cx: float, cy: float, size: float, colour: str, citizens: int | None) -> str:
    """A castle in ``colour`` centred on (``cx``, ``cy``), with the city's ``citizens`` on it
    (none drawn when ``None``: header and legend)."""
    w, h = size * 1.5, size * 1.25
    x0, x1 = cx - w / 2, cx + w / 2
    top, bottom = cy - h * 0.5, cy + h * 0.5
    m = h * 0.22              # merlon height
    step = w / 5
    d = f"M{num(x0)},{num(bottom)} V{num(top)}"
    for i in range(5):
        xa = x0 + step * i
        if i % 2 == 0:
            d += f" H{num(xa + step)}"
            if i < 4:
                d += f" V{num(top + m)}"
        else:
            d += f" H{num(xa + step)} V{num(top)}"
    d += f" V{num(bottom)} Z"
    out = [f'<path d="{d}" fill="{colour}" stroke="{INK}" stroke-width="1.3" stroke-linejoin="round"/>']
    if citizens is not None:
        out.append(text(cx, cy + h * 0.36, citizens, size * 0.95, fill=ink_on(colour), bold=True))
    return "".join(out)


def notable_pawn(cx: float, cy: float, size: float, colour: str) -> str:
    """A notable (coloured citizen) standing at (cx, cy): head and body."""
    return (f'<path d="M{num(cx - size * 0.5)},{num(cy + size * 0.55)} Q{num(cx)},{num(cy - size * 0.45)} '
            f'{num(cx + size * 0.5)},{num(cy + size * 0.55)} Z" fill="{colour}" stroke="{INK}" stroke-width="0.9"/>'
            f'<circle cx="{num(cx)}" cy="{num(cy - size * 0.35)}" r="{num(size * 0.28)}" fill="{colour}" '
            f'stroke="{INK}" stroke-width="0.9"/>')


def building_glyph(cx: float, cy: float, kind: str, notables: list[str], colour: str, t=str) -> str:
    """A building: a tile with its two-letter glyph, framed in the owner's
    colour (thicker for the large Dom and University), and its arches in a
    row beneath (notables' arches last, rimmed in the owner's colour)."""
    glyph, fill, ink, arches = BUILDINGS.get(kind, (kind[:2].title() or "?", "#eeeeee", INK, ()))
    glyph = t(glyph)
    large = len(arches) >= 3
    arches = arches + tuple(w_ or "" for w_ in notables)
    w, h = S * 1.22, S * 0.68
    x0, y0 = cx - w / 2, cy - S * 0.36
    out = [f'<rect x="{num(x0)}" y="{num(y0)}" width="{num(w)}" height="{num(h)}" rx="2.5" fill="{fill}" '
           f'stroke="{colour}" stroke-width="{2.8 if large else 1.8}"/>']
    out.append(text(cx, y0 + h - S * 0.15, glyph, S * 0.5, fill=ink, bold=True))
    if arches:
        aw, ah, gap = S * 0.22, S * 0.32, S * 0.07
        total = len(arches) * aw + (len(arches) - 1) * gap
        ax = cx - total / 2 + aw / 2
        ay = y0 + h + S * 0.05 + ah
        for i, wish in enumerate(arches):
            # a notable's arch gets a rim in the owner's colour: it leaves at the end of the year
            notable = i >= len(arches) - len(notables)
            out.append(arch_symbol(ax + i * (aw + gap), ay, aw, ah, wish,
                                   rim=colour if notable else INK, rim_width=1.5 if notable else 0.7))
    return "".join(out)
