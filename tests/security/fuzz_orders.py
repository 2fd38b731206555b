"""Coverage-guided fuzzing of the order (command) parsers with atheris.

    .venv/bin/python tests/security/fuzz_orders.py -runs=100000 -max_len=300

Each input is read as order text for the seat to move in La Città and
Medina positions. Anything raised other than an OrderError is a crash, and
so is a parsed order that is not legal or a position changed by parsing.
"""
import random
import sys

import atheris

with atheris.instrument_imports():
    from pbem.engine import OrderError, get_game


def positions():
    out = []
    for name, kwargs in (("lacitta", {"setup": "beginner"}), ("medina", {})):
        game = get_game(name)
        rng = random.Random(3)
        state = game.new_state(3, 11, **kwargs)
        for _ in range(12):
            out.append((game, state.copy()))
            seat = state.current_seats()[0]
            state.apply(seat, rng.choice(state.legal_actions(seat)))
    return out


POSITIONS = positions()


def one_input(data: bytes) -> None:
    fdp = atheris.FuzzedDataProvider(data)
    game, state = POSITIONS[fdp.ConsumeIntInRange(0, len(POSITIONS) - 1)]
    text = fdp.ConsumeUnicodeNoSurrogates(400)
    seat = state.current_seats()[0]
    before = state.to_json()
    try:
        action = game.parse_action(state, seat, text)
    except OrderError:
        assert state.to_json() == before
        return
    assert state.to_json() == before
    trial = state.copy()
    trial.apply(seat, action)  # a parsed order is legal


if __name__ == "__main__":
    atheris.Setup(sys.argv, one_input)
    atheris.Fuzz()
