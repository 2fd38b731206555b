"""Webhooks of the public API (issue 28): registered by a token for an
https address of a public server only (loopback, private, link-local
refused at registration and again at delivery: DNS rebinding); "your
move", "turn resolved", "game over" queued as outbox rows in the
transaction of the change; each call signed with HMAC-SHA256 over
"<timestamp>.<body>"; failed calls retried by the outbox and the hook
disabled after too many in a row."""
from __future__ import annotations

import hashlib
import hmac
import json
import time

import pytest
from sqlalchemy import select

from pbem.mail.smtp import PermanentFailure, TemporaryFailure
from pbem.service.core import safe_url
from pbem.service.core.api_models import ApiWebhook
from pbem.service.core.db import db
from pbem.service.core.models import OutboxMessage
from pbem.service.post import webhook_delivery
from tests.webapp import PLAYERS, game_state

from .conftest import bearer, token_for
from .games import new_game

PUBLIC = "93.184.216.34"


@pytest.fixture
def dns(monkeypatch):
    """Host names resolve to what the test says (IP literals to themselves)."""
    table = {}
    real = safe_url.resolve

    def resolve(host):
        return table[host] if host in table else real(host)

    monkeypatch.setattr(safe_url, "resolve", resolve)
    return table


def _register(client, token, url):
    return client.post("/api/v1/webhooks", json={"url": url}, headers=bearer(token))


def test_only_https_addresses_of_public_servers_are_registered(app, client, dns):
    new_game("medina")
    token = token_for(PLAYERS[0][1], "read")
    dns["inside.example"] = ["192.168.1.5"]
    dns["mixed.example"] = [PUBLIC, "10.1.2.3"]
    for url in ("http://example.org/hook", "https://127.0.0.1/hook", "https://10.0.0.1/x", "https://[::1]/x",
                "https://169.254.169.254/latest", "https://100.64.0.1/x", "https://inside.example/hook",
                "https://mixed.example/hook", "https://user@example.org/x"):
        resp = _register(client, token, url)
        assert resp.status_code == 422, url
        assert resp.mimetype == "application/problem+json"
    made = _register(client, token, f"https://{PUBLIC}/hook")
    assert made.status_code == 201 and made.json["secret"].startswith("whsec_")
    listed = client.get("/api/v1/webhooks", headers=bearer(token)).json["webhooks"]
    assert [h["url"] for h in listed] == [f"https://{PUBLIC}/hook"] and "secret" not in listed[0]
    assert client.delete(f"/api/v1/webhooks/{listed[0]['id']}", headers=bearer(token)).status_code == 204
    other = token_for(PLAYERS[1][1], "read")
    again = _register(client, token, f"https://{PUBLIC}/hook").json["id"]
    assert client.delete(f"/api/v1/webhooks/{again}", headers=bearer(other)).status_code == 404


def _rows():
    db.session.rollback()
    return db.session.execute(select(OutboxMessage).where(OutboxMessage.kind == "webhook")
                              .order_by(OutboxMessage.id)).scalars().all()


def test_a_turn_queues_signed_calls_that_are_made_with_the_outbox(app, client, dns, monkeypatch):
    gid = new_game("medina")
    state = game_state(gid)
    mover = state.current_seats()[0]
    nxt = PLAYERS[(mover + 1) % 3][1]
    hook_token = token_for(nxt, "read")
    made = _register(client, hook_token, f"https://{PUBLIC}/hook").json
    orders = token_for(PLAYERS[mover][1], "order")
    # one decision at a time until the turn passes to the next seat
    while game_state(gid).current_seats() == [mover]:
        s = game_state(gid)
        client.post(f"/api/v1/games/{gid}/seats/{mover + 1}/orders",
                    json={"orders": s.legal_actions(mover)[0].to_text()}, headers=bearer(orders))
    events = {r.subject for r in _rows()}
    assert {"turn_resolved", "your_move"} <= events
    calls = []
    monkeypatch.setattr(webhook_delivery, "call", lambda url, address, body, signed: calls.append(
        (url, address, body, signed)) or 200)
    row = next(r for r in _rows() if r.subject == "your_move")
    webhook_delivery.post(row.raw, row.recipient)
    url, address, body, signed = calls[0]
    assert url == f"https://{PUBLIC}/hook" and address == PUBLIC
    sent = json.loads(body)
    assert sent["event"] == "your_move" and sent["game"] == gid and sent["seat"] == (mover + 1) % 3 + 1
    t, v1 = (part.split("=", 1)[1] for part in signed.split(","))
    assert abs(int(t) - time.time()) < 60
    assert hmac.compare_digest(v1, hmac.new(made["secret"].encode(), f"{t}.".encode() + body,
                                            hashlib.sha256).hexdigest())


def test_an_address_that_resolves_privately_by_delivery_time_is_not_called(app, client, dns, monkeypatch):
    gid = new_game("medina")
    dns["hooks.example"] = [PUBLIC]
    token = token_for(PLAYERS[0][1], "read")
    assert _register(client, token, "https://hooks.example/x").status_code == 201
    _play_one(client, gid)
    row = _rows()[0]
    dns["hooks.example"] = ["127.0.0.1"]   # DNS rebinding
    monkeypatch.setattr(webhook_delivery, "call", lambda *a: pytest.fail("called a private address"))
    with pytest.raises(PermanentFailure):
        webhook_delivery.post(row.raw, row.recipient)
    db.session.rollback()
    assert "refused" in db.session.execute(select(ApiWebhook)).scalar_one().last_error


def test_a_hook_failing_again_and_again_is_disabled_and_its_list_says_so(app, client, dns, monkeypatch):
    gid = new_game("medina")
    token = token_for(PLAYERS[0][1], "read")
    _register(client, token, f"https://{PUBLIC}/x")
    _play_one(client, gid)
    row = _rows()[0]
    monkeypatch.setattr(webhook_delivery, "call", lambda *a: 500)
    for _ in range(webhook_delivery.MAX_FAILURES):
        with pytest.raises(TemporaryFailure):
            webhook_delivery.post(row.raw, row.recipient)
    hook = client.get("/api/v1/webhooks", headers=bearer(token)).json["webhooks"][0]
    assert hook["disabled_at"] and hook["last_error"] == "HTTP 500"
    told = [r for r in db.session.execute(select(OutboxMessage).where(OutboxMessage.kind == "webhook_off")).scalars()]
    assert len(told) == 1 and told[0].recipient == PLAYERS[0][1]
    assert f"https://{PUBLIC}/x" in told[0].raw.decode("utf-8", "replace").replace("=\n", "")
    with pytest.raises(PermanentFailure):   # disabled: no more calls
        webhook_delivery.post(row.raw, row.recipient)


def _play_one(client, gid):
    state = game_state(gid)
    mover = state.current_seats()[0]
    client.post(f"/api/v1/games/{gid}/seats/{mover + 1}/orders",
                json={"orders": state.legal_actions(mover)[0].to_text()},
                headers=bearer(token_for(PLAYERS[mover][1], "order")))


def test_the_outbox_delivery_makes_the_calls_and_marks_them_sent(app, client, dns, monkeypatch):
    from pbem.service.post.delivery import deliver_due

    gid = new_game("medina")
    token = token_for(PLAYERS[0][1], "read")
    _register(client, token, f"https://{PUBLIC}/x")
    _play_one(client, gid)
    calls = []
    monkeypatch.setattr(webhook_delivery, "call", lambda url, address, body, signed: calls.append(body) or 204)
    monkeypatch.setattr("pbem.service.post.delivery.send_raw", lambda *a, **k: None)   # the mail of the turn
    deliver_due()
    assert calls and {json.loads(b)["event"] for b in calls} >= {"turn_resolved"}
    assert {r.status for r in _rows()} == {"sent"}
