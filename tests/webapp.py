"""The Flask app as the service, page and security tests build it: a fresh
database (SQLite, or PostgreSQL in CI's second run), tasks in-process, mail
left in the outbox, and helpers to sign in and read CSRF tokens."""
from __future__ import annotations

import re
from collections.abc import Iterator

from flask import Flask
from flask.testing import FlaskClient

from pbem.service.core.db import db

PLAYERS = [("Ada", "ada@example.org"), ("Bo", "bo@example.org"), ("Cy", "cy@example.org")]
CSRF_RE = re.compile(r'name="csrf_token" value="([^"]+)"')


class FreshContextClient(FlaskClient):
    """Each request in an app context of its own, as in production (the
    test's own app context would otherwise share ``g``, and the CSRF token
    cached there, between requests of different clients)."""

    def open(self, *args, **kwargs):
        with self.application.app_context():
            return super().open(*args, **kwargs)


def make_app(tmp_path, database_url: str | None = None, *, fresh_context: bool = True,
             **overrides) -> Flask:
    """An app on ``database_url`` (default: a SQLite file in ``tmp_path``);
    ``overrides`` replace config keys. No server listens on its SMTP port:
    tests that deliver mail start their own."""
    from pbem.web import create_app

    config = {
        "INSTANCE_PATH": str(tmp_path / "instance"),
        "TESTING": True,
        "SECRET_KEY": "test-secret",
        "SQLALCHEMY_DATABASE_URI": database_url or f"sqlite:///{tmp_path / 'pbem.sqlite'}",
        "BROKER_URL": f"sqla+sqlite:///{tmp_path / 'broker.sqlite'}",
        "CELERY_EAGER": True,
        "DELIVER_AFTER_COMMIT": False,
        "INBOUND_ADDRESS": "play@pbem.test",
        "MAIL_FROM": "pbem <pbem@pbem.test>",
        "BASE_URL": "http://pbem.test",
        "SMTP_PORT": 1,
        # a bot that stands in after two missed deadlines thinks briefly in tests (issue 27)
        "BOT_SECONDS": 0.02,
    }
    config.update(overrides)
    app = create_app(config)
    app.extensions["celery"].conf.task_always_eager = True
    from pbem.web.extensions import limiter

    with app.app_context():
        # the memory storage lives as long as the process: a test's counts
        # (keyed by player and seat ids, which every fresh database reuses)
        # must not spend the next test's budget
        limiter.reset()
    if fresh_context:
        app.test_client_class = FreshContextClient
    return app


def app_with_schema(app: Flask) -> Iterator[Flask]:
    """Yield ``app`` inside an app context with its tables created (a fixture body)."""
    with app.app_context():
        db.create_all()
        yield app
        db.session.remove()
        db.engine.dispose()


def csrf_token(client, path: str = "/signin") -> str:
    """The CSRF token of ``client``'s session, read from a page's form."""
    html = client.get(path).get_data(as_text=True)
    match = CSRF_RE.search(html)
    assert match, f"no CSRF token on {path}"
    return match.group(1)


def sign_in(client, player_id: int) -> None:
    """Sign ``client`` in as ``player_id`` through a real emailed-style link."""
    from pbem.service.core import links

    path = links.signin_url(player_id, "/").removeprefix("http://pbem.test")
    page = client.get(path)
    assert page.status_code == 200, page.get_data(as_text=True)
    resp = client.post(path, data={"csrf_token": CSRF_RE.search(page.get_data(as_text=True)).group(1)})
    assert resp.status_code == 302, resp.get_data(as_text=True)


def player_id(email: str) -> int:
    from sqlalchemy import select

    from pbem.service.core.models import Player

    return db.session.execute(select(Player.id).where(Player.email == email)).scalar_one()


def signed_in(app: Flask, email: str) -> FlaskClient:
    """A new client of ``app`` signed in as the player with ``email``."""
    client = app.test_client()
    sign_in(client, player_id(email))
    return client


def game_state(game_id: int):
    """The engine state of game ``game_id`` as now committed (the test's
    read snapshot ended first)."""
    from pbem.service.core.models import Game
    from pbem.service.core.snapshot import engine_state

    db.session.rollback()
    return engine_state(db.session.get(Game, game_id))


def new_lacitta(seats=3, seed=5, players=PLAYERS, start=True) -> int:
    """A La Città beginner game hosted by seat 1's player; all joined when ``start``."""
    from pbem.service.play.lifecycle import create_game, join_game

    game = create_game("lacitta", players[0][1], players[:seats], options={"setup": "beginner"}, seed=seed)
    gid = game.id
    if start:
        for i in range(1, seats):
            join_game(gid, i)
    return gid


def to_a_decision_taken_at_once(game_id: int, seed: int = 3) -> list[int]:
    """Play game ``game_id`` on with random legal orders from the web page
    up to its first decision of several seats at once, and store the
    orders of the first of them. Returns the seats of that decision (in an
    app context)."""
    import random

    from pbem.service.play.orders import submit_orders

    rng = random.Random(seed)
    state = game_state(game_id)
    while len(state.current_seats()) < 2:
        seat = state.current_seats()[0]
        assert submit_orders(game_id, seat, rng.choice(state.legal_actions(seat)).to_text(),
                             expected_step=state.step, source="web").resolved
        state = game_state(game_id)
    seats = state.current_seats()
    assert submit_orders(game_id, seats[0], state.legal_actions(seats[0])[0].to_text(),
                         expected_step=state.step, source="web").status == "stored"
    return seats
