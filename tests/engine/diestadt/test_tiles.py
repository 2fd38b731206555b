"""The tile set as data (DS-1 to DS-6, DS-13, A-1, A-2, design 5.3)."""
from collections import Counter

from pbem.engine.diestadt.tiles import (
    HISTORIC_NAMES, KINDS, MARKET, PILE_SIZES, POINTS, TILE_IDS, TILE_TABLE, TURNED,
)


def test_ds1_75_tiles_in_piles_30_25_20():
    assert len(TILE_IDS) == 75
    assert PILE_SIZES == (30, 25, 20) and sum(PILE_SIZES) == 75


def test_ds3_ds5_a1_32_public_and_7_named_historic_buildings_separate():
    kinds = Counter(b for _, _, b, _, _ in TILE_TABLE.values())
    assert kinds["public"] == 32 and kinds["historic"] == 7
    names = sorted(n for _, _, b, _, n in TILE_TABLE.values() if b == "historic")
    assert names == sorted(HISTORIC_NAMES)
    assert all(n is None for _, _, b, _, n in TILE_TABLE.values() if b != "historic")


def test_ds6_buildings_stand_in_residential_areas():
    for t in TILE_IDS:
        turned = TURNED[t][0]
        if turned.building:
            assert turned.types[turned.building_region] == 2


def test_design_edge_totals_and_market_kinds():
    edges = Counter(e for t in TILE_IDS for e in TURNED[t][0].edges)
    assert edges == {"S": 124, "M": 64, "R": 112}
    kinds = Counter(KINDS[k.bit_length() - 1] for t in TILE_IDS for r, k in enumerate(TURNED[t][0].kinds)
                    if TURNED[t][0].types[r] == MARKET)
    assert kinds == {"fish": 18, "grain": 18, "cattle": 18}


def test_rotation_moves_sides_clockwise():
    t = TURNED[19]  # P07: street on N, dead end
    assert [t[q].edges for q in range(4)] == ["SRRR", "RSRR", "RRSR", "RRRS"]


def test_every_point_names_at_most_one_region_of_a_type():
    for t in TILE_IDS:
        for q in range(4):
            turned = TURNED[t][q]
            for p in POINTS:
                for rtype in range(3):
                    hits = [r for r in range(len(turned.types))
                            if turned.types[r] == rtype and p in turned.points[r]]
                    assert len(hits) <= 1, (t, q, p, rtype)
