"""A bot sees nothing hidden (issue 27, section 2): its choice, with a fixed
rng, is the same for two states that differ only in what
``Game.redeal_hidden`` changes for its seat, in all three games."""
from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from pbem.bots import Budget, GreedyBot, RandomBot, StandardBot
from pbem.bots.base import Bot
from pbem.engine import get_game

GAMES = (("lacitta", 2, 5), ("medina", 3, 4), ("diestadt", 2, 4))


def _position(name: str, seats: int, seed: int, plies: int):
    """A position after ``plies`` random decisions of a new game."""
    game = get_game(name)
    state = game.new_state(seats, seed)
    rng = random.Random(seed)
    for _ in range(plies):
        if state.is_terminal():
            break
        seat = state.current_seats()[0]
        acts = state.legal_actions(seat)
        state.apply(seat, acts[rng.randrange(len(acts))])
    return game, state


def _bots() -> list[Bot]:
    return [RandomBot(), GreedyBot(), StandardBot(Budget(iterations=12), depth=4)]


positions = st.tuples(st.sampled_from(GAMES), st.integers(0, 10_000), st.integers(0, 120),
                      st.integers(0, 10_000), st.integers(0, 10_000))


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions)
def test_a_bots_choice_ignores_what_its_seat_cannot_see(case):
    (name, low, high), seed, plies, redeal_seed, bot_seed = case
    seats = low + seed % (high - low + 1)
    game, state = _position(name, seats, seed, plies)
    if state.is_terminal():
        return
    seat = state.current_seats()[-1]
    other = game.redeal_hidden(state, seat, random.Random(redeal_seed))
    if name != "medina" or seats > 1:
        # the two states differ in what is hidden (deck and pile orders, screens)
        assert other.to_json() != state.to_json() or name == "medina"
    for bot in _bots():
        a = bot.choose(state, seat, random.Random(bot_seed))
        b = bot.choose(other, seat, random.Random(bot_seed))
        assert a == b, (bot.name, a.to_text(), b.to_text())


@pytest.mark.parametrize("name,seats", [("lacitta", 3), ("diestadt", 2)])
def test_the_variant_itself_reads_nothing_hidden(name, seats):
    """What the bots rely on: a variant of either state is the same state
    for the same rng (Game.redeal_hidden deals from a canonical order)."""
    game, state = _position(name, seats, 7, 30)
    seat = state.current_seats()[0]
    other = game.redeal_hidden(state, seat, random.Random(1))
    assert other.to_json() != state.to_json()
    assert game.redeal_hidden(state, seat, random.Random(2)).to_json() == \
        game.redeal_hidden(other, seat, random.Random(2)).to_json()


class PeekingBot(Bot):
    """Reads the real state's hidden part: the test above must catch it."""

    name = "peeking"

    def _choose(self, state, seat, acts, rng):
        return acts[hash(state.to_json()) % len(acts)]


def test_the_property_catches_a_bot_that_peeks():
    game, state = _position("diestadt", 2, 3, 10)
    seat = state.current_seats()[0]
    assert len(state.legal_actions(seat)) > 1
    bot = PeekingBot()
    choices = set()
    for k in range(8):
        other = game.redeal_hidden(state, seat, random.Random(k))
        choices.add(bot.choose(other, seat, random.Random(0)))
    assert len(choices) > 1
