"""Plain-text rendering of a Die Stadt view (for emails and the order page)."""
from __future__ import annotations

from typing import Any


def _grid(view: dict[str, Any]) -> list[str]:
    """The used part of the board plus a margin: tile edges (N E S W letters)
    per space, '.' empty, '+' a legal space for the drawn tile."""
    tiles = {t["space"]: t for t in view["tiles"]}
    if not tiles:
        return []
    from pbem.engine.diestadt.grid import COLUMNS
    xs = [t["x"] for t in view["tiles"]]
    ys = [t["y"] for t in view["tiles"]]
    x0, x1 = max(min(xs) - 1, 0), min(max(xs) + 1, 39)
    y0, y1 = max(min(ys) - 1, 0), min(max(ys) + 1, 39)
    legal = view.get("legal_spaces") or {}
    out = ["     " + " ".join(f"{COLUMNS[x]:<4}" for x in range(x0, x1 + 1))]
    for y in range(y0, y1 + 1):
        cells = []
        for x in range(x0, x1 + 1):
            name = f"{COLUMNS[x]}{y + 1}"
            t = tiles.get(name)
            cells.append(t["edges"] if t else ("+   " if name in legal else ".   "))
        out.append(f"{y + 1:>3}  " + " ".join(cells))
    return out


def _n(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


def view_text(view: dict[str, Any]) -> str:
    lines = [view["phase"], ""]
    for p in view["players"]:
        lines.append(f"  {p['name']} ({p['colour']}): {_n(p['points'], 'point')}, "
                     f"{_n(p['followers'], 'follower')}, {_n(p['towers'], 'tower')}")
    lines.append(f"Tiles left in piles 1-3: {' / '.join(str(n) for n in view['piles'])}")
    if view.get("last_space"):
        lines.append(f"Last tile placed: {view['last_space']}")
    w = view["wall"]
    if w["gate"]:
        lines.append(f"Wall: gate {w['gate']}, {len(w['pieces'])} pieces, {w['supply']} in supply"
                     + (", closed" if w["closed"] else
                        f", {w['open_edges']} unbuilt edges between the ends" if w["open_edges"] is not None else ""))
        for end, info in w["ends"].items():
            lines.append(f"  {end} end at {info['corner']}, next piece on {info['next']}")
    d = view.get("drawn")
    if d:
        rots = ", ".join(f"{r['rotation']}: {r['edges']}" for r in d["rotations"])
        extra = f", {d['building']} building" if d["building"] else ""
        lines.append(f"Drawn tile {d['tile']} ({d['pattern']}{extra}); edges N E S W by rotation: {rots}")
        legal = view.get("legal_spaces") or {}
        if legal:
            lines.append("Legal spaces: " + " · ".join(
                f"{s}: {' '.join(str(r) for r in rs)}" for s, rs in legal.items()))
    fols = [f for f in view["followers"]]
    if fols:
        lines.append("Followers: " + "; ".join(
            f"seat {f['seat'] + 1} {f['role']} " + (f['edge'] or f"{f['space']} {f['point']}")
            for f in fols))
    grid = _grid(view)
    if grid:
        lines += ["", *grid]
    return "\n".join(lines) + "\n"
