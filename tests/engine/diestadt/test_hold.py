"""Early wall orders (design 6.4 "Early orders", issue 15): which lines a
seat may send before their decision comes due (Game.hold_order, read on the
text alone) and when a held line is due (Game.held_order_due). The
service's part is tests/service/test_held_orders.py."""
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st_

from pbem.engine import OrderError

from .helpers import GAME, play, pos

HOLDABLE = ["wall cw", "wall ccw", "wall cw guard", "wall ccw guard", "tower cw", "tower ccw", "no tower"]


@pytest.mark.parametrize("text, held", [
    ("wall cw guard", "wall cw guard"), ("WALL  CCW", "wall ccw"), ("guard ccw", "wall ccw guard"),
    ("cw", "wall cw"), ("muuri myötä vartija", "wall cw guard"), ("muuri vasta", "wall ccw"),
    ("Mauer Gegenuhrzeigersinn Wächter", "wall ccw guard"), ("torni myötä", "tower cw"),
    ("Turm Uhrzeigersinn", "tower cw"), ("ei tornia", None), ("ei torni", "no tower"),
    ("kein Turm", "no tower"), ("no tower", "no tower"),
])
def test_early_wall_and_tower_orders_are_read_in_every_language(text, held):
    assert GAME.hold_order(text) == held


@pytest.mark.parametrize("text", [
    "wall T20 N", "wall T20N guard", "gate T20 N", "tile T22 0", "T22 0", "wall", "guard",
    "tower cw guard", "no tower cw", "no wall cw", "wall cw cw", "wall cw ccw", "tower T20 NE",
    "wall cw please", "", "cancel held",
])
def test_lines_naming_a_place_or_anything_else_are_not_held(text):
    """A held line must read the same whenever it comes due: an edge, a
    space, a gate or a tile is only known then."""
    assert GAME.hold_order(text) is None


TRIGGER = "seats 3\ntile T20 1 0\ntile T21 19 180\npiles 0 20 20\nturn seat 2 drawn 20\n"


def test_a_wall_line_is_due_at_the_seats_wall_decision_only():
    st = pos(TRIGGER)
    assert not any(GAME.held_order_due(st, s, t) for s in range(3) for t in HOLDABLE)   # a tile decision
    play(st, "tile T22 0")
    assert st.decision == "gate" and not GAME.held_order_due(st, 1, "wall cw")          # never the gate
    play(st, "gate T20 N")
    assert GAME.held_order_due(st, 2, "wall ccw guard") and not GAME.held_order_due(st, 2, "tower cw")
    assert not GAME.held_order_due(st, 0, "wall cw")                                     # not seat 1's piece
    play(st, "wall cw", "wall ccw")
    assert st.decision == "tower"
    assert GAME.held_order_due(st, 1, "no tower") and GAME.held_order_due(st, 1, "tower ccw")
    assert not GAME.held_order_due(st, 1, "wall cw")


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seats=st_.integers(2, 4), seed=st_.integers(0, 2**32), pick=st_.integers(0, 2**32))
def test_held_wall_orders_never_fail_when_due(seats, seed, pick):
    """At every wall decision of a random game, each held wall line is read
    and applied ("guard" if still legal); a held tower line is either
    applied or refused with a reason (then the service drops it and asks)."""
    st = GAME.new_state(seats, seed)
    rng = random.Random(pick)
    while not st.is_terminal():
        [seat] = st.current_seats()
        for text in HOLDABLE:
            if not GAME.held_order_due(st, seat, text):
                continue
            trial = st.copy()
            if text.startswith("wall"):
                trial.apply(seat, GAME.parse_held_action(trial, seat, text))
                assert trial.step == st.step + 1
            else:
                try:
                    trial.apply(seat, GAME.parse_action(trial, seat, text))
                except OrderError as err:
                    assert err.message and trial.to_json() == st.to_json()
        st.apply(seat, rng.choice(st.legal_actions(seat)))


def test_a_held_guard_no_longer_legal_is_left_out_and_the_move_replays():
    """docs/rules/diestadt.md "Guards": a held ``wall cw guard`` (written
    before the seat could see the row) builds the piece without the barred
    guard, with a public note; the move it records is ``wall cw``, which
    reads back strictly, so the game replays."""
    from .test_walls import RING

    st = pos(RING.format(fill="tile V20 11 0\n", guard="guard seat 1"))
    play(st, "tile T22 0")
    with pytest.raises(OrderError):
        GAME.parse_action(st, 1, "wall cw guard")
    action = GAME.parse_held_action(st, 1, "wall cw guard")
    assert action.to_text() == "wall cw" and GAME.parse_action(st, 1, "wall cw") == action
    texts = [e.text for e in st.apply(1, action)]
    assert any("Seat 2's guard is left out: a guard faces it from the other end of the row" in t
               for t in texts)
    assert len(st.wall.guards) == 1 and st.supply[1] == 7
