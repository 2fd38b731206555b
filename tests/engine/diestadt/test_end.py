"""End of the game and final scoring ("Pelin päättyminen",
"Loppupisteitys"): DS-92 to DS-114, EX-20 to EX-25, A-25 to A-29."""
from .helpers import END, detail, play, points, pos


def test_ex20_ds92_end_four_open_edges_and_ex21_closing_wall_scores_street():
    """DS-92 (c), EX-20: four unbuilt edges left at the end of the turn end the
    game; EX-21: the closing wall completes the 1-tile street, 1 point."""
    st = pos(END)
    play(st, "tile V20 90 citizen E", "wall ccw", "wall ccw", "wall ccw")
    assert len(st.wall.open_edges(st.outline)) == 4
    assert st.decision == "tower"
    texts = play(st, "no tower")
    assert st.is_terminal()
    assert any("4 unbuilt edges" in t for t in texts)                       # DS-92 c
    assert len(st.closing) == 4 and st.imaginary == 0
    assert detail(st, 0)["streets"] == 1                                     # EX-21
    assert st.supply[0] == 7


def test_ds96_ds98_imagined_pieces_close_and_score_too():
    st = pos(END)
    st.wall.supply = 5
    play(st, "tile V20 90 citizen E", "wall ccw", "wall ccw", "wall ccw", "no tower")
    assert st.is_terminal()
    assert st.imaginary == 2 and st.wall.supply == 0
    assert detail(st, 0)["streets"] == 1


def test_a25_no_end_with_six_open_edges():
    """A-25, DS-92: checked at the end of the turn, six unbuilt edges (the
    10-edge outline less the gate and the round's 3 pieces) do not end it."""
    st = pos(END.replace("wall cw\nwall ccw\n", ""))      # only the gate
    play(st, "tile V20 90", "wall cw", "wall cw", "wall cw", "no tower")
    assert len(st.wall.open_edges(st.outline)) == 6
    assert not st.is_terminal() and st.current_seats() == [1] and st.decision == "tile"


def test_ds92_last_tile_ends_the_game():
    """DS-92 (b): placing the last tile ends the game; no one decides any more."""
    st = pos("seats 2\ntile T20 1 0\npiles 0 0 0\npile 1\nturn seat 1 drawn 2")
    texts = play(st, "tile T21 0")
    assert st.is_terminal() and any("last tile" in t for t in texts)
    assert st.current_seats() == [] and st.legal_actions(0) == []


def test_ds99_ds100_unfinished_street_scores_nothing_and_follower_leaves():
    """DS-99, DS-100: the street T20-T21 runs into the gap T19 in the middle of
    the city and stays unfinished: no points, the citizen goes back."""
    st = pos("""seats 2
tile T20 31 0 citizen N seat 1
tile S19 1 0
tile S20 2 0
tile S21 3 0
tile U19 4 0
tile U20 5 0
tile U21 6 0
tile T18 7 0
tile T21 19 0
piles 0 0 0
pile 1
turn seat 2 drawn 9""")
    play(st, "tile V20 0")
    assert st.is_terminal()
    assert points(st)[0] == 0 and st.supply[0] == 7


def test_ex22_ds105_overseer_three_markets():
    """DS-105, EX-22: 2 points for each of the 3 markets bordering the area."""
    st = pos("""seats 2
tile T20 1 0 overseer N seat 1
tile U20 6 270
tile S20 7 90
tile T19 5 180
piles 0 0 0
pile 1
turn seat 2 drawn 2""")
    texts = play(st, "tile T21 0")
    assert detail(st, 0)["overseers"] == 6
    assert any("borders 3 markets" in t for t in texts)


def test_a28_market_across_a_corner_or_a_street_does_not_border():
    # T20: a straight street (P11) with the overseer's houses west of it and a
    # market east of it; U19: a market touching T20 only at its NE corner
    st = pos("""seats 2
tile T20 35 0 overseer W seat 1
tile U19 6 180
piles 0 0 0
pile 1
turn seat 2 drawn 2""")
    play(st, "tile U20 0")
    assert detail(st, 0)["overseers"] == 0


def test_ds104_tied_overseers_both_score():
    # one residential area (T20 + U20) holding an overseer of seat 1 and one of seat 2
    # (joined earlier), bordering one market on V20
    st = pos("""seats 3
tile T20 1 0 overseer N seat 1
tile U20 2 0 overseer N seat 2
tile V20 6 270
piles 0 0 0
pile 1
turn seat 3 drawn 3""")
    play(st, "tile W20 0")
    o = [detail(st, s)["overseers"] for s in range(3)]
    assert o == [2, 2, 0]


def test_ds103_majority_of_overseers_owns_the_area():
    st = pos("""seats 3
tile T20 1 0 overseer N seat 1
tile U20 2 0 overseer N seat 2
tile T21 4 90 overseer N seat 2
tile V20 6 270
piles 0 0 0
pile 1
turn seat 3 drawn 3""")
    play(st, "tile W20 0")
    o = [detail(st, s)["overseers"] for s in range(3)]
    assert o == [0, 4, 0]       # the area borders V20's and T21's markets


ROW = """seats 2
tile T20 1 0
tile U20 4 0
tile V20 5 0
tile W20 8 0
gate T20 W guard seat 1
piles 0 0 0
pile 1
turn seat 2 drawn 2
"""


def test_ex23_ds107_guard_9():
    """DS-107, EX-23: the guard scores the buildings in its row: the public
    ones on U20, V20, W20 x 2 + the historic one on T20 x 3 = 9."""
    st = pos(ROW)
    play(st, "tile T21 0")
    assert detail(st, 0)["guards"] == 9


GAP = """seats 2
tile T20 1 0
tile U20 4 0
tile W20 5 0
tile X20 8 0
tile U19 6 0
tile V19 7 0
tile W19 10 0
tile U21 11 0
tile V21 12 0
tile W21 14 0
gate T20 W guard seat 1
wall ccw X20 E guard seat 2
piles 0 0 0
pile 1
turn seat 2 drawn {drawn}
"""


def test_ex24_ds109_guards_split_by_gap_5_4():
    """DS-109, EX-24: each watch row ends at the gap V20: 5 and 4."""
    st = pos(GAP.format(drawn=2))
    play(st, "tile T21 0")
    assert (detail(st, 0)["guards"], detail(st, 1)["guards"]) == (5, 4)


def test_ex25_ds112_ds113_a21_gap_filled_both_9():
    """DS-112, DS-113, A-21: the gap filled after both guards were placed, the
    two guards share the whole row and both score it: 9 each."""
    st = pos(GAP.format(drawn=17))
    play(st, "tile V20 0")
    assert (detail(st, 0)["guards"], detail(st, 1)["guards"]) == (9, 9)


def test_ds114_a29_tie_is_a_shared_win():
    st = pos("seats 2\ntile T20 1 0\nscore seat 1 streets 5\nscore seat 2 markets 5\n"
             "piles 0 0 0\npile 1\nturn seat 1 drawn 2")
    play(st, "tile T21 0")
    ranks = [s.rank for s in st.scores()]
    assert ranks == [1, 1]


def test_a25_open_edge_count_ends_only_once_the_gate_exists():
    st = pos("seats 2\ntile T20 1 0\npiles 0 20 20\nturn seat 1 drawn 2")
    play(st, "tile T21 0")            # a city of 6 edges, but no gate: no end
    assert not st.is_terminal()
