"""The two simple bots: :class:`RandomBot` (a legal order at random) and
:class:`GreedyBot` (one ply over the game's evaluation)."""
from __future__ import annotations

import random
from typing import Sequence

from pbem.bots.base import Bot, margins
from pbem.engine.api import Action, State


class RandomBot(Bot):
    """A legal order, uniformly at random (tests and the bench)."""

    name = "random"

    def _choose(self, state: State, seat: int, acts: Sequence[Action], rng: random.Random) -> Action:
        return acts[rng.randrange(len(acts))]


class GreedyBot(Bot):
    """One ply: deals the hidden information again for its seat once
    (:meth:`~pbem.engine.api.Game.redeal_hidden`), plays each legal order on
    a copy of that variant and keeps the order after which its lead in the
    game's evaluation (:meth:`~pbem.engine.api.Game.evaluate`: its value
    minus the best other seat's) is largest; equal leads are split at random."""

    name = "greedy"

    def _choose(self, state: State, seat: int, acts: Sequence[Action], rng: random.Random) -> Action:
        game = state.game
        variant = game.redeal_hidden(state, seat, rng)
        best: list[Action] = []
        best_lead = float("-inf")
        for action in acts:
            after = variant.copy()
            after.apply(seat, action)
            lead = margins(game.evaluate(after))[seat]
            if lead > best_lead + 1e-9:
                best, best_lead = [action], lead
            elif lead > best_lead - 1e-9:
                best.append(action)
        return best[rng.randrange(len(best))]
