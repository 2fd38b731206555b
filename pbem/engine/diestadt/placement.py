"""Where the drawn tile may go, and why not ("Laattojen asettelu";
DS-24 to DS-30, DS-72, A-9, A-17, A-30, A-31). Each rule's test and its
explanation sit side by side here. Which follower may stand on the tile is
:mod:`~pbem.engine.diestadt.followers`.

A placement is ``(space, quarter turns)``.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from pbem.engine.diestadt.grid import NEIGHBOURS, OPP, SIDE_NAMES, SIMPLE, START, space_name
from pbem.engine.diestadt.tiles import DISTINCT_TURNS, TURNED
from pbem.engine.messages import Msg, Msgc

if TYPE_CHECKING:
    from pbem.engine.diestadt.state import DieStadtState

#: an edge's look, a feature type and a follower, as words players read (translated)
EDGE_WORD = {"S": Msg("street"), "M": Msgc("Die Stadt", "market"), "R": Msg("residential")}
FEATURE_WORD = (EDGE_WORD["S"], EDGE_WORD["M"], Msg("residential area"))   # tiles.TYPE_NAMES


def _masks(st: "DieStadtState", space: int) -> int:
    """Bit ``s``: a tile across side ``s``; bit ``4 + s``: it shows a street there."""
    present = req = 0
    board, turned_at = st.board, st.turned_at
    for side in range(4):
        nb = NEIGHBOURS[space][side]
        if nb >= 0 and board[nb] >= 0:
            present |= 1 << side
            if turned_at[board[nb]].street_mask >> OPP[side] & 1:
                req |= 1 << side
    return present | req << 4


def space_open(st: "DieStadtState", space: int) -> bool:
    """The space may take a tile as far as the wall goes (DS-72, A-17): not
    across a wall piece or the gate, and not cutting the open country off
    from the outside of the wall."""
    if space in st.blocked:
        return False
    if not st.wall.built or st.wall.closed:   # a closed wall leaves only gaps inside
        return True
    if SIMPLE[st.rmask.get(space, 0)]:
        return True
    safe = _pockets_safe(st, space)
    if safe is not None:
        return safe
    board = st.board
    board[space] = 10 ** 6            # try it, then undo
    try:
        top = (min(st.first_space, space), 0)
        return st.wall.stays_outer(st.outline, top)
    finally:
        board[space] = -1


def _pockets_safe(st: "DieStadtState", space: int, bound: int = 12) -> bool | None:
    """Settle the no-hook rule near ``space`` cheaply when possible. A tile
    there splits the open spaces beside it into pieces; each piece is
    explored up to ``bound`` spaces. A piece that ends within the bound is a
    pocket the tile would close in: not allowed if the wall faces into it
    (False). When at most one piece is large, that one is the open country
    and nothing else is at stake (True). Otherwise None: walk the outline."""
    board, blocked = st.board, st.blocked
    seen: set[int] = {space}
    big = 0
    for seed in NEIGHBOURS[space]:
        if seed < 0:
            big += 1
            continue
        if board[seed] >= 0 or seed in seen:
            continue
        piece, todo, large = {seed}, [seed], False
        while todo and not large:
            cur = todo.pop()
            for nb in NEIGHBOURS[cur]:
                if nb < 0 or len(piece) > bound:
                    large = True
                    break
                if board[nb] < 0 and nb not in piece and nb != space:
                    piece.add(nb)
                    todo.append(nb)
        seen |= piece
        if large:
            big += 1
        elif piece & blocked:
            return False
    return True if big <= 1 else None


#: tile << 8 | fmask (:func:`_masks`) -> the quarter turns that fit
def _fit_table(tile: int) -> tuple[tuple[int, ...], ...]:
    """For each space mask (:func:`_masks`), the quarter turns of ``tile``
    whose streets meet the neighbours' streets exactly (DS-26, DS-28)."""
    turns, rot = DISTINCT_TURNS[tile], TURNED[tile]
    return tuple(() if m >> 4 & ~m & 15 else        # a street shown where no tile is: no mask
                 tuple(q for q in turns if rot[q].street_mask & (m & 15) == m >> 4 & 15)
                 for m in range(256))


#: tile -> :func:`_fit_table`, made on first use
_FITS: dict[int, tuple[tuple[int, ...], ...]] = {}


def placement_spaces(st: "DieStadtState", tile: int) -> list[tuple[int, tuple[int, ...]]]:
    """Every space ``tile`` may go on, in reading order, with the quarter
    turns that fit there (ascending): ``[(space, (q, ...)), ...]``. The
    first tile goes on T20 in any rotation (A-30). Kept until the board
    or the wall changes (the drawn tile is listed twice a turn)."""
    if st.placed_count == 0:
        return [(START, DISTINCT_TURNS[tile])]
    wall = st.wall
    key = (len(st.placed), wall.pieces(), wall.gate, tile)
    cache = st._placements_cache
    if cache is not None and cache[0] == key:
        return cache[1]
    out = []
    table = _FITS.get(tile) or _FITS.setdefault(tile, _fit_table(tile))
    fmask, blocked = st.fmask, st.blocked
    if wall.gate is None or wall.closed:
        for space in sorted(st.frontier):
            fits = table[fmask[space]]
            if fits and space not in blocked:
                out.append((space, fits))
    else:
        rmask = st.rmask
        for space in sorted(st.frontier):
            fits = table[fmask[space]]
            if fits and space not in blocked and (SIMPLE[rmask.get(space, 0)] or space_open(st, space)):
                out.append((space, fits))
    st._placements_cache = (key, out)
    return out


def placements(st: "DieStadtState", tile: int) -> list[tuple[int, int]]:
    """Every legal ``(space, quarter)`` for ``tile``, spaces in reading order
    (:func:`placement_spaces` one by one)."""
    return [(space, q) for space, fits in placement_spaces(st, tile) for q in fits]


# --------------------------------------------------------------- explanation
def why_not_placed(st: "DieStadtState", tile: int, space: int, quarter: int) -> Msg:
    """Why the drawn ``tile`` may not go on ``space`` turned ``quarter``."""
    name = space_name(space)
    if st.placed_count == 0:
        return Msg("the first tile goes on {space} (A-30)", space=space_name(START))
    if st.board[space] >= 0:
        return Msg("{space} already holds a tile", space=name)
    if space not in st.frontier:
        return Msg("{space} touches no tile by a side; a tile must touch an earlier tile by at "
                   "least one side, a corner is not enough (DS-24, DS-25)", space=name)
    if space in st.blocked:
        edge = next(f"{space_name(e[0])} {SIDE_NAMES[e[1]]}" for e in st.wall.edges()
                    if NEIGHBOURS[e[0]][e[1]] == space)
        return Msg("{space} lies outside the city wall (across the wall on {edge}); no tile may "
                   "be placed outside the wall (DS-72)", space=name, edge=edge)
    if not space_open(st, space):
        return Msg("a tile on {space} would shut the outside of the wall off from the open "
                   "country; tiles beyond the wall's ends are fine, but none may hook around "
                   "them (DS-72, A-17)", space=name)
    turned = TURNED[tile][quarter]
    for side in range(4):
        nb = NEIGHBOURS[space][side]
        if nb < 0 or st.board[nb] < 0:
            continue
        theirs = st.turned_at[st.board[nb]].edges[OPP[side]]
        mine = turned.edges[side]
        if (mine == "S") != (theirs == "S"):
            return Msg("on {space} turned {rotation} the tile's {mine} {side} edge would meet "
                       "the {theirs} {their_side} edge of {neighbour}; a street must go on across "
                       "a tile border and may not end there (DS-26, DS-28)",
                       space=name, rotation=90 * quarter, mine=EDGE_WORD[mine], side=SIDE_NAMES[side],
                       theirs=EDGE_WORD[theirs], their_side=SIDE_NAMES[OPP[side]],
                       neighbour=space_name(nb))
    return Msg("that placement is not legal now")
