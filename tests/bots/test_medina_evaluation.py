"""Medina's evaluation for the bots (pbem/engine/medina/evaluate.py,
docs/bots.md), term by term: a named position where the term must make one
order better than another for the seat to move (its lead over the best
other seat after the order, as greedy reads it)."""
from __future__ import annotations

import random

import pytest
from hypothesis import given, settings, strategies as st

from pbem.bots import GreedyBot
from pbem.bots.base import margins
from pbem.engine import get_game
from pbem.engine.medina import evaluate as E
from pbem.engine.medina.position import load_position

GAME = get_game("medina")
EMPTY_ROW = ". " * 16


def _pos(rows: dict[int, str], *extra: str, seats: int = 3):
    lines = [rows.get(n + 1, EMPTY_ROW) for n in range(11)]
    board = "\n".join(f"{n + 1:>2} {r}" for n, r in enumerate(lines))
    return load_position("\n".join([f"seats {seats}", *extra[:1], board, *extra[1:]]), GAME)


def _lead(state, order: str) -> float:
    seat = state.current_seats()[0]
    after = state.copy()
    after.apply(seat, GAME.parse_action(after, seat, order))
    return margins(GAME.evaluate(after))[seat]


def test_a_dome_waits_while_most_of_its_colour_is_still_to_come():
    """DOMES counts every seat's pieces of the colour not yet on the board,
    not only the seat's own: seat 1 has placed all its grey pieces, but 12
    of the 18 are still behind the screens, so claiming the two-piece grey
    palace now (2 points) is worse than a neutral wall piece."""
    state = _pos({2: ". g g g g . . . . . . . . . . .",
                  6: ". . . . . . . . g g . . . . . ."},
                 "turn seat 1 piece 1 number 9", "dome C2 seat 2", "supply seat 1 grey 0")
    assert E.colour_left(state)["grey"] == 1 - 6 / 18
    assert _lead(state, "wall W17") > _lead(state, "dome I6")


def test_a_dome_claims_a_large_palace_once_its_colour_is_nearly_all_built():
    """The other side of DOMES: with 16 of the 18 grey pieces on the board,
    the grey palace of six under construction is worth claiming with the
    turn's second piece (a first piece would wait: the second may claim it)."""
    state = _pos({2: ". g g g g g g g g g g . . . . .",
                  6: ". . . . . . g g g g g g . . . ."},
                 "turn seat 1 piece 2 number 20", "dome C2 seat 2")
    assert _lead(state, "dome I6") > _lead(state, "wall W17")
    pick = GreedyBot().choose(state, 0, random.Random(0))
    assert pick.to_text().startswith("dome")


def test_an_open_palace_counts_in_full_for_the_seat_that_can_claim_it_now():
    """OPEN: on its second piece the seat to move may claim the black palace
    under construction at once; the seats after it only perhaps."""
    state = _pos({4: ". . . . k k k k . . . . . . . ."},
                 "turn seat 1 piece 2 number 5")
    values = GAME.evaluate(state)
    assert E.open_share(state, 0) == E.OPEN > E.open_share(state, 1) == E.OPEN_LATER
    assert values[0] - values[1] == pytest.approx((E.OPEN - E.OPEN_LATER) * 4)


def test_a_piece_is_not_added_to_a_palace_the_next_seat_may_claim():
    """OPEN_NEXT: seat 1 owns the black palace's colour already; another
    black piece on the palace under construction grows it for seat 2, who
    moves next with two pieces (one to add, a dome to claim): a wall piece
    away from it is better."""
    state = _pos({2: ". k k k . . . . . . . . . . . .",
                  6: ". . . . . . . . k k k . . . . ."},
                 "turn seat 1 piece 2 number 7", "dome C2 seat 1")
    assert _lead(state, "wall W17") > _lead(state, "palace black L6")


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10_000), plies=st.integers(0, 90))
def test_the_evaluation_is_symmetric_in_what_the_seats_hold(seed, plies):
    """Invariant: seats that own nothing, keep the same pieces and are not
    to move are valued alike (no seat favoured by its number)."""
    state = GAME.new_state(3, seed)
    rng = random.Random(seed)
    for _ in range(plies):
        if state.is_terminal():
            break
        seat = state.current_seats()[0]
        acts = state.legal_actions(seat)
        state.apply(seat, acts[rng.randrange(len(acts))])
    values = GAME.evaluate(state)
    others = [s for s in range(3) if state.is_terminal() or s != state.seat]
    for a in others:
        for b in others:
            if state.supply[a] == state.supply[b] and state.claimed[a] == state.claimed[b] \
                    and state.scores()[a].points == state.scores()[b].points:
                assert values[a] == values[b]
