"""CSRF on every form, hostile names escaped on every page, a seat never
sees another seat's page, no external resources."""
from __future__ import annotations

import re

import pytest
from sqlalchemy import select

from pbem.service.core.db import db
from pbem.service.core.models import Game, PendingOrder
from pbem.service.core.snapshot import engine_state

from .conftest import csrf_token, new_lacitta, player_id, sign_in

HOSTILE = '<script>alert("x")</script><img src=x onerror=alert(1)>'
EVIL_PLAYERS = [("Ada", "ada@example.org"), (HOSTILE, "bo@example.org"), ("Cy & <b>co</b>", "cy@example.org")]


def _client(app, email):
    client = app.test_client()
    sign_in(client, player_id(email))
    return client


def test_every_form_refuses_a_post_without_csrf_token(app):
    gid = new_lacitta()
    waiting = new_lacitta(seed=9, players=[("Ada", "ada@example.org"), ("Dee", "dee@example.org")], seats=2,
                          start=False)
    ada = _client(app, "ada@example.org")
    dee = _client(app, "dee@example.org")
    posts = [
        (ada, "/signin", {"email": "ada@example.org"}),
        (ada, "/signout", {}),
        (ada, "/account", {"name": "A", "timezone": "UTC"}),
        (ada, "/games/new", {"kind": "lacitta", "seat-0-email": "ada@example.org", "seat-1-email": "x@example.org",
                             "deadline_hours": "48", "timezone": "UTC"}),
        (dee, f"/games/{waiting}/join/2", {}),
        (ada, f"/games/{waiting}/start", {}),
        (ada, f"/games/{gid}/pause", {}),
        (ada, f"/games/{gid}/extend", {"hours": "5"}),
        (ada, f"/games/{gid}/seat/1/review", {"orders": "gold", "step": "0"}),
        (ada, f"/games/{gid}/seat/1", {"orders": "gold", "step": "0"}),
    ]
    for client, path, data in posts:
        for token in (None, "forged-token"):
            body = dict(data) if token is None else {**data, "csrf_token": token}
            resp = client.post(path, data=body)
            assert resp.status_code == 400, path
            assert "Form expired" in resp.get_data(as_text=True)
    db.session.rollback()
    assert db.session.get(Game, gid).status == "active" and db.session.get(Game, waiting).status == "invited"
    assert db.session.execute(select(PendingOrder)).first() is None
    # the sign-in link's button too
    from pbem.service.core import links

    path = links.signin_url(player_id("ada@example.org"), "/").removeprefix("http://pbem.test")
    assert app.test_client().post(path).status_code == 400


def _assert_escaped(html: str, where: str) -> None:
    assert "<script>alert" not in html, where
    assert "<img src=x" not in html, where
    assert "<b>co</b>" not in html, where
    assert "&lt;script&gt;" in html or "&lt;b&gt;co&lt;/b&gt;" in html, where


def test_hostile_names_are_escaped_on_every_page(app):
    gid = new_lacitta(players=EVIL_PLAYERS)
    db.session.rollback()
    game = db.session.get(Game, gid)
    game.title = HOSTILE
    db.session.commit()
    pending = new_lacitta(seed=3, players=EVIL_PLAYERS, start=False)
    ada = _client(app, "ada@example.org")
    bo = _client(app, "bo@example.org")
    pages = [(ada, "/"), (ada, f"/games/{gid}"), (ada, f"/games/{gid}?step=0"), (ada, f"/games/{gid}/seat/1"),
             (bo, "/"), (bo, f"/games/{gid}/seat/2"), (bo, f"/games/{pending}/join/2"), (bo, "/account"),
             (app.test_client(), f"/games/{gid}")]
    for client, path in pages:
        resp = client.get(path)
        assert resp.status_code == 200, path
        _assert_escaped(resp.get_data(as_text=True), path)
    # what a player types back is escaped too
    token = csrf_token(ada, f"/games/{gid}/seat/1")
    resp = ada.post(f"/games/{gid}/seat/1/review", data={"csrf_token": token, "orders": HOSTILE, "step": "0"})
    html = resp.get_data(as_text=True)
    assert resp.status_code == 422 and "<script>alert" not in html and "&lt;script&gt;" in html
    # a hostile name typed on the create form
    resp = ada.post("/games/new", data={"csrf_token": token, "kind": "lacitta", "deadline_hours": "48",
                                        "timezone": "UTC", "seat-0-name": HOSTILE, "seat-0-email": "bad"})
    _assert_escaped(resp.get_data(as_text=True), "/games/new")
    # and the sign-in form echo
    resp = ada.post("/signin", data={"csrf_token": token, "email": HOSTILE})
    assert "<script>alert" not in resp.get_data(as_text=True)


def test_a_seat_cannot_open_another_seats_pages(app):
    gid = new_lacitta()
    state = engine_state(db.session.get(Game, gid))
    secret = "\n".join(line for line in state.game.view_text(state.view(0)).splitlines() if "You are seat" in line)
    bo = _client(app, "bo@example.org")
    token = csrf_token(bo, f"/games/{gid}/seat/2")
    for method, path, data in [("get", f"/games/{gid}/seat/1", None),
                               ("get", f"/games/{gid}/seat/1/view.json", None),
                               ("post", f"/games/{gid}/seat/1/review", {"orders": "gold", "step": state.step}),
                               ("post", f"/games/{gid}/seat/1", {"orders": "gold", "step": state.step})]:
        kwargs = {"data": {**data, "csrf_token": token}} if data else {}
        resp = getattr(bo, method)(path, **kwargs)
        html = resp.get_data(as_text=True)
        assert resp.status_code == 403, path
        assert secret not in html and "legal-orders" not in html and "<svg" not in html
    db.session.rollback()
    assert db.session.execute(select(PendingOrder)).first() is None
    # someone who holds no seat at all
    outsider = app.test_client()
    from pbem.service.accounts.players import get_or_create_player

    eve = get_or_create_player("eve@example.org", "Eve")
    db.session.commit()
    sign_in(outsider, eve.id)
    assert outsider.get(f"/games/{gid}/seat/1").status_code == 403
    assert outsider.get(f"/games/{gid}/seat/9").status_code == 404
    assert outsider.get("/games/999/seat/1").status_code == 404


def test_pages_load_nothing_from_elsewhere_and_send_security_headers(app):
    gid = new_lacitta()
    ada = _client(app, "ada@example.org")
    for path in ("/", f"/games/{gid}", f"/games/{gid}/seat/1", "/games/new", "/account"):
        resp = ada.get(path)
        html = resp.get_data(as_text=True)
        assert "script-src 'self'" in resp.headers["Content-Security-Policy"]
        assert resp.headers["X-Frame-Options"] == "DENY"
        assert resp.headers["Cache-Control"] == "private, no-store"  # signed-in pages stay out of shared caches
        for url in re.findall(r'(?:src|href)="([^"]+)"', html):
            assert url.startswith(("/", "#")), (path, url)
        # no inline scripts (the CSP forbids them); data blocks are JSON, not script
        for attrs in re.findall(r"<script([^>]*)>", html):
            assert "src=" in attrs or 'type="application/json"' in attrs, (path, attrs)
    for asset in ("/assets/pbem.css", "/assets/order.js", "/assets/replay.js", "/assets/board/board.js",
                  "/assets/board/board.css"):
        assert ada.get(asset).status_code == 200, asset
    assert ada.get("/assets/../web_queries.py").status_code == 404
    assert ada.get("/assets/board/../__init__.py").status_code == 404


@pytest.mark.parametrize("path", ["/signin/x%00y", "/signin/" + "a" * 5000])
def test_garbage_sign_in_tokens_are_refused_quietly(app, path):
    resp = app.test_client().get(path)
    assert resp.status_code == 410


def test_a_session_naming_a_player_no_longer_in_the_database_is_a_visitors_again(app):
    # players are never deleted, but a development database may be reset
    # under a browser that is still signed in
    client = app.test_client()
    with client.session_transaction() as sess:
        sess["player_id"] = 987654
    account = client.get("/account")
    assert account.status_code == 302 and account.headers["Location"] == "/account"
    with client.session_transaction() as sess:
        assert "player_id" not in sess
    again = client.get("/account")
    assert again.status_code == 302 and again.headers["Location"].startswith("/signin")


def test_the_order_post_reads_the_player_with_the_game_not_on_its_own(app):
    # the seat check compares the session's player id with the seat; the
    # player row arrives with the game's seats (one statement), not before
    from sqlalchemy import event

    gid = new_lacitta()
    state = engine_state(db.session.get(Game, gid))
    seat = state.current_seats()[0]
    email = next(s.player.email for s in db.session.get(Game, gid).seats if s.index == seat)
    client = _client(app, email)
    token = csrf_token(client, f"/games/{gid}/seat/{seat + 1}")
    statements: list[str] = []
    listen = lambda *a: statements.append(a[2])  # noqa: E731  (conn, cursor, statement, ...)
    event.listen(db.engine, "before_cursor_execute", listen)
    try:
        resp = client.post(f"/games/{gid}/seat/{seat + 1}", data={
            "orders": state.legal_actions(seat)[0].to_text(), "step": str(state.step), "csrf_token": token})
    finally:
        event.remove(db.engine, "before_cursor_execute", listen)
    assert resp.status_code == 302, resp.get_data(as_text=True)
    assert not any(s.lstrip().upper().startswith("SELECT") and "FROM players" in s and "games" not in s
                   for s in statements), statements
