"""Streets, markets and residential areas ("kaupunginosat"), merged as tiles
join: a union-find over the regions of the placed tiles.

A *node* is ``placement_index * MAX_REGIONS + region``. Each root keeps:
the feature type, the spaces it covers (``tiles``, its size, A-5), the
number of its slots that face open space (``open``: a slot facing an empty
space with no wall piece or gate on that edge), the market kinds (bit set,
A-7), and the nodes holding followers. A feature is complete when ``open``
is 0 (DS-45, DS-46, DS-52, A-6, A-8): a street whose both ends stop at a
crossing, a market, a house or the wall, or that closes a loop; a market or
residential area bordered on every side by other quarters or the wall.

Borders between a market and a residential area (for DS-105, A-28) are
recorded as node pairs: inside a tile (tile data) and across tile edges
(facing slots of the two types, also the shoulders of a street edge).
"""
from __future__ import annotations

from pbem.engine.diestadt.grid import NEIGHBOURS, OPP
from pbem.engine.diestadt.tiles import MAX_REGIONS, Turned

NODES = 75 * MAX_REGIONS


class Features:
    """The merged features of one board (see the module docstring)."""

    __slots__ = ("parent", "ftype", "tiles", "open", "kinds", "fols", "done", "borders")

    def __init__(self) -> None:
        self.parent = list(range(NODES))
        self.ftype = [0] * NODES
        self.tiles: dict[int, set[int]] = {}
        self.open = [0] * NODES
        self.kinds = [0] * NODES
        self.fols: dict[int, list[int]] = {}
        self.done = [False] * NODES
        self.borders: list[tuple[int, int]] = []

    def clone(self) -> "Features":
        """An independent copy (for :meth:`DieStadtState.copy`)."""
        f = Features.__new__(Features)
        f.parent, f.ftype, f.open = self.parent[:], self.ftype[:], self.open[:]
        f.kinds, f.done, f.borders = self.kinds[:], self.done[:], self.borders[:]
        f.tiles = {k: set(v) for k, v in self.tiles.items()}
        f.fols = {k: v[:] for k, v in self.fols.items()}
        return f

    def find(self, n: int) -> int:
        parent = self.parent
        root = n
        while parent[root] != root:
            root = parent[root]
        while parent[n] != root:
            parent[n], n = root, parent[n]
        return root

    def union(self, a: int, b: int) -> int:
        ra, rb = self.find(a), self.find(b)
        if ra == rb:
            return ra
        if len(self.tiles[ra]) < len(self.tiles[rb]):
            ra, rb = rb, ra
        self.parent[rb] = ra
        self.tiles[ra] |= self.tiles.pop(rb)
        self.open[ra] += self.open[rb]
        self.kinds[ra] |= self.kinds[rb]
        fb = self.fols.pop(rb, None)
        if fb:
            self.fols.setdefault(ra, []).extend(fb)
        return ra

    # ------------------------------------------------------------------ growth
    def add_tile(self, p: int, space: int, turned: Turned, board: list[int],
                 turned_at: list[Turned]) -> list[int]:
        """Add the tile placed as placement ``p`` on ``space``; ``board[i]``
        is the placement index on space ``i`` (-1 empty) and
        ``turned_at[q]`` the :class:`Turned` of placement ``q``. Returns the
        roots the tile's regions now belong to (to check for completion)."""
        base = p * MAX_REGIONS
        slots, types = turned.slots, turned.types
        parent, ftype, fopen, kinds, done = self.parent, self.ftype, self.open, self.kinds, self.done
        find, borders = self.find, self.borders
        for r, rtype in enumerate(types):
            n = base + r
            parent[n] = n
            ftype[n] = rtype
            self.tiles[n] = {space}
            fopen[n] = 0
            kinds[n] = turned.kinds[r]
            done[n] = False
        for a, b in turned.borders:
            borders.append((base + a, base + b))
        joins = []
        touched_others = []
        for side in range(4):
            nb = NEIGHBOURS[space][side]
            q = board[nb] if nb >= 0 else -1
            if q < 0:
                for k in range(3):
                    fopen[base + slots[3 * side + k]] += 1
                continue
            oslots = turned_at[q].slots
            obase = q * MAX_REGIONS
            o = 3 * OPP[side] + 2
            for k in range(3):
                mine = slots[3 * side + k]
                theirs = obase + oslots[o - k]
                root = parent[theirs]
                if parent[root] != root:      # find(), inline for the usual one hop
                    root = find(theirs)
                fopen[root] -= 1
                touched_others.append(root)
                mtype, ttype = types[mine], ftype[theirs]
                if mtype == ttype:
                    joins.append((base + mine, theirs))
                elif mtype == 1:
                    borders.append((base + mine, theirs))
                elif ttype == 1:
                    borders.append((theirs, base + mine))
        for a, b in joins:
            self.union(a, b)
        touched_others.extend(range(base, base + len(types)))
        return sorted({n if parent[n] == n else find(n) for n in touched_others})

    def close_edge(self, p: int, side: int, turned: Turned) -> list[int]:
        """A wall piece or the gate on ``side`` of placement ``p``: its three
        slots no longer face open space (DS-45, DS-82). Returns the roots."""
        base = p * MAX_REGIONS
        out = []
        for k in range(3):
            root = self.find(base + turned.slots[3 * side + k])
            self.open[root] -= 1
            if root not in out:
                out.append(root)
        return out

    # ------------------------------------------------------------- followers
    def add_follower(self, node: int) -> None:
        self.fols.setdefault(self.find(node), []).append(node)

    def followers(self, root: int) -> list[int]:
        return self.fols.get(root, [])

    def complete(self, root: int) -> bool:
        return self.open[root] == 0

    def size(self, root: int) -> int:
        return len(self.tiles[root])

    def kind_count(self, root: int) -> int:
        return bin(self.kinds[root]).count("1")

    def bordering_markets(self) -> dict[int, set[int]]:
        """Residential area (root) -> the distinct markets (roots) bordering
        it (A-28); an area that borders none is not listed. One pass over
        the borders for every area at once (final scoring, DS-105)."""
        out: dict[int, set[int]] = {}
        for m, r in self.borders:
            out.setdefault(self.find(r), set()).add(self.find(m))
        return out

    def roots(self, placed: int, turned_at: list[Turned]) -> list[int]:
        """Every feature root, ascending."""
        out = set()
        for p in range(placed):
            base = p * MAX_REGIONS
            for r in range(len(turned_at[p].types)):
                out.add(self.find(base + r))
        return sorted(out)
