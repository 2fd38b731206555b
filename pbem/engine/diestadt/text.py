"""Plain-text rendering of a Die Stadt view (for emails and the order page).

Every sentence of :func:`view_text` is a :class:`Msg` (``Msgn`` for counts);
``tr`` turns each into text (``str``: English, as the golden playthroughs
read it; the service passes ``lambda m: pbem.i18n.translate(m, lang)``).
The board grid is symbols: tile edges, ``.`` and ``+``; one message
written in each language's edge letters (``KTKA`` in Finnish,
:func:`~pbem.engine.diestadt.words.edge_letters`), as are the drawn tile's
rotations.
"""
from __future__ import annotations

from typing import Any, Callable

from pbem.engine.diestadt.grid import COLUMNS
from pbem.engine.diestadt.terms import BUILDING, ROLE, SEAT_COLOUR
from pbem.engine.diestadt.words import edge_letters, say_edges, say_end
from pbem.engine.fold import LANGUAGES
from pbem.engine.messages import Msg, Msgn, said_by
from pbem.engine.phrases import seat, semi_list


def _grid(view: dict[str, Any], lang: str = "en") -> list[str]:
    """The used part of the board plus a margin: tile edges (N E S W, in
    ``lang``'s letters: :func:`~pbem.engine.diestadt.words.edge_letters`)
    per space, '.' empty, '+' a legal space for the drawn tile."""
    tiles = {t["space"]: t for t in view["tiles"]}
    if not tiles:
        return []
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
            cells.append(edge_letters(t["edges"], lang) if t else ("+   " if name in legal else ".   "))
        out.append(f"{y + 1:>3}  " + " ".join(cells))
    return out


def view_text(view: dict[str, Any], tr: Callable[[Any], str] = str) -> str:
    """The view as text: the phase, the seats, the piles, the wall, the
    drawn tile and where it fits, the followers, then the board grid; each
    sentence through ``tr`` (see the module)."""
    lines: list[Any] = [view["phase"], ""]
    lines += [_Indent(_player(p)) for p in view["players"]]
    lines.append(Msg("Tiles left in piles 1-3: {piles}", piles=" / ".join(str(n) for n in view["piles"])))
    if view.get("last_space"):
        lines.append(Msg("Last tile placed: {space}", space=view["last_space"]))
    w = view["wall"]
    if w["gate"]:
        lines.append(_wall(w))
        lines += [_Indent(Msg("{end} end at {corner}, next piece on {next}", end=say_end(end),
                              corner=info["corner"], next=info["next"])) for end, info in w["ends"].items()]
    if view.get("drawn"):
        lines += _drawn(view["drawn"], view.get("legal_spaces") or {})
    if view["followers"]:
        lines.append(Msg("Followers: {followers}",
                         followers=semi_list([_follower(f) for f in view["followers"]])))
    out = [line.text(tr) if isinstance(line, _Indent) else tr(line) for line in lines]
    if view["tiles"]:   # the grid in the reader's letters
        out += ["", tr(said_by(lambda lang: "\n".join(_grid(view, lang)), LANGUAGES))]
    return "\n".join(out) + "\n"


class _Indent:
    """A line printed two spaces in (a seat, a wall end)."""

    def __init__(self, msg: Any):
        self.msg = msg

    def text(self, tr: Callable[[Any], str]) -> str:
        return "  " + tr(self.msg)


# the parts of a sentence are written by their own functions: pybabel does
# not find a Msg written inside a call inside another Msg's parameters
def _player(p: dict[str, Any]) -> Msg:
    """``seat 1 (red): 23 points, 5 followers, 4 towers``; a seat the view
    names by a player (``pbem.boards.named_view``) keeps the name."""
    name = seat(p["seat"]) if p["name"] == f"seat {p['seat'] + 1}" else p["name"]
    return Msg("{name} ({colour}): {points}, {followers}, {towers}", name=name,
               colour=SEAT_COLOUR.get(p["colour"], p["colour"]), points=_points(p["points"]),
               followers=Msgn("{n} follower", "{n} followers", p["followers"]),
               towers=Msgn("{n} tower", "{n} towers", p["towers"]))


def _points(n: int) -> Msg:
    return Msgn("{n} point", "{n} points", n)


def _wall(w: dict[str, Any]) -> Msg:
    pieces = Msgn("{n} piece", "{n} pieces", len(w["pieces"]))
    if w["closed"]:
        return Msg("Wall: gate {gate}, {pieces}, {supply} in supply, closed", gate=w["gate"],
                   pieces=pieces, supply=w["supply"])
    if w["open_edges"] is not None:
        return Msgn("Wall: gate {gate}, {pieces}, {supply} in supply, {n} unbuilt edge between the ends",
                    "Wall: gate {gate}, {pieces}, {supply} in supply, {n} unbuilt edges between the ends",
                    w["open_edges"], gate=w["gate"], pieces=pieces, supply=w["supply"])
    return Msg("Wall: gate {gate}, {pieces}, {supply} in supply", gate=w["gate"], pieces=pieces,
               supply=w["supply"])


def _drawn(d: dict[str, Any], legal: dict[str, list[int]]) -> list[Msg]:
    """The drawn tile's line, and the legal spaces' if it fits anywhere."""
    rotations = say_edges(", ".join(f"{r['rotation']}: {r['edges']}" for r in d["rotations"]))
    if d["building"]:
        out = [Msg("Drawn tile {tile} ({pattern}, {building}); edges N E S W by rotation: {rotations}",
                   tile=d["tile"], pattern=d["pattern"], building=BUILDING[d["building"]],
                   rotations=rotations)]
    else:
        out = [Msg("Drawn tile {tile} ({pattern}); edges N E S W by rotation: {rotations}",
                   tile=d["tile"], pattern=d["pattern"], rotations=rotations)]
    if legal:
        out.append(Msg("Legal spaces: {spaces}", spaces=" · ".join(
            f"{s}: {' '.join(str(r) for r in rs)}" for s, rs in legal.items())))
    return out


def _follower(f: dict[str, Any]) -> Msg:
    """``seat 2 merchant S20 NW``; a guard stands on a wall edge (``seat 1 guard O17W``)."""
    where = f["edge"] or f"{f['space']} {f['point']}"
    return Msg("{seat} {role} {where}", seat=seat(f["seat"]), role=ROLE.get(f["role"], f["role"]),
               where=where)
