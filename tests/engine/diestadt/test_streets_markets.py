"""Scoring streets and markets during play ("Teiden ja torien pisteytys"):
DS-43 to DS-60, DS-120, EX-7 to EX-11, A-3 to A-7."""
from .helpers import detail, play, points, pos

# T20: P18 T crossing with its east arm towards U20; U20, V20: straight
# streets east-west; a dead end (P07 turned 270, street on W) ends the street.
STREET = """seats 2
tile T20 66 0
tile U20 31 90 citizen E seat 1
"""


def test_ex07_street_3():
    st = pos(STREET + "turn seat 2 drawn 19")
    play(st, "tile V20 270")
    assert points(st) == [3, 0]
    assert st.supply[0] == 7                       # DS-59: the citizen is back


def test_ex08_street_4_doubles():
    st = pos(STREET + "tile V20 32 90\nturn seat 2 drawn 19")
    texts = play(st, "tile W20 270")
    assert points(st) == [8, 0]
    assert any("4 tiles" in t and "scores 8" in t for t in texts)


def test_ds45_street_open_at_one_end_is_not_scored():
    st = pos(STREET + "turn seat 2 drawn 32")
    play(st, "tile V20 90")
    assert points(st) == [0, 0] and st.supply[0] == 6


def test_ds46_a5_closed_loop_counts_distinct_tiles():
    # four curves (P13) in a ring: T20 S-E, U20 S-W, T21 N-E, U21 N-W
    st = pos("""seats 2
tile T20 44 90 citizen E seat 2
tile U20 45 180
tile T21 46 0
turn seat 1 drawn 47""")
    play(st, "tile U21 270")
    assert points(st) == [0, 8]                 # 4 tiles x 2


def test_ds56_majority_takes_all():
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


def test_ex09_market_3x3():
    st = pos("""seats 2
tile T20 6 90 merchant E seat 2
tile U20 10 180
turn seat 2 drawn 5""")
    texts = play(st, "tile U21 0")
    assert points(st) == [0, 9]
    assert detail(st, 1)["markets"] == 9
    assert any("3 kinds x 3 tiles" in t for t in texts)


def test_ex10_market_2x4():
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
