"""Shared fixtures of the whole suite.

Integration tests (``@pytest.mark.integration``) run against a real
PostgreSQL and Redis named by ``PBEM_TEST_POSTGRES_URL`` and
``PBEM_TEST_REDIS_URL`` (``.ci/run`` sets both). When a variable is absent
the test skips and says which variable is missing, except when ``CI=true``:
there a missing service is a failure, so CI can never pass by skipping.
"""
from __future__ import annotations

import os
import secrets

import pytest

from pbem.engine import register

# The toy fourth game: its folder and this one registry line (docs/adding-a-game.md).
register("tests.toygame")


@pytest.fixture(autouse=True)
def _celery_join_flag_reset():
    """Starting a Celery worker inside the test process (the embedded
    defaults' worker) sets Celery's process-wide "joining a result would
    block" flag, after which every later eager ``result.get()`` in that
    process raises. A real worker process never runs tests, so the flag
    is put back after each test."""
    from celery._state import _set_task_join_will_block

    yield
    _set_task_join_will_block(False)


def in_ci() -> bool:
    return os.environ.get("CI", "").strip().lower() in {"1", "true", "yes"}


def need_service(reason: str) -> None:
    """Skip with ``reason``, or fail with it under ``CI=true``."""
    if in_ci():
        pytest.fail(f"{reason} (CI=true: integration tests must run, not skip)", pytrace=False)
    pytest.skip(reason)


def _psycopg_url(url: str) -> str:
    for prefix in ("postgresql+psycopg://", "postgresql://", "postgres://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix):]
    raise ValueError(f"PBEM_TEST_POSTGRES_URL is not a PostgreSQL URL: {url!r}")


def _fresh_postgres_database(base: str):
    """Yield the SQLAlchemy URL of a new, empty database
    (``pbem_test_<random>``) on the server of ``base``; drop it afterwards.
    A server that cannot be used skips (or, in CI, fails) the test."""
    from sqlalchemy import create_engine, text
    from sqlalchemy.engine import make_url

    admin_url = make_url(_psycopg_url(base))
    name = f"pbem_test_{secrets.token_hex(6)}"
    admin = create_engine(admin_url, isolation_level="AUTOCOMMIT")
    try:
        with admin.connect() as conn:
            conn.execute(text(f'CREATE DATABASE "{name}"'))
    except Exception as err:  # server down, bad credentials
        admin.dispose()
        need_service(f"PostgreSQL at PBEM_TEST_POSTGRES_URL is not usable: {err}")
    try:
        yield admin_url.set(database=name).render_as_string(hide_password=False)
    finally:
        with admin.connect() as conn:
            conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


@pytest.fixture(scope="session")
def postgres_url():
    """SQLAlchemy URL of a fresh, empty PostgreSQL database
    (``pbem_test_<random>``) created for this test session on the server of
    ``PBEM_TEST_POSTGRES_URL`` and dropped afterwards."""
    base = os.environ.get("PBEM_TEST_POSTGRES_URL")
    if not base:
        need_service("PBEM_TEST_POSTGRES_URL is not set (a PostgreSQL URL whose user may CREATE DATABASE)")
    yield from _fresh_postgres_database(base)


@pytest.fixture(scope="session")
def redis_url():
    """``PBEM_TEST_REDIS_URL`` after checking that Redis answers. Tests keep
    to their own keys (a queue name of their own), never FLUSHDB."""
    url = os.environ.get("PBEM_TEST_REDIS_URL")
    if not url:
        need_service("PBEM_TEST_REDIS_URL is not set (a Redis URL, e.g. redis://127.0.0.1:6379/15)")
    import redis

    try:
        client = redis.Redis.from_url(url, socket_connect_timeout=3)
        client.ping()
        client.close()
    except Exception as err:
        need_service(f"Redis at PBEM_TEST_REDIS_URL is not usable: {err}")
    return url


@pytest.fixture
def service_database_url(tmp_path):
    """The database URL for an app fixture: a fresh SQLite file, or, when
    ``PBEM_TEST_SERVICE_DB=postgres`` (CI's second run), a fresh PostgreSQL
    database on ``PBEM_TEST_POSTGRES_URL``'s server, dropped afterwards.
    The app fixture creates the tables either way."""
    if os.environ.get("PBEM_TEST_SERVICE_DB", "sqlite") != "postgres":
        yield f"sqlite:///{tmp_path / 'pbem.sqlite'}"
        return
    base = os.environ.get("PBEM_TEST_POSTGRES_URL")
    if not base:
        need_service("PBEM_TEST_SERVICE_DB=postgres needs PBEM_TEST_POSTGRES_URL")
    yield from _fresh_postgres_database(base)
