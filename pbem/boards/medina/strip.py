"""The strip below the Medina board: one entry per seat (colour, points,
domes), who holds the palace and tower tiles, the phase, and the legend.
"""
from __future__ import annotations

from typing import Any

from pbem.boards.medina.geometry import M, SEAT_SLOT, STRIP_Y, WIDTH
from pbem.boards.medina.look import (COLOUR_WORDS, INK, LEGAL, MERCHANT_FILL, PALACE_EDGE, PALACE_FILL, PICKED, SAND,
                                     SEAT_FILL, STABLE_FILL, WALL_FILL, text)
from pbem.boards.png import text_width
from pbem.boards.words import Msg


def seat_label(seat: Any, names: dict | None = None, t=str) -> str:
    """The player's name of ``seat`` (``names``: seat -> name), else "Seat 2"; "none" for ``None``."""
    if seat is None:
        return t(Msg("none"))
    return str((names or {}).get(int(seat)) or t(Msg("Seat {n}", n=int(seat) + 1)))


def legend(x: float, y: float, t=str) -> str:
    """One row: what each piece looks like, the labels in the picture's
    language (smaller type when they would not fit the width)."""
    items = [  # (symbol width + gap to its label, symbol at x0, label)
        (20, lambda x0: f'<rect x="{x0}" y="{y}" width="16" height="16" rx="2" fill="{PALACE_FILL["orange"]}" '
                        f'stroke="{PALACE_EDGE["orange"]}" stroke-width="2" stroke-dasharray="4 3"/>',
         Msg("under construction")),
        (20, lambda x0: f'<rect x="{x0}" y="{y}" width="16" height="16" rx="2" fill="{PALACE_FILL["grey"]}" '
                        f'stroke="{PALACE_EDGE["grey"]}" stroke-width="2"/>'
                        f'<path d="M{x0 + 3},{y + 12} A5,5 0 0 1 {x0 + 13},{y + 12} Z" fill="{SEAT_FILL["red"]}" '
                        f'stroke="#ffffff" stroke-width="1"/>', Msg("claimed (dome)")),
        (18, lambda x0: f'<rect x="{x0}" y="{y + 4}" width="14" height="12" fill="{STABLE_FILL}" '
                        f'stroke="#6b5122" stroke-width="1.2"/>', Msg("stable")),
        (16, lambda x0: f'<circle cx="{x0 + 6}" cy="{y + 5}" r="3.5" fill="{MERCHANT_FILL}" stroke="{INK}"/>'
                        f'<path d="M{x0},{y + 16} Q{x0 + 6},{y + 3} {x0 + 12},{y + 16} Z" '
                        f'fill="{MERCHANT_FILL}" stroke="{INK}"/>', Msg("merchant")),
        (24, lambda x0: f'<rect x="{x0}" y="{y + 2}" width="20" height="13" fill="{WALL_FILL}" '
                        f'stroke="#6f5430" stroke-width="1.2"/>', Msg("wall")),
        (20, lambda x0: f'<rect x="{x0}" y="{y}" width="16" height="16" fill="{SAND}" stroke="#c4ab78"/>'
                        f'<circle cx="{x0 + 11}" cy="{y + 11}" r="4" fill="{LEGAL}" stroke="#ffffff" '
                        f'stroke-width="1.2"/>', Msg("legal now")),
        (20, lambda x0: f'<rect x="{x0}" y="{y}" width="16" height="16" fill="none" stroke="{PICKED}" '
                        f'stroke-width="2" stroke-dasharray="3 2"/>', Msg("latest turn")),
    ]
    labels = [t(label) for _, _, label in items]
    gap, size = 16.0, 10.5
    room = WIDTH - M - x - sum(sw for sw, _, _ in items) - gap * (len(items) - 1)
    written = sum(text_width(label, 1.0) for label in labels)
    size = min(size, room / written) if written > 0 else size
    out = ['<g class="legend" pointer-events="none">']
    x0 = float(x)
    for (sw, symbol, _), label in zip(items, labels):
        out.append(symbol(round(x0, 1)))
        out.append(text(x0 + sw, y + 13, label, size, anchor="start"))
        x0 += sw + text_width(label, size) + gap
    out.append("</g>")
    return "".join(out)


def fit(s: str, size: float, room: float, bold: bool = False) -> float:
    """``size``, or smaller so that ``s`` fits ``room`` units (translations run long)."""
    w = text_width(s, 1.0, bold=bold)
    return size if w * size <= room else room / w


def strip(view: dict[str, Any], seat_colour: dict, t=str) -> list[tuple[tuple[float, float, float, float], str]]:
    """Seats, palace and tower tiles, phase (the legend below is static):
    ``[(box, SVG)]``, one entry per seat and one per line of text."""
    out = []
    y = STRIP_Y
    scores = {s.get("seat"): s.get("points") for s in view.get("scores") or []}
    x = M
    for p in view.get("players") or []:
        seat = p.get("seat")
        name = str(p.get("name") or seat_label(seat, t=t))
        name = name if len(name) <= 12 else name[:11] + "…"
        label = t(Msg("{name}: {points} pts, domes {domes}", name=name, points=scores.get(seat, 0),
                      domes=p.get("domes", 0)))
        size = fit(label, 11.5, SEAT_SLOT - 22)
        out.append(((x - 2, y - 14, x + 20 + text_width(label, size), y + 5),
                    f'<rect x="{x}" y="{y - 10}" width="12" height="12" fill="{seat_colour.get(seat)}" '
                    f'stroke="{INK}" stroke-width="1"/>\n' + text(x + 16, y, label, size, anchor="start")))
        x += SEAT_SLOT
    pt = view.get("palace_tiles") or {}
    tt = view.get("tower_tiles") or {}
    names = {p.get("seat"): p.get("name") for p in view.get("players") or []}
    palace = ", ".join(f"{t(COLOUR_WORDS[c])} {seat_label(pt.get(c), names, t)}" for c in PALACE_FILL)
    tower = ", ".join(f"{k}: {seat_label(tt.get(k), names, t)}" for k in sorted(tt))
    tiles = t(Msg("Palace tiles: {palace}", palace=palace)) + "  |  " + t(Msg("Tower tiles: {towers}", towers=tower))
    phase = t(view.get("phase") or "")
    out.append(((0, y + 7, WIDTH, y + 25), text(M, y + 20, tiles, fit(tiles, 11, WIDTH - 2 * M), anchor="start")))
    out.append(((0, y + 23, WIDTH, y + 41), text(M, y + 36, phase, fit(phase, 11, WIDTH - 2 * M, True),
                                                 anchor="start", bold=True)))
    return out
