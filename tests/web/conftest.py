"""Fixtures of the page tests: the app with CSRF and rate limits on (as in
production), tasks in-process, mail left in the outbox (nothing is delivered
unless a test asks). The app and helpers live in tests/webapp.py."""
from __future__ import annotations

import pytest

from tests.webapp import (  # noqa: F401  (re-exported for the tests here)
    PLAYERS, app_with_schema, csrf_token, game_state, make_app, new_lacitta, player_id, sign_in, signed_in,
    to_a_decision_taken_at_once,
)


@pytest.fixture
def app(tmp_path, service_database_url):
    yield from app_with_schema(make_app(tmp_path, service_database_url, SECRET_KEY="web-test-secret"))


@pytest.fixture
def client(app):
    return app.test_client()
