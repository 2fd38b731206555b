"""Fixtures of the security tests that play the toy game Tally on the
service's own app (tasks in-process, a fresh context per request off): a
test module imports both names, ``from tests.security.tally_app import
app, tally_game``."""
from __future__ import annotations

import pytest

from pbem.engine import GAMES
from tests.service.tinygame import GAME as TALLY
from tests.webapp import app_with_schema, make_app


@pytest.fixture(autouse=True)
def tally_game():
    """Tally is a registered game for the test's length."""
    GAMES["tally"] = TALLY
    yield
    GAMES.pop("tally", None)


@pytest.fixture
def app(tmp_path, service_database_url):
    yield from app_with_schema(make_app(tmp_path, service_database_url, fresh_context=False))
