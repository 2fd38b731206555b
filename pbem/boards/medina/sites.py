"""The Medina board itself: paper and coordinates, one clickable site per
square and wall space, the towers, and the pieces standing on the sites.
"""
from __future__ import annotations

from typing import Any

from pbem.boards.medina.geometry import FONT, HEIGHT, M, TOWER_CENTRE, U, WB, WIDTH, X0, Y0, square_box, wall_box
from pbem.boards.medina.look import (INK, MERCHANT_FILL, PALACE_EDGE, PALACE_FILL, PAPER, PICKED, SAND, STABLE_FILL,
                                     STYLE, TOWER_FILL, WALL_FILL, esc, text)
from pbem.engine.medina import board as B


def open_svg() -> list[str]:
    """The SVG's first lines: root, style, paper."""
    return [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" '
            f'width="{WIDTH}" height="{HEIGHT}" font-family="{FONT}" class="pbem-board medina">',
            f"<style>{STYLE}</style>",
            f'<rect x="0" y="0" width="{WIDTH}" height="{HEIGHT}" fill="{PAPER}"/>']


def coordinates() -> list[str]:
    """Column letters and row numbers around the city."""
    out = []
    for c, letter in enumerate(B.COLUMN_LETTERS):
        x = X0 + c * U + U / 2
        out.append(text(x, M - 8, letter, 13, bold=True))
        out.append(text(x, Y0 + B.ROWS * U + WB + 17, letter, 13, bold=True))
    for r in range(B.ROWS):
        y = Y0 + r * U + U / 2 + 5
        out.append(text(M / 2, y, str(r + 1), 13, bold=True))
        out.append(text(WIDTH - M / 2, y, str(r + 1), 13, bold=True))
    return out


def square(i: int, legal: bool) -> str:
    """Square ``i`` (0-based, row by row) as a site group; ``legal`` shows its dot."""
    name = B.square_name(i)
    x, y, w, h = square_box(i)
    cls = "site legal" if legal else "site"
    return (f'<g class="{cls}" data-site="{name}">'
            f'<rect class="hex" x="{x}" y="{y}" width="{w}" height="{h}" fill="{SAND}" '
            f'stroke="#c4ab78" stroke-width="1"/>'
            f'<rect class="ring" x="{x + 2}" y="{y + 2}" width="{w - 4}" height="{h - 4}"/>'
            f'<circle class="dot" cx="{x + w - 7}" cy="{y + h - 7}" r="4"/>'
            + text(x + 3, y + 9, name, 7.5, fill="#8f7a52", anchor="start") + "</g>")


def wall(wi: int, built: bool, legal: bool) -> str:
    """Wall space ``wi`` (0-based) as a site group, filled when ``built``; ``legal`` shows its dot."""
    name = B.wall_name(wi)
    x, y, w, h = wall_box(wi)
    cls = "site legal" if legal else "site"
    fill = WALL_FILL if built else "#f9f3e3"
    return (f'<g class="{cls}" data-site="{name}">'
            f'<rect class="hex" x="{x}" y="{y}" width="{w}" height="{h}" fill="{fill}" '
            f'stroke="#9c8458" stroke-width="1"/>'
            f'<rect class="ring" x="{x + 1.5}" y="{y + 1.5}" width="{w - 3}" height="{h - 3}"/>'
            f'<circle class="dot" cx="{x + w - 5}" cy="{y + 5}" r="3"/>'
            + text(x + w / 2, y + h / 2 + 3, name, 7.5,
                   fill="#fff8e6" if built else "#8f7a52") + "</g>")


def tower(t: int) -> str:
    """Tower ``t`` (1-4) with its number."""
    cx, cy = TOWER_CENTRE[t]
    return (f'<circle cx="{cx}" cy="{cy}" r="{WB * 0.8:.1f}" fill="{TOWER_FILL}" '
            f'stroke="{INK}" stroke-width="2"/>' + text(cx, cy + 5, str(t), 14, bold=True))


def pieces(view: dict[str, Any], seat_colour: dict, walls: dict, last: set[str]):
    """The pieces in drawing order: ``[(box of the square or wall space
    they stand on, SVG)]`` (a piece never leaves its square)."""
    out = []
    for wname in walls:   # crenels on built wall pieces
        wi = B.parse_wall(wname)
        if wi is None:
            continue
        x, y, w, h = wall_box(wi)
        out.append(((x, y, w, h), f'<rect class="piece wall" x="{x + 2}" y="{y + 2}" width="{w - 4}" height="{h - 4}" fill="none" '
                    f'stroke="#6f5430" stroke-width="1.5"/>'))
    for p in view.get("palaces") or []:
        colour = p.get("colour", "grey")
        dash = "" if p.get("complete") else ' stroke-dasharray="4 3"'
        for s in p.get("squares") or []:
            i = B.parse_square(s)
            if i is None:
                continue
            x, y, w, h = square_box(i)
            out.append(((x, y, w, h), f'<rect class="piece palace {esc(colour)}" x="{x + 3}" y="{y + 3}" width="{w - 6}" height="{h - 6}" rx="2" '
                        f'fill="{PALACE_FILL.get(colour, "#999")}" '
                        f'stroke="{PALACE_EDGE.get(colour, "#000")}" stroke-width="2"{dash}/>'))
        for s in p.get("stables") or []:
            i = B.parse_square(s)
            if i is None:
                continue
            x, y, w, h = square_box(i)
            out.append(((x, y, w, h), f'<rect class="piece stable" x="{x + 8}" y="{y + 10}" width="{w - 16}" height="{h - 16}" '
                        f'fill="{STABLE_FILL}" stroke="#6b5122" stroke-width="1.5"/>'
                        f'<polygon points="{x + 6},{y + 12} {x + U / 2},{y + 4} {x + U - 6},{y + 12}" '
                        f'fill="#a67c3d" stroke="#6b5122" stroke-width="1"/>'))
        if p.get("dome"):
            i = B.parse_square(p["dome"])
            if i is not None:
                x, y, w, h = square_box(i)
                fill = seat_colour.get(p.get("owner"), "#777777")
                out.append(((x, y, w, h), f'<path class="piece dome" d="M{x + 8},{y + 28} A12,12 0 0 1 {x + 32},{y + 28} Z" '
                            f'fill="{fill}" stroke="#ffffff" stroke-width="2"/>'))
    for s in view.get("merchants") or []:
        i = B.parse_square(s)
        if i is None:
            continue
        x, y, w, h = square_box(i)
        cx, cy = x + U / 2, y + U / 2 + 2
        out.append(((x, y, w, h), f'<circle class="piece merchant" cx="{cx}" cy="{cy - 7}" r="5" fill="{MERCHANT_FILL}" stroke="{INK}" '
                    f'stroke-width="1.3"/><path d="M{cx - 8},{cy + 11} Q{cx},{cy - 8} {cx + 8},{cy + 11} Z" '
                    f'fill="{MERCHANT_FILL}" stroke="{INK}" stroke-width="1.3"/>'))
    for s in sorted(last):   # the latest turn's pieces
        i = B.parse_square(s)
        box = square_box(i) if i is not None else (
            wall_box(B.parse_wall(s)) if B.parse_wall(s) is not None else None)
        if box:
            x, y, w, h = box
            out.append((box, f'<rect class="last" x="{x + 0.5}" y="{y + 0.5}" width="{w - 1}" '
                        f'height="{h - 1}" fill="none" stroke="{PICKED}" stroke-width="2" '
                        f'stroke-dasharray="3 2"/>'))
    return out
