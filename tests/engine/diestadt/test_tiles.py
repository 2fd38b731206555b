"""The tile set as data (DS-1 to DS-6, DS-13, A-1, A-2, design 5.3)."""
from collections import Counter

from pbem.engine.diestadt.tiles import (
    HISTORIC_NAMES, KINDS, MARKET, PILE_SIZES, POINTS, STREET, TILE_IDS, TILE_TABLE, TURNED,
    TYPE_NAMES, building_points,
)

from .helpers import GAME, pos

#: design 5.3, one row per pattern: tiles, edges N E S W, market areas on
#: those tiles, public and historic buildings on them
DESIGN_53 = {
    "P01": (2, "RRRR", 0, 0, 2), "P02": (5, "MRRR", 5, 2, 1), "P03": (5, "MMRR", 5, 2, 0),
    "P04": (2, "MRMR", 4, 1, 0), "P05": (2, "MMMR", 2, 1, 0), "P06": (2, "MMMM", 2, 0, 0),
    "P07": (2, "SRRR", 0, 2, 0), "P08": (3, "SMRR", 3, 2, 0), "P09": (3, "SRMR", 3, 2, 0),
    "P10": (8, "SRSR", 0, 3, 1), "P11": (6, "SMSR", 6, 2, 0), "P12": (3, "SMSM", 6, 0, 0),
    "P13": (6, "SSRR", 0, 3, 1), "P14": (5, "SSMR", 5, 2, 0), "P15": (3, "SSRR", 3, 1, 0),
    "P16": (2, "SSMM", 2, 1, 0), "P17": (2, "SMSR", 2, 1, 0), "P18": (6, "SSSR", 0, 3, 1),
    "P19": (2, "SSSM", 2, 1, 0), "P20": (2, "SSSR", 2, 1, 0), "P21": (2, "SSSS", 0, 1, 1),
    "P22": (2, "SSSS", 2, 1, 0),
}


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


def test_ds2_tiles_show_streets_markets_residential_areas_and_buildings():
    """DS-2: a tile shows city quarters (streets, residential areas, markets)
    and buildings in the residential areas; the view of a placed tile lists
    its regions by those three types and where its building stands."""
    assert {TYPE_NAMES[t] for tid in TILE_IDS for t in TURNED[tid][0].types} == {
        "street", "market", "residential"}
    st = pos("seats 2\ntile T20 62 0\ntile S20 14 0\nturn seat 1 drawn 2")  # P18 (historic), P04
    crossing, markets = st.view(None)["tiles"]
    assert Counter(r["type"] for r in crossing["regions"]) == {"street": 3, "residential": 3}
    home = next(r for r in crossing["regions"] if r["label"] == crossing["building_region"])
    assert home["type"] == "residential" and crossing["building"] == "historic"
    assert [r["market"] for r in markets["regions"] if r["type"] == "market"] == ["fish", "grain"]


def test_ds4_historic_building_is_a_building_with_a_name_sign():
    """DS-4: a historic building is a building like a public one plus a name
    sign: only historic buildings carry a name (shown with the drawn tile), and
    both count for guards, the historic one 3 against 2 (DS-110, DS-111)."""
    for tid in TILE_IDS:
        _, _, building, _, name = TILE_TABLE[tid]
        assert (name is not None) == (building == "historic"), tid
        assert building_points(tid) == {"historic": 3, "public": 2, None: 0}[building]
    for tid, building, name in ((62, "historic", "Petit Puits"), (63, "public", None)):
        drawn = pos(f"seats 2\ntile T20 1 0\nturn seat 1 drawn {tid}").view(None)["drawn"]
        assert (drawn["building"], drawn["name"]) == (building, name)


def test_a2_the_tile_list_is_the_designed_one():
    """A-2: the text gives only totals, so the engine plays the list designed
    in 5.3: per pattern its tile count, edges, market areas and buildings; a
    game deals exactly those 75 tiles."""
    got: dict[str, list] = {}
    for tid in TILE_IDS:
        pattern, _, building, _, _ = TILE_TABLE[tid]
        turned = TURNED[tid][0]
        row = got.setdefault(pattern, [0, turned.edges, 0, 0, 0])
        assert row[1] == turned.edges, tid
        row[0] += 1
        row[2] += sum(1 for t in turned.types if t == MARKET)
        row[3] += building == "public"
        row[4] += building == "historic"
    assert {p: tuple(r) for p, r in got.items()} == DESIGN_53
    streets = Counter(sum(1 for t in TURNED[tid][0].types if t == STREET) for tid in TILE_IDS)
    assert streets[0] == 18                                 # 18 tiles without a street
    st = GAME.new_state(4, 3)
    assert sorted([t for p in st.piles for t in p] + [st.drawn]) == list(TILE_IDS)
