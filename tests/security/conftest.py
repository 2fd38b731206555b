"""Fixtures of the security tests: the whole app on a fresh SQLite file
with CSRF and rate limits on (as in production), tasks in-process, mail
left in the outbox."""
from __future__ import annotations

import re

import pytest
from flask.testing import FlaskClient

from pbem.service.db import db

PLAYERS = [("Ada", "ada@example.org"), ("Bo", "bo@example.org"), ("Cy", "cy@example.org")]
CSRF_RE = re.compile(r'name="csrf_token" value="([^"]+)"')


class FreshContextClient(FlaskClient):
    """Each request in an app context of its own, as in production."""

    def open(self, *args, **kwargs):
        with self.application.app_context():
            return super().open(*args, **kwargs)


def make_app(tmp_path, database_url=None, **overrides):
    from pbem.web import create_app

    config = {
        "INSTANCE_PATH": str(tmp_path / "instance"),
        "TESTING": True,
        "SECRET_KEY": "security-test-secret",
        "SQLALCHEMY_DATABASE_URI": database_url or f"sqlite:///{tmp_path / 'pbem.sqlite'}",
        "BROKER_URL": f"sqla+sqlite:///{tmp_path / 'broker.sqlite'}",
        "CELERY_EAGER": True,
        "DELIVER_AFTER_COMMIT": False,
        "INBOUND_ADDRESS": "play@pbem.test",
        "MAIL_FROM": "pbem <pbem@pbem.test>",
        "BASE_URL": "http://pbem.test",
        "SMTP_PORT": 1,
    }
    config.update(overrides)
    app = create_app(config)
    app.extensions["celery"].conf.task_always_eager = True
    app.test_client_class = FreshContextClient
    return app


@pytest.fixture
def app(tmp_path, service_database_url):
    app = make_app(tmp_path, service_database_url)  # SQLite, or PostgreSQL in CI's second run
    with app.app_context():
        db.create_all()
        yield app
        db.session.remove()
        db.engine.dispose()


@pytest.fixture
def client(app):
    return app.test_client()


def csrf_token(client, path: str = "/signin") -> str:
    html = client.get(path).get_data(as_text=True)
    match = CSRF_RE.search(html)
    assert match, f"no CSRF token on {path}"
    return match.group(1)


def sign_in(client, player_id: int) -> None:
    """Sign ``client`` in through a real emailed-style link."""
    from pbem.service import links

    path = links.signin_url(player_id, "/").removeprefix("http://pbem.test")
    page = client.get(path)
    assert page.status_code == 200, page.get_data(as_text=True)
    resp = client.post(path, data={"csrf_token": CSRF_RE.search(page.get_data(as_text=True)).group(1)})
    assert resp.status_code == 302, resp.get_data(as_text=True)


def player_id(email: str) -> int:
    from sqlalchemy import select

    from pbem.service.models import Player

    return db.session.execute(select(Player.id).where(Player.email == email)).scalar_one()


def new_lacitta(seats=3, seed=5, players=PLAYERS) -> int:
    """A started La Città beginner game; seat 1's player is the host."""
    from pbem.service.lifecycle import create_game, join_game

    game = create_game("lacitta", players[0][1], players[:seats], options={"setup": "beginner"}, seed=seed)
    gid = game.id
    for i in range(1, seats):
        join_game(gid, i)
    return gid
