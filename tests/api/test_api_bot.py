"""The API is complete enough to play (issue 28): ``pbem bot``'s client
(:mod:`pbem.cli.api_client`), one per player with that player's token,
plays a whole game of each of the three games to its end through the API
alone, against the test app (the Flask test client as its transport: the
same requests as over HTTP, without a server; the running demo is not
needed)."""
from __future__ import annotations

import random

import pytest

from pbem.cli.api_client import ApiBot
from tests.webapp import PLAYERS, game_state

from .conftest import token_for
from .games import new_game


def flask_transport(client):
    def send(method, path, headers, body):
        resp = client.open(path, method=method, headers=headers, json=body)
        return resp.status_code, (resp.get_json(silent=True) or {})
    return send


@pytest.fixture
def fast_app(tmp_path, service_database_url):
    from tests.webapp import app_with_schema, make_app

    yield from app_with_schema(make_app(tmp_path, service_database_url, API_RATE_LIMIT="100000 per minute",
                                        API_ORDER_LIMIT="100000 per minute"))


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["medina", "lacitta", "diestadt"])
def test_bots_play_a_whole_game_through_the_api(fast_app, kind):
    gid = new_game(kind, seed=3)
    client = fast_app.test_client()
    bots = [ApiBot(flask_transport(client), token_for(email, "order"), game=gid, rng=random.Random(i))
            for i, (_name, email) in enumerate(PLAYERS)]
    for _round in range(5000):
        if not sum(bot.play_once() for bot in bots):
            break
    state = game_state(gid)
    assert state.is_terminal(), f"{kind} not over after {sum(b.decisions for b in bots)} decisions"
    answer = client.get(f"/api/v1/games/{gid}", headers={"Authorization": f"Bearer {bots[0].token}"}).json
    assert answer["status"] == "finished" and len(answer["scores"]) == 3
    assert all(bot.decisions for bot in bots)
