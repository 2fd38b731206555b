"""Walls, gate, guards and towers ("Muurit, tornit ja kaupungin portti"):
DS-65 to DS-91, DS-115 to DS-119, EX-14 to EX-19, A-10 to A-24, A-32."""
import pytest

from pbem.engine import IllegalOrderError
from pbem.engine.diestadt.actions import BuildWall

from .helpers import GAME, TRIGGER, WALLED_COLUMN, legal, play, points, pos


def test_a11_pile_1_completion_builds_no_wall():
    st = pos("seats 3\n" + TRIGGER + "piles 0 25 20\npile 1\nturn seat 1 drawn 20")
    play(st, "tile T22 0")
    assert not st.wall.built and st.current_seats() == [1] and st.decision == "tile"


def test_ds68_ds69_ds70_pile_2_completion_gate_first_by_the_placer():
    st = pos("seats 3\n" + TRIGGER + "piles 0 20 20\nturn seat 2 drawn 20")
    texts = play(st, "tile T22 0")
    assert any("wall round" in t for t in texts)
    assert st.decision == "gate" and st.current_seats() == [1]
    edges = {a.site for a in st.legal_actions(1)}
    assert edges == {"T20N", "T20E", "T20W", "T21E", "T21W", "T22E", "T22S", "T22W"}
    assert "gate T20 N guard" in legal(st)
    play(st, "gate T20 N guard")
    assert st.wall.gate is not None and st.supply[1] == 6
    # DS-71: then the others clockwise, one piece each, either direction
    assert st.current_seats() == [2] and legal(st) >= {"wall cw", "wall ccw"}
    play(st, "wall cw")
    assert st.current_seats() == [0]
    play(st, "wall ccw")
    # DS-79: then the placer may put a tower
    assert st.decision == "tower" and st.current_seats() == [1]
    assert legal(st) == {"tower cw", "tower ccw", "no tower"}


def test_a32_gate_and_wall_cannot_be_declined():
    st = pos("seats 3\n" + TRIGGER + "piles 0 20 20\nturn seat 1 drawn 20")
    play(st, "tile T22 0")
    assert all(t.startswith("gate") for t in legal(st))
    play(st, "gate T20 N")
    assert all(t.startswith("wall") for t in legal(st))


def test_ds72_no_tile_across_a_wall_piece():
    st = pos("seats 3\n" + TRIGGER + "gate T20 N\nwall cw\npiles 0 20 20\nturn seat 1 drawn 2")
    sites = {a.site for a in st.legal_actions(0)}
    assert "T19" not in sites and "U20" not in sites          # across T20 N and T20 E
    assert "S20" in sites
    with pytest.raises(IllegalOrderError, match="outside the city wall"):
        GAME.parse_action(st, 0, "tile T19 0")


def test_a17_no_tile_hooking_around_the_wall_end():
    st = pos("""seats 3
tile T20 1 0
tile U20 2 0
tile S20 3 0
tile S19 4 0
tile S18 5 0
tile T18 6 0
tile U18 7 0
tile V18 8 0
gate T20 N
wall cw
piles 0 20 20
turn seat 1 drawn 9""")
    sites = {a.site for a in st.legal_actions(0)}
    assert "V19" not in sites             # would shut T19 and U19 off from the open country
    assert "V20" in sites                 # beyond the wall's end: fine, the wall will turn
    with pytest.raises(IllegalOrderError, match="shut the outside of the wall off"):
        GAME.parse_action(st, 0, "tile V19 0")


def test_a23_two_players_first_round_gate_then_alternating():
    st = pos("seats 2\n" + TRIGGER + "piles 0 20 20\nturn seat 1 drawn 20")
    play(st, "tile T22 0")
    assert [list(q) for q in st.queue] == [[0, "gate"], [1, "wall"], [0, "wall"], [1, "wall"]]
    play(st, "gate T20 N", "wall cw", "wall cw", "wall cw")
    assert st.wall.pieces() == 3


def test_ds116_two_players_pile_2_rounds_two_pieces_each():
    st = pos("seats 2\n" + TRIGGER + "gate T20 W\npiles 0 20 20\nturn seat 2 drawn 20")
    play(st, "tile T22 0")
    assert [list(q) for q in st.queue] == [[1, "wall"], [0, "wall"], [1, "wall"], [0, "wall"]]


def test_ds86_ds88_pile_3_two_pieces_each_in_two_rounds():
    st = pos("seats 3\n" + TRIGGER + "gate T20 W\npiles 0 0 20\nturn seat 2 drawn 20")
    play(st, "tile T22 0")
    assert [q[0] for q in st.queue] == [1, 2, 0, 1, 2, 0]


def test_ds117_two_players_pile_3_four_each():
    st = pos("seats 2\n" + TRIGGER + "gate T20 W\npiles 0 0 20\nturn seat 1 drawn 20")
    play(st, "tile T22 0")
    assert [q[0] for q in st.queue] == [0, 1] * 4


def test_a24_first_completion_in_pile_3_gate_replaces_first_piece():
    st = pos("seats 3\n" + TRIGGER + "piles 0 0 20\nturn seat 1 drawn 20")
    play(st, "tile T22 0")
    assert [list(q) for q in st.queue] == [[0, "gate"], [1, "wall"], [2, "wall"],
                                          [0, "wall"], [1, "wall"], [2, "wall"]]


def test_ds91_round_stops_when_the_pieces_run_out_and_ds92a_game_ends():
    st = pos("seats 3\n" + TRIGGER + "gate T20 W\npiles 0 20 20\nturn seat 1 drawn 20")
    st.wall.supply = 2
    texts = play(st, "tile T22 0", "wall cw", "wall cw")
    assert any("run out" in t for t in texts) and st.wall.supply == 0
    assert st.decision == "tower"                      # a22: the tower step still comes
    texts = play(st, "no tower")
    assert st.is_terminal()
    assert any("last wall piece" in t for t in texts)
    assert st.imaginary == len(st.closing) > 0         # DS-96: the rest is imagined


# ------------------------------------------------------------------- guards
RING = """seats 3
tile T20 1 0
tile U20 4 0
tile W20 5 0
tile U19 2 0
tile V19 6 0
tile W19 7 0
tile U21 8 0
tile V21 9 0
tile W21 10 0
tile T21 19 180
{fill}gate T20 W {guard}
wall cw
wall cw
wall cw
wall cw
wall cw
wall cw
piles 0 20 20
turn seat 2 drawn 20
"""


def test_ex14_guard_may_go_on_the_new_wall():
    st = pos(RING.format(fill="", guard=""))
    play(st, "tile T22 0")
    assert {"wall cw guard", "wall ccw guard"} <= legal(st)
    play(st, "wall ccw guard")
    assert st.wall.guards == {st.wall.ccw[-1]: 1}


def test_ex15_ds77_guard_barred_by_opposite_guard():
    """EX-15, DS-77: no guard on a piece whose row of tiles runs unbroken
    to a wall that already has a guard (the piece itself is still built)."""
    st = pos(RING.format(fill="tile V20 11 0\n", guard="guard seat 1"))
    play(st, "tile T22 0")
    assert st.wall.next_edge("cw", st.outline) == (19 * 40 + 22, 1)     # W20 E
    assert "wall cw guard" not in legal(st) and "wall cw" in legal(st)
    play(st, "wall cw")
    assert len(st.wall.guards) == 1 and st.supply[1] == 7


def test_ex15_ds77_a_barred_guard_refuses_the_order_and_says_what_is_legal():
    """Issue 22: ``wall cw guard`` sent for the decision itself, where DS-77
    bars the guard, is refused and nothing is applied (a player at the table
    is told, and may rather build at the other end with a guard); the reason
    names the guard in the way and lists the legal choices. A held line is
    read "guard if still legal" instead (test_hold.py)."""
    st = pos(RING.format(fill="tile V20 11 0\n", guard="guard seat 1"))
    play(st, "tile T22 0")
    before = st.to_json()
    with pytest.raises(IllegalOrderError) as err:
        GAME.parse_action(st, 1, "wall cw guard")
    why = str(err.value.message)
    assert "no guard may go on the piece at the cw end (W20E)" in why
    assert "seat 1's guard on T20W faces it across an unbroken row of tiles (DS-77)" in why
    assert "at the cw end without a guard" in why and "at the ccw end with a guard" in why
    assert set(err.value.legal) == legal(st)
    with pytest.raises(IllegalOrderError, match="no guard may go"):
        st.apply(1, BuildWall("cw", True))      # the engine API refuses it too
    assert st.to_json() == before


def test_a18_a_guard_without_a_follower_refuses_the_order():
    st = pos(RING.format(fill="", guard="") + "supply seat 2 0\n")
    play(st, "tile T22 0")
    with pytest.raises(IllegalOrderError, match="you have no follower left for a guard"):
        GAME.parse_action(st, 1, "wall ccw guard")


def test_ex16_ds77_guard_allowed_across_a_gap():
    """EX-16, DS-77: the same piece may take a guard when a gap (the empty
    V20) lies between it and the guard on the opposite wall."""
    st = pos(RING.format(fill="", guard="guard seat 1"))
    play(st, "tile T22 0")
    assert "wall cw guard" in legal(st)
    play(st, "wall cw guard")
    assert len(st.wall.guards) == 2


def test_a18_guard_needs_a_follower():
    st = pos(RING.format(fill="", guard="") + "supply seat 2 0\n")
    play(st, "tile T22 0")
    assert not any("guard" in t for t in legal(st))


def test_ex17_tower_4():
    text = RING.format(fill="", guard="").replace("wall cw\n" * 6, "wall cw\n" * 3)
    st = pos(text.replace("turn seat 2", "turn seat 1"))
    play(st, "tile T22 0", "wall cw", "wall ccw", "wall ccw")
    assert st.decision == "tower"
    assert legal(st) == {"tower cw", "tower ccw", "no tower"}
    texts = play(st, "tower cw")
    assert points(st) == [4, 0, 0] and st.towers_left[0] == 3
    assert any("4 points" in t for t in texts)
    assert st.wall.tower_points("cw") == 0          # a22: that end now has a tower


def test_ex18_wall_closes_market_4_without_new_round():
    st = pos("""seats 3
tile T20 6 90 merchant E seat 1
tile U20 11 270
tile T21 19 180
gate T20 N
piles 0 20 20
turn seat 1 drawn 20""")
    play(st, "tile T22 0")
    queue_before = len(st.queue)
    texts = play(st, "wall cw")
    assert points(st) == [4, 0, 0] and st.supply[0] == 7          # DS-83
    assert any("2 kinds x 2 tiles" in t for t in texts)
    assert len(st.queue) == queue_before - 1                        # DS-84


def test_ex19_wall_closes_street_1():
    st = pos("""seats 3
tile T20 66 0 citizen N seat 1
gate T20 W
piles 0 20 20
turn seat 1 drawn 19""")
    play(st, "tile T21 0")        # completes the south arm (no follower): wall round
    assert st.decision == "wall"
    play(st, "wall cw")
    assert points(st) == [1, 0, 0]


def test_a16_wall_decision_with_one_outcome_is_not_asked():
    # three tiles in a column; after two pieces only T22 W is left: both ends
    # take it and seat 3 has no follower for a guard, so it is built at once
    st = pos("seats 3\n" + WALLED_COLUMN + """supply seat 3 0
piles 0 20 20
turn seat 1 drawn 20""")
    play(st, "tile T22 0", "wall cw")
    assert st.current_seats() == [1] and legal(st) == {"wall cw", "wall cw guard", "wall ccw", "wall ccw guard"}
    texts = play(st, "wall cw")
    assert any("Seat 3 builds a wall piece" in t and "T22W" in t for t in texts)
    assert st.wall.closed
    assert st.decision == "tower" and st.current_seats() == [0]


def test_a10_returned_follower_may_guard_in_the_same_turn():
    st = pos("""seats 3
tile T20 1 0
tile T21 19 180 citizen S seat 1
supply seat 1 0
piles 0 20 20
turn seat 1 drawn 20""")
    play(st, "tile T22 0")              # completes seat 1's street: the citizen comes back
    assert st.supply[0] == 1
    assert "gate T20 N guard" in legal(st)


def test_refusals_for_gate_and_tower_name_the_rule():
    st = pos("seats 3\n" + TRIGGER + "piles 0 20 20\nturn seat 1 drawn 20")
    play(st, "tile T22 0")
    with pytest.raises(IllegalOrderError, match="outer outline"):
        GAME.parse_action(st, 0, "gate T20 S")        # between two tiles
    play(st, "gate T20 N", "wall cw", "wall cw")
    with pytest.raises(IllegalOrderError, match="no wall piece since the gate"):
        GAME.parse_action(st, 0, "tower ccw")
