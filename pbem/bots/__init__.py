"""Bots that play any registered game through the engine API (issue 27;
docs/bots.md).

A bot answers one question: which of ``state.legal_actions(seat)`` to play
(:meth:`Bot.choose`). It reads the state only through ``legal_actions``,
``apply``, ``view``, ``scores``, ``is_terminal``, ``current_seats`` and the
game's ``redeal_hidden`` and ``evaluate``, and every state it plays forward
is first dealt again for its seat (:meth:`pbem.engine.api.Game.redeal_hidden`),
so what its seat may not see cannot change its choice
(tests/bots/test_no_peeking.py). This package imports only
:mod:`pbem.engine` (import-linter contract ``bots-engine-only``).

- ``random``: a legal order at random (:class:`RandomBot`);
- ``greedy``: the order whose position after it the game's evaluation likes
  best, one ply (:class:`GreedyBot`);
- ``standard``: information-set Monte Carlo tree search with playouts cut
  off and scored by the evaluation (:class:`StandardBot`).
"""
from __future__ import annotations

from pbem.bots.base import Bot, Budget, BotStats
from pbem.bots.mcts import StandardBot
from pbem.bots.simple import GreedyBot, RandomBot

#: bot name -> class
BOTS: dict[str, type[Bot]] = {"random": RandomBot, "greedy": GreedyBot, "standard": StandardBot}


def get_bot(name: str, budget: Budget | None = None) -> Bot:
    """A new bot by name (``"random"``, ``"greedy"``, ``"standard"``);
    ``budget`` is what the standard bot may spend per decision (the others
    ignore it). ``KeyError`` naming the known bots for an unknown name."""
    try:
        cls = BOTS[name]
    except KeyError:
        raise KeyError(f"unknown bot {name!r}; known: {', '.join(BOTS)}") from None
    return cls(budget) if budget is not None else cls()


__all__ = ["BOTS", "Bot", "BotStats", "Budget", "GreedyBot", "RandomBot", "StandardBot", "get_bot"]
