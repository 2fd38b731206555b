"""The legal orders for the drawn tile: every space, rotation and follower
("Laattojen asettelu", "Asukkaiden sijoitus"; DS-24 to DS-41; design 6.2).

A turn offers about a hundred compound orders (``tile F7 90 merchant E``),
and a seat sends one of them. :class:`TileOrders` therefore keeps the list
as rows, one per placement (space and rotation) with the number of its
legal followers, and makes an order object only when it is read: counting,
picking one by index and checking an order cost no more than the rows.
The order of the list is fixed: by space (reading order), rotation, then no
follower before followers (by first point).
"""
from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING

from pbem.engine.diestadt import followers, placement
from pbem.engine.diestadt.actions import PlaceTile
from pbem.engine.diestadt.grid import parse_space, space_name
from pbem.engine.diestadt.tiles import POINTS, TURNED

if TYPE_CHECKING:
    from pbem.engine.diestadt.state import DieStadtState

_POINT_INDEX = {p: k for k, p in enumerate(POINTS)}
#: (space * 4 + quarter) * 32 + type * 8 + point index (type 3: no follower) -> the order
_MADE: dict[int, PlaceTile] = {}


def tile_action(space: int, q: int, code: int = 24) -> PlaceTile:
    """The one :class:`PlaceTile` for the tile on ``space`` turned ``q``
    quarters with the follower ``code`` (``type * 8 + index in POINTS``
    of its feature's first point; 24: no follower). Made once, then reused."""
    key = (space * 4 + q) * 32 + code
    a = _MADE.get(key)
    if a is None:
        if code == 24:
            a = PlaceTile(space_name(space), 90 * q)
        else:
            a = PlaceTile(space_name(space), 90 * q, followers.ROLES[code >> 3], POINTS[code & 7])
        _MADE[key] = a
    return a


class TileOrders(Sequence):
    """The drawn tile's legal orders as an immutable sequence of
    :class:`PlaceTile` (what :meth:`DieStadtState.legal_actions` returns on
    a tile decision). Compares equal to a list of the same orders; slicing
    gives a list. ``rows`` are ``(space * 4 + quarter, offsets number)``
    with ``followers.OFFSETS[number]`` the follower codes allowed there."""

    __slots__ = ("rows", "ends", "_by_sq")

    def __init__(self, rows: list[tuple[int, int]], ends: list[int]):
        self.rows = rows
        self.ends = ends              # ends[r]: index just past row r
        self._by_sq: dict[int, int] | None = None

    def __len__(self) -> int:
        return self.ends[-1] if self.ends else 0

    def __getitem__(self, i):
        if isinstance(i, slice):
            return list(self)[i]
        n = len(self)
        if i < 0:
            i += n
        if not 0 <= i < n:
            raise IndexError("tile order index out of range")
        r = bisect_right(self.ends, i)
        sq, oid = self.rows[r]
        j = i - (self.ends[r - 1] if r else 0)
        return tile_action(sq >> 2, sq & 3, followers.OFFSETS[oid][j - 1] if j else 24)

    def __iter__(self) -> Iterator[PlaceTile]:
        offsets = followers.OFFSETS
        for sq, oid in self.rows:
            space, q = sq >> 2, sq & 3
            yield tile_action(space, q)
            for code in offsets[oid]:
                yield tile_action(space, q, code)

    def __contains__(self, action) -> bool:
        if not isinstance(action, PlaceTile) or action.rotation % 90:
            return False
        space = parse_space(action.site)
        if space is None or action.site != space_name(space):
            return False
        if self._by_sq is None:
            self._by_sq = dict(self.rows)
        oid = self._by_sq.get(space * 4 + action.rotation // 90 % 4)
        if oid is None or action.rotation not in (0, 90, 180, 270):
            return False
        if action.role is None:
            return action.point is None
        rtype = followers.ROLE_TYPE.get(action.role)
        k = _POINT_INDEX.get(action.point)
        return rtype is not None and k is not None and rtype * 8 + k in followers.OFFSETS[oid]

    def __eq__(self, other) -> bool:
        if isinstance(other, (TileOrders, list, tuple)):
            return list(self) == list(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __reduce__(self):
        # a pickle or copy is the plain list: the offsets numbers belong to this process
        return (list, (list(self),))

    def __repr__(self) -> str:
        return repr(list(self))


def tile_options(st: "DieStadtState") -> TileOrders:
    """Every legal compound order for the drawn tile (module docstring for
    the order). A follower may go on each feature the tile's regions form
    unless it has a follower or the tile completes it, and only while the
    seat has one in supply (DS-31, DS-35, DS-39;
    :func:`followers.follower_offsets`, the rule of :func:`followers.groups`)."""
    rows: list[tuple[int, int]] = []
    ends: list[int] = []
    n = 0
    tile = st.drawn
    spaces = placement.placement_spaces(st, tile)
    if st.supply[st.active] <= 0:
        for space, fits in spaces:
            for q in fits:
                rows.append((space * 4 + q, 0))
                n += 1
                ends.append(n)
        return TileOrders(rows, ends)
    turned = TURNED[tile]
    known, offsets_of, offsets = followers._OFFSETS, followers.follower_offsets, followers.OFFSETS
    neighbours, contexts = followers.neighbours, st.contexts
    parent, fopen, fols = st.feats.parent, st.feats.open, st.feats.fols
    for space, fits in spaces:
        got = contexts.get(space)    # followers.neighbours' kept answer, checked inline
        if got is not None:
            for r in got[1]:
                if parent[r] != r:
                    got = None
                    break
        facing, roots, dec, cid = got or neighbours(st, space)
        sig = 0         # the neighbours' state (followers.follower_offsets), inline: the busiest loop
        for c, r in enumerate(roots):
            if fols.get(r):
                sig |= 0x10000 << c
            elif fopen[r] > dec[c]:
                sig |= 1 << c
        ck = cid << 35 | sig
        for q in fits:
            t = turned[q]
            oid = known.get(ck | t.shape << 28)
            if oid is None:
                oid = offsets_of(t, facing, cid, sig)
            rows.append((space * 4 + q, oid))
            n += 1 + len(offsets[oid])
            ends.append(n)
    return TileOrders(rows, ends)
