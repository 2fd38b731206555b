"""The board as data (RULINGS.md "The board (our design)")."""
import json
from collections import Counter

from pbem.engine.lacitta import board as B
from pbem.engine.lacitta.geometry import DIST


def test_22_triangular_slots_and_8_fixed_edge_regions():
    assert len(B.SLOTS) == 22
    assert all(len(B.REGIONS[s].cells) == 6 for s in B.SLOTS)     # a triangle of 6 hexes
    assert len(B.EDGE_REGIONS) == 8
    kinds = Counter(B.REGIONS[r].kind for r in B.EDGE_REGIONS)
    assert kinds["water"] == 2 and kinds["field"] >= 1 and kinds["mountain"] >= 1


def test_tile_counts_from_rulings():
    assert B.TILES == {"F1": 7, "F2": 6, "F3": 1, "M": 3, "L": 5}


def test_every_site_touches_at_most_two_landscape_regions():
    assert max(len(s.regions) for s in B.SITES.values()) == 2
    assert all(r in B.REGIONS for s in B.SITES.values() for r in s.regions)


def test_sites_are_one_hex_wide_lanes_never_inside_landscape():
    land = {c for r in B.REGIONS.values() for c in r.cells}
    assert not land & {(s.q, s.r) for s in B.SITES.values()}
    # a lane site has at most 2 neighbours except at crossings (6) and lane ends
    assert Counter(len(s.neighbours) for s in B.SITES.values())[2] > 80


def test_site_names_are_column_letter_and_row():
    for name, s in B.SITES.items():
        assert name == f"{B.COLUMNS[s.col]}{s.row}" == B.site_name(s.q, s.r)
    assert len(set(B.SITES)) == 179


def test_adjacency_is_symmetric_and_hexes_share_a_side():
    for name, s in B.SITES.items():
        for n in s.neighbours:
            o = B.SITES[n]
            assert name in o.neighbours
            assert (o.q - s.q, o.r - s.r) in {(1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1)}


def test_site_graph_connected():
    assert all(len(DIST[n]) == len(B.SITES) for n in ("A1", "W6"))


def test_player_count_areas_nest():
    counts = Counter(s.players for s in B.SITES.values())
    assert set(counts) == {2, 3, 4}
    two = {n for n, s in B.SITES.items() if s.players == 2}
    # the 2-player area is connected on its own
    seen, todo = {next(iter(two))}, [next(iter(two))]
    while todo:
        for m in B.SITES[todo.pop()].neighbours:
            if m in two and m not in seen:
                seen.add(m)
                todo.append(m)
    assert seen == two


def test_board_data_is_json_and_drawable():
    d = json.loads(json.dumps(B.board_data()))
    assert len(d["sites"]) == 179 and len(d["regions"]) == 30
    for s in d["sites"].values():
        assert 0 <= s["x"] <= d["width"] and 0 <= s["y"] <= d["height"]
    for r in d["regions"].values():
        assert r["triangles"] and all(len(t) == 3 for t in r["triangles"])


def test_beginner_layouts():
    for seats in (2, 3, 4, 5):
        lay = B.BEGINNER[seats]
        assert Counter(lay["landscape"].values()) == Counter(B.TILES)
        assert len(lay["castles"]) == seats and all(len(c) == 2 for c in lay["castles"])
        castles = [c for pair in lay["castles"] for c in pair]
        for a in castles:
            assert B.SITES[a].players <= seats
            for b in castles:
                if a != b:
                    assert DIST[a][b] - 1 >= 3     # at least 3 free sites between


def test_distance_runs_along_sites_never_through_landscape():
    def hexdist(a, b):
        dq, dr = a.q - b.q, a.r - b.r
        return max(abs(dq), abs(dr), abs(dq + dr))
    longer = 0
    for a in B.SITES.values():
        for b in B.SITES.values():
            d = DIST[a.name][b.name]
            assert d >= hexdist(a, b)
            longer += d > hexdist(a, b)
    assert longer > 0
    # J6 and L9 lie on two sides of the slot T11: 3 hexes apart as the crow
    # flies, 5 steps round the slot
    assert hexdist(B.SITES["J6"], B.SITES["L9"]) == 3 and DIST["J6"]["L9"] == 5
