"""schemathesis against the live app on the embedded defaults with a
valid token (issue 28): every operation of /api/openapi.json with
generated requests; no answer is a 5xx, every answer matches the
document (status, content type, headers, body), and no answer to Ada's
token shows her what her seat may not see (tests/api/fuzz.py, with the
leak tests' oracle tests/security/hidden.py). ``pbem dev fuzz-api`` runs
it longer (``PBEM_FUZZ_EXAMPLES``)."""
from __future__ import annotations

import ipaddress
import os

import pytest
import schemathesis
from hypothesis import HealthCheck, Phase, given, settings

from schemathesis.specs.openapi.checks import positive_data_acceptance

from tests.webapp import app_with_schema, make_app

from .fuzz import World, check_response, make_world

#: examples per operation (CI: quick; `pbem dev fuzz-api` sets more)
EXAMPLES = int(os.environ.get("PBEM_FUZZ_EXAMPLES", "20"))


@pytest.fixture
def world_app(tmp_path, service_database_url, monkeypatch):
    from pbem.service.core import safe_url

    real = safe_url.resolve

    def resolve(host: str) -> list[str]:
        """Webhook addresses the fuzzer makes up: an IP literal is itself,
        a name resolves to a public address without asking any DNS."""
        try:
            ipaddress.ip_address(host.strip().strip("[]").split("%", 1)[0])
        except ValueError:
            return ["93.184.216.34"]
        return real(host)

    monkeypatch.setattr(safe_url, "resolve", resolve)
    # rate limits high: the fuzzer is one token sending hundreds of requests
    app = make_app(tmp_path, service_database_url, API_RATE_LIMIT="100000 per minute",
                   API_ORDER_LIMIT="100000 per minute", API_REFUSED_LIMIT="100000 per minute")
    for app in app_with_schema(app):
        yield app, make_world()


def fuzz(app, world: World, examples: int) -> list[str]:
    """Run every operation of the app's OpenAPI document with
    ``examples`` generated requests each (schemathesis' strategies under
    Hypothesis); returns the operations run. Raises on the first failure."""
    schema = schemathesis.openapi.from_wsgi("/api/openapi.json", app)
    headers = {"Authorization": f"Bearer {world.token}"}
    done = []
    for result in schema.get_all_operations():
        operation = result.ok()

        @given(case=operation.as_strategy())
        @settings(max_examples=examples, deadline=None, derandomize=True, database=None,
                  phases=[Phase.explicit, Phase.generate], suppress_health_check=list(HealthCheck))
        def run(case):
            params = case.path_parameters or {}
            if "game_id" in params:
                params["game_id"] = world.game_for(params["game_id"])
            if "number" in params:
                params["number"] = World.seat_for(params["number"])
            # a request can fit the schema and still be refused by the game's rules (an order that
            # reads but is illegal now: 422 orders-refused), so "schema-valid means accepted" is off
            response = case.call_and_validate(headers=headers, excluded_checks=[positive_data_acceptance])
            assert response.status_code < 500
            check_response(world, case, response, lambda: case.call(headers=headers))

        run()
        done.append(operation.label)
    return done


def test_the_api_keeps_its_description_and_its_secrets(world_app):
    app, world = world_app
    assert world.private, "the La Città game should hold other seats' private lines to hide"
    done = fuzz(app, world, EXAMPLES)
    assert len(done) >= 8, done


def test_the_leak_check_catches_a_seat_view_that_shows_hidden_cards(world_app, monkeypatch):
    """The check above is not vacuous: an API whose seat view carried every
    Voice of the People card and the political deck, is caught by it."""
    from types import SimpleNamespace

    from pbem.engine import get_game

    app, world = world_app
    state_class = type(get_game("lacitta").new_state(3, 1, setup="beginner"))
    real_view = state_class.view
    monkeypatch.setattr(state_class, "view", lambda self, seat: {**real_view(self, seat), "leak": [list(self.voice), list(self.deck)]})
    client, path = app.test_client(), f"/api/v1/games/{world.lacitta}/seats/1"
    headers = {"Authorization": f"Bearer {world.token}"}

    class Answer(SimpleNamespace):
        pass

    def call():
        resp = client.get(path, headers=headers)
        return Answer(status_code=resp.status_code, text=resp.get_data(as_text=True))

    case = SimpleNamespace(method="GET", path=path, formatted_path=path)
    with pytest.raises(AssertionError, match="cannot see"):
        check_response(world, case, call(), call)
