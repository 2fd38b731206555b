"""The order page's dry runs (``next.json`` as the player picks or types,
``review`` for the Review button) are rate limited per player and seat:
far above what a player at the page sends, low enough that a script cannot
probe position after position. A refusal says when to try again."""
from __future__ import annotations

import re

from limits import parse_many

from pbem.service.core.db import db
from pbem.service.core.models import Game
from pbem.web.extensions import PREVIEW_LIMIT, REVIEW_LIMIT

from .conftest import csrf_token, new_lacitta, player_id, sign_in


def _per_minute(limit: str) -> int:
    return next(item.amount for item in parse_many(limit) if item.get_expiry() == 60)


def _seat(gid: int, email: str) -> int:
    return next(s.number for s in db.session.get(Game, gid).seats if s.player.email == email)


def _client(app, email):
    client = app.test_client()
    sign_in(client, player_id(email))
    return client


def test_previews_are_limited_per_seat_and_the_refusal_says_when_to_retry(app):
    gid, other = new_lacitta(), new_lacitta(seed=7)
    ada, cy = _client(app, "ada@example.org"), _client(app, "cy@example.org")
    url = f"/games/{gid}/seat/{_seat(gid, 'ada@example.org')}/next.json?orders=&step=0"
    n = _per_minute(PREVIEW_LIMIT)
    assert n >= 120  # a player typing (one ask 0.4 s after each pause) stays below it
    for _ in range(3):  # someone else's requests for this seat are refused and spend nothing of Ada's
        assert cy.get(url).status_code == 403
    answers = [ada.get(url) for _ in range(n + 1)]
    assert [a.status_code for a in answers[:n]] == [200] * n
    refused = answers[n]
    assert refused.status_code == 429
    wait = int(refused.headers["Retry-After"])
    assert 1 <= wait <= 60
    body = refused.get_json()  # the page's script shows the message as it shows a refusal
    assert body["status"] != "ok" and f"Try again in {wait} seconds" in body["message"]
    # Ada's seat in another game has its own budget
    assert ada.get(f"/games/{other}/seat/{_seat(other, 'ada@example.org')}/next.json?orders=&step=0") \
        .status_code == 200


def test_reviews_are_limited_per_seat(app):
    gid = new_lacitta()
    ada = _client(app, "ada@example.org")
    seat = _seat(gid, "ada@example.org")
    token = csrf_token(ada, f"/games/{gid}/seat/{seat}")
    n = _per_minute(REVIEW_LIMIT)
    assert n >= 20  # a player reviewing again and again after refusals never meets it
    codes = [ada.post(f"/games/{gid}/seat/{seat}/review", data={"csrf_token": token, "orders": "pass",
                                                                "step": "0"}).status_code
             for _ in range(n + 1)]
    assert 429 not in codes[:n] and codes[n] == 429
    refused = ada.post(f"/games/{gid}/seat/{seat}/review", data={"csrf_token": token, "orders": "pass"})
    text = refused.get_data(as_text=True)
    assert refused.status_code == 429 and "Slow down" in text
    assert re.search(r"Try again in \d+ seconds", text)
    assert 1 <= int(refused.headers["Retry-After"]) <= 60
    # the order itself can still be sent: the limit is on dry runs only
    resp = ada.post(f"/games/{gid}/seat/{seat}", data={"csrf_token": token, "orders": "pass", "step": "0"})
    assert resp.status_code != 429
