"""One check per placement rule (pbem/engine/medina/squares.py): the same
check lists the legal placements, accepts an order and words a refusal, so
the three can never disagree. Checked over every placement that can exist
in positions of random games (hypothesis), and on the lone seat's refusals,
where the dome rule and the other rules meet."""
import random

import pytest
from hypothesis import given, settings, strategies as S

from pbem.engine import IllegalOrderError
from pbem.engine.medina import board as B
from pbem.engine.medina.actions import Place
from pbem.engine.medina.pieces import PALACE_COLOURS
from pbem.engine.medina.turns import refusal
from pbem.engine.messages import Msg

from .helpers import GAME, board, play, pos
from .test_medina_end_scoring import lone

EVERY_PLACEMENT = (
    [Place(k, B.square_name(i)) for k in ("merchant", "stable", "dome") for i in range(B.SQUARES)]
    + [Place("palace", B.square_name(i), c) for c in PALACE_COLOURS for i in range(B.SQUARES)]
    + [Place("wall", B.wall_name(w)) for w in range(B.WALLS)])


def check_every_placement(st, seat):
    legal = set(st.legal_actions(seat))
    for a in EVERY_PLACEMENT:
        why = refusal(st, seat, a)
        assert (why is None) == (a in legal), (a.to_text(), why, st.phase())
        assert why is None or (isinstance(why, Msg) and why.strip())


@settings(max_examples=5, deadline=None)
@given(seats=S.sampled_from([3, 4]), seed=S.integers(0, 2**31))
def test_the_refusal_is_none_exactly_for_the_legal_placements(seats, seed):
    st = GAME.new_state(seats, seed)
    rng = random.Random(seed)
    checked = 0
    while not st.is_terminal():
        (seat,) = st.current_seats()
        if st.step % 11 == 0 or st.lone:
            check_every_placement(st, seat)
            checked += 1
        st.apply(seat, rng.choice(st.legal_actions(seat)))
    assert checked > 8


@settings(max_examples=3, deadline=None)
@given(seats=S.sampled_from([3, 4]), seed=S.integers(0, 2**31))
def test_a_refused_placement_is_refused_with_its_reason_and_changes_nothing(seats, seed):
    st = GAME.new_state(seats, seed)
    rng = random.Random(seed)
    refused = 0
    while not st.is_terminal():
        (seat,) = st.current_seats()
        legal = set(st.legal_actions(seat))
        for a in rng.sample(EVERY_PLACEMENT, 3):
            if a in legal:
                continue
            before = st.to_json()
            with pytest.raises(IllegalOrderError) as err:
                st.apply(seat, a)
            assert err.value.message == refusal(st, seat, a)
            with pytest.raises(IllegalOrderError) as err:
                GAME.parse_action(st, seat, a.to_text())
            assert str(refusal(st, seat, a)) in str(err.value)
            assert st.to_json() == before
            refused += 1
        st.apply(seat, rng.choice(sorted(legal, key=lambda a: a.to_text())))
    assert refused > 50


def test_the_lone_seats_first_piece_hears_its_own_rule_before_the_dome_rule():
    # a merchant on a palace piece is refused as taken, not for the dome after it
    st = lone([". . . . g . . . . . . . . . . ."], first_row=5, me="merchants 1 walls 3 domes 1")
    with pytest.raises(IllegalOrderError, match="E5 is taken by a piece of the grey palace at E5"):
        play(st, "merchant E5")


def test_the_lone_seats_second_piece_hears_first_that_it_must_be_a_dome():
    # no stable is behind the screen either, but the dome is what is owed
    st = lone([". . . . g . . . . . . . . . . ."], first_row=5)
    play(st, "wall W1")
    with pytest.raises(IllegalOrderError, match="place a dome now"):
        play(st, "stable F5")


def test_a_stable_between_two_palaces_names_the_other_palace():
    st = pos(f"seats 3\nturn seat 1 piece 1\n{board('. . g . k . . . . . . . . . . .', first_row=4)}")
    with pytest.raises(IllegalOrderError, match="would touch the (grey|black) palace at"):
        play(st, "stable D4")
