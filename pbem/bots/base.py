"""What every bot shares: :class:`Bot` (the one question a bot answers),
its :class:`Budget` per decision, the :class:`BotStats` it keeps, and how a
position is read as a reward between 0 and 1 for one seat (:func:`rewards`)."""
from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass
from typing import Sequence

from pbem.engine.api import Action, State


@dataclass(frozen=True)
class Budget:
    """What a bot may spend on one decision: ``seconds`` of CPU time of its
    process (``time.process_time``), or ``iterations`` of search, whichever
    is given (both: whichever ends first). A run budgeted by iterations
    alone is deterministic for a seeded ``rng``; one budgeted by seconds
    depends on the machine's speed. ``ValueError`` when neither is given or
    one is not positive."""

    seconds: float | None = None
    iterations: int | None = None

    def __post_init__(self) -> None:
        if self.seconds is None and self.iterations is None:
            raise ValueError("a budget needs seconds or iterations")
        if (self.seconds is not None and self.seconds <= 0) or \
                (self.iterations is not None and self.iterations < 1):
            raise ValueError("a budget must be positive")


@dataclass
class BotStats:
    """What a bot has spent so far: ``decisions`` answered, search
    ``iterations`` run, ``cpu`` seconds (process time) spent in :meth:`Bot.choose`."""

    decisions: int = 0
    iterations: int = 0
    cpu: float = 0.0


class Bot:
    """A player for any game. Subclasses implement :meth:`_choose`."""

    name = "bot"

    def __init__(self, budget: Budget | None = None) -> None:
        self.budget = budget or Budget(seconds=1.0)
        self.stats = BotStats()

    def choose(self, state: State, seat: int, rng: random.Random) -> Action:
        """One of ``state.legal_actions(seat)`` for ``seat`` to play now.
        ``state`` is not changed; ``rng`` is the bot's only source of chance
        (the same state, seat and seed give the same choice for a budget in
        iterations). ``ValueError`` when ``seat`` owes no decision."""
        acts = state.legal_actions(seat)
        if not len(acts):
            raise ValueError(f"seat {seat} owes no decision")
        t0 = time.process_time()
        action = acts[0] if len(acts) == 1 else self._choose(state, seat, acts, rng)
        self.stats.decisions += 1
        self.stats.cpu += time.process_time() - t0
        return action

    def _choose(self, state: State, seat: int, acts: Sequence[Action], rng: random.Random) -> Action:
        raise NotImplementedError


def mover(state: State, rng: random.Random) -> int:
    """The seat to decide next in a game played forward: the one seat that
    owes a decision, or one of several at random (decisions made at once)."""
    cur = state.current_seats()
    return cur[0] if len(cur) == 1 else cur[rng.randrange(len(cur))]


def margins(values: Sequence[float]) -> list[float]:
    """Each seat's value minus the best of the others' (a lead when positive)."""
    out = []
    for s, v in enumerate(values):
        others = [w for t, w in enumerate(values) if t != s]
        out.append(v - max(others) if others else v)
    return out


def rewards(state: State, scale: float) -> list[float]:
    """Each seat's reward for ``state``, 0..1: at the end 1 for a win (shared
    equally on a tie for first), 0 otherwise; before it, the logistic of the
    seat's lead in the game's evaluation over ``scale`` points
    (:meth:`pbem.engine.api.Game.evaluate`, ``evaluation_scale``)."""
    if state.is_terminal():
        scores = state.scores()
        winners = [s.seat for s in scores if s.rank == 1]
        share = 1.0 / len(winners) if winners else 0.0
        return [share if s.seat in winners else 0.0 for s in scores]
    return [1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, m / scale))))
            for m in margins(state.game.evaluate(state))]
