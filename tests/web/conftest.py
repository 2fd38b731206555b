"""Fixtures of the page tests: a Flask app on a fresh SQLite file with CSRF
and rate limits on (as in production), tasks run in-process, mail left in
the outbox (nothing is delivered unless a test asks)."""
from __future__ import annotations

import re

import pytest
from flask.testing import FlaskClient

from pbem.service.db import db

PLAYERS = [("Ada", "ada@example.org"), ("Bo", "bo@example.org"), ("Cy", "cy@example.org")]


class FreshContextClient(FlaskClient):
    """Each request in an app context of its own, as in production (the
    test's own app context would otherwise share ``g``, and the CSRF token
    cached there, between requests of different clients)."""

    def open(self, *args, **kwargs):
        with self.application.app_context():
            return super().open(*args, **kwargs)


@pytest.fixture
def app(tmp_path, service_database_url):
    from pbem.web import create_app

    app = create_app({
        "INSTANCE_PATH": str(tmp_path / "instance"),
        "TESTING": True,
        "SECRET_KEY": "web-test-secret",
        "SQLALCHEMY_DATABASE_URI": service_database_url,  # SQLite, or PostgreSQL in CI's second run
        "BROKER_URL": f"sqla+sqlite:///{tmp_path / 'broker.sqlite'}",
        "CELERY_EAGER": True,
        "DELIVER_AFTER_COMMIT": False,
        "INBOUND_ADDRESS": "play@pbem.test",
        "MAIL_FROM": "pbem <pbem@pbem.test>",
        "BASE_URL": "http://pbem.test",
        "SMTP_PORT": 1,
    })
    app.extensions["celery"].conf.task_always_eager = True
    app.test_client_class = FreshContextClient
    with app.app_context():
        db.create_all()
        yield app
        db.session.remove()
        db.engine.dispose()


@pytest.fixture
def client(app):
    return app.test_client()


_CSRF = re.compile(r'name="csrf_token" value="([^"]+)"')


def csrf_token(client, path: str = "/signin") -> str:
    """The CSRF token of ``client``'s session, read from a page's form."""
    html = client.get(path).get_data(as_text=True)
    match = _CSRF.search(html)
    assert match, f"no CSRF token on {path}"
    return match.group(1)


def sign_in(client, player_id: int) -> None:
    """Sign ``client`` in as ``player_id`` through a real emailed-style link."""
    from pbem.service import links

    url = links.signin_url(player_id, "/")
    path = url.removeprefix("http://pbem.test")
    page = client.get(path)
    assert page.status_code == 200, page.get_data(as_text=True)
    token = _CSRF.search(page.get_data(as_text=True)).group(1)
    resp = client.post(path, data={"csrf_token": token})
    assert resp.status_code == 302, resp.get_data(as_text=True)


def new_lacitta(seats=3, seed=5, players=PLAYERS, start=True) -> int:
    """A La Città beginner game hosted by seat 1's player; all joined when ``start``."""
    from pbem.service.lifecycle import create_game, join_game

    game = create_game("lacitta", players[0][1], players[:seats], options={"setup": "beginner"}, seed=seed)
    gid = game.id
    if start:
        for i in range(1, seats):
            join_game(gid, i)
    return gid


def player_id(email: str) -> int:
    from sqlalchemy import select

    from pbem.service.models import Player

    return db.session.execute(select(Player.id).where(Player.email == email)).scalar_one()
