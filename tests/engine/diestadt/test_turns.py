"""Setup and the turn: DS-10 to DS-22, DS-62, DS-66, DS-85, A-9, A-13,
A-14, A-22."""
from .helpers import GAME, legal, play, points, pos


def test_ds10_ds12_ds13_setup():
    for seats, towers in ((2, 6), (3, 4), (4, 3)):
        st = GAME.new_state(seats, 7)
        assert st.supply == [7] * seats and st.towers_left == [towers] * seats
        assert [len(p) for p in st.piles] == [29, 25, 20]     # seat 1 has drawn the first
        assert st.drawn is not None and st.current_seats() == [0]
    assert GAME.new_state(3, 7).to_json() == GAME.new_state(3, 7).to_json()
    assert GAME.new_state(3, 7).piles != GAME.new_state(3, 8).piles


def test_ds20_turns_pass_clockwise():
    st = pos("seats 3\ntile T20 1 0\nturn seat 3 drawn 2")
    play(st, "tile T21 0")
    assert st.current_seats() == [0] and st.active == 0


def test_a9_tile_that_fits_nowhere_is_removed_and_replaced():
    # T20 all market, T21 all houses: the 4-way crossing (72) fits nowhere
    st = pos("seats 2\ntile T20 17 0\nnext 72 2\nturn seat 1 drawn 1")
    texts = play(st, "tile T21 0")
    assert any("Tile 72" in t and "fits nowhere" in t for t in texts)
    assert st.discarded == [72] and st.drawn == 2


def test_ds66_ds85_next_pile_taken_into_use():
    st = pos("seats 2\ntile T20 1 0\npiles 0 25 20\npile 1\nturn seat 1 drawn 2")
    texts = play(st, "tile T21 0")
    assert any("Pile 2 is taken into use" in t for t in texts) and st.pile == 2


def test_ds62_overseer_stays_on_a_completed_area():
    st = pos("""seats 2
tile T20 1 0 overseer N seat 1
tile T19 6 180
tile U20 7 270
tile S20 4 90
turn seat 2 drawn 5""")
    play(st, "tile T21 0")           # market N faces T20: the area is closed
    assert st.supply[0] == 6 and list(st.node_seat.values()) == [0]


def test_a13_a14_gate_on_a_street_edge_scores_at_once_and_takes_a_guard():
    st = pos("""seats 3
tile T20 66 0 citizen N seat 1
piles 0 20 20
turn seat 1 drawn 19""")
    play(st, "tile T21 0")           # completes the south arm: first wall round
    assert "gate T20 N guard" in legal(st)
    texts = play(st, "gate T20 N guard")
    assert points(st) == [1, 0, 0]                                   # the north arm, 1 tile
    assert st.wall.guards == {st.wall.gate: 0} and st.supply[0] == 6
    assert any("completes the street" in t for t in texts)
    assert [q[0] for q in st.queue] == [1, 2]                        # no new round (DS-84)


def test_a22_tower_where_the_closed_wall_meets():
    st = pos("""seats 3
tile T20 1 0
tile T21 19 180
gate T20 N
wall cw T20 E
wall cw T21 E
wall ccw T20 W
wall ccw T21 W
piles 0 20 20
turn seat 1 drawn 20""")
    play(st, "tile T22 0", "wall cw", "wall cw", "wall cw")
    assert st.wall.closed and st.decision == "tower"
    assert legal(st) == {"tower cw", "tower ccw", "no tower"}
    play(st, "tower cw")
    assert points(st)[0] == 5
    assert st.wall.tower_points("cw") == 0 and st.wall.tower_points("ccw") == 0


def test_position_text_round_trip():
    from pbem.engine.diestadt.position import dump_position
    st = pos("""seats 3
tile T20 66 0 citizen N seat 1
tile T21 19 0
gate T20 W guard seat 2
wall cw
wall ccw
score seat 1 streets 3
turn seat 2 drawn 31""")
    back = pos(dump_position(st))
    for key in ("tiles", "followers", "wall", "players", "scores", "legal_spaces"):
        assert back.view(None)[key] == st.view(None)[key]


# the A-22 position with seat 2's tower already at the cw end after 1 piece
TOWERED = """seats 3
tile T20 1 0
tile T21 19 180
gate T20 N
wall cw T20 E
tower cw seat 2
wall cw T21 E
wall ccw T20 W
wall ccw T21 W
piles 0 20 20
turn seat 1 drawn 20"""


def _round_trip(st):
    from pbem.engine.diestadt.position import dump_position
    text = dump_position(st)
    back = pos(text)
    assert dump_position(back) == text
    assert back.wall.to_dict() == st.wall.to_dict()
    assert back.current_seats() == st.current_seats()
    if st.current_seats():
        assert legal(back) == legal(st)
    return back


def test_position_text_keeps_towers_where_they_stood():
    st = pos(TOWERED)
    assert st.wall.towers[0]["after"] == 1 and st.towers_left[1] == 3
    play(st, "tile T22 0", "wall cw", "wall cw")
    assert st.decision == "wall"
    back = _round_trip(st)
    play(st, "wall cw")
    play(back, "wall cw")
    assert st.decision == back.decision == "tower" and legal(back) == legal(st)
    assert st.wall.tower_points("cw") == back.wall.tower_points("cw") == 4   # 5 pieces, tower after 1
    play(st, "tower cw")
    back = _round_trip(st)                 # the closing tower stays the closing one
    assert back.wall.towers[-1]["closing"] and back.wall.tower_points("ccw") == 0
    assert points(back) == points(st) and back.towers_left == st.towers_left


def test_position_text_tower_line_where_no_tower_could_stand_is_refused():
    import pytest
    with pytest.raises(ValueError, match="after 5 pieces"):
        pos(TOWERED.replace("tower cw seat 2", "tower cw seat 2 after 5"))


def test_position_text_after_the_end_keeps_the_closing_wall():
    from .test_end import END
    st = pos(END)
    play(st, "tile V20 90 citizen E", "wall ccw", "wall ccw", "wall ccw", "no tower")
    assert st.is_terminal() and st.closing
    back = _round_trip(st)
    assert back.view(None)["features"] == st.view(None)["features"]
    assert points(back) == points(st)
