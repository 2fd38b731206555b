"""Plain-text rendering of a Medina view (emails, the order page, logs).

Every sentence of :func:`view_text` is a :class:`Msg`; ``tr`` turns each
into text (``str``: English; the service passes
``lambda m: pbem.i18n.translate(m, lang)``). The board grid is symbols.
"""
from __future__ import annotations

from typing import Any, Callable

from pbem.engine.medina import board as B
from pbem.engine.medina.pieces import PALACE_COLOURS, PALACE_TILE_POINTS
from pbem.engine.medina.terms import COLOUR, SEAT_COLOUR
from pbem.engine.messages import Msg, Msgn, said
from pbem.engine.phrases import join, seat, semi_list

LETTERS = {
    "en": {"grey": "g", "black": "k", "brown": "b", "orange": "o", "stable": "s", "merchant": "m"},
    "fi": {"grey": "h", "black": "m", "brown": "r", "orange": "o", "stable": "t", "merchant": "a"},
    "cs": {"grey": "š", "black": "č", "brown": "h", "orange": "o", "stable": "s", "merchant": "k"},
    "ca": {"grey": "g", "black": "n", "brown": "r", "orange": "t", "stable": "e", "merchant": "m"},
    "de": {"grey": "g", "black": "s", "brown": "b", "orange": "o", "stable": "t", "merchant": "h"},
}
"""Each language's board letters (docs/i18n/<lang>.md "Medina board letters"):
the palace colours (capital = completed palace), stables and merchants,
from the words the language reads (``h`` harmaa, ``t`` talli); all differ."""
LETTER = {k: said({lang: t[k] for lang, t in LETTERS.items()}) for k in LETTERS["en"]}
"""A piece -> its letter as a message (:func:`pbem.engine.messages.said`):
``tr(LETTER["grey"])`` is the reader's letter, ``str()`` the English."""


def board_grid(view: dict[str, Any], tr: Callable[[Any], str] = str) -> list[str]:
    """The board as text lines: the 16 x 11 squares inside the wall ring,
    the letters in ``tr``'s language (:data:`LETTER`).

    Palace pieces ``g k b o`` (capital when the palace is completed, ``*``
    under a dome), ``s`` stable, ``m`` merchant, ``.`` empty; on the ring
    ``#`` wall piece, ``-`` empty wall space, ``1``-``4`` towers."""
    letter = {k: tr(m) for k, m in LETTER.items()}
    cells = [["."] * B.COLS for _ in range(B.ROWS)]

    def put(name: str, ch: str) -> None:
        i = B.parse_square(name)
        cells[i // B.COLS][i % B.COLS] = ch

    for p in view["palaces"]:
        ch = letter[p["colour"]]
        for s in p["squares"]:
            put(s, ch.upper() if p["complete"] else ch)
        for s in p["stables"]:
            put(s, letter["stable"])
        if p["dome"]:
            put(p["dome"], "*")
    for m in view["merchants"]:
        put(m, letter["merchant"])
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


def _seat(s: int | None) -> Msg:
    return Msg("nobody") if s is None else seat(s)


def view_text(view: dict[str, Any], tr: Callable[[Any], str] = str) -> str:
    """Private information first, then the public position; each sentence
    through ``tr`` (see the module)."""
    out: list[str] = [tr(Msg("Medina, {phase}", phase=view["phase"]))]
    if view.get("viewer") is not None:
        out += [tr(m) for m in _private(view)]
    out.append("")
    out += board_grid(view, tr)
    out.append(tr(Msg("({g} grey, {k} black, {b} brown, {o} orange, capital = completed, * dome, {s} stable, "
                      "{m} merchant; # wall, - empty wall space, 1-4 towers; W1-W16 north from A, "
                      "W17-W27 east from 1, W28-W43 south from P, W44-W54 west from 11)",
                      g=LETTER["grey"], k=LETTER["black"], b=LETTER["brown"], o=LETTER["orange"],
                      s=LETTER["stable"], m=LETTER["merchant"])))
    out += ["", tr(Msg("Palaces:"))]
    if not view["palaces"]:
        out.append("  " + tr(Msg("none yet")))
    out += ["  " + tr(_palace_line(p)) for p in view["palaces"]]
    out += [tr(m) for m in _public(view)]
    out += ["", tr(Msg("Players:"))]
    for p in view["players"]:
        sc = view["scores"][p["seat"]]
        out.append("  " + tr(Msgn(
            "{seat} ({colour}): {n} point, domes left {domes}, claimed {claimed}",
            "{seat} ({colour}): {n} points, domes left {domes}, claimed {claimed}", sc["points"],
            seat=seat(p["seat"]), colour=SEAT_COLOUR[p["colour"]], domes=p["domes"],
            claimed=join([COLOUR[c] for c in p["claimed"]]) or Msg("nothing"))))
    return "\n".join(out)


def _private(view: dict[str, Any]) -> list[Msg]:
    me = view["viewer"]
    p = view["players"][me]
    sup = p["supply"]
    out = [Msg("You are {seat} ({colour} domes).", seat=seat(me), colour=SEAT_COLOUR[p["colour"]]),
           Msg("Behind your screen: palace pieces {palace}; stables {stables}, merchants {merchants}, "
               "walls {walls}; domes {domes}.",
               palace=join([_pieces(c, sup[c]) for c in PALACE_COLOURS]),
               stables=sup["stables"], merchants=sup["merchants"], walls=sup["walls"],
               domes=sup["domes"])]
    turn = view["turn"]
    if turn["seat"] == me and not view["over"]:
        if turn["must_dome"]:
            out.append(Msg("It is your turn: piece {n} of 2. This turn must include a dome.",
                           n=turn["piece"]))
        else:
            out.append(Msg("It is your turn: piece {n} of 2.", n=turn["piece"]))
    return out


# the parts of a list are written by their own functions: pybabel does not
# find a Msg written inside a call inside another Msg's parameters
def _pieces(colour: str, n: int) -> Msg:
    return Msg("{colour} {n}", colour=COLOUR[colour], n=n)


def _palace_tile(colour: str, holder: int | None) -> Msg:
    return Msg("{colour} ({points}) {holder}", colour=COLOUR[colour],
               points=PALACE_TILE_POINTS[colour], holder=_seat(holder))


def _tower_tile(tower: Any, holder: int | None) -> Msg:
    return Msg("{tower} {holder}", tower=tower, holder=_seat(holder))


def _palace_line(p: dict[str, Any]) -> Msg:
    if p["owner"] is not None:
        state = Msg("claimed by {seat}", seat=_seat(p["owner"]))
    else:
        state = Msg("completed, nobody's") if p["complete"] else Msg("under construction")
    stables = Msg(", stables {squares}", squares=" ".join(p["stables"])) if p["stables"] else ""
    towers = Msg(", tower {towers}", towers=", ".join(map(str, p["towers"]))) if p["towers"] else ""
    return Msg("{colour} {squares}{stables} (size {size}, {state}{towers})", colour=COLOUR[p["colour"]],
               squares=" ".join(p["squares"]), stables=stables, size=p["size"], state=state,
               towers=towers)


def _public(view: dict[str, Any]) -> list[Msg]:
    out = [Msg("Merchants: {squares}", squares=" ".join(view["merchants"]) or Msg("none"))]
    by_tower: dict[int, list[str]] = {}
    for name, t in view["walls"].items():
        by_tower.setdefault(t, []).append(name)
    walls = semi_list([Msg("tower {tower}: {spaces}", tower=t,
                           spaces=" ".join(sorted(ws, key=lambda n: int(n[1:]))))
                       for t, ws in sorted(by_tower.items())])
    out.append(Msg("Walls: {walls}", walls=walls or Msg("none")))
    palace_tiles = join([_palace_tile(c, view["palace_tiles"][c]) for c in PALACE_COLOURS])
    tower_tiles = join([_tower_tile(t, s) for t, s in sorted(view["tower_tiles"].items())])
    out.append(Msg("Palace tiles: {tiles}", tiles=palace_tiles))
    out.append(Msg("Tower tiles: {tiles}", tiles=tower_tiles))
    if view["returned"]:
        out.append(Msg("Back in the box: {colours} palace pieces",
                       colours=join([COLOUR[c] for c in view["returned"]])))
    return out
