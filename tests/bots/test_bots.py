"""The bots (issue 27): legal choices, deterministic seeded runs, budgets,
the two-level tree of compound orders, greedy's one ply, and the bench's
interval."""
from __future__ import annotations

import random

import pytest

from pbem.bots import BOTS, Budget, GreedyBot, StandardBot, get_bot
from pbem.bots.base import margins, rewards
from pbem.bots.mcts import first_level
from pbem.engine import get_game
from pbem_dev.bench.bots import tournament, wilson


def _position(name: str, seats: int, seed: int, plies: int):
    game = get_game(name)
    state = game.new_state(seats, seed)
    rng = random.Random(seed)
    for _ in range(plies):
        seat = state.current_seats()[0]
        acts = state.legal_actions(seat)
        state.apply(seat, acts[rng.randrange(len(acts))])
    return state


@pytest.mark.parametrize("name,seats", [("lacitta", 3), ("medina", 3), ("diestadt", 2)])
@pytest.mark.parametrize("bot", sorted(BOTS))
def test_a_bot_chooses_a_legal_order_and_leaves_the_state_alone(name, seats, bot):
    state = _position(name, seats, 4, 20)
    seat = state.current_seats()[0]
    before = state.to_json()
    action = get_bot(bot, Budget(iterations=10)).choose(state, seat, random.Random(1))
    assert action in list(state.legal_actions(seat))
    assert state.to_json() == before


def test_a_seeded_standard_bot_budgeted_by_iterations_is_deterministic():
    state = _position("medina", 3, 2, 9)
    seat = state.current_seats()[0]
    picks = {StandardBot(Budget(iterations=40)).choose(state, seat, random.Random(5)) for _ in range(3)}
    assert len(picks) == 1


def test_the_standard_bot_counts_its_iterations_and_cpu():
    state = _position("lacitta", 2, 1, 3)
    seat = state.current_seats()[0]
    assert len(state.legal_actions(seat)) > 1
    bot = StandardBot(Budget(iterations=25))
    bot.choose(state, seat, random.Random(0))
    assert bot.stats.iterations == 25 and bot.stats.decisions == 1 and bot.stats.cpu > 0


def test_a_budget_in_seconds_ends_the_search():
    state = _position("diestadt", 2, 1, 4)
    seat = state.current_seats()[0]
    bot = StandardBot(Budget(seconds=0.05))
    bot.choose(state, seat, random.Random(0))
    assert 0.05 <= bot.stats.cpu < 1.0


@pytest.mark.parametrize("kw", [{}, {"seconds": 0}, {"iterations": 0}, {"seconds": -1.0}])
def test_a_budget_needs_a_positive_limit(kw):
    with pytest.raises(ValueError):
        Budget(**kw)


def test_an_unknown_bot_is_refused_by_name():
    with pytest.raises(KeyError, match="random, greedy, standard"):
        get_bot("clever")


def test_a_seat_that_owes_nothing_gets_no_choice():
    state = _position("medina", 3, 1, 2)
    idle = next(s for s in range(3) if s not in state.current_seats())
    with pytest.raises(ValueError):
        GreedyBot().choose(state, idle, random.Random(0))


def test_die_stadt_tile_orders_are_two_levels_tile_then_follower():
    """The tile's place and turn are the first level, the follower the second."""
    state = _position("diestadt", 2, 3, 0)
    acts = list(state.legal_actions(state.current_seats()[0]))
    levels = {first_level(a) for a in acts}
    assert None not in levels and 1 < len(levels) < len(acts)
    one = next(iter(levels))
    followers = [a for a in acts if first_level(a) == one]
    assert len({a.steps[-1] for a in followers}) == len(followers) > 1
    # Medina's orders are one level (a piece and a square)
    medina = _position("medina", 3, 3, 0)
    assert {first_level(a) for a in medina.legal_actions(medina.current_seats()[0])} == {None}


def test_greedy_takes_the_order_its_evaluation_likes_best():
    state = _position("diestadt", 2, 5, 6)
    seat = state.current_seats()[0]
    game = state.game
    pick = GreedyBot().choose(state, seat, random.Random(3))
    variant = game.redeal_hidden(state, seat, random.Random(3))

    def lead(a):
        after = variant.copy()
        after.apply(seat, a)
        return margins(game.evaluate(after))[seat]
    assert lead(pick) == max(lead(a) for a in state.legal_actions(seat))


def test_a_win_at_the_end_is_the_whole_reward_and_a_lead_before_it_more_than_half():
    state = _position("lacitta", 2, 1, 0)
    while not state.is_terminal():
        seat = state.current_seats()[0]
        state.apply(seat, state.legal_actions(seat)[0])
    r = rewards(state, 6.0)
    ranks = [s.rank for s in state.scores()]
    assert r == [1.0 if k == 1 else 0.0 for k in ranks] or sorted(r) == [0.5, 0.5]
    assert margins([3.0, 1.0, 2.0]) == [1.0, -2.0, -1.0]


def test_wilson_interval():
    low, high = wilson(19, 20)
    assert round(low, 3) == 0.764 and round(high, 3) == 0.991
    assert wilson(0, 0) == (0.0, 1.0)


def test_a_tournament_rotates_the_seats_on_paired_seeds():
    t = tournament("medina", 3, "greedy", "random", 3, Budget(iterations=1), seed=9)
    assert t.games == 3 and len(t.margins) == 3
    assert 0 <= t.wins <= 3 and t.decisions["a"] > 0 and t.iterations["a"] == 0


@pytest.mark.parametrize("name,seats", [("lacitta", 2), ("medina", 3), ("diestadt", 2)])
def test_at_the_end_the_evaluation_is_the_score(name, seats):
    state = _position(name, seats, 6, 0)
    rng = random.Random(6)
    while not state.is_terminal():
        seat = state.current_seats()[0]
        acts = state.legal_actions(seat)
        state.apply(seat, acts[rng.randrange(len(acts))])
    assert state.game.evaluate(state) == [float(s.points) for s in state.scores()]


def test_la_citta_citizens_without_food_count_against_their_seat():
    """A citizen the seat's food cannot feed leaves at the year's end, and
    the famine costs a political round: the evaluation counts both."""
    state = _position("lacitta", 2, 2, 6)
    game = state.game
    fed = state.copy()
    fed.food[0] = 50
    hungry = state.copy()
    hungry.food[0] = 0
    short = hungry.citizens(0) - hungry.harvest_bonus(0)
    assert short > 0
    drop = game.evaluate(fed)[0] - game.evaluate(hungry)[0]
    assert drop == short + 1
    assert game.evaluate(fed)[1] == game.evaluate(hungry)[1]


def test_medina_keeps_a_dome_for_a_larger_palace_than_one_piece():
    """At the start a one-piece palace is worth less than the dome kept."""
    game = get_game("medina")
    state = game.new_state(3, 1)
    rng = random.Random(1)
    while True:
        seat = state.current_seats()[0]
        acts = list(state.legal_actions(seat))
        domes = [a for a in acts if a.to_text().startswith("dome")]
        if domes:
            break
        state.apply(seat, acts[rng.randrange(len(acts))])
    pick = GreedyBot().choose(state, seat, random.Random(0))
    assert not pick.to_text().startswith("dome")


def test_the_bench_command_prints_the_figures_and_refuses_an_unknown_bot():
    from click.testing import CliRunner

    from pbem_dev.bench.cli import bench
    run = CliRunner().invoke(bench, ["bots", "--game", "medina", "--seats", "3", "--a", "greedy",
                                     "--b", "random", "--games", "3"])
    assert run.exit_code == 0, run.output
    assert "win rate of greedy" in run.output and "Wilson 95 %" in run.output
    assert "ms CPU per decision" in run.output
    bad = CliRunner().invoke(bench, ["bots", "--game", "medina", "--seats", "3", "--a", "clever"])
    assert bad.exit_code != 0 and "unknown bot" in bad.output
