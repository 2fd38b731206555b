"""Fixtures for the service tests: a Flask app on a fresh SQLite file, tasks
run eagerly (in-process), the Tally test game registered, a frozen clock."""
from __future__ import annotations

import datetime as dt

import pytest

from pbem.engine import GAMES
from tests.webapp import app_with_schema, make_app

from .tinygame import GAME as TALLY


@pytest.fixture(autouse=True)
def tally_game():
    GAMES["tally"] = TALLY
    yield TALLY
    GAMES.pop("tally", None)


@pytest.fixture
def app(tmp_path, service_database_url):
    # service tests share the test's app context between requests
    yield from app_with_schema(make_app(tmp_path, service_database_url, fresh_context=False,
                                        OUTBOX_BACKOFF_SECONDS=10))


@pytest.fixture
def t0():
    return dt.datetime(2026, 11, 20, 12, 0, tzinfo=dt.timezone.utc)
