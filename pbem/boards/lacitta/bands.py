"""The La Città picture's header (phase, wishes, one entry per seat) and
legend (key to every symbol), laid out in rows that wrap to the picture's
width (:class:`Flow`).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from pbem.boards.lacitta.palette import (BUILDINGS, LANDSCAPE_EDGE, LANDSCAPE_FILL, LEGAL, PICKED, SEAT_COLOURS,
                                         WISHES, WORDS)
from pbem.boards.lacitta.svg import hexagon, num, pts, text
from pbem.boards.lacitta.symbols import arch_symbol, castle_symbol, notable_pawn
from pbem.boards.lacitta.view import BoardView, Player
from pbem.boards.png import text_width
from pbem.boards.words import Msg, Msgn


@dataclass
class Flow:
    """Items laid out left to right, wrapping at ``width``: the header and
    legend, whose text lengths vary (player names, player counts)."""

    width: float
    line_h: float
    items: list[tuple[float, Any]] = field(default_factory=list)

    def add(self, w: float, draw) -> None:
        self.items.append((w, draw))

    def newline(self) -> None:
        self.items.append((-1.0, None))

    def place(self, x0: float, y0: float) -> tuple[list[tuple[float, float, float, str]], float]:
        """``([(x, y, width, svg)] per item, height)``: ``y`` is the baseline."""
        out, x, y = [], x0, y0
        for w, draw in self.items:
            if draw is None or (x > x0 and x + w > self.width - x0):
                if x > x0:
                    x, y = x0, y + self.line_h
                if draw is None:
                    continue
            out.append((x, y, w, draw(x, y)))
            x += w
        return out, (y - y0) + self.line_h

    def render(self, x0: float, y0: float) -> tuple[str, float]:
        items, h = self.place(x0, y0)
        return "".join(svg for _, _, _, svg in items), h


def text_w(s: str, size: float, bold: bool = False) -> float:
    """Width of ``s`` in the shipped DejaVu Sans at ``size`` (for layout)."""
    return text_width(s, size, bold=bold)


def header_band(v: BoardView, width: float, t=str) -> tuple[str, float, list[tuple[float, float, float, str]]]:
    """Phase, this year's wishes, then one entry per seat: colour, the
    player's name (else "Seat 2"), food, gold, points; the viewer is marked "you" and the
    seats that owe a decision are in bold with an arrow."""
    size = 13.0
    flow = Flow(width, 20.0)
    if v.phase:
        flow.add(text_w(v.phase, size, True) + 18, lambda x, y: text(x, y, v.phase, size, anchor="start", bold=True))
    if v.wishes:
        label = t(Msg("wish: {wishes}", wishes=" + ".join(t(WORDS.get(w, w)) for w in v.wishes)))

        def wishes(x: float, y: float, label: str = label) -> str:
            marks = "".join(arch_symbol(x + 5 + 12 * i, y + 1, 9, 13, w) for i, w in enumerate(v.wishes))
            return marks + text(x + 12 * len(v.wishes) + 3, y, label, size, anchor="start")
        flow.add(12 * len(v.wishes) + 3 + text_w(label, size) + 18, wishes)
    for p in v.players:
        name = p.name if len(p.name) <= 18 else p.name[:17] + "…"
        label = name or t(Msg("Seat {n}", n=p.seat + 1))
        if p.seat == v.viewer:
            label = t(Msg("{name} (you)", name=label))
        extra = [t(m) for m in (Msg("food {n}", n=p.food) if p.food is not None else None,
                                Msg("gold {n}", n=p.gold) if p.gold is not None else None,
                                Msg("{n} pts", n=p.points) if p.points is not None else None) if m is not None]
        if extra:
            label += ": " + ", ".join(extra)
        bold = p.seat in v.to_move
        if bold:
            label = "▶ " + label

        def entry(x: float, y: float, p: Player = p, label: str = label, bold: bool = bold) -> str:
            return castle_symbol(x + 9, y - 4, 12, p.colour, None) + text(x + 22, y, label, size, anchor="start",
                                                                          bold=bold)
        flow.add(22 + text_w(label, size, bold) + 18, entry)
    items, h = flow.place(10, 20)
    body = "".join(svg for _, _, _, svg in items)
    return f'<g class="header">{body}</g>', h + 10, items


def legend_band(v: BoardView, width: float, t=str, *, any_off: bool) -> tuple[str, float]:
    """Key to the symbols, in rows that wrap to ``width``."""
    size = 12.0
    flow = Flow(width, 24.0)

    def item(label: Any, symbol, sw: float = 22) -> None:
        label = t(label)
        flow.add(sw + text_w(label, size) + 13, lambda x, y: symbol(x, y) + text(x + sw, y, label, size, anchor="start"))

    for kind, label in (("field", Msg("field: 1 ear = 1 food")), ("mountain", Msg("mountain")),
                        ("lake", Msg("lake / water"))):
        item(label, lambda x, y, kind=kind: (
            f'<rect x="{num(x)}" y="{num(y - 12)}" width="16" height="14" rx="2" '
            f'fill="{LANDSCAPE_FILL[kind]}" stroke="{LANDSCAPE_EDGE[kind]}"/>'))
    item(Msg("castle: citizens in the city"), lambda x, y: castle_symbol(x + 8, y - 5, 11, "#9a9a9a", None))
    item(Msg("legal site"), lambda x, y: (
        f'<polygon points="{pts(hexagon(x + 8, y - 5, 10))}" fill="{LEGAL}" fill-opacity="0.18" '
        f'stroke="{LEGAL}" stroke-width="2.5"/>'))
    item(Msg("latest turn"), lambda x, y: (
        f'<polygon points="{pts(hexagon(x + 8, y - 5, 10))}" fill="#fbf7ec" '
        f'stroke="{PICKED}" stroke-width="2" stroke-dasharray="3 2"/>'))
    if any_off:
        item(Msgn("not used with {n} player", "not used with {n} players", v.seats), lambda x, y: (
            f'<polygon points="{pts(hexagon(x + 8, y - 5, 10))}" fill="#c9c5bc" stroke="#aaa59b"/>'))
    flow.newline()
    for kind in ("farm", "quarry", "market", "statue", "school", "fountain", None, "palazzo", "hospital",
                 "bathhouse", "dom", "university"):
        if kind is None:        # small buildings on one line, political-card buildings on the next
            flow.newline()
            continue
        glyph, fill, ink, _ = BUILDINGS[kind]
        item(WORDS[kind], lambda x, y, glyph=glyph, fill=fill, ink=ink: (
            f'<rect x="{num(x)}" y="{num(y - 12)}" width="22" height="15" rx="2" fill="{fill}" stroke="#777"/>'
            + text(x + 11, y, t(glyph), 10, fill=ink, bold=True)), sw=26)
    flow.newline()
    arches = t(Msg("arches:"))
    flow.add(text_w(arches, size) + 10, lambda x, y: text(x, y, arches, size, anchor="start"))
    for wish in WISHES:
        item(WORDS[wish], lambda x, y, wish=wish: arch_symbol(x + 5, y + 1, 9, 13, wish), sw=14)
    item(Msg("notable's arch (Bread and Games)"),
         lambda x, y: arch_symbol(x + 5, y + 1, 9, 13, "", rim=SEAT_COLOURS[0], rim_width=1.6), sw=14)
    item(Msg("notable on a farm (Rich Harvest)"), lambda x, y: notable_pawn(x + 6, y - 5, 11, SEAT_COLOURS[0]), sw=16)
    body, h = flow.render(12, 26)
    line = f'<line x1="0" y1="0" x2="{num(width)}" y2="0" stroke="#c8bc9c"/>'
    return f'<g class="legend">{line}{body}</g>', h + 14
