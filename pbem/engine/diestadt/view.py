"""The view of a Die Stadt position: what every seat sees (design 6.3).

No seat has private information: the drawn tile lies face up, supplies and
scores are public, events are public. Only the order of the unplayed tiles
is hidden, from everyone, so ``view(seat)`` is the same dict for every seat
and for spectators except for ``"viewer"``.

The dict (JSON-serialisable; the board picture draws from it)::

    {"game": "diestadt", "seats": 3, "viewer": 0 | None, "step": 41,
     "phase": "Turn 12 (pile 2): seat 2 builds a wall piece", "over": False,
     "turn": {"number": 12, "seat": 1,            # the seat whose turn it is
              "pile": 2, "decision": "tile"|"gate"|"wall"|"tower"|None,
              "deciding": 2,                       # the seat that decides now (or None)
              "wall_round": [[seat, "gate"|"wall"], ...]},   # still to build this turn
     "current_seats": [2],
     "tiles": [{"space": "T20", "x": 19, "y": 19, "order": 0, "tile": 62,
                "pattern": "P18", "rotation": 90, "edges": "SSSR",   # N E S W after turning
                "slots": ["r3", "s1", ...],        # 12 board slots N1..W3 -> region label
                "regions": [{"label": "s1", "type": "street"|"market"|"residential",
                             "points": ["N"], "market": "fish"|None, "feature": 7}],
                "building": "public"|"historic"|None, "building_region": "r3"|None,
                "name": "Petit Puits"|None}],
     "features": [{"id": 7, "type": "street", "spaces": ["T20", "U20"], "tiles": 2,
                   "complete": False, "open": 2, "kinds": ["fish"], "followers": [0]}],
     "followers": [{"seat": 0, "role": "citizen"|"merchant"|"overseer"|"guard",
                    "posture": "standing"|"lying"|"guard", "space": "T20",
                    "point": "N"|None, "region": "s1"|None, "edge": "T20N"|None}],
     "wall": {"gate": "T20N"|None, "pieces": ["U20N", ...],   # clockwise, gate excluded
              "cw": [...], "ccw": [...],            # pieces on each side, from the gate outward
              "guards": {"T20N": 0},               # edge -> seat
              "ends": {"cw": {"corner": "U20NE", "next": "V20N"}, "ccw": {...}} | {},
              "closed": False, "open_edges": 17 | None, "supply": 61,
              "closing": ["F7N", ...], "imagined": 2},   # filled in at the end (DS-94 ff.)
     "towers": [{"corner": "U20NE", "end": "cw", "seat": 0, "points": 4}],
     "drawn": {"tile": 47, "pattern": "P13", "building": ..., "name": ...,
               "rotations": [{"rotation": 0, "edges": "SSRR", "slots": [...]}, ...]} | None,
     "legal_spaces": {"F7": [0, 90], ...},      # where the drawn tile may go, rotations
     "piles": [0, 12, 20], "unseen": [3, 8, ...],   # tiles not yet drawn (sorted ids)
     "discarded": [51], "last_space": "U20"|None,
     "players": [{"seat": 0, "name": "seat 1", "colour": "red", "followers": 5,
                  "towers": 4, "points": 23}],
     "scores": [{"seat": 0, "points": 23, "rank": 1, "detail": {"streets": 8, ...}}],
     "decision": {"kind": "wall", "owes", "why", "rule", "rules"} | None,   # the viewer's (decision.py)
     "rules_section": {"id": "wall", "question": "How is the wall built?"}}
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pbem.engine.diestadt import followers, placement
from pbem.engine.diestadt.decision import decision, rules_section
from pbem.engine.diestadt.grid import W, edge_name, space_name
from pbem.engine.diestadt.terms import KIND
from pbem.engine.diestadt.tiles import (
    DISTINCT_TURNS, KINDS, MAX_REGIONS, TILE_TABLE, TURNED, TYPE_NAMES, pattern_of,
)

if TYPE_CHECKING:
    from pbem.engine.diestadt.state import DieStadtState

SEAT_COLOURS = ("red", "blue", "yellow", "green")
POSTURE = {"citizen": "standing", "merchant": "standing", "overseer": "lying", "guard": "guard"}


def _kinds(bits: int) -> list[str]:
    return [k for i, k in enumerate(KINDS) if bits >> i & 1]


def _tiles(st: "DieStadtState") -> list[dict[str, Any]]:
    out = []
    for p, (tile, space, q) in enumerate(st.placed):
        t = TURNED[tile][q]
        out.append({
            "space": space_name(space), "x": space % W, "y": space // W, "order": p,
            "tile": tile, "pattern": t.pattern, "rotation": 90 * q, "edges": t.edges,
            "slots": [t.labels[r] for r in t.slots],
            "regions": [{"label": t.labels[r], "type": TYPE_NAMES[t.types[r]],
                         "points": list(t.points[r]),
                         "market": _kinds(t.kinds[r])[0] if t.kinds[r] else None,
                         "feature": st.feats.find(p * MAX_REGIONS + r)}
                        for r in range(len(t.types))],
            "building": t.building,
            "building_region": t.labels[t.building_region] if t.building_region is not None else None,
            "name": t.name})
    return out


def _features(st: "DieStadtState") -> list[dict[str, Any]]:
    f = st.feats
    return [{"id": root, "type": TYPE_NAMES[f.ftype[root]],
             "spaces": [space_name(s) for s in sorted(f.tiles[root])], "tiles": f.size(root),
             "complete": f.open[root] == 0, "open": f.open[root], "kinds": _kinds(f.kinds[root]),
             "followers": sorted(st.node_seat[n] for n in f.fols.get(root, []))}
            for root in f.roots(st.placed_count, st.turned_at)]


def _followers(st: "DieStadtState") -> list[dict[str, Any]]:
    out = []
    for node, seat in sorted(st.node_seat.items()):
        p, r = divmod(node, MAX_REGIONS)
        tile, space, q = st.placed[p]
        t = TURNED[tile][q]
        role = followers.ROLES[t.types[r]]
        out.append({"seat": seat, "role": role, "posture": POSTURE[role],
                    "space": space_name(space), "point": t.points[r][0], "region": t.labels[r],
                    "edge": None})
    for edge, seat in sorted(st.wall.guards.items()):
        out.append({"seat": seat, "role": "guard", "posture": "guard", "space": space_name(edge[0]),
                    "point": None, "region": None, "edge": edge_name(edge)})
    return out


def _wall(st: "DieStadtState") -> dict[str, Any]:
    w = st.wall
    ends = {}
    if w.built and not w.closed and not st.over:
        for end in ("cw", "ccw"):
            ends[end] = {"corner": w.end_corner(end), "next": edge_name(w.next_edge(end, st.outline))}
    return {"gate": edge_name(w.gate) if w.gate else None,
            "pieces": [edge_name(e) for e in w.edges() if e != w.gate],
            "cw": [edge_name(e) for e in w.cw], "ccw": [edge_name(e) for e in w.ccw],
            "guards": {edge_name(e): s for e, s in sorted(w.guards.items())},
            "ends": ends, "closed": w.closed,
            "open_edges": len(w.open_edges(st.outline)) if w.built and not st.over else None,
            "supply": w.supply, "closing": [edge_name(e) for e in st.closing],
            "imagined": st.imaginary}


def _drawn(st: "DieStadtState") -> dict[str, Any] | None:
    if st.drawn is None:
        return None
    tile = st.drawn
    _, _, building, _, name = TILE_TABLE[tile]
    return {"tile": tile, "pattern": pattern_of(tile), "building": KIND.get(building, building), "name": name,
            "rotations": [{"rotation": 90 * q, "edges": TURNED[tile][q].edges,
                           "slots": [TURNED[tile][q].labels[r] for r in TURNED[tile][q].slots]}
                          for q in DISTINCT_TURNS[tile]]}


def build_view(st: "DieStadtState", seat: int | None) -> dict[str, Any]:
    """The view described in the module docstring."""
    legal: dict[str, list[int]] = {}
    if st.decision == "tile" and st.drawn is not None and not st.over:
        for space, q in placement.placements(st, st.drawn):
            legal.setdefault(space_name(space), []).append(90 * q)
    unseen = sorted(t for p in st.piles for t in p)
    scores = st.scores()
    cur = st.current_seats()
    return {
        "game": "diestadt", "seats": st.seats, "viewer": seat, "step": st.step,
        "phase": st.phase(), "over": st.over,
        "turn": {"number": st.turn_no, "seat": st.active, "pile": st.pile,
                 "decision": st.decision, "deciding": cur[0] if cur else None,
                 "wall_round": [[s, k] for s, k in st.queue]},
        "current_seats": cur,
        "tiles": _tiles(st), "features": _features(st), "followers": _followers(st),
        "wall": _wall(st), "towers": [{k: t[k] for k in ("corner", "end", "seat", "points")}
                                      for t in st.wall.towers],
        "drawn": _drawn(st), "legal_spaces": legal,
        "piles": [len(p) for p in st.piles], "unseen": unseen,
        "discarded": list(st.discarded),
        "last_space": space_name(st.last_space) if st.last_space is not None else None,
        "players": [{"seat": s, "name": f"seat {s + 1}", "colour": SEAT_COLOURS[s],
                     "followers": st.supply[s], "towers": st.towers_left[s],
                     "points": scores[s].points} for s in range(st.seats)],
        "scores": [{"seat": sc.seat, "points": sc.points, "rank": sc.rank, "detail": sc.detail}
                   for sc in scores],
        "decision": decision(st, seat), "rules_section": rules_section(st),
    }
