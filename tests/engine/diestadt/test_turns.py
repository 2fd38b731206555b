"""Setup and the turn: DS-10 to DS-22, DS-42 to DS-44, DS-62, DS-66,
DS-85, A-9, A-13, A-14, A-22."""
import os
import subprocess
import sys

from .helpers import END, GAME, WALLED_COLUMN, detail, legal, play, points, pos


def _kinds(st, order: str) -> list[str]:
    """Apply ``order`` for the deciding seat; the kinds of its events, in order."""
    seat = st.current_seats()[0]
    return [e.kind for e in st.apply(seat, GAME.parse_action(st, seat, order))]


def test_ds10_ds11_ds12_ds13_setup():
    """DS-10, DS-11: every seat starts on 0 points with seven followers in
    supply; DS-12 towers shared equally; DS-13 piles of 30, 25 and 20."""
    for seats, towers in ((2, 6), (3, 4), (4, 3)):
        st = GAME.new_state(seats, 7)
        assert st.supply == [7] * seats and st.towers_left == [towers] * seats
        assert points(st) == [0] * seats
        assert [p["followers"] for p in st.view(None)["players"]] == [7] * seats
        assert [len(p) for p in st.piles] == [29, 25, 20]     # seat 1 has drawn the first
        assert st.drawn is not None and st.current_seats() == [0]
    assert GAME.new_state(3, 7).piles != GAME.new_state(3, 8).piles


#: seed 7's deal for 3 seats, as stored: the drawn tile and the top three
#: tiles of each pile (the last element is the top)
SEED_7_DEAL = (45, [[72, 21, 30], [37, 53, 4], [51, 20, 42]])

_DEAL_IN_A_FRESH_PROCESS = """
from pbem.engine import get_game
print(get_game("diestadt").new_state(3, 7).to_json())
"""


def test_ds13_same_seed_same_deal_in_a_fresh_process():
    """DS-13 with design 6.3: the seed alone deals the piles. Seed 7 deals
    the stored tiles, and a fresh Python process with another string-hash
    seed writes the same state, byte for byte (two calls in one process
    share caches and set order, so they could not disagree)."""
    st = GAME.new_state(3, 7)
    assert (st.drawn, [p[-3:] for p in st.piles]) == SEED_7_DEAL
    for hash_seed in ("1", "2"):
        env = dict(os.environ, PYTHONHASHSEED=hash_seed)
        res = subprocess.run([sys.executable, "-c", _DEAL_IN_A_FRESH_PROCESS], env=env,
                             capture_output=True, text=True, timeout=120)
        assert res.returncode == 0, res.stderr
        assert res.stdout.strip() == st.to_json()


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


def test_ds21_turn_steps_tile_then_follower_then_scoring():
    """DS-21: (1) the tile is placed, (2) a follower may go on it, (3) the
    completed street is scored: seat 2 places its last follower as an
    overseer, then its citizen's 3-tile street scores 3 and comes back; only
    then does the next seat draw."""
    st = pos("seats 2\ntile T20 66 0\ntile U20 31 90 citizen E seat 2\nsupply seat 2 1\n"
             "turn seat 2 drawn 19")
    assert {"tile V20 270", "tile V20 270 overseer N"} <= legal(st)   # the follower is optional
    assert _kinds(st, "tile V20 270 overseer N") == ["tile", "complete", "draw"]
    assert points(st) == [0, 3] and st.supply[1] == 1                 # overseer out, citizen back
    assert st.current_seats() == [0]


def test_ds42_followers_come_back_after_scoring_so_the_shortage_is_brief():
    """DS-42: a seat with no follower left gets its citizen back when the
    street is scored, and may place a follower again on its next turn."""
    st = pos("seats 2\ntile T20 66 0\ntile U20 31 90 citizen E seat 1\nsupply seat 1 0\n"
             "next 2 6\nturn seat 1 drawn 19")
    assert not any(" citizen" in t or " overseer" in t for t in legal(st))
    play(st, "tile V20 270")
    assert st.supply[0] == 1 and points(st) == [3, 0]
    play(st, sorted(legal(st))[0])                                     # seat 2's turn
    assert st.current_seats() == [0] and st.drawn == 6
    assert any(" merchant" in t for t in legal(st))


def test_ds43_completed_market_scored_in_the_same_turn_before_the_wall():
    """DS-43: a market the tile closes is scored at the end of that turn:
    2 kinds x 2 tiles = 4 for the merchant, back in supply, before the wall
    round of pile 2 starts (DS-68)."""
    st = pos("seats 3\ntile T20 6 0 merchant N seat 1\npiles 0 20 20\nturn seat 1 drawn 7")
    assert _kinds(st, "tile T19 180") == ["tile", "complete", "wall_round"]
    assert points(st) == [4, 0, 0] and st.supply[0] == 7
    assert st.decision == "gate" and st.active == 0


def test_ds44_residential_area_scored_only_at_the_end():
    """DS-44: a residential area completed in play scores nothing then (its
    overseer stays); at the end it scores 2 per bordering market: 4 x 2 = 8."""
    st = pos("""seats 2
tile T20 1 0 overseer N seat 1
tile T19 6 180
tile U20 7 270
tile S20 4 90
piles 1 0 0
pile 1
next 31
turn seat 2 drawn 5""")
    play(st, "tile T21 0")            # its market N closes T20's area on the last side
    area = next(f for f in st.view(None)["features"] if f["followers"] == [0])
    assert area["complete"] and points(st) == [0, 0] and st.supply[0] == 6
    play(st, "tile T18 90")           # the last tile: the game ends
    assert st.is_terminal() and detail(st, 0)["overseers"] == 8


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
    st = pos("seats 3\n" + WALLED_COLUMN + """piles 0 20 20
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
    st = pos(END)
    play(st, "tile V20 90 citizen E", "wall ccw", "wall ccw", "wall ccw", "no tower")
    assert st.is_terminal() and st.closing
    back = _round_trip(st)
    assert back.view(None)["features"] == st.view(None)["features"]
    assert points(back) == points(st)
