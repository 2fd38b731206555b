"""Placing the tile and a follower ("Laattojen asettelu", "Asukkaiden
sijoitus"): DS-17, DS-18, DS-24 to DS-41, EX-1 to EX-6, EX-12, EX-13,
A-3, A-4, A-30, A-31, A-33."""
import pytest

from pbem.engine import IllegalOrderError
from pbem.engine.api import OrderParseError
from pbem.engine.diestadt.tiles import DISTINCT_TURNS, TILE_IDS, TURNED

from .helpers import GAME, legal, play, points, pos


def _at(st, space: str) -> set[str]:
    """The legal orders that put the drawn tile on ``space``."""
    return {t for t in legal(st) if t.split()[1] == space}


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
    # every tile once (a position is checked): these show a street E and W turned 90, none N or S
    tiles = [62, 31, 32, 33, 34, 28, 29, 30, 27, 35, 36, 37, 38, 39, 40, 41, 42, 43, 60, 61]
    text = "seats 2\n" + "\n".join(f"tile {c}20 {t} 90" for c, t in zip(cols[::-1], tiles))
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


def test_ds27_markets_and_residential_areas_line_up_as_the_player_likes():
    """DS-27: only streets must continue; a market edge may meet a market or
    a residential edge: beside an all-market tile a P02 (one market side)
    fits on every side in all four rotations."""
    st = pos("seats 2\ntile T20 17 0\nturn seat 1 drawn 6")
    spaces = st.view(None)["legal_spaces"]
    assert spaces == {s: [0, 90, 180, 270] for s in ("T19", "U20", "T21", "S20")}


def test_ds30_one_follower_if_the_player_wishes():
    """DS-30: after placing the tile the player may place one follower: the
    tile alone is legal, so is one follower; a second one cannot be ordered."""
    st = pos("seats 2\ntile T20 1 0\nturn seat 1 drawn 68")
    assert {"tile T21 90", "tile T21 90 merchant N", "tile T21 90 citizen E"} <= _at(st, "T21")
    with pytest.raises(OrderParseError):
        GAME.parse_action(st, 0, "tile T21 90 merchant N citizen E")
    play(st, "tile T21 90 merchant N")
    assert st.supply[0] == 6 and len(st.view(None)["followers"]) == 1


def test_ds37_same_market_while_it_runs_on_unbroken():
    """DS-37: a market that runs on unbroken (here over T21 to T20) to a
    merchant is the same market; a market apart from it is not."""
    st = pos("seats 2\ntile T20 17 0 merchant N seat 2\ntile T21 18 0\nturn seat 1 drawn 6")
    turned_0 = {t for t in _at(st, "T22") if t.split()[2] == "0"}
    assert turned_0 and not any(" merchant" in t for t in turned_0)     # its market N joins T21's
    assert "tile T22 180 merchant SE" in legal(st)     # its market turned away: a new market
    with pytest.raises(IllegalOrderError, match="already has a follower"):
        GAME.parse_action(st, 0, "tile T22 0 merchant N")


def test_ds37_markets_on_the_two_sides_of_a_street_are_not_the_same():
    """DS-37: the two markets of a P12 (a street between them) are separate:
    with a merchant on T20's east market, only T21's west market is free,
    whichever way the P12 below is turned."""
    st = pos("seats 2\ntile T20 41 0 merchant E seat 2\nturn seat 1 drawn 43")
    assert {t for t in _at(st, "T21") if " merchant" in t} == {"tile T21 0 merchant SW",
                                                               "tile T21 180 merchant SW"}


def test_ds38_same_residential_area_while_it_runs_on_unbroken():
    """DS-38: the north houses of a straight street join T21 and T20's area
    with its overseer: no overseer there; the houses south of the street are
    another area and may take one."""
    st = pos("seats 2\ntile T20 1 0 overseer N seat 2\ntile T21 2 0\nturn seat 1 drawn 31")
    assert {t for t in _at(st, "T22") if " overseer" in t} == {"tile T22 90 overseer SE",
                                                               "tile T22 270 overseer SE"}
    with pytest.raises(IllegalOrderError, match="already has a follower"):
        GAME.parse_action(st, 0, "tile T22 90 overseer N")


# T20 is a hole in a ring of eight tiles, a market facing it on every side
MARKET_RING = """seats 2
tile T19 6 180
tile U19 3 0
tile U20 7 270
tile U21 8 0
tile T21 5 0
tile S21 9 0
tile S20 4 90
tile S19 10 0
"""


def test_ds40_follower_only_on_an_unfinished_quarter():
    """DS-40: a P01 filling the hole has its residential area closed by the
    placement (markets all round): no overseer; the same tile on T18, where
    the area stays open, may take one."""
    st = pos(MARKET_RING + "turn seat 1 drawn 2")
    assert _at(st, "T20") == {"tile T20 0"}
    assert _at(st, "T18") == {"tile T18 0", "tile T18 0 overseer N"}
    with pytest.raises(IllegalOrderError, match="unfinished quarter"):
        GAME.parse_action(st, 0, "tile T20 0 overseer N")


def test_a3_street_ends_at_a_crossing_or_a_dead_end_never_at_a_border():
    """A-3: the crossing's north arm and the P17 street that dead-ends at its
    market make a complete 2-tile street (2 points); the P17 turned so that a
    market edge would meet the arm is refused: a street may not end at a
    tile border."""
    st = pos("seats 2\ntile T20 66 0 citizen N seat 1\nturn seat 2 drawn 60")
    with pytest.raises(IllegalOrderError, match="street must go on"):
        GAME.parse_action(st, 1, "tile T19 90")
    assert "tile T19 0 citizen S" not in legal(st)       # that street is complete (DS-39)
    play(st, "tile T19 0 citizen N")                     # its other dead end, still open
    assert points(st) == [2, 0] and st.supply == [7, 6]


@pytest.mark.parametrize("tile,opens", [(31, [2]), (44, [2]), (19, [1]), (60, [1, 1]),
                                        (66, [1, 1, 1]), (72, [1, 1, 1, 1])])
def test_a4_a_crossing_splits_streets_a_bend_does_not(tile, opens):
    """A-4: where 3 or 4 arms meet (P18, P21) each arm is its own street with
    one open end; a straight (P10) or a bend (P13) is one street open at both
    ends; a dead end (P07, P17) closes its street inside the tile."""
    st = pos(f"seats 2\ntile T20 {tile} 0\nturn seat 1 drawn 27")
    assert sorted(f["open"] for f in st.view(None)["features"] if f["type"] == "street") == opens


def test_a4_a_bend_is_no_crossing_for_followers():
    """A-4: a citizen on a bend (P13) holds the street round the bend: the
    straight that continues it on U20 may take no citizen."""
    st = pos("seats 2\ntile T20 44 0 citizen N seat 2\nturn seat 1 drawn 31")
    assert _at(st, "U20") and not any(" citizen" in t for t in _at(st, "U20"))


def test_a33_first_tile_follower_on_any_unfinished_quarter_by_the_same_rules():
    """A-33: the first tile's follower follows the rules of every tile: a lone
    tile completes none of its quarters, so each region of each tile in each
    rotation is offered once, with the role of its type; without a follower
    in supply (DS-31) none is."""
    for tile in TILE_IDS:
        st = pos(f"seats 2\nnext {tile}")
        acts = st.legal_actions(0)
        for q in DISTINCT_TURNS[tile]:
            roles = sorted(a.role for a in acts if a.rotation == 90 * q and a.role)
            types = TURNED[tile][q].types
            assert roles == sorted(("citizen", "merchant", "overseer")[t] for t in types), tile
    st = pos("seats 2\nsupply seat 1 0\nnext 68")
    assert not any(a.role for a in st.legal_actions(0))
