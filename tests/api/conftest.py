"""Fixtures of the public API's tests (issue 28): the whole app with CSRF
and rate limits on, as in production (tests/webapp.py), and helpers that
make a token and call the API with it."""
from __future__ import annotations

import pytest

from tests.webapp import PLAYERS, app_with_schema, make_app, new_lacitta, player_id  # noqa: F401


@pytest.fixture
def app(tmp_path, service_database_url):
    yield from app_with_schema(make_app(tmp_path, service_database_url, SECRET_KEY="api-test-secret"))


@pytest.fixture
def client(app):
    return app.test_client()


def token_for(email: str, scope: str = "order", game_id: int | None = None, **kw) -> str:
    """A new token of the player with ``email``."""
    from pbem.service.accounts.tokens import create_token

    return create_token(player_id(email), "test", scope, game_id=game_id, **kw)[1]


def bearer(token: str, **headers) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}", **headers}
