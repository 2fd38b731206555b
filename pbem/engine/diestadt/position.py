"""Compact position text: build a Die Stadt position by listing it.

Used by the scenario tests and by anyone who wants to set up a position by
hand. One item per line, ``#`` starts a comment::

    seats 3
    seed 5                       # deals the tiles not named below (default 0)
    tile T20 62 90 citizen N seat 1   # space, tile id, rotation, optional follower
    tile U20 30 90
    gate T20 N guard seat 2      # the gate on an edge, optional guard
    wall cw guard seat 3         # a piece at an end, on the outline's next edge ...
    wall ccw U20 S               # ... or on the edge named
    wall supply 12               # wall pieces left (default: 70 minus those built)
    tower cw seat 1              # a tower at an end (its points are not added) ...
    tower ccw seat 2 after 3     # ... or where it stood: after the 3rd piece on that side
    tower cw seat 3 after 9 closing   # ... placed once the wall was closed (A-22)
    score seat 1 streets 8 markets 9
    supply seat 2 3              # followers in supply (default: 7 minus those out)
    towers seat 2 1              # towers left (default: 12 / seats minus those placed)
    piles 0 12 20                # tiles left per pile (default: 30/25/20 minus used)
    pile 2                       # the pile the drawn tile came from (default: first non-empty)
    next 47 12                   # the next tiles drawn, in this order
    turn seat 2 drawn 47         # seat 2 places tile 47 now (else the next draw)

Tiles go down in the order listed and their features join as in play; the
wall lines are built after all tiles, in order, and streets or markets they
close are scored (the events are dropped). The decision after loading is
always the tile placement of the ``turn`` seat (default seat 1), unless a
``flow {...}`` line (JSON, written by :func:`dump_position`) carries the
turn on to a wall round, a tower choice or the end.

A position text is input: a line that does not read, or a position no game
could reach (a street meeting a market or residential edge, a tile twice, a
second follower on a feature, no tile left for the turn, ...), is a
``ValueError`` quoting the line (:mod:`~pbem.engine.diestadt.position_check`).
"""
from __future__ import annotations

import json
import random
from contextlib import contextmanager

from pbem.engine.diestadt import flow
from pbem.engine.diestadt import position_check as check
from pbem.engine.diestadt.grid import SIDE_NAMES, edge_name, parse_edge, parse_space, space_name
from pbem.engine.diestadt.followers import ROLE_TYPE, ROLES
from pbem.engine.diestadt.scoring import CATEGORIES
from pbem.engine.diestadt.state import FOLLOWERS, TOWERS, DieStadtState
from pbem.engine.diestadt.wall import WALL_PIECES
from pbem.engine.diestadt.tiles import MAX_REGIONS, PILE_SIZES, TILE_IDS, TURNED


def load_position(text: str, game) -> DieStadtState:
    """A :class:`DieStadtState` of ``game`` (the registered Die Stadt, which
    also offers this as ``game.load_position(text)``) from position text.
    ``ValueError`` with a sentence quoting the line at fault for a line that
    does not read or a position no game could reach
    (:mod:`~pbem.engine.diestadt.position_check`)."""
    lines = [ln.split("#", 1)[0].strip() for ln in text.splitlines()]
    items = [(ln, [w.lower() for w in ln.split()]) for ln in lines if ln]
    seats, seed = 4, 0
    for ln, t in items:
        with _naming(ln):
            if t[0] == "seats":
                seats = int(t[1])
                if not 2 <= seats <= 4:
                    raise check.refuse("a Die Stadt game has 2 to 4 seats", ln)
            elif t[0] == "seed":
                seed = int(t[1])
    st = DieStadtState(game, seats, seed)
    st.piles = [[], [], []]
    got: dict = dict(walls=[], extra=[], used=set(), follower_lines={}, active=0, drawn=None,
                     piles=None, next=[], pile=None, number=1, flow=None, wall_supply=None, lines={})
    for ln, t in items:
        with _naming(ln):
            _read_line(st, got, t, ln)
    check.no_scored_followers(st, got["follower_lines"])
    for low, ln in got["walls"]:
        with _naming(ln):
            _wall(st, low, ln)
    for low, ln in got["extra"]:
        with _naming(ln):
            _extra(st, low, ln, got)
    check.supplies(st, FOLLOWERS, TOWERS // seats, got["lines"])
    _start_turn(st, got, seed)
    return st


@contextmanager
def _naming(line: str):
    """Turn a ``ValueError``/``IndexError`` raised while reading ``line``
    into a ``ValueError`` that quotes the line."""
    try:
        yield
    except (ValueError, IndexError) as e:
        if repr(line) in str(e):
            raise
        raise check.refuse(f"cannot read position line ({e})", line) from None


def _read_line(st: DieStadtState, got: dict, low: list[str], ln: str) -> None:
    """One line of the first pass: tiles go down at once, the rest is kept."""
    if low[0] in ("seats", "seed"):
        return
    if low[0] == "tile":
        _tile(st, low, ln, got)
    elif low[0] == "wall" and low[1:2] == ["supply"]:
        got["wall_supply"] = (int(low[2]), ln)
    elif low[0] in ("gate", "wall", "tower"):
        got["walls"].append((low, ln))
    elif low[0] == "turn":
        got["active"] = check.seat_of(low, ln, st.seats)
        if "drawn" in low:
            got["drawn"] = (int(low[low.index("drawn") + 1]), ln)
        if "number" in low:
            got["number"] = int(low[low.index("number") + 1])
    elif low[0] == "flow":
        got["flow"] = _read_flow(ln)
    elif low[0] == "piles":
        got["piles"] = ([int(x) for x in low[1:4]], ln)
    elif low[0] == "next":
        got["next"] = ([int(x) for x in low[1:]], ln)
    elif low[0] == "pile":
        got["pile"] = int(low[1])
    elif low[0] in ("score", "supply", "towers"):
        got["extra"].append((low, ln))
    else:
        raise check.refuse("cannot read position line", ln)


def _extra(st: DieStadtState, low: list[str], ln: str, got: dict) -> None:
    """A ``score``, ``supply`` or ``towers`` line."""
    seat = check.seat_of(low, ln, st.seats)
    rest = low[low.index("seat") + 2:]
    if low[0] == "score":
        for k in range(0, len(rest) - 1, 2):
            if rest[k] not in CATEGORIES:
                raise check.refuse(f"unknown score category {rest[k]!r}", ln)
            st.points[seat][rest[k]] = int(rest[k + 1])
        return
    got["lines"][(low[0], seat)] = ln
    if low[0] == "supply":
        st.supply[seat] = int(rest[0])
    else:
        st.towers_left[seat] = int(rest[0])


def _start_turn(st: DieStadtState, got: dict, seed: int) -> None:
    """Deal the piles, set whose turn it is and the drawn tile (or draw
    it), apply the ``flow`` and ``wall supply`` lines, then check the turn."""
    flow_state, used = got["flow"], got["used"]
    drawn, drawn_line = got["drawn"] or (None, "")
    nxt, next_line = got["next"] or ([], "")
    piles, piles_line = got["piles"] or (None, "")
    for t in nxt:
        if t in used or t == drawn or nxt.count(t) > 1 or t not in TILE_IDS:
            raise check.refuse(f"tile {t} cannot come next: it is on the board, drawn, "
                               "named twice or no tile", next_line)
    if drawn is not None and (drawn in used or drawn not in TILE_IDS):
        raise check.refuse(f"tile {drawn} cannot be the drawn tile: it is on the board or no tile",
                           drawn_line)
    gone = set((flow_state or {}).get("discarded", []))
    _deal(st, used | gone | ({drawn} if drawn else set()), piles, nxt, seed, piles_line)
    st.active, st.decision = got["active"], "tile"
    st._placements_cache = st._legal_cache = None
    pile = got["pile"]
    if drawn is not None:
        st.drawn = drawn
        used_n = len(used) + 1
        st.pile = 1 if used_n <= PILE_SIZES[0] else 2 if used_n <= PILE_SIZES[0] + PILE_SIZES[1] else 3
        if piles is not None:
            st.pile = next((i + 1 for i, n in enumerate(piles) if n), 3)
    elif flow_state is None or (flow_state.get("decision", "tile") == "tile" and not flow_state.get("over")):
        flow.draw(st, [])
    st.turn_no = got["number"]
    if pile is not None:
        st.pile = pile
    if flow_state is not None:
        _apply_flow(st, flow_state)
    _set_wall_supply(st, got["wall_supply"])
    check.drawn_tile(st, drawn_line or piles_line or "the piles: every tile is placed")


def _set_wall_supply(st: DieStadtState, given: tuple[int, str] | None) -> None:
    """``wall supply N``: the wall pieces left (default: 70 minus the pieces
    built, the closing wall's real pieces included)."""
    if given is None:
        return
    n, ln = given
    if not 0 <= n <= st.wall.supply:
        raise check.refuse(f"at most {st.wall.supply} wall pieces can be left "
                           f"({WALL_PIECES} minus those built)", ln)
    st.wall.supply = n


def wall_supply_default(st: DieStadtState) -> int:
    """The wall pieces a position text leaves without a ``wall supply`` line."""
    return WALL_PIECES - st.wall.pieces() - (len(st.closing) - st.imaginary)


#: the turn's progress beyond "the seat places the drawn tile": written as
#: one ``flow {...}`` line (JSON) only when the position is in a wall round,
#: a tower choice, the end, or after a discard
_FLOW = ("decision", "queue", "wall_k", "tower_pending", "discarded", "over", "last_space",
         "closing", "imaginary")


def _flow_of(st: DieStadtState) -> dict | None:
    d = {k: getattr(st, k) for k in _FLOW}
    plain = dict(decision="tile", queue=[], wall_k=0, tower_pending=False, discarded=[], over=False,
                 closing=[], imaginary=0)
    if all(d[k] == v for k, v in plain.items()):
        return None
    d["queue"] = [list(q) for q in d["queue"]]
    d["closing"] = [list(e) for e in d["closing"]]
    return d


def _read_flow(line: str) -> dict:
    try:
        d = json.loads(line.split(None, 1)[1])
    except (IndexError, ValueError):
        raise ValueError(f"expected 'flow {{...}}' (JSON) in: {line!r}") from None
    if not isinstance(d, dict) or set(d) - set(_FLOW):
        raise ValueError(f"unknown flow fields in: {line!r}")
    return d


def _apply_flow(st: DieStadtState, d: dict) -> None:
    for k, v in d.items():
        setattr(st, k, v)
    st.queue = [(q[0], q[1]) for q in st.queue]
    st.closing = [(e[0], e[1]) for e in st.closing]
    if st.closing:      # the closing wall (DS-94 to DS-96): its real pieces and what it closed
        st.wall.supply -= len(st.closing) - st.imaginary
        st._rebuild()
    st._placements_cache = None
    st._legal_cache = None


def _tile(st: DieStadtState, t: list[str], line: str, got: dict) -> None:
    """``tile SPACE ID ROTATION [ROLE POINT seat N]``: lay it (checked as
    :func:`~pbem.engine.diestadt.position_check.tile_fits`) and its follower."""
    space = parse_space(t[1]) if len(t) > 1 else None
    if space is None or len(t) < 4:
        raise check.refuse("expected 'tile SPACE ID ROTATION'", line)
    tile, rot = int(t[2]), int(t[3])
    check.tile_fits(st, tile, space, rot, got["used"], line)
    got["used"].add(tile)
    q = rot // 90
    p = len(st.placed)
    st.placed.append((tile, space, q))
    st._put(p, tile, space, q)
    st.last_space = space
    if len(t) == 4:
        return
    if t[4] not in ROLE_TYPE or len(t) < 6:
        raise check.refuse(f"expected a follower (citizen, merchant or overseer) and a point, not {t[4]!r}",
                           line)
    region = TURNED[tile][q].region_at(t[5].upper(), ROLE_TYPE[t[4]])
    if region is None:
        raise check.refuse(f"no {t[4]} spot at {t[5].upper()} on that tile", line)
    seat = check.seat_of(t, line, st.seats)
    node = check.node_of(p, region)
    st.node_seat[node] = seat
    st.supply[seat] -= 1
    st.feats.add_follower(node)
    got["follower_lines"][node] = line


def _wall(st: DieStadtState, t: list[str], line: str) -> None:
    guard = "guard" in t
    seat = check.seat_of(t, line, st.seats) if "seat" in t else 0
    if t[0] == "tower":
        if len(t) < 2 or t[1] not in ("cw", "ccw"):
            raise ValueError(f"expected 'tower cw' or 'tower ccw' in: {line!r}")
        after = int(t[t.index("after") + 1]) if "after" in t[:-1] else None
        try:
            st.wall.add_tower(t[1], seat, after, "closing" in t if after is not None else None)
        except ValueError as e:
            raise ValueError(f"{e}: {line!r}") from None
        st.towers_left[seat] -= 1
        return
    edge = None
    for k, w in enumerate(t):
        if parse_space(w) is not None and k + 1 < len(t) and t[k + 1].upper() in SIDE_NAMES:
            edge = parse_edge(w + t[k + 1])
    if t[0] == "gate":
        if edge is None:
            raise ValueError(f"expected 'gate SPACE SIDE' in: {line!r}")
        end = "gate"
    else:
        end = t[1]
        if end not in ("cw", "ccw"):
            raise ValueError(f"expected 'wall cw' or 'wall ccw' in: {line!r}")
        if not st.wall.built:
            raise check.refuse("a wall piece needs the gate first (DS-70, DS-71)", line)
    if edge is None:
        edge = st.wall.next_edge(end, st.outline)
    if guard:
        check.guard_may_stand(st, edge, line)
    flow.build(st, seat, end, edge, guard, [])


def _deal(st: DieStadtState, used: set[int], piles, nxt: list[int], seed: int, line: str) -> None:
    """Deal the tiles not on the board, drawn or discarded into the piles:
    ``nxt`` first, the rest shuffled with ``seed``; ``piles`` the sizes
    (``line`` the ``piles`` line, quoted when they add up to too many)."""
    rest = [t for t in TILE_IDS if t not in used and t not in nxt]
    random.Random(seed).shuffle(rest)
    order = list(nxt) + rest                      # drawn first = order[0]
    if piles is not None and (len(piles) != 3 or min(piles) < 0 or sum(piles) > len(order)):
        raise check.refuse(f"three pile sizes adding up to at most the {len(order)} tiles left", line)
    if piles is None:
        left = len(order)
        piles = []
        for size in PILE_SIZES[::-1]:
            take = min(size, left)
            piles.insert(0, take)
            left -= take
    out = []
    k = 0
    for n in piles:
        out.append(order[k:k + n][::-1])          # top of a pile = last element
        k += n
    st.piles = out


def dump_position(st: DieStadtState) -> str:
    """Position text for ``st`` (tiles, followers, wall, scores, turn);
    ``load_position(dump_position(st), game)`` gives the same board."""
    out = [f"seats {st.seats}"]
    on = dict(st.node_seat)
    for p, (tile, space, q) in enumerate(st.placed):
        line = f"tile {space_name(space)} {tile} {90 * q}"
        for r in range(MAX_REGIONS):
            if p * MAX_REGIONS + r in on:
                t = TURNED[tile][q]
                line += f" {ROLES[t.types[r]]} {t.points[r][0]} seat {on[p * MAX_REGIONS + r] + 1}"
        out.append(line)
    w = st.wall
    if w.gate:
        g = w.guards.get(w.gate)
        out.append(f"gate {edge_name(w.gate)[:-1]} {edge_name(w.gate)[-1]}"
                   + (f" guard seat {g + 1}" if g is not None else ""))
    for end, side in (("cw", w.cw), ("ccw", w.ccw)):
        for e in side:
            g = w.guards.get(e)
            out.append(f"wall {end} {edge_name(e)[:-1]} {edge_name(e)[-1]}"
                       + (f" guard seat {g + 1}" if g is not None else ""))
    for tw in w.towers:        # after every piece: each names where it stood
        out.append(f"tower {tw['end']} seat {tw['seat'] + 1} after {tw['after']}"
                   + (" closing" if tw["closing"] else ""))
    if w.supply != wall_supply_default(st):
        out.append(f"wall supply {w.supply}")
    for s in range(st.seats):
        out.append(f"score seat {s + 1} " + " ".join(f"{k} {v}" for k, v in st.points[s].items()))
        if st.towers_left[s] != TOWERS // st.seats:
            out.append(f"towers seat {s + 1} {st.towers_left[s]}")
    out.append(f"piles {' '.join(str(len(p)) for p in st.piles)}")
    out.append(f"pile {st.pile}")
    out.append(f"turn seat {st.active + 1} number {st.turn_no}" + (f" drawn {st.drawn}" if st.drawn else ""))
    extra = _flow_of(st)
    if extra is not None:
        out.append("flow " + json.dumps(extra, sort_keys=True, separators=(",", ":")))
    return "\n".join(out) + "\n"
