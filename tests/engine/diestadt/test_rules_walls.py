"""Walls, gate, guards and towers in play, sentence by sentence ("Muurit,
tornit ja kaupungin portti", "Kahden pelaajan versio", "Yhteenveto
pisteytyksestä"): DS-65 to DS-90, DS-115 to DS-120, A-15. The worked
examples (EX-14 to EX-19) are in test_walls.py."""
import pytest

from pbem.engine import IllegalOrderError

from .helpers import GAME, detail, legal, play, points, pos


def block(seats=3, seat=1, piles="0 20 20", extra="", t20="1 0", t21="19 180"):
    """A 4 x 3 block of tiles (T20-W22) with T22 empty; T21 is a dead end
    pointing south, so the drawn P07 (tile 20) played ``tile T22 0``
    completes a street. With T22 placed the outer outline has 14 edges, clockwise from the
    north-west: T20N U20N V20N W20N W20E W21E W22E W22S V22S U22S T22S T22W
    T21W T20W."""
    return f"""seats {seats}
tile T20 {t20}
tile U20 2 0
tile V20 17 0
tile W20 18 0
tile T21 {t21}
tile U21 3 0
tile V21 4 0
tile W21 5 0
tile U22 6 0
tile V22 7 0
tile W22 8 0
{extra}piles {piles}
turn seat {seat} drawn 20
"""


def build_round(st, *orders: str, to_end: bool = True) -> list[int]:
    """Play ``orders``, then (``to_end``) ``wall cw`` until the wall round is
    over; return who built each piece (seats counted from 1), in order."""
    who, todo = [], list(orders)
    while st.decision in ("gate", "wall") and (todo or to_end):
        who.append(st.current_seats()[0] + 1)
        play(st, todo.pop(0) if todo else "wall cw")
    return who


def wall_of(st) -> dict:
    return st.view(None)["wall"]


# ------------------------------------------------------- pile 2: walls come
def test_ds65_ds67_walls_towers_and_guards_come_with_the_second_pile():
    """DS-65, DS-67: walls, towers and guards come into the game when the
    second pile is taken into use; a completion with pile 1's last tile
    builds nothing, the next seat's completion from pile 2 does."""
    st = pos("""seats 3
tile T20 1 0
tile T21 19 180
tile U20 21 180
piles 0 20 20
pile 1
next 22
turn seat 1 drawn 20""")
    texts = play(st, "tile T22 0")            # pile 1's last tile completes T21-T22
    assert not st.wall.built and st.queue == []
    assert any("Pile 2 is taken into use: walls and towers come into play" in t for t in texts)
    assert st.current_seats() == [1] and st.decision == "tile" and st.drawn == 22
    play(st, "tile U21 0")                    # pile 2: completes the street U20-U21
    assert st.decision == "gate" and st.current_seats() == [1]
    assert "gate T20 N guard" in legal(st)    # guards may go on the wall now
    play(st, "gate T20 N guard", "wall cw", "wall ccw")
    assert st.wall.guards == {st.wall.gate: 1}
    assert st.decision == "tower" and "tower cw" in legal(st)   # and towers
    play(st, "tower cw")
    assert detail(st, 1)["towers"] == 1 and st.towers_left[1] == 3


# ------------------------------------------------------------- first round
def test_ds71_after_the_gate_the_others_clockwise_one_piece_either_way():
    """DS-71: after the placer's gate, the other seats in clockwise order
    each add one piece, at either side of the gate."""
    st = pos(block(seats=4, seat=3))
    play(st, "tile T22 0")
    assert st.decision == "gate" and st.current_seats() == [2]
    play(st, "gate T20 N")
    assert legal(st) == {"wall cw", "wall cw guard", "wall ccw", "wall ccw guard"}
    who = build_round(st, "wall ccw", "wall cw", "wall ccw")
    assert who == [4, 1, 2]                   # seat 3 built the gate, no piece
    w = wall_of(st)
    assert w["cw"] == ["U20N"] and w["ccw"] == ["T20W", "T21W"] and w["supply"] == 67
    assert st.decision == "tower" and st.current_seats() == [2]


def test_ds73_a15_the_piece_beside_the_gate_is_an_ordinary_piece():
    """DS-73, A-15: short walls are not modelled: the piece next to the
    gate covers one tile edge like any other, there are 70 pieces, and it
    counts for the tower (2 pieces since the gate: 2 points)."""
    assert GAME.new_state(3, 0).wall.supply == 70
    st = pos(block())
    play(st, "tile T22 0", "gate T20 N", "wall cw")
    assert wall_of(st)["cw"] == ["U20N"] and st.wall.supply == 69
    play(st, "wall cw")
    assert wall_of(st)["cw"] == ["U20N", "V20N"] and st.wall.supply == 68
    assert st.decision == "tower"
    play(st, "tower cw")
    assert detail(st, 0)["towers"] == 2


# ------------------------------------------------------------- later rounds
def test_ds74_ds75_later_rounds_placer_first_then_clockwise_any_direction():
    """DS-74, DS-75: once the gate stands, every seat adds one piece, the
    tile placer first, then clockwise, each at the end it chooses."""
    st = pos(block(seats=4, seat=2, extra="gate T20 N\n"))
    play(st, "tile T22 0")
    assert st.decision == "wall" and st.current_seats() == [1]
    assert legal(st) >= {"wall cw", "wall ccw"}
    who = build_round(st, "wall cw", "wall ccw", "wall ccw", "wall cw")
    assert who == [2, 3, 4, 1]
    w = wall_of(st)
    assert w["cw"] == ["U20N", "V20N"] and w["ccw"] == ["T20W", "T21W"]
    assert w["supply"] == 66
    assert st.decision == "tower" and st.current_seats() == [1]


# ------------------------------------------------------------------ guards
def test_ds76_guard_only_on_the_piece_or_gate_just_built():
    """DS-76: whoever has just built a piece or the gate may put one
    follower from their supply on it as a guard (shown as a guard in the
    view); it is optional, and refused without a follower."""
    st = pos(block(extra="supply seat 3 0\n"))
    play(st, "tile T22 0", "gate T20 N guard")
    assert st.wall.guards == {st.wall.gate: 0} and st.supply[0] == 6
    guards = [f for f in st.view(None)["followers"] if f["role"] == "guard"]
    assert guards == [{**guards[0], "seat": 0, "edge": "T20N", "posture": "guard"}]
    play(st, "wall cw guard")                 # seat 2's guard goes on its own piece
    assert wall_of(st)["guards"] == {"T20N": 0, "U20N": 1} and st.supply[1] == 6
    assert legal(st) == {"wall cw", "wall ccw"}   # seat 3 has no follower
    play(st, "wall ccw")
    assert wall_of(st)["guards"] == {"T20N": 0, "U20N": 1}
    st = pos(block(extra="supply seat 1 0\n"))
    play(st, "tile T22 0")
    assert "gate T20 N" in legal(st) and "gate T20 N guard" not in legal(st)
    with pytest.raises(IllegalOrderError, match="no follower left for a guard"):
        GAME.parse_action(st, 0, "gate T20 N guard")


def test_ds78_guards_stay_on_the_wall_until_final_scoring():
    """DS-78: a guard is not returned when streets close around it; it
    stays to the end and then scores its row (T20 historic 3 + T21 and
    T22 public 2 + 2 = 7), while the citizen on the completed street comes
    back at once."""
    st = pos(block(t21="19 180 citizen S seat 2", piles="0 0 0",
                   extra="gate T20 N guard seat 2\npile 2\n"))
    assert st.supply[1] == 5
    play(st, "tile T22 0")                    # the last tile completes seat 2's street
    assert st.supply[1] == 6 and st.wall.guards == {st.wall.gate: 1}
    build_round(st, "wall cw", "wall ccw", "wall cw")
    assert st.wall.guards == {st.wall.gate: 1} and st.supply[1] == 6
    assert detail(st, 1)["guards"] == 0
    play(st, "no tower")
    assert st.is_terminal()
    assert detail(st, 1)["guards"] == 7


# ------------------------------------------------------------------ towers
def test_ds79_tower_by_the_placer_after_the_whole_round_at_a_wall_end():
    """DS-79: only when all seats have built may the tile placer put a
    tower at an end of the wall, if they wish."""
    st = pos(block(extra="gate T20 W\n"))
    play(st, "tile T22 0", "wall cw", "wall cw")
    assert st.decision == "wall" and st.current_seats() == [2]   # no tower yet
    play(st, "wall ccw")
    assert st.decision == "tower" and st.current_seats() == [0]
    assert legal(st) == {"tower cw", "tower ccw", "no tower"}
    corner = wall_of(st)["ends"]["cw"]["corner"]
    declined = st.copy()
    play(declined, "no tower")
    assert declined.wall.towers == [] and declined.towers_left[0] == 4
    assert declined.decision == "tile" and declined.current_seats() == [1]
    play(st, "tower cw")
    assert st.view(None)["towers"] == [{"corner": corner, "end": "cw", "seat": 0, "points": 2}]
    assert corner == "U20NE" and st.towers_left[0] == 3


def test_ds80_tower_scores_the_pieces_since_the_last_tower_or_the_gate():
    """DS-80: a tower scores the pieces between it and the previous tower
    on that side (cw: 4 pieces, a tower after the first: 3), or the gate
    (ccw: 2 pieces; the gate itself does not count)."""
    st = pos(block(extra="gate T20 W\nwall cw\nwall cw\ntower cw seat 2 after 1\nwall ccw\n"))
    play(st, "tile T22 0", "wall cw", "wall cw", "wall ccw")
    w = wall_of(st)
    assert w["cw"] == ["T20N", "U20N", "V20N", "W20N"] and w["ccw"] == ["T21W", "T22W"]
    ccw = st.copy()
    play(st, "tower cw")
    assert detail(st, 0)["towers"] == 3
    play(ccw, "tower ccw")
    assert detail(ccw, 0)["towers"] == 2


# -------------------------------------------------- the wall closes features
def test_ds81_ds82_ds83_ds84_wall_closes_a_street_scored_at_once_no_new_round():
    """DS-81 to DS-84: a piece that closes a street scores it at once, in
    the middle of the round (1 tile: 1 point), the citizen goes back to its
    owner, and the round is not lengthened nor a new one started."""
    st = pos(block(t20="21 0 citizen N seat 2", extra="gate T20 W\n"))
    play(st, "tile T22 0")
    assert [q[0] for q in st.queue] == [0, 1, 2]
    texts = play(st, "wall cw")               # on T20N: the end of seat 2's street
    assert any("The wall completes the street at T20 (1 tile): seat 2 scores 1" in t for t in texts)
    assert points(st) == [0, 1, 0] and detail(st, 1)["streets"] == 1
    assert st.supply[1] == 7 and st.node_seat == {}
    assert st.decision == "wall" and [q[0] for q in st.queue] == [1, 2]
    assert build_round(st, "wall cw", "wall ccw") == [2, 3]
    play(st, "no tower")
    assert st.decision == "tile" and st.current_seats() == [1] and st.wall.pieces() == 3


# ------------------------------------------------------------------ pile 3
def test_ds87_ds89_ds90_pile_3_two_laps_with_guards_then_the_tower():
    """DS-87, DS-89, DS-90: in pile 3 the placer and then the others add a
    piece, then all again; guards may go on pieces of both laps; the tower
    comes only after every seat has built two."""
    st = pos(block(seat=2, piles="0 0 20", extra="gate T20 W\n"))
    play(st, "tile T22 0")
    assert build_round(st, "wall ccw", "wall ccw", "wall ccw", to_end=False) == [2, 3, 1]
    assert st.decision == "wall" and st.current_seats() == [1]  # second lap
    assert "wall cw guard" in legal(st)
    assert build_round(st, "wall cw", "wall cw", "wall cw guard") == [2, 3, 1]
    assert wall_of(st)["guards"] == {"V20N": 0}
    assert st.decision == "tower" and st.current_seats() == [1]
    assert st.wall.pieces() == 6


# -------------------------------------------------------------- two players
@pytest.mark.parametrize("pile, each", [(2, 1), (3, 2)])
def test_ds115_two_players_build_twice_the_normal_number(pile, each):
    """DS-115: three seats build one piece each per round in pile 2 (two in
    pile 3); two seats build twice that."""
    piles = "0 20 20" if pile == 2 else "0 0 20"
    for seats, per_seat in ((3, each), (2, 2 * each)):
        st = pos(block(seats=seats, piles=piles, extra="gate T20 W\n"))
        play(st, "tile T22 0")
        who = build_round(st)
        assert [who.count(s) for s in range(1, seats + 1)] == [per_seat] * seats


@pytest.mark.parametrize("pile, seq", [(2, [2, 1] * 2), (3, [2, 1] * 4)])
def test_ds118_two_players_alternate_until_both_have_built_all(pile, seq):
    """DS-118: the two seats build in turn, the placer first, until each
    has built two (pile 2) or four (pile 3); then the tower."""
    piles = "0 20 20" if pile == 2 else "0 0 20"
    st = pos(block(seats=2, seat=2, piles=piles, extra="gate T20 W\n"))
    play(st, "tile T22 0")
    assert build_round(st) == seq
    assert st.decision == "tower" and st.current_seats() == [1]


def test_ds119_two_players_first_round_gate_and_one_wall_against_two_walls():
    """DS-119: at the first building the placer builds the gate and one
    piece, the other seat two pieces (in turn: gate, other, placer, other)."""
    st = pos(block(seats=2, seat=2))
    play(st, "tile T22 0")
    assert st.decision == "gate" and st.current_seats() == [1]
    assert build_round(st, "gate T20 N") == [2, 1, 2, 1]
    assert wall_of(st)["gate"] == "T20N" and st.wall.pieces() == 3 and st.wall.supply == 67


# ------------------------------------------------------- scoring in summary
@pytest.mark.parametrize("tiles, drawn, order, category, score", [
    # a street of 3 tiles: 1 point per tile
    ("tile T20 19 180 citizen S seat 1\ntile T21 31 0\n", 20, "tile T22 0", "streets", 3),
    # a street of 4 tiles: 2 points per tile
    ("tile T20 19 180 citizen S seat 1\ntile T21 31 0\ntile T22 32 0\n", 20, "tile T23 0",
     "streets", 8),
    # a market of fish (T20) and grain (U20, U21): 2 kinds x 3 tiles
    ("tile T20 6 90 merchant E seat 1\ntile U20 10 180\n", 7, "tile U21 0", "markets", 6),
], ids=["street-3", "street-4", "market-2x3"])
def test_ds120_scoring_summary_in_play(tiles, drawn, order, category, score):
    """DS-120: in play a street of 1-3 tiles scores 1 per tile, one of 4 or
    more 2 per tile, a market its kinds x its tiles."""
    st = pos(f"seats 2\n{tiles}turn seat 1 drawn {drawn}")
    play(st, order)
    assert points(st) == [score, 0] and detail(st, 0)[category] == score
    assert st.supply[0] == 7
