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
always the tile placement of the ``turn`` seat (default seat 1).
"""
from __future__ import annotations

import json

from pbem.engine.diestadt import flow
from pbem.engine.diestadt.grid import SIDE_NAMES, edge_name, parse_edge, parse_space, space_name
from pbem.engine.diestadt.followers import ROLE_TYPE, ROLES
from pbem.engine.diestadt.scoring import CATEGORIES
from pbem.engine.diestadt.state import TOWERS, DieStadtState
from pbem.engine.diestadt.tiles import MAX_REGIONS, PILE_SIZES, TILE_IDS, TURNED


def _seat(t: list[str], line: str) -> int:
    if "seat" not in t or t.index("seat") + 1 >= len(t):
        raise ValueError(f"expected 'seat N' in: {line!r}")
    return int(t[t.index("seat") + 1]) - 1


def load_position(text: str, game=None) -> DieStadtState:
    """A :class:`DieStadtState` from position text (``ValueError`` naming
    the line that does not read)."""
    if game is None:
        from pbem.engine.diestadt.game import GAME as game
    lines = [ln.split("#", 1)[0].strip() for ln in text.splitlines()]
    items = [(ln, ln.split()) for ln in lines if ln]
    seats, seed = 4, 0
    for ln, t in items:
        if t[0] == "seats":
            seats = int(t[1])
        elif t[0] == "seed":
            seed = int(t[1])
    st = DieStadtState(game, seats, seed)
    st.piles = [[], [], []]
    walls, extra, used = [], [], set()
    active, drawn, piles, nxt, pile = 0, None, None, [], None
    number, flow_state = 1, None
    for ln, t in items:
        low = [w.lower() for w in t]
        if low[0] in ("seats", "seed"):
            continue
        if low[0] == "tile":
            _tile(st, low, ln)
            used.add(int(t[2]))
        elif low[0] in ("gate", "wall", "tower"):
            walls.append((low, ln))
        elif low[0] == "turn":
            active = _seat(low, ln)
            if "drawn" in low:
                drawn = int(low[low.index("drawn") + 1])
            if "number" in low:
                number = int(low[low.index("number") + 1])
        elif low[0] == "flow":
            flow_state = _read_flow(ln)
        elif low[0] == "piles":
            piles = [int(x) for x in low[1:4]]
        elif low[0] == "next":
            nxt = [int(x) for x in low[1:]]
        elif low[0] == "pile":
            pile = int(low[1])
        elif low[0] in ("score", "supply", "towers"):
            extra.append((low, ln))
        else:
            raise ValueError(f"cannot read position line: {ln!r}")
    for low, ln in walls:
        _wall(st, low, ln)
    for low, ln in extra:
        seat = _seat(low, ln)
        rest = low[low.index("seat") + 2:]
        if low[0] == "score":
            for k in range(0, len(rest) - 1, 2):
                if rest[k] not in CATEGORIES:
                    raise ValueError(f"unknown score category {rest[k]!r} in {ln!r}")
                st.points[seat][rest[k]] = int(rest[k + 1])
        elif low[0] == "supply":
            st.supply[seat] = int(rest[0])
        else:
            st.towers_left[seat] = int(rest[0])
    gone = set((flow_state or {}).get("discarded", []))
    _deal(st, used | gone | ({drawn} if drawn else set()), piles, nxt, seed)
    st.active = active
    st.decision = "tile"
    st._placements_cache = None
    st._legal_cache = None
    if drawn is not None:
        st.drawn = drawn
        used_n = len(used) + 1
        st.pile = 1 if used_n <= PILE_SIZES[0] else 2 if used_n <= PILE_SIZES[0] + PILE_SIZES[1] else 3
        if piles is not None:
            st.pile = next((i + 1 for i, n in enumerate(piles) if n), 3)
        if pile is not None:
            st.pile = pile
    elif flow_state is None or (flow_state.get("decision", "tile") == "tile"
                                and not flow_state.get("over")):
        flow.draw(st, [])
    st.turn_no = number
    if pile is not None:
        st.pile = pile
    if flow_state is not None:
        _apply_flow(st, flow_state)
    return st


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


def _tile(st: DieStadtState, t: list[str], line: str) -> None:
    space = parse_space(t[1])
    if space is None or len(t) < 4:
        raise ValueError(f"expected 'tile SPACE ID ROTATION' in: {line!r}")
    tile, rot = int(t[2]), int(t[3])
    q = rot // 90
    p = len(st.placed)
    st.placed.append((tile, space, q))
    st._put(p, tile, space, q)
    st.last_space = space
    if len(t) > 4 and t[4] in ROLE_TYPE:
        region = TURNED[tile][q].region_at(t[5].upper(), ROLE_TYPE[t[4]])
        if region is None:
            raise ValueError(f"no {t[4]} spot at {t[5].upper()} on that tile: {line!r}")
        seat = _seat(t, line)
        node = p * MAX_REGIONS + region
        st.node_seat[node] = seat
        st.supply[seat] -= 1
        st.feats.add_follower(node)


def _wall(st: DieStadtState, t: list[str], line: str) -> None:
    guard = "guard" in t
    seat = _seat(t, line) if "seat" in t else 0
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
        flow.build(st, seat, "gate", edge, guard, [])
        return
    end = t[1]
    if end not in ("cw", "ccw"):
        raise ValueError(f"expected 'wall cw' or 'wall ccw' in: {line!r}")
    if edge is None:
        edge = st.wall.next_edge(end, st.outline)
    flow.build(st, seat, end, edge, guard, [])


def _deal(st: DieStadtState, used: set[int], piles, nxt: list[int], seed: int) -> None:
    import random
    rest = [t for t in TILE_IDS if t not in used and t not in nxt]
    random.Random(seed).shuffle(rest)
    order = list(nxt) + rest                      # drawn first = order[0]
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
    ``load_position(dump_position(st))`` gives the same board."""
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
