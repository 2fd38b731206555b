"""What the search bots pay per operation (``pbem bench search``;
docs/bots.md "Speed"): the microseconds of ``copy``, ``redeal_hidden``,
``legal_actions``, ``apply`` and ``evaluate`` on the positions of random
games, each timed over every position of the games, CPU time."""
from __future__ import annotations

import random
import time

import click

from pbem.engine import get_game


def positions(name: str, seats: int, games: int, seed: int = 0) -> list:
    """Every position (before each decision) of ``games`` random games."""
    game = get_game(name)
    out = []
    for g in range(games):
        rng = random.Random(seed + g)
        state = game.new_state(seats, seed + g)
        while not state.is_terminal():
            out.append(state.copy())
            seat = state.current_seats()[0]
            acts = state.legal_actions(seat)
            state.apply(seat, acts[rng.randrange(len(acts))])
    return out


def measure(name: str, seats: int, games: int = 3, seed: int = 0) -> dict[str, float]:
    """Microseconds per call of each operation, over the positions of
    ``games`` random games (``legal_actions`` on a fresh copy, so no cache
    of the position counts; ``apply`` of a random legal order)."""
    game = get_game(name)
    states = positions(name, seats, games, seed)
    rng = random.Random(seed)
    clock = time.process_time
    out: dict[str, float] = {}

    t0 = clock()
    for s in states:
        s.copy()                         # not kept: a search drops its copies
    out["copy"] = clock() - t0
    copies = [s.copy() for s in states]
    t0 = clock()
    for s in states:
        game.redeal_hidden(s, s.current_seats()[0], rng)
    out["redeal_hidden"] = clock() - t0
    t0 = clock()
    legal = [c.legal_actions(c.current_seats()[0]) for c in copies]
    out["legal_actions"] = clock() - t0
    picks = [acts[rng.randrange(len(acts))] for acts in legal]
    t0 = clock()
    for c, a in zip(copies, picks):
        c.apply(c.current_seats()[0], a)
    out["apply"] = clock() - t0
    t0 = clock()
    for c in copies:
        game.evaluate(c)
    out["evaluate"] = clock() - t0
    return {k: 1e6 * v / len(states) for k, v in out.items()}


@click.command("search")
@click.option("--game", "game_name", required=True, help="registered game name")
@click.option("--seats", type=int, required=True)
@click.option("--games", type=int, default=3, show_default=True, help="random games whose positions are timed")
@click.option("--machine", is_flag=True, help="first print the machine line")
def search(game_name: str, seats: int, games: int, machine: bool) -> None:
    """Microseconds per copy, redeal_hidden, legal_actions, apply and evaluate."""
    if machine:
        from pbem_dev.bench.machine import line
        click.echo(line())
    figures = measure(game_name, seats, games)
    click.echo(f"{game_name}, {seats} seats: " + ", ".join(f"{k} {v:.0f} us" for k, v in figures.items()))
