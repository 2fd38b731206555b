"""Medina board geometry (RULINGS.md, "Medina"): 16 x 11 squares inside a
ring of 54 wall spaces with a tower on each corner.

Squares are named like the board picture prints them: a column letter
``A``..``P`` (west to east) and a row number ``1``..``11`` (north to south),
so ``A1`` is the north-west corner. Squares are indexed ``row * 16 + col``.

Wall spaces are numbered ``W1``..``W54`` clockwise, starting after tower 1
(north-west corner):

- north side ``W1``..``W16`` above columns A..P,
- east side ``W17``..``W27`` beside rows 1..11 (tower 2 in the north-east),
- south side ``W28``..``W43`` below columns P..A (tower 3 in the south-east),
- west side ``W44``..``W54`` beside rows 11..1 (tower 4 in the south-west).

Wall spaces are indexed ``0..53`` (``W1`` is 0).
"""
from __future__ import annotations

import re

COLS = 16
ROWS = 11
SQUARES = COLS * ROWS
WALLS = 2 * COLS + 2 * ROWS  # 54
COLUMN_LETTERS = "ABCDEFGHIJKLMNOP"
TOWERS = (1, 2, 3, 4)

# Side name, first wall index, count; the side of the city each gate is on.
SIDES = (("north", 0, COLS), ("east", COLS, ROWS), ("south", COLS + ROWS, COLS),
         ("west", 2 * COLS + ROWS, ROWS))


def square_name(i: int) -> str:
    """``"E5"`` for square index ``i``."""
    return f"{COLUMN_LETTERS[i % COLS]}{i // COLS + 1}"


def wall_name(w: int) -> str:
    """``"W12"`` for wall index ``w`` (0-based)."""
    return f"W{w + 1}"


_SQUARE_RE = re.compile(r"^([a-p])(\d{1,2})$", re.I)
_WALL_RE = re.compile(r"^w(\d{1,2})$", re.I)


def parse_square(text: str) -> int | None:
    """Square index for ``"E5"`` (any case), or ``None``."""
    m = _SQUARE_RE.match(text.strip())
    if not m:
        return None
    row = int(m.group(2))
    if not 1 <= row <= ROWS:
        return None
    return (row - 1) * COLS + COLUMN_LETTERS.index(m.group(1).upper())


def parse_wall(text: str) -> int | None:
    """Wall index for ``"W12"`` (any case), or ``None``."""
    m = _WALL_RE.match(text.strip())
    if not m:
        return None
    n = int(m.group(1))
    return n - 1 if 1 <= n <= WALLS else None


SQUARE_INDEX: dict[str, int] = {square_name(i): i for i in range(SQUARES)}
"""``"E5"`` -> its index, for names as the engine writes them (capitals)."""
WALL_INDEX: dict[str, int] = {wall_name(w): w for w in range(WALLS)}
"""``"W12"`` -> its index (``11``)."""


def _orth(i: int) -> tuple[int, ...]:
    r, c = divmod(i, COLS)
    out = []
    for dr, dc in ((-1, 0), (0, 1), (1, 0), (0, -1)):
        rr, cc = r + dr, c + dc
        if 0 <= rr < ROWS and 0 <= cc < COLS:
            out.append(rr * COLS + cc)
    return tuple(out)


def _ring8(i: int) -> tuple[int, ...]:
    r, c = divmod(i, COLS)
    out = []
    for dr in (-1, 0, 1):
        for dc in (-1, 0, 1):
            if dr == dc == 0:
                continue
            rr, cc = r + dr, c + dc
            if 0 <= rr < ROWS and 0 <= cc < COLS:
                out.append(rr * COLS + cc)
    return tuple(out)


ORTH: tuple[tuple[int, ...], ...] = tuple(_orth(i) for i in range(SQUARES))
"""Orthogonal neighbours ("vierekkäin") of each square."""
NEAR: tuple[tuple[int, ...], ...] = tuple(_ring8(i) for i in range(SQUARES))
"""Orthogonal and diagonal neighbours ("vierekkäin tai kulmittain")."""


def _wall_square(w: int) -> int:
    if w < COLS:                       # north, A1..P1
        return w
    if w < COLS + ROWS:                # east, P1..P11
        return (w - COLS) * COLS + COLS - 1
    if w < 2 * COLS + ROWS:            # south, P11..A11
        return (ROWS - 1) * COLS + (COLS - 1 - (w - COLS - ROWS))
    return (ROWS - 1 - (w - 2 * COLS - ROWS)) * COLS  # west, A11..A1


WALL_SQUARE: tuple[int, ...] = tuple(_wall_square(w) for w in range(WALLS))
"""The one square each wall space borders."""
SQUARE_WALLS: tuple[tuple[int, ...], ...] = tuple(
    tuple(w for w in range(WALLS) if WALL_SQUARE[w] == i) for i in range(SQUARES))
"""Wall spaces bordering each square (two on the corners, none inside)."""
EDGE: tuple[bool, ...] = tuple(bool(SQUARE_WALLS[i]) for i in range(SQUARES))
"""True for the squares along the city wall."""


def wall_side(w: int) -> int:
    """Index into :data:`SIDES` of the side wall space ``w`` is on."""
    for k, (_, first, count) in enumerate(SIDES):
        if first <= w < first + count:
            return k
    raise ValueError(w)


WALL_SIDE: tuple[int, ...] = tuple(wall_side(w) for w in range(WALLS))


def _ring_neighbours(w: int) -> tuple[int | str, int | str]:
    """(previous, next) along the ring: a wall index or ``"T<n>"`` for a tower.

    Tower n stands before the first wall space of side n-1 (clockwise)."""
    k = WALL_SIDE[w]
    _, first, count = SIDES[k]
    prev: int | str = f"T{k + 1}" if w == first else w - 1
    nxt: int | str = f"T{(k + 1) % 4 + 1}" if w == first + count - 1 else w + 1
    return prev, nxt


RING: tuple[tuple[int | str, int | str], ...] = tuple(_ring_neighbours(w) for w in range(WALLS))
"""For each wall space: its neighbours along the ring (wall index or tower)."""


WALL_NEXT_TOWER: tuple[int, ...] = tuple(
    next((int(n[1]) for n in RING[w] if isinstance(n, str)), 0) for w in range(WALLS))
"""The tower a wall space stands next to (0 for none)."""
WALL_NEXT_WALLS: tuple[tuple[int, ...], ...] = tuple(
    tuple(n for n in RING[w] if not isinstance(n, str)) for w in range(WALLS))
"""The wall spaces next to each wall space along the ring."""
