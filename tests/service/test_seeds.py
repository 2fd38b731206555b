"""Issue #12, 48-bit seeds: every new game gets 128 secret random bits,
stored exactly (SQLite and PostgreSQL: ``BigSeed``), and replays from them."""
from __future__ import annotations

import random

from pbem.service.core.db import db
from pbem.service.core.models import Game
from pbem.service.core.snapshot import engine_state
from pbem.service.play.lifecycle import create_game, join_game
from pbem.service.play.orders import submit_orders
from pbem.service.play.replay import state_at

from .helpers import PLAYERS, game


def test_new_seeds_carry_128_random_bits():
    from pbem.service.play.lifecycle import SEED_BITS, new_seed

    seeds = [new_seed() for _ in range(64)]
    assert SEED_BITS >= 128
    assert all(2 ** 128 <= s < 2 ** 129 for s in seeds)
    assert len(set(seeds)) == 64
    # the random part is not confined to the low 64 bits
    assert any(s >> 64 & (2 ** 64 - 1) for s in seeds)


def test_a_new_game_gets_a_128_bit_seed_stored_exactly_and_replays(app, t0):
    gid = create_game("lacitta", PLAYERS[0][1], PLAYERS, options={"setup": "beginner"}, now=t0).id
    other = create_game("lacitta", PLAYERS[0][1], PLAYERS, options={"setup": "beginner"}, now=t0).id
    seed = game(gid).seed
    assert seed >= 2 ** 128 and game(other).seed != seed
    for i in (1, 2):
        join_game(gid, i, now=t0)
    db.session.expire_all()
    assert db.session.get(Game, gid).seed == seed  # read back from the database, every bit
    rnd = random.Random(4)
    for _ in range(12):
        state = engine_state(game(gid))
        seat = state.current_seats()[0]
        submit_orders(gid, seat, rnd.choice(state.legal_actions(seat)).to_text(), expected_step=state.step,
                      source="web", now=t0)
    now = engine_state(game(gid))
    assert now.step > 0
    assert state_at(gid).to_json() == now.to_json()
