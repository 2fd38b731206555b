"""Plain-text rendering of a Medina view (emails, the order page, logs)."""
from __future__ import annotations

from typing import Any

from pbem.engine.medina import board as B
from pbem.engine.medina.pieces import PALACE_COLOURS, PALACE_TILE_POINTS

LETTER = {"grey": "g", "black": "k", "brown": "b", "orange": "o"}
"""Board letters of the palace colours (capital = completed palace)."""


def board_grid(view: dict[str, Any]) -> list[str]:
    """The board as text lines: the 16 x 11 squares inside the wall ring.

    Palace pieces ``g k b o`` (capital when the palace is completed, ``*``
    under a dome), ``s`` stable, ``m`` merchant, ``.`` empty; on the ring
    ``#`` wall piece, ``-`` empty wall space, ``1``-``4`` towers."""
    cells = [["."] * B.COLS for _ in range(B.ROWS)]

    def put(name: str, ch: str) -> None:
        i = B.parse_square(name)
        cells[i // B.COLS][i % B.COLS] = ch

    for p in view["palaces"]:
        ch = LETTER[p["colour"]]
        for s in p["squares"]:
            put(s, ch.upper() if p["complete"] else ch)
        for s in p["stables"]:
            put(s, "s")
        if p["dome"]:
            put(p["dome"], "*")
    for m in view["merchants"]:
        put(m, "m")
    walls = view["walls"]

    def w(idx: int) -> str:
        return "#" if B.wall_name(idx) in walls else "-"

    lines = ["      " + " ".join(B.COLUMN_LETTERS)]
    lines.append("    1 " + " ".join(w(k) for k in range(B.COLS)) + " 2")
    for r in range(B.ROWS):
        west = w(2 * B.COLS + 2 * B.ROWS - 1 - r)
        east = w(B.COLS + r)
        lines.append(f"{r + 1:>3} {west} " + " ".join(cells[r]) + f" {east}")
    south = [w(B.COLS + B.ROWS + (B.COLS - 1 - c)) for c in range(B.COLS)]
    lines.append("    4 " + " ".join(south) + " 3")
    return lines


def _seat(s: int | None) -> str:
    return "nobody" if s is None else f"seat {s + 1}"


def view_text(view: dict[str, Any]) -> str:
    """Private information first, then the public position."""
    out: list[str] = [f"Medina, {view['phase']}"]
    me = view.get("viewer")
    if me is not None:
        p = view["players"][me]
        out.append(f"You are seat {me + 1} ({p['colour']} domes).")
        sup = p["supply"]
        pal = ", ".join(f"{c} {sup[c]}" for c in PALACE_COLOURS)
        out.append(f"Behind your screen: palace pieces {pal}; stables {sup['stables']}, "
                   f"merchants {sup['merchants']}, walls {sup['walls']}; domes {sup['domes']}.")
        if view["turn"]["seat"] == me and not view["over"]:
            must = " This turn must include a dome." if view["turn"]["must_dome"] else ""
            out.append(f"It is your turn: piece {view['turn']['piece']} of 2.{must}")
    out.append("")
    out += board_grid(view)
    out.append("(g grey, k black, b brown, o orange, capital = completed, * dome, s stable, "
               "m merchant; # wall, - empty wall space, 1-4 towers; W1-W16 north from A, "
               "W17-W27 east from 1, W28-W43 south from P, W44-W54 west from 11)")
    out.append("")
    out.append("Palaces:")
    if not view["palaces"]:
        out.append("  none yet")
    for p in view["palaces"]:
        state = ("claimed by " + _seat(p["owner"])) if p["owner"] is not None else (
            "completed, nobody's" if p["complete"] else "under construction")
        extra = f", stables {' '.join(p['stables'])}" if p["stables"] else ""
        towers = f", tower {', '.join(map(str, p['towers']))}" if p["towers"] else ""
        out.append(f"  {p['colour']} {' '.join(p['squares'])}{extra} (size {p['size']}, "
                   f"{state}{towers})")
    out.append("Merchants: " + (" ".join(view["merchants"]) or "none"))
    by_tower: dict[int, list[str]] = {}
    for name, t in view["walls"].items():
        by_tower.setdefault(t, []).append(name)
    out.append("Walls: " + ("; ".join(
        f"tower {t}: {' '.join(sorted(ws, key=lambda n: int(n[1:])))}"
        for t, ws in sorted(by_tower.items())) or "none"))
    out.append("Palace tiles: " + ", ".join(
        f"{c} ({PALACE_TILE_POINTS[c]}) {_seat(view['palace_tiles'][c])}" for c in PALACE_COLOURS))
    out.append("Tower tiles: " + ", ".join(
        f"{t} {_seat(s)}" for t, s in sorted(view["tower_tiles"].items())))
    if view["returned"]:
        out.append("Back in the box: " + ", ".join(view["returned"]) + " palace pieces")
    out.append("")
    out.append("Players:")
    for p in view["players"]:
        sc = view["scores"][p["seat"]]
        claimed = ", ".join(p["claimed"]) or "nothing"
        out.append(f"  seat {p['seat'] + 1} ({p['colour']}): {sc['points']} point{'' if sc['points'] == 1 else 's'}, "
                   f"domes left {p['domes']}, claimed {claimed}")
    return "\n".join(out)
