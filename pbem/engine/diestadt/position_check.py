"""What :func:`~pbem.engine.diestadt.position.load_position` refuses: a
position text is input, so a position no game could reach is a
``ValueError`` with a sentence that quotes the line at fault (issue 22).

Checked: tiles (a known id, once; a free space; a quarter turn; streets go
on across every tile border, DS-26, DS-28), guards (none facing another
across a row with no gap when it was built, DS-77), followers (a follower of that
feature's kind at that point, a seat of the game; no street or market the
listed tiles complete, DS-45 to DS-47: it would have been scored; at most 7
per seat, DS-10; several on one feature are fine, since the listing order
need not be the order of play and features join, DS-36), the supplies,
and that the seat to move has a drawn tile that fits somewhere (A-9).
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from pbem.engine.diestadt.grid import NEIGHBOURS, OPP, SIDE_NAMES, space_name
from pbem.engine.diestadt.placement import placement_spaces
from pbem.engine.diestadt.tiles import HOMES, MAX_REGIONS, TILE_IDS, TURNED

if TYPE_CHECKING:
    from pbem.engine.diestadt.state import DieStadtState

_KNOWN = frozenset(TILE_IDS)
_EDGE = {"S": "street", "M": "market", "R": "residential"}


def refuse(why: str, line: str) -> ValueError:
    """The error for ``line``: ``"<why>: '<line>'"``."""
    return ValueError(f"{why}: {line!r}")


def seat_of(t: list[str], line: str, seats: int) -> int:
    """The seat index of ``seat N`` in the words ``t`` (1 <= N <= seats)."""
    if "seat" not in t or t.index("seat") + 1 >= len(t):
        raise refuse("expected 'seat N'", line)
    n = int(t[t.index("seat") + 1])
    if not 1 <= n <= seats:
        raise refuse(f"there is no seat {n} in a {seats}-seat game", line)
    return n - 1


def tile_fits(st: "DieStadtState", tile: int, space: int, rot: int, used: set[int], line: str) -> None:
    """Tile ``tile`` may lie on ``space`` turned ``rot`` degrees next to the
    tiles already listed (``ValueError`` otherwise)."""
    if tile not in _KNOWN:
        raise refuse(f"there is no tile {tile} (tiles are {min(TILE_IDS)}-{max(TILE_IDS)})", line)
    if tile in used:
        raise refuse(f"tile {tile} is listed twice", line)
    if rot % 90 or not 0 <= rot < 360:
        raise refuse("the rotation is 0, 90, 180 or 270", line)
    if st.board[space] >= 0:
        raise refuse(f"{space_name(space)} already holds a tile", line)
    turned = TURNED[tile][rot // 90]
    for side, nb in enumerate(NEIGHBOURS[space]):
        if nb < 0 or st.board[nb] < 0:
            continue
        mine, theirs = turned.edges[side], st.turned_at[st.board[nb]].edges[OPP[side]]
        if (mine == "S") != (theirs == "S"):
            raise refuse(f"the tile's {_EDGE[mine]} {SIDE_NAMES[side]} edge meets the {_EDGE[theirs]} "
                         f"{SIDE_NAMES[OPP[side]]} edge of {space_name(nb)}; a street must go on "
                         "across a tile border (DS-26, DS-28)", line)


def no_scored_followers(st: "DieStadtState", lines: dict[int, str]) -> None:
    """No follower stands on a street or market the listed tiles complete
    (it would have been scored and returned, DS-45 to DS-47); ``lines``:
    follower node -> its tile line."""
    feats = st.feats
    for node, line in lines.items():
        root = feats.find(node)
        if feats.ftype[root] != HOMES and feats.complete(root):
            raise refuse("the listed tiles complete the feature this follower stands on, so it "
                         "would have been scored and the follower returned (DS-45 to DS-47)", line)


def guard_may_stand(st: "DieStadtState", edge: tuple[int, int], line: str) -> None:
    """A guard on the piece on ``edge`` could have stood there when it was
    built (DS-76, DS-77, A-19): no guard listed before it faces it across a
    row of tiles that was unbroken then (``ValueError`` otherwise).

    The text lists tiles in the order laid and every wall line after them,
    so the row is judged as it was when the later of the two guards came:
    both end tiles lay there; a tile between them laid after both ends may
    have been the gap (the row as it is now may be unbroken). A follower
    for the guard is checked with the supplies (:func:`supplies`)."""
    if st.wall.opposite_guard(edge, st.board) is None:
        return
    row = st.wall.watch_row(edge, st.board)
    ends = max(st.board[row[0]], st.board[row[-1]])
    if all(st.board[sp] < ends for sp in row[1:-1]):
        raise refuse("no guard may stand there: a guard faces it across a row of tiles "
                     "that had no gap when the later of the two was built (DS-77)", line)


def supplies(st: "DieStadtState", followers: int, towers: int, lines: dict[tuple[str, int], str]) -> None:
    """Followers and towers in supply plus those out are at most the seat's
    ``followers`` and ``towers`` (DS-10 to DS-12); ``lines``: ``(kind,
    seat)`` -> the ``supply``/``towers`` line that set it, if any."""
    for s in range(st.seats):
        out = sum(1 for seat in st.node_seat.values() if seat == s) + \
            sum(1 for seat in st.wall.guards.values() if seat == s)
        if st.supply[s] < 0 or st.supply[s] + out > followers:
            raise refuse(f"seat {s + 1} would have {st.supply[s] + out} followers, "
                         f"not {followers} (DS-10)", lines.get(("supply", s), f"followers of seat {s + 1}"))
        placed = sum(1 for t in st.wall.towers if t["seat"] == s)
        if st.towers_left[s] < 0 or st.towers_left[s] + placed > towers:
            raise refuse(f"seat {s + 1} would have {st.towers_left[s] + placed} towers, "
                         f"not {towers} (DS-12)", lines.get(("towers", s), f"towers of seat {s + 1}"))


def drawn_tile(st: "DieStadtState", line: str) -> None:
    """The seat to place a tile has one, and it fits somewhere (A-9)."""
    if st.over or st.decision != "tile":
        return
    if st.drawn is None:
        raise refuse("no tile is left to draw for the turn (the game would have ended, DS-92)", line)
    if not placement_spaces(st, st.drawn):
        raise refuse(f"tile {st.drawn} fits nowhere, so it would have been removed (A-9)", line)


def node_of(p: int, region: int) -> int:
    return p * MAX_REGIONS + region
