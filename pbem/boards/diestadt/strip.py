"""Die Stadt picture: the phase above the city, the strip below it (seats,
the drawn tile in its rotations, piles and wall supply) and the picture's
text alternative (``<title>``/``<desc>``).

Every entry is ``(box, svg)`` so the raster layers redraw only the ones a
turn changed; the strip's frame and legend are static
(:mod:`pbem.boards.diestadt.geometry`).
"""
from __future__ import annotations

from typing import Any

from pbem.boards.diestadt import art as A
from pbem.boards.diestadt.art import f, text
from pbem.boards.diestadt.geometry import DRAWN_Y, FS, HEADER, M, ROT, SEAT_LINE, WIDTH, Plan
from pbem.boards.png import text_width
from pbem.boards.words import Msg, Msgn

ORDINAL = {1: Msg("1st"), 2: Msg("2nd"), 3: Msg("3rd"), 4: Msg("4th")}


def _ordinal(pl: Plan, rank: Any) -> str:
    return pl.say(ORDINAL[rank]) if rank in ORDINAL else str(rank)


def _fit(s: str, size: float, width: float, bold: bool = False) -> float:
    """``size``, shrunk so that ``s`` fits ``width`` (not below 11)."""
    w = text_width(s, size, bold=bold)
    return size if w <= width else max(11.0, size * width / w)


def _seat_name(pl: Plan, p: dict[str, Any]) -> str:
    """The player's name (as the pages name seats), else "Seat 2"."""
    name = str(p.get("name") or "")
    if not name:
        return pl.say(Msg("Seat {n}", n=p.get("seat", 0) + 1))
    return name if len(name) <= 16 else name[:15] + "…"


def _phase(pl: Plan) -> tuple[tuple, str]:
    phase = pl.say(pl.view.get("phase") or "")
    size = _fit(phase, 17.0, WIDTH - 2 * M, bold=True)
    return (M - 4, 6, WIDTH - M + 4, HEADER - 2), text(M, 27, phase, size, bold=True, anchor="start")


def _seats(pl: Plan) -> list[tuple[tuple, str]]:
    view = pl.view
    deciding = set(view.get("current_seats") or [])
    ranks = {s.get("seat"): s.get("rank") for s in view.get("scores") or []}
    out = []
    col_w = (WIDTH - 2 * M) / 2
    for i, p in enumerate(view.get("players") or []):
        seat = p.get("seat", i)
        x, y = M + (i % 2) * col_w, pl.strip_y + 22 + (i // 2) * SEAT_LINE
        label = _seat_name(pl, p)
        if seat == view.get("viewer"):
            label = pl.say(Msg("{name} (you)", name=label))
        label += ": " + ", ".join(pl.say(m) for m in (
            Msgn("{n} pt", "{n} pts", p.get("points", 0)), Msgn("{n} follower", "{n} followers", p.get("followers", 0)),
            Msgn("{n} tower", "{n} towers", p.get("towers", 0))))
        if view.get("over") and ranks.get(seat):
            label = f"{_ordinal(pl, ranks[seat])}: " + label
        bold = seat in deciding and not view.get("over")
        if bold:
            label = "▶ " + label
        size = _fit(label, FS, col_w - 46, bold)
        colour = pl.colours.get(seat, A.seat_fill(None, seat))
        svg = A.follower(x + 11, y - 5, 20, colour, "standing", seat) + text(x + 26, y, label, size, bold=bold,
                                                                             anchor="start")
        out.append(((x - 2, y - 18, x + col_w - 4, y + 8), svg))
    return out


def _drawn(pl: Plan) -> list[tuple[tuple, str]]:
    view = pl.view
    drawn = view.get("drawn")
    y = pl.strip_y + DRAWN_Y
    if not drawn:
        return [_final(pl, y)]
    tile = drawn.get("tile")
    historic = pl.say(Msg("historic building"))
    what = {"public": pl.say(Msg("public building")), "historic": f"{historic} {drawn.get('name') or ''}".strip()}
    head = pl.say(Msg("Drawn tile {tile}", tile=tile))
    head += f": {what[drawn['building']]}" if drawn.get("building") in what else ""
    counts: dict[int, int] = {}
    for rots in (view.get("legal_spaces") or {}).values():
        for r in rots:
            counts[r] = counts.get(r, 0) + 1
    head_entry = ((M - 4, y - 18, WIDTH - M + 4, y + 8),
                  '<g class="drawn-head">' + text(M, y, head, _fit(head, FS, WIDTH - 2 * M, bold=True), bold=True,
                                                  anchor="start") + "</g>")
    out = []
    for k, rot in enumerate(drawn.get("rotations") or []):
        x = M + k * (ROT + 26)
        regions = A.regions_of_tile(tile, rot.get("rotation", 0) // 90) if tile in A.TURNED else {}
        building, breg, _ = A.table_regions(tile) if tile in A.TURNED else (None, None, None)
        art = A.tile_art(list(rot.get("slots") or ["r1"] * 12), regions, building, breg, ROT)
        n = counts.get(rot.get("rotation"), 0)
        note = pl.say(Msgn("{n} space", "{n} spaces", n) if n else Msg("fits nowhere"))
        # data-choice: the order page shows this picture beside the answer
        # "90°" of the order's rotation step (PlaceTile.steps)
        out.append(f'<g data-choice="{rot.get("rotation")}°" transform="translate({f(x)} {f(y + 12)})" '
                   f'opacity="{1 if n else 0.45}">{art}</g>'
                   + text(x + ROT / 2, y + 12 + ROT + 19, f"{rot.get('rotation')}°", 15, bold=True)
                   + text(x + ROT / 2, y + 12 + ROT + 37, note, 14))
    box = (M - 4, y + 8, M + 4 * (ROT + 26), y + ROT + 56)
    return [head_entry, (box, f'<g class="drawn">{"".join(out)}</g>')]


def _final(pl: Plan, y: float) -> tuple[tuple, str]:
    view = pl.view
    if not view.get("over"):
        return (M - 4, y - 18, WIDTH / 2, y + 8), text(M, y, pl.say(Msg("No tile drawn")), FS, anchor="start")
    lines = [text(M, y, pl.say(Msg("Final scores")), FS, bold=True, anchor="start")]
    names = {p.get("seat"): _seat_name(pl, p) for p in view.get("players") or []}
    for k, sc in enumerate(sorted(view.get("scores") or [], key=lambda s: (s.get("rank", 9), s.get("seat", 0)))):
        detail = ", ".join(f"{c} {v}" for c, v in (sc.get("detail") or {}).items() if v)
        line = f"{_ordinal(pl, sc.get('rank'))} {names.get(sc.get('seat'), '')}: " \
            + pl.say(Msgn("{n} pt", "{n} pts", sc.get("points") or 0))
        line += f" ({detail})" if detail else ""
        lines.append(text(M, y + 24 * (k + 1), line, _fit(line, 16, WIDTH - 2 * M), anchor="start"))
    return (M - 4, y - 18, WIDTH - M, y + 24 * 5 + 6), "".join(lines)


def _info(pl: Plan) -> tuple[tuple, str]:
    view = pl.view
    wall = view.get("wall") or {}
    piles = view.get("piles") or []
    lines = []
    say = pl.say
    if piles:
        lines.append(say(Msg("Piles: {piles} tiles left", piles=" · ".join(str(n) for n in piles))))
    lines.append(say(Msgn("Wall: {n} piece left", "Wall: {n} pieces left", wall.get("supply", 0))))
    if wall.get("open_edges") is not None:
        lines.append(say(Msgn("{n} open edge", "{n} open edges", wall["open_edges"])))
    if wall.get("closed"):
        lines.append(say(Msg("the wall is closed")))
    if wall.get("imagined"):
        lines.append(say(Msgn("{n} imaginary piece", "{n} imaginary pieces", wall["imagined"])))
    x = M + 4 * (ROT + 26) + 6
    y = pl.strip_y + DRAWN_Y + 30
    if view.get("over"):
        return (x - 2, y, x + 2, y + 2), ""
    svg = "".join(text(x, y + 24 * k, line, _fit(line, 15, WIDTH - M - x), anchor="start")
                  for k, line in enumerate(lines))
    return (x - 2, y - 18, WIDTH - M + 2, y + 24 * len(lines)), svg


def strip(pl: Plan) -> list[tuple[tuple, str]]:
    """The phase, then the strip's entries, in drawing order."""
    return [_phase(pl)] + _seats(pl) + _drawn(pl) + [_info(pl)]


def description(pl: Plan) -> tuple[str, str]:
    """The picture's ``<title>`` and ``<desc>``: what a screen reader says
    instead of the drawing."""
    view, say = pl.view, pl.say
    turn = (view.get("turn") or {}).get("number")
    title = say(Msg("Carcassonne: Die Stadt, turn {n}", n=turn) if turn else Msg("Carcassonne: Die Stadt"))
    tiles = view.get("tiles") or []
    parts = [say(view.get("phase") or "")]
    if tiles:
        parts.append(say(Msgn("The city has {n} tile.", "The city has {n} tiles.", len(tiles))))
    wall = view.get("wall") or {}
    if wall.get("gate"):
        parts.append(say(Msg("Wall: gate at {gate}, {pieces} more pieces, {guards} guards, {towers} towers.",
                             gate=wall["gate"], pieces=len(wall.get("pieces") or []),
                             guards=len(wall.get("guards") or {}), towers=len(view.get("towers") or []))))
    drawn = view.get("drawn")
    legal = view.get("legal_spaces") or {}
    if drawn:
        fits = ", ".join(f"{s} ({' '.join(str(r) for r in rots)})" for s, rots in legal.items())
        parts.append(say(Msg("Drawn tile {tile}; it fits on {spaces}.", tile=drawn.get("tile"), spaces=fits)
                         if fits else Msg("Drawn tile {tile}; it fits on no space.", tile=drawn.get("tile"))))
    for p in view.get("players") or []:
        parts.append(say(Msg("{name}: {points} points, {followers} followers in supply.", name=_seat_name(pl, p),
                             points=p.get("points", 0), followers=p.get("followers", 0))))
    return title, " ".join(s for s in parts if s)
