"""Games of the three kinds for the API tests, every seat joined."""
from __future__ import annotations

from pbem.service.play.lifecycle import create_game, join_game
from tests.webapp import PLAYERS

OPTIONS = {"lacitta": {"setup": "beginner"}}


def new_game(kind: str, seats: int = 3, seed: int = 5) -> int:
    game = create_game(kind, PLAYERS[0][1], PLAYERS[:seats], options=OPTIONS.get(kind), seed=seed)
    for i in range(1, seats):
        join_game(game.id, i)
    return game.id
