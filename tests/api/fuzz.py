"""The world the API fuzzing runs in (tests/api/test_fuzz_api.py and
``pbem dev fuzz-api``): a La Città game played some orders deep by the
real service with peeks at face-down cards (tests/security/hidden.py),
a Medina and a Die Stadt game, and Ada's token (all games, may send
orders), with private table talk between Bo and Cy in every game.
:func:`check_response` is the extra check run on every answer: other
seats' private log lines and talk appear in no answer to Ada's token, and
changing what Ada's seat cannot see (the oracle's hidden variant) leaves
every answer to a ``GET`` byte-identical."""
from __future__ import annotations

import random
from dataclasses import dataclass

from sqlalchemy import select

from pbem.service.core.db import db
from pbem.service.core.models import Game, GameEvent
from tests.security.hidden import hidden_variant, play

from .conftest import token_for
from .games import new_game

ADA = "ada@example.org"


@dataclass
class World:
    token: str
    lacitta: int
    games: list[int]
    private: list[str]   # other seats' private log lines Ada was not told

    def game_for(self, generated: int) -> int:
        """A generated game id mapped mostly onto the world's games (else kept: a 404)."""
        pick = generated % 5
        return self.games[pick] if pick < len(self.games) else generated

    @staticmethod
    def seat_for(generated: int) -> int:
        return {0: 1, 1: 1, 2: 2}.get(generated % 4, generated)


def make_world(seed: int = 1) -> World:
    lacitta = play(3, seed, 20, random.Random(seed))
    games = [lacitta, new_game("medina", seed=seed), new_game("diestadt", seed=seed)]
    db.session.rollback()
    events = db.session.execute(select(GameEvent).where(GameEvent.game_id == lacitta)).scalars().all()
    seen = {e.text for e in events if e.visible_to(0)}
    private = [e.text for e in events if not e.visible_to(0) and e.text not in seen]
    # table talk between two other seats (issue 26): none of it may reach Ada
    from pbem.service.play.talk import post_message

    for game in games:
        bo = next(s.player_id for s in db.session.get(Game, game).seats if s.index == 1)
        post_message(game, 1, bo, f"zq-private-talk-{game}", to=[2])
        private.append(f"zq-private-talk-{game}")
    return World(token_for(ADA, "order"), lacitta, games, private)


def check_response(world: World, case, response, call) -> None:
    """Raise AssertionError when ``response`` (to Ada's token) shows Ada
    what her seat may not see; ``call()`` sends the same request again."""
    body = response.text
    for text in world.private:
        assert text not in body, f"another seat's private line in {case.method} {case.path}: {text!r}"
    if case.method.upper() != "GET":
        return
    db.session.rollback()
    original = db.session.get(Game, world.lacitta).state
    variant = hidden_variant(original, 0)
    if variant is None:
        return
    db.session.execute(Game.__table__.update().where(Game.id == world.lacitta).values(state=variant))
    db.session.commit()
    try:
        again = call()
    finally:
        db.session.execute(Game.__table__.update().where(Game.id == world.lacitta).values(state=original))
        db.session.commit()
    assert (again.status_code, again.text) == (response.status_code, body), (
        f"{case.method} {case.formatted_path} depends on cards Ada's seat cannot see")
