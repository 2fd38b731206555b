"""Bot tournaments (``pbem bench bots``; docs/bots.md): one bot ``a``
against ``seats - 1`` copies of bot ``b``, on paired seeds with the seats
rotated, so every seed is played with ``a`` in each seat.

A win is finishing first (:attr:`Score.rank` 1); a first place shared by k
seats counts 1/k. The interval is Wilson's 95 % score interval.
"""
from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass, field

import click

from pbem.bots import Budget, StandardBot, get_bot
from pbem.engine import get_game


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """Wilson's score interval for ``wins`` of ``n`` (fractions allowed),
    as ``(low, high)`` between 0 and 1; ``(0.0, 1.0)`` for no games."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


@dataclass
class Tournament:
    """The tally: ``games`` played, ``wins`` of bot a, ``margins`` (a's
    points minus the best other seat's, one per game), CPU seconds and
    decisions and search iterations of each side."""

    game: str
    seats: int
    a: str
    b: str
    games: int = 0
    wins: float = 0.0
    margins: list[int] = field(default_factory=list)
    cpu: dict[str, float] = field(default_factory=lambda: {"a": 0.0, "b": 0.0})
    decisions: dict[str, int] = field(default_factory=lambda: {"a": 0, "b": 0})
    iterations: dict[str, int] = field(default_factory=lambda: {"a": 0, "b": 0})

    def lines(self) -> list[str]:
        """The figures as printed (win rate and interval, score difference,
        CPU per decision, iterations per second)."""
        low, high = wilson(self.wins, self.games)
        rate = self.wins / self.games if self.games else 0.0
        mean = sum(self.margins) / len(self.margins) if self.margins else 0.0
        out = [f"{self.game}, {self.seats} seats: {self.a} (1 seat) vs {self.b} ({self.seats - 1}), "
               f"{self.games} games",
               f"win rate of {self.a}: {100 * rate:.1f} % (Wilson 95 %: {100 * low:.1f}-{100 * high:.1f} %; "
               f"fair share {100 / self.seats:.1f} %)",
               f"mean score difference ({self.a} minus best other): {mean:+.2f}"]
        for side, name in (("a", self.a), ("b", self.b)):
            d = self.decisions[side]
            cpu = self.cpu[side]
            it = self.iterations[side]
            line = f"{name} ({side}): {1000 * cpu / d if d else 0:.1f} ms CPU per decision, {d} decisions"
            if it:
                line += f", {it / cpu if cpu else 0:.0f} iterations/s"
            out.append(line)
        return out


def play_one(game_name: str, seats: int, bots: list, seed: int, rng: random.Random, options: dict):
    """One game from ``seed`` with ``bots[s]`` deciding for seat ``s``;
    returns the final :class:`Score` list."""
    state = get_game(game_name).new_state(seats, seed, **options)
    while not state.is_terminal():
        cur = state.current_seats()
        seat = cur[0] if len(cur) == 1 else cur[rng.randrange(len(cur))]
        state.apply(seat, bots[seat].choose(state, seat, rng))
    return state.scores()


def make_bot(name: str, budget: Budget, depth: int | None = None):
    """Bot ``name`` with ``budget`` (the standard bot's playout ``depth`` when given)."""
    if name == "standard" and depth is not None:
        return StandardBot(budget, depth=depth)
    return get_bot(name, budget)


def tournament(game_name: str, seats: int, a: str, b: str, games: int, budget: Budget,
               seed: int = 0, options: dict | None = None, echo=None, depth: int | None = None) -> Tournament:
    """Play ``games`` games (rounded up to whole rotations of the seats);
    seed ``seed + k`` is played ``seats`` times, a in seat 0, 1, ..."""
    t = Tournament(game_name, seats, a, b)
    rounds = max(1, math.ceil(games / seats))
    for k in range(rounds):
        for a_seat in range(seats):
            bots = [make_bot(a if s == a_seat else b, budget, depth) for s in range(seats)]
            rng = random.Random((seed + k) * 1_000_003 + a_seat)
            scores = play_one(game_name, seats, bots, seed + k, rng, options or {})
            firsts = [s.seat for s in scores if s.rank == 1]
            t.games += 1
            t.wins += 1 / len(firsts) if a_seat in firsts else 0.0
            mine = scores[a_seat].points
            t.margins.append(mine - max(s.points for s in scores if s.seat != a_seat))
            for s, bot in enumerate(bots):
                side = "a" if s == a_seat else "b"
                t.cpu[side] += bot.stats.cpu
                t.decisions[side] += bot.stats.decisions
                t.iterations[side] += bot.stats.iterations
            if echo:
                da = t.decisions["a"]
                echo(f"  seed {seed + k}, {a} in seat {a_seat + 1}: points "
                     f"{[s.points for s in scores]}, firsts {[f + 1 for f in firsts]}; so far "
                     f"{t.wins:g}/{t.games} wins, {1000 * t.cpu['a'] / da if da else 0:.0f} ms per decision of {a}")
    return t


@click.command("bots")
@click.option("--game", "game_name", required=True, help="registered game name, e.g. lacitta")
@click.option("--seats", type=int, required=True, help="number of seats (a takes one, b the others)")
@click.option("--a", "a", default="standard", show_default=True, help="the bot measured")
@click.option("--b", "b", default="greedy", show_default=True, help="the bot in every other seat")
@click.option("--games", type=int, default=20, show_default=True,
              help="games to play (rounded up to whole rotations of the seats)")
@click.option("--budget", type=float, default=1.0, show_default=True, help="CPU seconds per decision")
@click.option("--iterations", type=int, default=None,
              help="search iterations per decision instead of seconds (deterministic)")
@click.option("--seed", type=int, default=0, show_default=True, help="first seed")
@click.option("--depth", type=int, default=None, help="the standard bot's playout depth (default: its own)")
@click.option("--option", "opts", multiple=True, metavar="KEY=VALUE", help="game option")
@click.option("--verbose", is_flag=True, help="a line per game")
@click.option("--profile", is_flag=True, help="print a cProfile summary (slower)")
@click.option("--machine", is_flag=True, help="first print the machine line (pbem_dev/bench/machine.py)")
def bots(game_name: str, seats: int, a: str, b: str, games: int, budget: float, iterations: int | None,
         seed: int, depth: int | None, opts: tuple[str, ...], verbose: bool, profile: bool, machine: bool) -> None:
    """A tournament of bot A against bot B: win rate with a Wilson 95 %
    interval, mean score difference, CPU per decision, iterations per second."""
    from pbem.bots import BOTS
    from pbem.engine import GAMES

    if game_name not in GAMES:
        raise click.BadParameter(f"unknown game; known: {', '.join(sorted(GAMES))}", param_hint="--game")
    for name, hint in ((a, "--a"), (b, "--b")):
        if name not in BOTS:
            raise click.BadParameter(f"unknown bot; known: {', '.join(BOTS)}", param_hint=hint)
    g = GAMES[game_name]
    if not g.min_seats <= seats <= g.max_seats:
        raise click.BadParameter(f"{g.title} takes {g.min_seats}..{g.max_seats} seats", param_hint="--seats")
    spend = Budget(iterations=iterations) if iterations else Budget(seconds=budget)
    if machine:
        from pbem_dev.bench.machine import line
        click.echo(line())
    options = dict(o.split("=", 1) for o in opts)
    t0 = time.process_time()
    run = lambda: tournament(game_name, seats, a, b, games, spend, seed, options,  # noqa: E731
                             click.echo if verbose else None, depth)
    if profile:
        import cProfile
        import pstats
        prof = cProfile.Profile()
        result = prof.runcall(run)
        pstats.Stats(prof).sort_stats("tottime").print_stats(20)
    else:
        result = run()
    click.echo(f"budget: {f'{iterations} iterations' if iterations else f'{budget} s CPU'} per decision; "
               f"{time.process_time() - t0:.0f} s CPU in all")
    for line_ in result.lines():
        click.echo(line_)
