"""Helpers for the Die Stadt scenario tests: positions from text
(:mod:`pbem.engine.diestadt.position`), orders by text."""
from __future__ import annotations

from pbem.engine import get_game
from pbem.engine.diestadt.position import load_position

GAME = get_game("diestadt")

#: T20 (tile 1) and T21 (tile 19, a dead end whose street leaves south): the
#: drawn P07 (tile 20) on T22 turned 0 completes the two-tile street T21-T22
TRIGGER = "tile T20 1 0\ntile T21 19 180\n"

#: :data:`TRIGGER` walled on every side but the south: three more pieces
#: round T22 close the wall
WALLED_COLUMN = TRIGGER + """gate T20 N
wall cw T20 E
wall cw T21 E
wall ccw T20 W
wall ccw T21 W
"""


#: a 2x2 block with a dead end on U20 pointing east; gate on T20 W with one
#: piece each way. The drawn T crossing on V20 (arms E, S, W) completes the
#: street U20-V20 and starts a wall round.
END = """seats 3
tile T20 1 0
tile U20 19 90
tile T21 2 0
tile U21 3 0
gate T20 W
wall cw
wall ccw
piles 0 20 20
turn seat 1 drawn 62
"""


def pos(text: str):
    return load_position(text, GAME)


def play(state, *orders: str) -> list[str]:
    """Apply ``orders`` for whoever decides now; return the events' texts."""
    texts = []
    for order in orders:
        seat = state.current_seats()[0]
        action = GAME.parse_action(state, seat, order)
        texts += [e.text for e in state.apply(seat, action)]
    return texts


def legal(state, seat=None) -> set[str]:
    seat = state.current_seats()[0] if seat is None else seat
    return {a.to_text() for a in state.legal_actions(seat)}


def points(state) -> list[int]:
    return [s.points for s in state.scores()]


def detail(state, seat: int) -> dict[str, int]:
    return dict(state.points[seat])


def random_play(seats: int, seed: int, moves: int):
    """A random legal game (seeded): yield the state before each of up to
    ``moves`` decisions, then make a random legal one."""
    import random

    rng = random.Random(seed)
    state = GAME.new_state(seats, seed)
    for _ in range(moves):
        if state.is_terminal():
            return
        yield state
        seat = state.current_seats()[0]
        acts = state.legal_actions(seat)
        state.apply(seat, acts[rng.randrange(len(acts))])
