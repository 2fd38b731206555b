"""The public API under /api/v1 (issue 28): my games, a game's public
view, my seat's view, the legal orders in my language, orders sent through
submit_orders with an Idempotency-Key, dry runs on previewable games
only, the history since step N; problems, ETags, rate limits, no cookie
authentication and no CSRF on /api."""
from __future__ import annotations

import json

from sqlalchemy import func, select

from pbem.service.core.db import db
from pbem.service.core.models import Move, Player
from tests.webapp import PLAYERS, game_state, player_id, signed_in

from .conftest import bearer, token_for
from .games import new_game

ADA, BO = PLAYERS[0][1], PLAYERS[1][1]


def _mover(gid: int) -> tuple[int, str]:
    """The 0-based seat to move and its player's address."""
    seat = game_state(gid).current_seats()[0]
    return seat, PLAYERS[seat][1]


def test_my_games_say_whose_move_and_my_deadline(app, client):
    gid = new_game("lacitta")
    seat, email = _mover(gid)
    games = client.get("/api/v1/games", headers=bearer(token_for(email, "read"))).json["games"]
    assert [g["id"] for g in games] == [gid]
    assert games[0]["my_move"] is True and games[0]["to_move"] == [seat + 1] and games[0]["deadline"]
    other = PLAYERS[(seat + 1) % 3][1]
    assert client.get("/api/v1/games", headers=bearer(token_for(other, "read"))).json["games"][0]["my_move"] is False


def test_my_seat_shows_my_view_and_another_seat_is_refused(app, client):
    gid = new_game("lacitta")
    token = token_for(ADA, "read")
    mine = client.get(f"/api/v1/games/{gid}/seats/1", headers=bearer(token))
    assert mine.status_code == 200
    assert mine.json["view"] == json.loads(json.dumps(game_state(gid).view(0)))
    other = client.get(f"/api/v1/games/{gid}/seats/2", headers=bearer(token))
    assert other.status_code == 403 and other.json["type"] == "/api/docs#problem-not-your-seat"
    assert client.get(f"/api/v1/games/{gid}/seats/9", headers=bearer(token)).status_code == 404
    assert client.get("/api/v1/games/4242", headers=bearer(token)).json["type"].endswith("not-found")
    public = client.get(f"/api/v1/games/{gid}", headers=bearer(token)).json
    assert public["view"] == json.loads(json.dumps(game_state(gid).view(None)))


def test_legal_orders_are_written_in_my_language(app, client):
    gid = new_game("lacitta")
    seat, email = _mover(gid)
    db.session.execute(Player.__table__.update().where(Player.email == email).values(language="fi"))
    db.session.commit()
    state = game_state(gid)
    got = client.get(f"/api/v1/games/{gid}/seats/{seat + 1}/legal", headers=bearer(token_for(email, "read"))).json
    from pbem.engine import get_game
    engine = get_game("lacitta")
    assert got["to_move"] and {o["text"] for o in got["orders"]} == {
        engine.order_text(a, "fi") for a in state.legal_actions(seat)}
    assert any(o["site"] for o in got["orders"])


def test_orders_go_through_submit_orders_and_a_retry_with_the_same_key_changes_nothing(app, client):
    gid = new_game("lacitta")
    seat, email = _mover(gid)
    state = game_state(gid)
    token = token_for(email, "order")
    order = state.legal_actions(seat)[0].to_text()
    path = f"/api/v1/games/{gid}/seats/{seat + 1}/orders"
    first = client.post(path, json={"orders": order, "step": state.step}, headers=bearer(token, **{"Idempotency-Key": "k1"}))
    assert first.status_code == 200, first.json
    assert first.json["status"] == "stored" and first.json["applied"] and first.json["resolved"]
    db.session.rollback()
    moves = db.session.execute(select(func.count(Move.id))).scalar_one()
    again = client.post(path, json={"orders": order, "step": state.step}, headers=bearer(token, **{"Idempotency-Key": "k1"}))
    assert again.status_code == 200 and again.json == first.json and again.headers["Idempotent-Replayed"] == "true"
    db.session.rollback()
    assert db.session.execute(select(func.count(Move.id))).scalar_one() == moves
    assert db.session.execute(select(Move.source).order_by(Move.id.desc())).scalars().first() == "api"
    reused = client.post(path, json={"orders": "something else", "step": state.step},
                         headers=bearer(token, **{"Idempotency-Key": "k1"}))
    assert reused.status_code == 422 and reused.json["type"].endswith("idempotency-key-reused")


def test_refused_and_stale_orders_are_problems_that_say_why(app, client):
    gid = new_game("lacitta")
    seat, email = _mover(gid)
    token = token_for(email, "order")
    path = f"/api/v1/games/{gid}/seats/{seat + 1}/orders"
    refused = client.post(path, json={"orders": "build castle Z99"}, headers=bearer(token))
    assert refused.status_code == 422 and refused.mimetype == "application/problem+json"
    assert refused.json["type"] == "/api/docs#problem-orders-refused"
    assert refused.json["lines"][0]["error"] and refused.json["legal"]
    stale = client.post(path, json={"orders": "x", "step": game_state(gid).step - 1 if game_state(gid).step else 99},
                        headers=bearer(token))
    assert stale.status_code in (409, 422) and stale.json["type"].endswith(("orders-stale", "orders-refused"))
    bad = client.post(path, json={"orders": ""}, headers=bearer(token))
    assert bad.status_code == 422 and bad.json["type"].endswith("invalid-request") and bad.json["errors"]


def test_dry_runs_only_on_previewable_games(app, client):
    medina, lacitta = new_game("medina"), new_game("lacitta")
    seat, email = _mover(medina)
    token = token_for(email, "read")
    state = game_state(medina)
    order = state.legal_actions(seat)[0].to_text()
    resp = client.post(f"/api/v1/games/{medina}/seats/{seat + 1}/orders/dry-run", json={"orders": order},
                       headers=bearer(token))
    assert resp.status_code == 200 and resp.json["status"] == "ok" and resp.json["lines"][0]["order"]
    assert game_state(medina).step == state.step   # nothing applied
    seat, email = _mover(lacitta)
    resp = client.post(f"/api/v1/games/{lacitta}/seats/{seat + 1}/orders/dry-run", json={"orders": "pass"},
                       headers=bearer(token_for(email, "read")))
    assert resp.status_code == 409 and resp.json["type"].endswith("not-previewable")


def test_history_since_a_step_and_etags(app, client):
    gid = new_game("lacitta")
    seat, email = _mover(gid)
    token = token_for(email, "order")
    state = game_state(gid)
    path = f"/api/v1/games/{gid}/seats/{seat + 1}/events"
    before = client.get(path, headers=bearer(token))
    assert before.status_code == 200 and before.headers["ETag"]
    assert client.get(path, headers=bearer(token, **{"If-None-Match": before.headers["ETag"]})).status_code == 304
    client.post(f"/api/v1/games/{gid}/seats/{seat + 1}/orders",
                json={"orders": state.legal_actions(seat)[0].to_text()}, headers=bearer(token))
    after = client.get(f"{path}?since={state.step}", headers=bearer(token, **{"If-None-Match": before.headers["ETag"]}))
    assert after.status_code == 200 and after.json["events"]
    assert all(e["step"] > state.step for e in after.json["events"])


def test_rate_limits_per_token_with_ratelimit_headers(tmp_path, service_database_url):
    from tests.webapp import app_with_schema, make_app

    for app in app_with_schema(make_app(tmp_path, service_database_url, API_RATE_LIMIT="3 per minute")):
        new_game("lacitta")
        client, token, other = app.test_client(), token_for(ADA, "read"), token_for(BO, "read")
        answers = [client.get("/api/v1/me", headers=bearer(token)) for _ in range(4)]
        assert [a.status_code for a in answers] == [200, 200, 200, 429]
        assert answers[0].headers["RateLimit-Limit"] == "3" and answers[0].headers["RateLimit-Remaining"] == "2"
        assert answers[3].json["type"].endswith("rate-limited") and int(answers[3].headers["Retry-After"]) > 0
        assert client.get("/api/v1/me", headers=bearer(other)).status_code == 200   # another token's budget


def test_a_cookie_session_opens_nothing_on_the_api_and_csrf_stays_on_pages(app):
    gid = new_game("lacitta")
    web = signed_in(app, ADA)
    assert web.get("/api/v1/games").status_code == 401   # signed in by cookie: still no token
    seat, email = _mover(gid)
    token = token_for(email, "order")
    # no CSRF token needed with a bearer token...
    ok = app.test_client().post(f"/api/v1/games/{gid}/seats/{seat + 1}/orders/dry-run", json={"orders": "x"},
                                headers=bearer(token))
    assert ok.status_code in (409, 422)   # answered, not refused for CSRF
    # ...while the order page's form still needs one
    assert web.post(f"/games/{gid}/seat/1", data={"orders": "x", "step": "0"}).status_code == 400


def test_the_openapi_document_is_valid_and_served_with_a_docs_page(app, client):
    from openapi_spec_validator import validate

    doc = client.get("/api/openapi.json").json
    assert doc["openapi"].startswith("3.1")
    validate(doc)
    assert "/api/v1/games/{game_id}/seats/{number}/orders" in doc["paths"]
    page = client.get("/api/docs")
    assert page.status_code == 200 and "/api/v1/games" in page.get_data(as_text=True)
    assert 'id="problem-orders-refused"' in page.get_data(as_text=True)
