"""The app of the Pebbles page and mail tests: as the page tests build it
(tests/webapp.py), with nothing of Pebbles set up beyond its registry line."""
from __future__ import annotations

import pytest

from tests.webapp import app_with_schema, make_app


@pytest.fixture
def app(tmp_path, service_database_url):
    yield from app_with_schema(make_app(tmp_path, service_database_url))
