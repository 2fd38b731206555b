"""Which follower may stand on the drawn tile, and why not ("Asukkaiden
sijoitus"; DS-31 to DS-41). Each rule's test and its explanation sit side
by side here.

A follower option is ``(role, point, region)`` with role
``citizen``/``merchant``/``overseer`` by the feature's type (DS-33), named
by the feature's first point on the tile (N, NE, E, ... NW). Which of a
tile's regions join which neighbouring features depends only on the tile's
shape and the neighbours' shape, so that part is worked out once per pair
and kept (:func:`_structure`); the follower orders for a shape pair and the
neighbours' state are kept as numbers into :data:`OFFSETS`
(:func:`follower_offsets`), which
:func:`~pbem.engine.diestadt.tile_orders.tile_options` reads.
"""
from __future__ import annotations

import threading
from typing import TYPE_CHECKING

from pbem.engine.diestadt.grid import NEIGHBOURS, OPP
from pbem.engine.diestadt.placement import FEATURE_WORD
from pbem.engine.diestadt.tiles import MAX_REGIONS, POINTS, Turned
from pbem.engine.messages import Msg, Msgc

if TYPE_CHECKING:
    from pbem.engine.diestadt.state import DieStadtState

ROLES = ("citizen", "merchant", "overseer")        # by feature type (DS-33)
ROLE_TYPE = {r: t for t, r in enumerate(ROLES)}
ROLE_WORD = {"citizen": Msgc("Die Stadt", "citizen"), "merchant": Msgc("Die Stadt", "merchant"), "overseer": Msg("overseer")}


def follower_options(st: "DieStadtState", space: int, turned: Turned,
                     ctx: tuple | None = None) -> list[tuple[str, str, int]]:
    """The followers that may stand on ``turned`` placed on ``space``: one
    per feature the tile's regions join, if that feature has no follower
    (DS-35 to DS-38) and is not complete after the placement (DS-39, DS-40).
    Named by the feature's first point on the tile (N, NE, E, ... NW).
    The caller checks that the seat has a follower (DS-31). ``ctx`` is
    :func:`space_context` of ``space``, when the caller has it."""
    out = []
    first = turned.first_point
    types = turned.types
    for regions, open_after, occupied in groups(st, space, turned, ctx):
        if occupied or open_after <= 0:
            continue
        region = regions[0] if len(regions) == 1 else min(regions, key=first.__getitem__)
        k = first[region]
        out.append((k, ROLES[types[region]], POINTS[k], region))
    if len(out) > 1:
        out.sort()
    return [(role, point, region) for _, role, point, region in out]


def neighbours(st: "DieStadtState", space: int) -> tuple:
    """``(facing, roots, dec, cid)`` of an empty ``space`` (see
    :func:`space_context`); ``dec[index]``: how many of that feature's open
    slots a tile on ``space`` covers. Kept per space (``st.contexts``)
    until a tile is laid beside it or one of its features joins another
    (its root is no longer a root): nothing else changes these."""
    feats = st.feats
    parent = feats.parent
    got = st.contexts.get(space)
    if got is not None:
        for r in got[1]:
            if parent[r] != r:
                break
        else:
            return got
    board, turned_at = st.board, st.turned_at
    find, ftype = feats.find, feats.ftype
    facing: list = [None, None, None, None]
    index: dict[int, int] = {}
    roots: list[int] = []
    dec: list[int] = []
    nbs = NEIGHBOURS[space]
    for side in range(4):
        nb = nbs[side]
        q = board[nb] if nb >= 0 else -1
        if q < 0:
            continue
        trio = []
        qbase = q * MAX_REGIONS
        for s in turned_at[q].facing_slots[OPP[side]]:
            node = qbase + s
            root = parent[node]
            if parent[root] != root:
                root = find(node)
            c = index.get(root)
            if c is None:
                c = index[root] = len(roots)
                roots.append(root)
                dec.append(1)
            else:
                dec[c] += 1
            trio.append((c, ftype[node]))
        facing[side] = tuple(trio)
    key = tuple(facing)
    cid = _CTX_IDS.get(key)
    if cid is None:
        with _CTX_LOCK:               # numbers must stay unique across threads
            cid = _CTX_IDS.setdefault(key, len(_CTX_IDS))
    got = st.contexts[space] = (facing, roots, dec, cid)
    return got


def space_context(st: "DieStadtState", space: int) -> tuple:
    """What the neighbours of an empty ``space`` offer a tile placed there,
    the same for every rotation: ``(facing, roots, info, cid)``. ``roots``
    are the neighbouring features (roots) in order of first appearance and
    ``facing`` names them by that index: per side ``None`` (no tile) or the
    three facing ``(index, type)`` pairs in the order of this space's slots;
    ``info[index]`` is ``(open slots left after the placement, has a
    follower)``; ``cid`` numbers ``facing`` (equal shapes share results)."""
    facing, roots, dec, cid = neighbours(st, space)
    fopen, fols = st.feats.open, st.feats.fols
    info = [(fopen[r] - dec[c], bool(fols.get(r))) for c, r in enumerate(roots)]
    return facing, roots, info, cid


def follower_offsets(turned: Turned, facing: list, cid: int, sig: int) -> int:
    """The follower orders legal on ``turned`` beside neighbours shaped
    ``facing`` (number ``cid``) in state ``sig``: bit ``16 + index`` set
    when that neighbouring feature has a follower, else bit ``index`` when
    it keeps an open slot after the placement (DS-35, DS-39; worked out in
    :func:`~pbem.engine.diestadt.tile_orders.tile_options`),
    as a number into :data:`OFFSETS`: there, ``type * 8 + index in POINTS``
    per legal feature, by first point. The same rule as :func:`groups`
    (DS-35, DS-39), worked out once per (tile shape, neighbours' shape,
    signature) and kept under :func:`offsets_key`."""
    key = offsets_key(turned.shape, cid, sig)
    oid = _OFFSETS.get(key)
    if oid is None:
        struct = _STRUCT.get((turned.shape, cid))
        if struct is None:
            struct = _STRUCT[(turned.shape, cid)] = _structure(turned, facing)
        has, opn = sig >> 16, sig & 0xFFFF
        out = []
        for _regions, _joined, own, k, rtype, mask in struct:
            if not mask & has and (own > 0 or mask & opn):
                out.append(rtype * 8 + k)
        offs = tuple(out)
        oid = _OFFSET_IDS.get(offs)
        if oid is None:              # a new set (a few hundred in all): numbered under the lock
            with _CTX_LOCK:
                oid = _OFFSET_IDS.get(offs)
                if oid is None:      # listed before it is published: readers never look past the end
                    OFFSETS.append(offs)
                    oid = _OFFSET_IDS[offs] = len(OFFSETS) - 1
        _OFFSETS[key] = oid
    return oid


def offsets_key(shape: int, cid: int, sig: int) -> int:
    """The key of :func:`follower_offsets` (shapes < 128, ``sig`` < 2**28)."""
    return (cid << 7 | shape) << 28 | sig


_CTX_IDS: dict[tuple, int] = {}          # facing shape -> number (grows to a few thousand)
_CTX_LOCK = threading.Lock()
_STRUCT: dict[tuple[int, int], tuple] = {}   # (tile shape, facing number) -> groups
_OFFSETS: dict[int, int] = {}            # offsets_key(shape, cid, sig) -> number in OFFSETS
OFFSETS: list[tuple[int, ...]] = [()]    # the distinct follower order sets (0: none)
_OFFSET_IDS: dict[tuple[int, ...], int] = {(): 0}


def groups(st: "DieStadtState", space: int, turned: Turned,
           ctx: tuple | None = None) -> list[tuple[list[int], int, bool]]:
    """For each feature the tile's regions would form: (regions, open slots
    after placing, has a follower). Regions joined through one neighbouring
    feature are one feature. Which regions join which neighbours depends
    only on the tile's shape and the neighbours' shape, so that part is
    worked out once per pair and kept."""
    facing, _roots, info, cid = ctx if ctx is not None else space_context(st, space)
    key = (turned.shape, cid)
    struct = _STRUCT.get(key)
    if struct is None:
        struct = _STRUCT[key] = _structure(turned, facing)
    out = []
    for regions, joined, opn, _k, _t, _m in struct:
        open_after, occupied = opn, False
        for c in joined:
            left, has = info[c]
            open_after += left
            occupied = occupied or has
        out.append((regions, open_after, occupied))
    return out


def _structure(turned: Turned, facing: list) -> tuple:
    """Groups of the tile's regions for neighbours shaped ``facing``:
    ``(regions, neighbour indexes joined, slots facing empty spaces, index
    of the group's first point in POINTS, feature type, bit mask of the
    neighbour indexes joined)``, by first point. Regions are bits here: a
    neighbouring feature joins every region of its type that faces it."""
    types = turned.types
    n = len(types)
    opn = [0] * n
    link: dict[int, int] = {}        # neighbour index -> mask of regions it touches
    for regs, trio in zip(turned.side_regions, facing):
        if trio is None:
            opn[regs[0]] += 1
            opn[regs[1]] += 1
            opn[regs[2]] += 1
            continue
        for r, ct in zip(regs, trio):
            if types[r] == ct[1]:
                c = ct[0]
                link[c] = link.get(c, 0) | 1 << r
    comps = [1 << r for r in range(n)]
    for m in link.values():
        if m & (m - 1) == 0:         # touches one region: joins nothing to it
            continue
        merged, keep = m, []
        for g in comps:
            if g & m:
                merged |= g
            else:
                keep.append(g)
        keep.append(merged)
        comps = keep
    first = turned.first_point
    out = []
    items = list(link.items())
    for g in comps:
        if g & (g - 1) == 0:
            r = g.bit_length() - 1
            regions, own, k = [r], opn[r], first[r]
        else:
            regions, own, k = [], 0, 8
            for r in range(n):
                if g >> r & 1:
                    regions.append(r)
                    own += opn[r]
                    if first[r] < k:
                        k = first[r]
        jmask = 0
        for c, m in items:
            if m & g:
                jmask |= 1 << c
        joined = tuple(c for c in range(jmask.bit_length()) if jmask >> c & 1)
        out.append((k, regions[0], (regions, joined, own, k, types[regions[0]], jmask)))
    out.sort()
    return tuple(x[2] for x in out)


def why_no_follower(st: "DieStadtState", seat: int, space: int, turned: Turned,
                    role: str, point: str) -> Msg:
    """Why no ``role`` may stand at ``point`` of the tile placed so."""
    if st.supply[seat] <= 0:
        return Msg("you have no follower left in your supply; you still place the tile, "
                   "without a follower (DS-31, DS-41)")
    rtype = ROLE_TYPE[role]
    region = turned.region_at(point, rtype)
    if region is None:
        where = [p for r, pts in enumerate(turned.points) if turned.types[r] == rtype for p in pts]
        if not where:
            return Msg("the tile has no {feature} for a {role}", feature=FEATURE_WORD[rtype],
                       role=ROLE_WORD[role])
        return Msg("the tile's {feature} does not touch {point} turned so; it touches {points}",
                   feature=FEATURE_WORD[rtype], point=point, points=" ".join(where))
    for regions, open_after, occupied in groups(st, space, turned):
        if region in regions:
            if occupied:
                return Msg("that {feature} already has a follower, so no second one may "
                           "join it, not even your own (DS-35)", feature=FEATURE_WORD[rtype])
            if open_after <= 0:
                return Msg("the tile completes that {feature}, which had no follower; a "
                           "follower goes only on an unfinished quarter (DS-39, DS-40)",
                           feature=FEATURE_WORD[rtype])
    return Msg("that follower is not legal there")
