"""The order page's questions (``Action.steps``): a click on a space or an
outline edge, then the rotation and the follower, or the guard, one at a
time. Whatever the position, the orders of one label at one site ask the
same questions and their answers tell them apart, so the page reaches
every legal order and only legal ones (hypothesis over random games). A
space the drawn tile fits in no rotation is explained as such."""
import random
from collections import defaultdict

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st_

from pbem.engine import IllegalOrderError

from .helpers import GAME, pos


def _by_site(actions):
    groups = defaultdict(list)
    for a in actions:
        if a.site:
            groups[(a.label, a.site)].append(a)
    return groups


def check_steps(state) -> None:
    for seat in state.current_seats():
        for (label, site), group in _by_site(state.legal_actions(seat)).items():
            questions = {tuple(q for q, _ in a.steps) for a in group}
            assert len(questions) == 1, (label, site, questions)
            answers = [tuple(str(ans) for _, ans in a.steps) for a in group]
            assert len(set(answers)) == len(group), (label, site, answers)


@settings(max_examples=5, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seats=st_.integers(2, 4), seed=st_.integers(0, 2 ** 32), choice=st_.integers(0, 2 ** 16))
def test_orders_at_a_site_share_their_questions_and_differ_in_the_answers(seats, seed, choice):
    state = GAME.new_state(seats, seed)
    rng = random.Random(choice)
    kinds = set()
    while not state.is_terminal():
        check_steps(state)
        kinds.add(state.decision)
        seat = state.current_seats()[0]
        acts = state.legal_actions(seat)
        state.apply(seat, acts[rng.randrange(len(acts))])
    assert "tile" in kinds


def test_a_tile_asks_its_rotation_then_its_follower():
    st = GAME.new_state(3, 1)                 # the first tile: T20, any rotation
    acts = st.legal_actions(0)
    assert {a.label for a in acts} == {"tile"}
    for a in acts:
        (turn, rotation), (follower, who) = a.steps
        assert (turn, follower) == ("Turn the tile", "Follower")
        assert rotation == f"{a.rotation}°"
        assert who == (f"{a.role} at {a.point}" if a.role else "no follower")
    # every rotation offers "no follower" (DS-31)
    rotations = {a.rotation for a in acts}
    assert {a.rotation for a in acts if not a.role} == rotations


def test_gate_and_wall_ask_only_whether_a_guard_stands_there():
    from pbem.engine.diestadt.actions import BuildGate, BuildWall

    for a in (BuildGate("H3N", True), BuildWall("cw", True, "H3N")):
        assert [q for q, _ in a.steps] == ["Guard"]
    assert BuildGate("H3N").label == BuildGate("H3N", True).label == "gate"
    assert BuildWall("cw", False, "H3N").label == BuildWall("cw", True, "H3N").label == "wall cw"
    assert BuildGate("H3N").steps != BuildGate("H3N", True).steps


def test_a_space_where_no_rotation_fits_says_so():
    # T20 and T21 placed; the drawn tile 75 meets both edges on S20 in no way (DS-26, DS-28)
    st = pos("seats 3\ntile T20 23 90\ntile T21 65 90 citizen S seat 2\npiles 27 25 20\npile 1\n"
             "turn seat 3 number 3 drawn 75")
    assert "S20" not in {a.site for a in st.legal_actions(2)}
    with pytest.raises(IllegalOrderError, match=r"fits on S20 in no rotation \(for example, on S20 turned 0"):
        GAME.parse_action(st, 2, "tile S20 0")
    # a space where another rotation fits: the reason for the one named only
    # T20 a straight street N-S, drawn P07: U20 takes it turned 0, not 270 (as in EX-3)
    st = pos("seats 2\ntile T20 31 0\nturn seat 1 drawn 19")
    with pytest.raises(IllegalOrderError) as err:
        GAME.parse_action(st, 0, "tile U20 270")
    assert "on U20 turned 270" in str(err.value) and "no rotation" not in str(err.value)
