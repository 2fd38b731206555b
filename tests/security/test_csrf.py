"""CSRF: every form of the site refuses a POST without the session's
token, and a token of another session."""
from __future__ import annotations

from sqlalchemy import select

from pbem.service.core import links
from pbem.service.core.db import db
from pbem.service.core.models import Game, PendingOrder

from .conftest import CSRF_RE, PLAYERS, csrf_token, new_lacitta, player_id, sign_in


def _post_urls(app, gid: int, token_path: str) -> list[str]:
    values = {"game_id": gid, "number": 1, "token": token_path.rsplit("/", 1)[1], "mail_id": "x",
              "path": "x", "name": "x", "filename": "x", "cid": "x", "message_id": 1,
              "token_id": 1, "hook_id": 1, "absence_id": 1}
    urls = []
    for rule in app.url_map.iter_rules():
        if "POST" not in rule.methods:
            continue
        urls.append(rule.build({a: values[a] for a in rule.arguments}, append_unknown=False)[1])
    return urls


def test_every_post_route_refuses_a_missing_or_foreign_csrf_token(app, client):
    gid = new_lacitta()
    host = player_id(PLAYERS[0][1])
    sign_in(client, host)
    other = app.test_client()
    foreign = csrf_token(other)  # a valid token, of another session
    token_path = links.signin_url(host, "/").removeprefix("http://pbem.test")
    urls = _post_urls(app, gid, token_path)
    assert "/signout" in urls and f"/games/{gid}/seat/1" in urls and f"/games/{gid}/pause" in urls
    state_before = db.session.get(Game, gid).state
    # RFC 8058 one-click unsubscribe is the one POST without a CSRF token by
    # design (a mail provider posts it); it only ever turns mail off
    # (tests/service/test_mail_preferences.py)
    exempt = [u for u in urls if u.startswith("/mail/unsubscribe/")]
    assert len(exempt) == 1
    # the public API (issue 28) opens only with a bearer token, never a cookie, so no CSRF token
    # applies there (tests/api/test_api.py: a signed-in browser gets 401 on /api)
    exempt += [u for u in urls if u.startswith("/api/")]
    for url in urls:
        if url in exempt:
            continue
        for data in ({}, {"csrf_token": foreign}, {"csrf_token": "garbage"}):
            data = {**data, "orders": "castle F7", "seconds": "3600", "email": "ada@example.org",
                    "name": "x", "timezone": "UTC"}
            resp = client.post(url, data=data)
            assert resp.status_code == 400, (url, data.get("csrf_token"), resp.status_code)
    db.session.rollback()  # end the read snapshot; see what the requests wrote
    game = db.session.get(Game, gid)
    assert game.state == state_before and game.status == "active"
    assert db.session.execute(select(PendingOrder)).first() is None


def test_the_same_post_with_the_session_token_is_accepted(app, client):
    """The refusal above is CSRF and nothing else: with the token the same
    forms work."""
    gid = new_lacitta()
    sign_in(client, player_id(PLAYERS[0][1]))
    token = csrf_token(client, f"/games/{gid}")
    resp = client.post(f"/games/{gid}/pause", data={"csrf_token": token})
    assert resp.status_code in (200, 302, 303)
    db.session.rollback()  # end the read snapshot; see what the requests wrote
    assert db.session.get(Game, gid).status == "paused"
    resp = client.post("/signout", data={"csrf_token": token})
    assert resp.status_code == 302


def test_every_form_on_the_pages_carries_a_csrf_token(app, client):
    gid = new_lacitta()
    sign_in(client, player_id(PLAYERS[0][1]))
    import re

    for path in ("/", "/signin", "/account", "/games/new", f"/games/{gid}", f"/games/{gid}/seat/1"):
        html = client.get(path).get_data(as_text=True)
        forms = re.findall(r"<form\b[^>]*>.*?</form>", html, flags=re.S | re.I)
        for form in forms:
            if re.search(r'method="?post', form, flags=re.I):
                assert CSRF_RE.search(form), (path, form[:300])
