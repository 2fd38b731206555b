"""Fixtures for the service tests: a Flask app on a fresh SQLite file, tasks
run eagerly (in-process), the Tally test game registered, a frozen clock."""
from __future__ import annotations

import datetime as dt

import pytest

from pbem.engine import GAMES
from .tinygame import GAME as TALLY


@pytest.fixture(autouse=True)
def tally_game():
    GAMES["tally"] = TALLY
    yield TALLY
    GAMES.pop("tally", None)


@pytest.fixture
def app(tmp_path, service_database_url):
    from pbem.service.db import db
    from pbem.web import create_app

    app = create_app({
        "INSTANCE_PATH": str(tmp_path / "instance"),
        "TESTING": True,
        "SECRET_KEY": "test-secret",
        "SQLALCHEMY_DATABASE_URI": service_database_url,  # SQLite, or PostgreSQL in CI's second run
        "BROKER_URL": f"sqla+sqlite:///{tmp_path / 'broker.sqlite'}",
        "CELERY_EAGER": True,
        "DELIVER_AFTER_COMMIT": False,
        "INBOUND_ADDRESS": "play@pbem.test",
        "MAIL_FROM": "pbem <pbem@pbem.test>",
        "BASE_URL": "http://pbem.test",
        "SMTP_PORT": 1,  # nothing listens: tests that deliver start their own server
        "OUTBOX_BACKOFF_SECONDS": 10,
    })
    app.extensions["celery"].conf.task_always_eager = True
    with app.app_context():
        db.create_all()
        yield app
        db.session.remove()
        db.engine.dispose()


@pytest.fixture
def t0():
    return dt.datetime(2026, 11, 20, 12, 0, tzinfo=dt.timezone.utc)
