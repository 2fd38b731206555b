"""Random-play benchmark of any registered game (used by ``pbem bench engine``).

Plays complete games with uniformly random legal orders (seeded) and times
them in CPU seconds of this process (one core).  ``legal_actions`` calls are
timed separately (µs per call) with the wall clock: ``time.process_time`` is
a system call, and two per decision cost Die Stadt's figure 7 % (py-spy).
"""
from __future__ import annotations

import random
import time
from dataclasses import dataclass

from pbem.engine import get_game


@dataclass
class BenchResult:
    game: str
    seats: int
    games: int
    seconds: float
    decisions: int
    legal_calls: int
    legal_seconds: float

    @property
    def games_per_s(self) -> float:
        return self.games / self.seconds if self.seconds else float("inf")

    @property
    def decisions_per_game(self) -> float:
        return self.decisions / self.games if self.games else 0.0

    @property
    def us_per_legal(self) -> float:
        return 1e6 * self.legal_seconds / self.legal_calls if self.legal_calls else 0.0

    def line(self) -> str:
        return (f"{self.game}: {self.games_per_s:.1f} games/s, {self.decisions_per_game:.1f} decisions/game, "
                f"{self.us_per_legal:.1f} us per legal_actions call")


def play_random(name: str, seats: int, games: int, seed: int = 0, **options) -> BenchResult:
    game = get_game(name)
    # CPU time of this process: the figure for one core, steady even when
    # other work shares the machine
    clock, tick = time.process_time, time.perf_counter
    decisions = calls = 0
    legal_t = 0.0
    t0 = clock()
    for g in range(games):
        rng = random.Random(seed * 1_000_003 + g)
        state = game.new_state(seats, seed * 1_000_003 + g, **options)
        while not state.is_terminal():
            cur = state.current_seats()
            seat = cur[0] if len(cur) == 1 else rng.choice(cur)
            t1 = tick()
            acts = state.legal_actions(seat)
            legal_t += tick() - t1
            calls += 1
            state.apply(seat, acts[rng.randrange(len(acts))])
            decisions += 1
    return BenchResult(name, seats, games, clock() - t0, decisions, calls, legal_t)
