"""Fixtures of the security tests: the whole app with CSRF and rate limits
on (as in production), tasks in-process, mail left in the outbox. The app and
helpers are shared with the page tests (tests/webapp.py)."""
from __future__ import annotations

import pytest

from tests.webapp import (  # noqa: F401  (re-exported for the tests here)
    CSRF_RE, PLAYERS, app_with_schema, csrf_token, make_app, new_lacitta, player_id, sign_in,
)

#: test_mail_auth.py signs reply addresses with the same key
SECRET = "security-test-secret"


@pytest.fixture
def app(tmp_path, service_database_url):
    yield from app_with_schema(make_app(tmp_path, service_database_url, SECRET_KEY=SECRET))


@pytest.fixture
def client(app):
    return app.test_client()
