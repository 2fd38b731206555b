"""Placing the tile and a follower ("Laattojen asettelu", "Asukkaiden
sijoitus"): DS-17, DS-18, DS-24 to DS-41, EX-1 to EX-6, EX-12, EX-13,
A-30, A-31, A-33."""
import pytest

from pbem.engine import IllegalOrderError

from .helpers import GAME, legal, play, pos


def test_a30_first_tile_on_t20_any_rotation_with_follower():
    st = GAME.new_state(3, 1)
    acts = st.legal_actions(0)
    assert {a.site for a in acts} == {"T20"}
    assert any(a.role for a in acts)                      # DS-18
    with pytest.raises(IllegalOrderError):
        GAME.parse_action(st, 0, "tile U20 0")


def test_ds24_ds25_tile_must_touch_by_a_side_not_a_corner():
    st = pos("seats 2\ntile T20 1 0\nturn seat 1 drawn 2")   # P01 then P01
    spaces = {a.site for a in st.legal_actions(0)}
    assert spaces == {"T19", "U20", "T21", "S20"}
    with pytest.raises(IllegalOrderError, match="corner is not enough"):
        GAME.parse_action(st, 0, "tile U21 0")


def test_ds26_ds28_ex1_ex3_street_must_continue_both_ways():
    # T20: P10 straight street N-S; drawn P07 (street on one side only)
    st = pos("seats 2\ntile T20 31 0\nturn seat 1 drawn 19")
    texts = legal(st)
    assert "tile T19 180" in texts      # street S meets T20's street N (EX-1)
    assert "tile T19 0" not in texts    # residential S against a street (EX-3)
    assert "tile U20 0" in texts        # residential against residential
    assert "tile U20 270" not in texts  # its street on W would end at T20's residential E
    with pytest.raises(IllegalOrderError, match="street must go on"):
        GAME.parse_action(st, 0, "tile U20 270")


def test_ds29_ex2_market_may_meet_residential():
    st = pos("seats 2\ntile T20 1 0\nturn seat 1 drawn 6")   # P02: market N
    assert "tile T21 0" in legal(st)    # its market N against T20's residential S


def test_a31_no_tile_off_the_board_and_no_wrap_around():
    # a row of straight streets (P10 turned 90) from T20 west to the board's edge at A20
    cols = "ABCDEFGHIJKLMNOPQRST"
    tiles = [31, 32, 33, 34, 28, 29, 30, 27, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46]
    text = "seats 2\n" + "\n".join(f"tile {c}20 {t} 90" for c, t in zip(cols[::-1], tiles[:1] + [31] * 19))
    st = pos(text + "\nturn seat 1 drawn 2")
    sites = {a.site for a in st.legal_actions(0)}
    assert "A19" in sites and "A21" in sites
    assert not sites & {"AN19", "AN20", "AN21"}


def test_ds33_ds34_roles_by_feature_and_posture():
    st = GAME.new_state(2, 3)
    st.drawn = 68        # P19: T crossing with a market and houses
    st._legal_cache = None
    st._placements_cache = None
    roles = {a.role for a in st.legal_actions(0) if a.role}
    assert roles == {"citizen", "merchant", "overseer"}
    play(st, "tile T20 0 merchant W")
    v = st.view(None)
    assert v["followers"] == [{"seat": 0, "role": "merchant", "posture": "standing", "space": "T20",
                               "point": "SW", "region": "m1", "edge": None}]


def test_ds32_follower_only_on_the_placed_tile_and_ds35_not_on_occupied_ex4():
    # T20: P02 market N with a blue merchant (seat 2); drawn P02 placed north turned 180 joins it
    st = pos("seats 2\ntile T20 6 0 merchant N seat 2\nturn seat 1 drawn 7")
    texts = legal(st)
    assert "tile T19 180" in texts
    assert not any(t.startswith("tile T19 180 merchant") for t in texts)    # EX-4
    assert "tile T19 180 overseer N" in texts                                # red may be an overseer
    with pytest.raises(IllegalOrderError, match="already has a follower"):
        GAME.parse_action(st, 0, "tile T19 180 merchant S")


def test_ds35_not_even_own_follower():
    st = pos("seats 2\ntile T20 6 0 merchant N seat 1\nturn seat 1 drawn 7")
    assert not any(t.startswith("tile T19 180 merchant") for t in legal(st))


def test_ds39_ex5_no_follower_on_a_quarter_the_tile_completes():
    # T20 P02 market N; drawn P02 on T19 turned 180: a complete 2-tile market, nobody on it
    st = pos("seats 2\ntile T20 6 0\nturn seat 1 drawn 7")
    assert not any(t.startswith("tile T19 180 merchant") for t in legal(st))
    with pytest.raises(IllegalOrderError, match="completes that market"):
        GAME.parse_action(st, 0, "tile T19 180 merchant S")


def test_ex6_merchant_citizen_or_small_area_but_not_the_taken_large_area():
    # drawn P14 (curve N-E, houses r1 inside, market S, houses r2 W); its r2 joins an
    # occupied area on the west
    st = pos("seats 2\ntile S20 1 0 overseer N seat 2\ntile T19 31 0\nturn seat 1 drawn 52")
    texts = legal(st)
    assert "tile T20 0 citizen N" in texts
    assert "tile T20 0 merchant SE" in texts
    assert "tile T20 0 overseer NE" in texts           # the small area inside the curve
    assert "tile T20 0 overseer W" not in texts and "tile T20 0 overseer NW" not in texts


def test_ex12_ex13_tile_joining_occupied_areas_takes_no_overseer():
    # three P10 street tiles in a row keep three residential areas apart; the drawn
    # P01 joins all three with their overseers
    st = pos("""seats 3
tile T20 1 0 overseer N seat 1
tile V20 2 0 overseer N seat 2
tile U19 3 180 overseer N seat 3
turn seat 1 drawn 17""")
    assert not any(" overseer" in t for t in legal(st) if t.startswith("tile U20"))


def test_ds31_ds41_a34_no_follower_left_still_places_tiles():
    st = pos("seats 2\ntile T20 1 0\nsupply seat 1 0\nturn seat 1 drawn 6")
    acts = st.legal_actions(0)
    assert acts and not any(a.role for a in acts)
    with pytest.raises(IllegalOrderError, match="no follower left"):
        GAME.parse_action(st, 0, "tile T21 0 merchant N")


def test_ds36_crossing_separates_streets():
    # T20 P18 crossing N-E-S; a citizen on the north arm does not occupy the east arm
    st = pos("seats 2\ntile T20 66 0 citizen N seat 2\nturn seat 1 drawn 31")
    assert "tile U20 90 citizen E" in legal(st)       # named by its first point
    assert GAME.parse_action(st, 0, "tile U20 90 citizen W").to_text() == "tile U20 90 citizen E"
    assert not any(t.startswith("tile T19 0 citizen") for t in legal(st))
