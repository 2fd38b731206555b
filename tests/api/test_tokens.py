"""Personal access tokens (issue 28): made and revoked on the tokens page,
stored hashed, shown once, expiring; a missing, unknown, revoked or
expired token is a 401 and a token without the scope a 403, each logged
without the token."""
from __future__ import annotations

import datetime as dt
import logging
import re

from sqlalchemy import select

from pbem.service.accounts import tokens
from pbem.service.core.api_models import ApiToken
from pbem.service.core.db import db
from pbem.service.core.errors import ServiceError
from pbem.service.core.models import utcnow
from tests.webapp import PLAYERS, new_lacitta, player_id, signed_in

from .conftest import bearer, token_for

import pytest


def test_a_token_is_stored_hashed_and_expires_after_a_year_by_default(app):
    new_lacitta()
    row, token = tokens.create_token(player_id(PLAYERS[0][1]), "my bot", "read")
    assert token.startswith("pbem_") and len(token) > 40
    stored = db.session.execute(select(ApiToken)).scalar_one()
    assert stored.token_hash == tokens.token_hash(token) and token not in (stored.token_hash, stored.prefix)
    assert abs((stored.expires_at - utcnow()) - dt.timedelta(days=365)) < dt.timedelta(minutes=1)


def test_bad_token_requests_are_refused_with_what_is_wrong(app):
    new_lacitta()
    pid = player_id(PLAYERS[0][1])
    for args in (("", "read"), ("x", "admin"), ("x", "read")):
        kw = {"game_id": 999} if args == ("x", "read") else {}
        with pytest.raises(ServiceError):
            tokens.create_token(pid, *args, **kw)
    with pytest.raises(ServiceError):
        tokens.create_token(pid, "x", "read", days=0)
    assert db.session.execute(select(ApiToken)).first() is None


def test_missing_unknown_revoked_expired_tokens_get_401_and_are_logged_without_the_token(app, client, caplog):
    new_lacitta()
    caplog.set_level(logging.WARNING)
    pid = player_id(PLAYERS[0][1])
    revoked_row, revoked = tokens.create_token(pid, "old", "read")
    tokens.revoke_token(pid, revoked_row.id)
    _row, expired = tokens.create_token(pid, "short", "read", days=1, now=utcnow() - dt.timedelta(days=2))
    cases = {"token-missing": {}, "token-invalid": bearer("pbem_nosuchtoken"),
             "token-revoked": bearer(revoked), "token-expired": bearer(expired)}
    for kind, headers in cases.items():
        resp = client.get("/api/v1/games", headers=headers)
        assert resp.status_code == 401, kind
        assert resp.mimetype == "application/problem+json"
        assert resp.json["type"] == f"/api/docs#problem-{kind}"
        assert resp.headers["WWW-Authenticate"].startswith("Bearer")
    logged = "\n".join(r.getMessage() for r in caplog.records)
    for reason in ("no token", "unknown token", "is revoked", "is expired"):
        assert reason in logged
    for secret in (revoked, expired, "pbem_nosuchtoken"):
        assert secret not in logged


def test_a_read_token_may_not_send_orders(app, client, caplog):
    gid = new_lacitta()
    caplog.set_level(logging.WARNING)
    token = token_for(PLAYERS[0][1], "read")
    resp = client.post(f"/api/v1/games/{gid}/seats/1/orders", json={"orders": "pass"}, headers=bearer(token))
    assert resp.status_code == 403 and resp.json["type"] == "/api/docs#problem-scope"
    assert "lacks the order scope" in caplog.text and token not in caplog.text
    assert client.get("/api/v1/games", headers=bearer(token)).status_code == 200


def test_a_game_token_reaches_its_game_only(app, client):
    first, second = new_lacitta(seed=1), new_lacitta(seed=2)
    token = token_for(PLAYERS[0][1], "read", game_id=first)
    assert client.get(f"/api/v1/games/{first}", headers=bearer(token)).status_code == 200
    resp = client.get(f"/api/v1/games/{second}", headers=bearer(token))
    assert resp.status_code == 403 and resp.json["type"].endswith("game-not-allowed")
    assert [g["id"] for g in client.get("/api/v1/games", headers=bearer(token)).json["games"]] == [first]


def test_the_tokens_page_makes_a_token_shown_once_and_revokes_it(app):
    gid = new_lacitta()
    web = signed_in(app, PLAYERS[0][1])
    account = web.get("/account").get_data(as_text=True)
    assert "/account/tokens" in account
    page = web.get("/account/tokens").get_data(as_text=True)
    csrf = re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)
    made = web.post("/account/tokens", data={"csrf_token": csrf, "name": "phone widget", "scope": "order",
                                             "game": str(gid), "days": "30"})
    assert made.status_code == 200 and made.headers["Cache-Control"] == "no-store"
    token = re.search(r'<code class="token"[^>]*>(pbem_[^<]+)</code>', made.get_data(as_text=True)).group(1)
    api = app.test_client()
    assert api.get("/api/v1/me", headers=bearer(token)).json["token"]["game"] == gid
    again = web.get("/account/tokens").get_data(as_text=True)
    assert token not in again and token[:12] in again   # shown once; its first characters tell it apart
    db.session.rollback()
    row = db.session.execute(select(ApiToken)).scalar_one()
    assert web.post(f"/account/tokens/{row.id}/revoke", data={"csrf_token": csrf}).status_code == 302
    assert api.get("/api/v1/me", headers=bearer(token)).status_code == 401


def test_the_tokens_page_keeps_csrf_and_a_player_revokes_only_their_own(app):
    new_lacitta()
    ada, bo = signed_in(app, PLAYERS[0][1]), signed_in(app, PLAYERS[1][1])
    assert ada.post("/account/tokens", data={"name": "x", "scope": "read"}).status_code == 400   # no CSRF token
    row, token = tokens.create_token(player_id(PLAYERS[0][1]), "ada's", "read")
    page = bo.get("/account/tokens").get_data(as_text=True)
    csrf = re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)
    assert bo.post(f"/account/tokens/{row.id}/revoke", data={"csrf_token": csrf}).status_code == 404
    assert app.test_client().get("/api/v1/me", headers=bearer(token)).status_code == 200


def test_a_bad_form_is_answered_and_keeps_what_was_typed(app):
    new_lacitta()
    web = signed_in(app, PLAYERS[0][1])
    page = web.get("/account/tokens").get_data(as_text=True)
    csrf = re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)
    resp = web.post("/account/tokens", data={"csrf_token": csrf, "name": "kept name", "scope": "read",
                                             "days": "99999"})
    assert resp.status_code == 400 and 'value="kept name"' in resp.get_data(as_text=True)


def test_a_client_guessing_tokens_is_slowed_down(app, client):
    answers = [client.get("/api/v1/me", headers=bearer(f"pbem_guess{i}")).status_code for i in range(32)]
    assert answers[:30] == [401] * 30 and answers[30:] == [429, 429]
