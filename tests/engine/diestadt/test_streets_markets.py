"""Scoring streets and markets during play ("Teiden ja torien pisteytys"):
DS-43 to DS-60, DS-120, EX-7 to EX-11, A-3 to A-7."""
import pytest

from .helpers import detail, legal, play, points, pos

# T20: P18 T crossing with its east arm towards U20; U20, V20: straight
# streets east-west; a dead end (P07 turned 270, street on W) ends the street.
STREET = """seats 2
tile T20 66 0
tile U20 31 90 citizen E seat 1
"""


def test_ex07_ds48_street_3():
    """DS-48: a street of 1-3 tiles scores 1 point per tile (EX-7: 3 tiles, 3)."""
    st = pos(STREET + "turn seat 2 drawn 19")
    play(st, "tile V20 270")
    assert points(st) == [3, 0]
    assert st.supply[0] == 7                       # DS-59: the citizen is back


def test_ex08_ds49_street_4_doubles():
    """DS-49: from 4 tiles a street scores 2 points per tile (EX-8: 4 tiles, 8)."""
    st = pos(STREET + "tile V20 32 90\nturn seat 2 drawn 19")
    texts = play(st, "tile W20 270")
    assert points(st) == [8, 0]
    assert any("4 tiles" in t and "scores 8" in t for t in texts)


def test_ds45_street_open_at_one_end_is_not_scored():
    st = pos(STREET + "turn seat 2 drawn 32")
    play(st, "tile V20 90")
    assert points(st) == [0, 0] and st.supply[0] == 6


def test_ds46_closed_loop_of_four_curves():
    """DS-46: a street that closes a loop is complete (A-5, a loop passing one
    tile twice, is test_ds47_a5_... below)."""
    # four curves (P13) in a ring: T20 S-E, U20 S-W, T21 N-E, U21 N-W
    st = pos("""seats 2
tile T20 44 90 citizen E seat 2
tile U20 45 180
tile T21 46 0
turn seat 1 drawn 47""")
    play(st, "tile U21 270")
    assert points(st) == [0, 8]                 # 4 tiles x 2


def test_ds56_ds59_majority_takes_all():
    """DS-56: the seat with most followers scores the whole street; DS-59:
    afterwards every follower on it, the outnumbered one too, goes back."""
    # a street with two citizens of seat 1 and one of seat 2, joined by the last tile
    st = pos("""seats 2
tile T20 19 90 citizen E seat 1
tile U20 31 90 citizen E seat 1
tile W20 32 90 citizen E seat 2
tile X20 20 270
turn seat 2 drawn 33""")
    play(st, "tile V20 90")
    assert points(st) == [10, 0]               # 5 tiles x 2, seat 2 outnumbered (DS-57)
    assert st.supply == [7, 7]                 # all three followers back
    assert st.view(None)["followers"] == []    # and off the board


def test_ex09_ds53_market_3x3():
    """DS-53: a merchant's market scores tiles x kinds (EX-9: 3 x 3 = 9)."""
    st = pos("""seats 2
tile T20 6 90 merchant E seat 2
tile U20 10 180
turn seat 2 drawn 5""")
    texts = play(st, "tile U21 0")
    assert points(st) == [0, 9]
    assert detail(st, 1)["markets"] == 9
    assert any("3 kinds x 3 tiles" in t for t in texts)


def test_ex10_ds53_market_2x4():
    """DS-53: tiles x kinds, not tiles alone nor kinds plus tiles (EX-10: 2 kinds x 4 tiles = 8)."""
    st = pos("""seats 2
tile T20 8 90 merchant E seat 2
tile U20 11 180
tile T21 9 0
turn seat 2 drawn 12""")
    play(st, "tile U21 270")
    assert points(st) == [0, 8]


def test_a7_ds54_each_kind_counts_once():
    st = pos("""seats 2
tile T20 6 90 merchant E seat 1
tile U20 12 180
turn seat 1 drawn 3""")      # fish, fish, fish
    play(st, "tile U21 0")
    assert points(st) == [3, 0]


def test_ex11_joined_market_tie_18():
    st = pos("""seats 3
tile T20 6 90 merchant E seat 1
tile U20 10 180
tile T21 1 0
tile V21 2 0
tile U22 11 0 merchant N seat 2
tile V22 12 180
tile V23 7 0
turn seat 3 drawn 17""")
    texts = play(st, "tile U21 0")
    assert points(st) == [18, 18, 0]
    assert any("seat 1 and seat 2 score 18" in t for t in texts)


def test_a6_market_next_to_a_hole_stays_unfinished():
    # the P06 market's east side faces an empty space: not complete
    st = pos("""seats 2
tile T20 6 90 merchant E seat 1
tile U20 10 180
tile T21 1 0
turn seat 2 drawn 17""")
    play(st, "tile U21 0")
    assert points(st) == [0, 0]


def test_ds60_a10_returned_followers_come_back_to_the_supply_at_once():
    st = pos(STREET + "supply seat 1 0\nturn seat 2 drawn 19")
    play(st, "tile V20 270")
    assert st.supply[0] == 1


def street_of(tiles: int) -> str:
    """A straight street of ``tiles`` tiles from T20 eastward, seat 1's citizen
    on the dead end at T20 (P07 turned 90), straights (P10 turned 90) after
    it; seat 2 holds the closing dead end (P07), to go on the last space
    turned 270. Returns the position and that order."""
    cols = [chr(ord("T") + i) for i in range(tiles)]
    lines = ["seats 2", "tile T20 19 90 citizen E seat 1"]
    lines += [f"tile {c}20 {31 + i} 90" for i, c in enumerate(cols[1:-1])]
    return "\n".join(lines + ["turn seat 2 drawn 20"]), f"tile {cols[-1]}20 270"


@pytest.mark.parametrize("tiles, expected", [(2, 2), (3, 3), (4, 8), (6, 12)])
def test_ds48_ds49_street_points_per_tile_by_length(tiles, expected):
    """DS-48: 1-3 tiles score 1 point per tile; DS-49: 4 or more, 2 per tile."""
    text, order = street_of(tiles)
    st = pos(text)
    texts = play(st, order)
    assert points(st) == [expected, 0] and detail(st, 0)["streets"] == expected
    assert any(f"({tiles} tiles): seat 1 scores {expected}" in t for t in texts)


def test_ds47_a5_street_through_a_crossing_twice_counts_the_tile_once():
    """DS-47: a street scores by the number of tiles it is made of; A-5: a tile
    it passes twice counts once. The crossing's north and east arms are joined
    by three curves round T19, U19, U20: 4 tiles (8 points), not 5 (10)."""
    st = pos("""seats 2
tile T20 66 0
tile T19 44 90 citizen E seat 1
tile U19 45 180
turn seat 2 drawn 46""")
    texts = play(st, "tile U20 270")
    assert points(st) == [8, 0]
    assert any("(4 tiles): seat 1 scores 8" in t for t in texts)
    street = [f for f in st.view(None)["features"] if f["type"] == "street" and "T19" in f["spaces"]]
    assert set(street[0]["spaces"]) == {"T19", "T20", "U19", "U20"} and street[0]["complete"]


def markets(st) -> list[tuple[list[str], bool, list[int]]]:
    """Every market in the view: its spaces, whether complete, its followers."""
    return [(f["spaces"], f["complete"], f["followers"])
            for f in st.view(None)["features"] if f["type"] == "market"]


def test_ds52_market_facing_a_hole_waits_until_the_hole_is_filled():
    """DS-52: a market is complete only when other quarters border it on every
    side and no hole is left in the middle. T20's fish market faces T21, which
    S21 closes in on all four sides: still unfinished; filling the hole with
    houses completes it (1 tile x 1 kind = 1)."""
    st = pos("""seats 2
tile T20 6 180 merchant S seat 1
tile U20 11 0
tile U21 12 90
tile U22 7 0
tile T22 4 180
tile S22 5 180
next 1
turn seat 2 drawn 3""")
    play(st, "tile S21 270")
    assert (["T20"], False, [0]) in markets(st) and points(st) == [0, 0]
    play(st, "tile T21 0")
    assert (["T20"], True, []) in markets(st)
    assert points(st) == [1, 0] and st.supply == [7, 7]


@pytest.mark.parametrize("drawn, complete, expected", [(1, True, [1, 0]), (17, False, [0, 0])])
def test_ds52_market_closes_against_another_quarter_not_against_market(drawn, complete, expected):
    """DS-52: houses (P01) against the market's open side close it; a market
    tile (P06) there extends it instead, and the bigger market stays open."""
    st = pos(f"seats 2\ntile T20 6 180 merchant S seat 1\nturn seat 2 drawn {drawn}")
    play(st, "tile T21 0")
    (spaces, done, _), = markets(st)
    assert done is complete and points(st) == expected
    assert spaces == (["T20"] if complete else ["T20", "T21"])


def test_ds55_ds58_tile_may_join_two_occupied_streets():
    """DS-55, DS-58: a tile may join two streets that each have a citizen (it
    just may not take a citizen itself: DS-35); the joined street then holds
    both followers."""
    st = pos("""seats 2
tile T20 19 90 citizen E seat 1
tile V20 31 90 citizen E seat 2
turn seat 1 drawn 32""")
    assert "tile U20 90" in legal(st)
    assert not any(t.startswith("tile U20 90 citizen") for t in legal(st))
    play(st, "tile U20 90")
    streets = [f for f in st.view(None)["features"] if f["type"] == "street"]
    assert [(f["spaces"], f["followers"]) for f in streets] == [(["T20", "U20", "V20"], [0, 1])]
    assert points(st) == [0, 0] and st.supply == [6, 6]      # open at V20's east end


def test_ds57_tied_seats_score_in_full_fewer_score_nothing():
    """DS-57: seats 1 and 2 have two citizens each, seat 3 one: the last tile
    joins and completes the 7-tile street; the tied seats score 7 x 2 = 14
    each, seat 3 nothing (its follower still goes back)."""
    st = pos("""seats 3
tile T20 19 90 citizen E seat 1
tile U20 31 90 citizen E seat 1
tile V20 32 90 citizen E seat 2
tile X20 33 90 citizen E seat 2
tile Y20 34 90 citizen E seat 3
tile Z20 20 270
turn seat 3 drawn 27""")
    texts = play(st, "tile W20 90")
    assert points(st) == [14, 14, 0]
    assert any("(7 tiles): seat 1 and seat 2 score 14" in t for t in texts)
    assert st.supply == [7, 7, 7]


@pytest.mark.parametrize("before, after", [(10, 13), (48, 51)])
def test_ds50_ds51_points_move_the_score_forward_past_50(before, after):
    """DS-50: a seat's score goes forward by the points it scores (EX-7's 3
    here); DS-51: past 50 nothing is lost (the physical marker is laid down
    at 50; the service keeps the whole number)."""
    st = pos(STREET + f"score seat 1 streets {before}\nturn seat 2 drawn 19")
    play(st, "tile V20 270")
    assert points(st) == [after, 0] and detail(st, 0)["streets"] == after
    assert [p["points"] for p in st.view(None)["players"]] == [after, 0]
