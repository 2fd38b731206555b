"""Compact position text: build a Medina position by drawing it.

Used by the scenario tests (format documented in tests/engine/medina/README.md)
and by anyone who wants to set up a position by hand::

    seats 4
    turn seat 2 piece 1 number 5          (number: the turn's number, default 1)
       A B C D E F G H I J K L M N O P
     1 . . . . . . . . . . . . . . . .
     2 . o o s . . . . . . . . . . . .
     ...                                  (11 rows; . g k b o s m)
    walls W1 W2 W54
    dome C2 seat 3
    complete E7
    supply seat 1 grey 0 walls 2
    palace tile orange seat 3
    tower tile 1 seat 3
    over                                  (the game is over; instead of "turn")

Board letters: ``.`` empty, ``g`` grey, ``k`` black, ``b`` brown, ``o``
orange palace piece, ``s`` stable, ``m`` merchant. Orthogonally touching
pieces of one colour form one palace; a stable belongs to the palace it
touches. Lines starting with ``#`` are comments.
"""
from __future__ import annotations

import re

from pbem.engine.medina import board as B
from pbem.engine.medina.pieces import EMPTY, MERCHANT, PALACE, PALACE_COLOURS, STABLE, SUPPLY_KEYS
from pbem.engine.medina.state import MedinaState
from pbem.engine.medina.tiles import towers_of

_CELL = {"g": "grey", "k": "black", "b": "brown", "o": "orange"}
_LETTER = {v: k for k, v in _CELL.items()}
_ROW = re.compile(r"^\s*(\d{1,2})?\s*((?:[.gkbosm]\s*){16})$")


def _seat(tokens: list[str], line: str) -> int:
    if len(tokens) < 2 or tokens[0] != "seat" or not tokens[1].isdigit():
        raise ValueError(f"expected 'seat N' in: {line!r}")
    return int(tokens[1]) - 1


def load_position(text: str, game) -> MedinaState:
    """A :class:`MedinaState` of ``game`` (the registered Medina, which also
    offers this as ``game.load_position(text)``) from position text
    (``ValueError`` with the offending line when it does not read)."""
    lines = [ln.split("#", 1)[0].rstrip() for ln in text.splitlines()]
    lines = [ln for ln in lines if ln.strip()]
    seats = 4
    for ln in lines:
        t = ln.split()
        if t[0] == "seats":
            seats = int(t[1])
    st = game.new_state(seats, 0)
    st.setup = False
    rows, rest = _split(lines)
    _draw(st, rows)
    supply_lines, turn_no = _read_lines(st, rest)
    _grow_walls(st)
    _fill_screens(st, supply_lines)
    st._rebuild()
    for p in st.palaces:
        if p.owner is not None:
            p.towers = towers_of(st, p)
    holders = [s for s in range(seats) if st.pieces_left(s)]
    st.lone = len(holders) == 1 and holders[0] == st.seat
    st.turn_no = 0 if st.setup else turn_no
    return st


def _split(lines: list[str]) -> tuple[list[str], list[list[str]]]:
    """The board rows (16 letters each) and the other lines as words."""
    rows: list[str] = []
    rest: list[list[str]] = []
    for ln in lines:
        m = _ROW.match(ln)
        if m:
            rows.append(re.sub(r"\s", "", m.group(2)))
            continue
        t = ln.lower().split()
        if t[0] == "seats" or all(len(x) == 1 and x.isalpha() for x in t):
            continue  # seat count, column header
        rest.append(t)
    if rows and len(rows) != B.ROWS:
        raise ValueError(f"the board needs {B.ROWS} rows of 16 squares, got {len(rows)}")
    return rows, rest


def _draw(st: MedinaState, rows: list[str]) -> None:
    """Merchants, palaces (orthogonal groups of one colour, in reading
    order) and stables from the board rows."""
    colour_at: dict[int, str] = {}
    stables: list[int] = []
    for r, row in enumerate(rows):
        for c, ch in enumerate(row):
            i = r * B.COLS + c
            if ch in _CELL:
                colour_at[i] = _CELL[ch]
            elif ch == "s":
                stables.append(i)
            elif ch == "m":
                st.kind[i] = MERCHANT
                st.merchants.append(i)
    for i in sorted(colour_at):
        if st.pal[i] == -1:
            _flood(st, i, colour_at)
    for i in stables:
        pids = {st.pal[j] for j in B.ORTH[i] if st.kind[j] == PALACE}
        if len(pids) != 1:
            raise ValueError(f"the stable on {B.square_name(i)} must touch exactly one palace")
        st.kind[i], st.pal[i] = STABLE, pids.pop()
        st.palaces[st.pal[i]].stables.append(i)


def _flood(st: MedinaState, i: int, colour_at: dict[int, str]) -> None:
    """The palace holding square ``i``: its colour's orthogonal group."""
    p = st.new_palace(colour_at[i])
    todo = [i]
    st.pal[i] = p.id
    while todo:
        j = todo.pop()
        p.squares.append(j)
        st.kind[j] = PALACE
        for n in B.ORTH[j]:
            if colour_at.get(n) == p.colour and st.pal[n] == -1:
                st.pal[n] = p.id
                todo.append(n)
    p.squares.sort()


def _read_lines(st: MedinaState, rest: list[list[str]]) -> tuple[list[list[str]], int]:
    """Apply every line but the board and the supplies; return the supply
    lines and the turn's number."""
    supply_lines: list[list[str]] = []
    turn_no = 1
    for t in rest:
        line = " ".join(t)
        if t[0] == "supply":
            supply_lines.append(t)
        elif t[0] == "turn":
            turn_no = _turn(st, t, line, turn_no)
        elif t[0] in _LINES:
            _LINES[t[0]](st, t, line)
        elif t[:2] == ["palace", "tile"]:
            st.palace_tiles[t[2]] = _seat(t[3:], line)
        elif t[:2] == ["tower", "tile"]:
            st.tower_tiles[int(t[2])] = _seat(t[3:], line)
        elif t == ["over"]:
            st.over = True
        else:
            raise ValueError(f"cannot read position line: {line!r}")
    return supply_lines, turn_no


def _walls(st: MedinaState, t: list[str], line: str) -> None:
    for name in t[1:]:
        w = B.parse_wall(name)
        if w is None:
            raise ValueError(f"not a wall space: {name!r}")
        st.walls[w] = -1


def _palace_at(st: MedinaState, name: str, line: str, what: str):
    i = B.parse_square(name)
    if i is None or st.kind[i] != PALACE:
        raise ValueError(f"{what}: {line!r}")
    return i, st.palaces[st.pal[i]]


def _dome(st: MedinaState, t: list[str], line: str) -> None:
    i, p = _palace_at(st, t[1], line, "no palace piece under the dome")
    seat = _seat(t[2:], line)
    p.owner, p.dome, p.complete = seat, i, True
    st.claimed[seat].append(p.colour)


def _complete(st: MedinaState, t: list[str], line: str) -> None:
    _palace_at(st, t[1], line, "no palace at")[1].complete = True


def _setup(st: MedinaState, t: list[str], line: str) -> None:
    st.setup = True


_LINES = {"walls": _walls, "dome": _dome, "complete": _complete, "setup": _setup}


def _turn(st: MedinaState, t: list[str], line: str, turn_no: int) -> int:
    st.seat = _seat(t[1:], line)
    if "piece" in t:
        st.placed = int(t[t.index("piece") + 1]) - 1
    st.domed = "domed" in t
    return int(t[t.index("number") + 1]) if "number" in t else turn_no


def _fill_screens(st: MedinaState, supply_lines: list[list[str]]) -> None:
    """Domes less the palaces each seat owns, colours every seat has
    claimed back in the box, then the ``supply`` lines."""
    for s in range(st.seats):
        st.supply[s]["domes"] = 4 - len(st.claimed[s])
    for c in PALACE_COLOURS:
        if all(c in cl for cl in st.claimed):
            st.returned.append(c)
            for sup in st.supply:
                sup[c] = 0
    for t in supply_lines:
        s = _seat(t[1:], " ".join(t))
        pairs = t[3:]
        for k in range(0, len(pairs) - 1, 2):
            if pairs[k] not in SUPPLY_KEYS:
                raise ValueError(f"unknown supply key {pairs[k]!r}")
            st.supply[s][pairs[k]] = int(pairs[k + 1])


def _grow_walls(st: MedinaState) -> None:
    """Give each wall piece the tower it is joined to (``ValueError`` for a
    wall piece joined to no tower)."""
    changed = True
    while changed:
        changed = False
        for w in range(B.WALLS):
            if st.walls[w] == -1:
                for n in B.RING[w]:
                    t = int(n[1]) if isinstance(n, str) else max(st.walls[n], 0)
                    if t:
                        st.walls[w] = t
                        changed = True
                        break
    bad = [B.wall_name(w) for w in range(B.WALLS) if st.walls[w] == -1]
    if bad:
        raise ValueError(f"wall pieces not joined to a tower: {' '.join(bad)}")


def dump_position(st: MedinaState) -> str:
    """Position text for ``st`` (palace tiles, tower tiles, supplies, turn).
    ``load_position(dump_position(st))`` gives the same board."""
    out = [f"seats {st.seats}"]
    if st.setup:
        out.append("setup")
    elif st.over:
        out.append("over")
    else:
        out.append(f"turn seat {st.seat + 1} piece {st.placed + 1} number {st.turn_no}"
                   + (" domed" if st.domed else ""))
    out.append("   " + " ".join(B.COLUMN_LETTERS))
    for r in range(B.ROWS):
        cells = []
        for c in range(B.COLS):
            i = r * B.COLS + c
            k = st.kind[i]
            cells.append({EMPTY: ".", STABLE: "s", MERCHANT: "m"}.get(k) or
                         _LETTER[st.palaces[st.pal[i]].colour])
        out.append(f"{r + 1:>2} " + " ".join(cells))
    walls = [B.wall_name(w) for w in range(B.WALLS) if st.walls[w]]
    if walls:
        out.append("walls " + " ".join(walls))
    for p in sorted(st.palaces, key=lambda p: min(p.squares)):   # reading order, as loaded
        if p.owner is not None:
            out.append(f"dome {B.square_name(p.dome)} seat {p.owner + 1}")
        elif p.complete:
            out.append(f"complete {B.square_name(min(p.squares))}")
    for s in range(st.seats):
        out.append(f"supply seat {s + 1} " + " ".join(f"{k} {v}" for k, v in st.supply[s].items()))
    for c, s in st.palace_tiles.items():
        if s is not None:
            out.append(f"palace tile {c} seat {s + 1}")
    for t, s in st.tower_tiles.items():
        if s is not None:
            out.append(f"tower tile {t} seat {s + 1}")
    return "\n".join(out) + "\n"
