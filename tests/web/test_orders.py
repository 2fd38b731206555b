"""The order page: the board with the legal sites, the seat's private
information, only legal choices, review in the command language, submit
with the step the form was made on, refusals that keep the text typed."""
from __future__ import annotations

import re

from sqlalchemy import select

from pbem.engine import get_game
from pbem.service.core.db import db
from pbem.service.core.models import OutboxMessage, PendingOrder

from .conftest import PLAYERS, csrf_token, game_state, new_lacitta, signed_in, to_a_decision_taken_at_once
from .pagetext import text_of


def test_order_page_shows_board_private_info_and_only_legal_orders(app):
    gid = new_lacitta()
    ada = signed_in(app, "ada@example.org")
    html = ada.get(f"/games/{gid}/seat/1").get_data(as_text=True)
    state = game_state(gid)
    legal = state.legal_actions(0)
    # the board, with every legal site highlighted
    assert "<svg" in html and 'id="board"' in html
    lit = set(re.findall(r'class="site legal"[^>]*data-site="([A-Z0-9]+)"', html)) | \
        set(re.findall(r'data-site="([A-Z0-9]+)"[^>]*class="site legal"', html))
    assert lit == {a.site for a in legal if a.site}
    # one choice per label, and the exact legal orders for board.js
    labels = re.findall(r'<option value="([^"]*)">', html.split('id="order-label"')[1].split("</select>")[0])
    assert [l for l in labels if l] == list(dict.fromkeys(a.label for a in legal))
    data = re.search(r'<script type="application/json" id="legal-orders">(.*?)</script>', html, re.S).group(1)
    import json

    assert sorted(o["text"] for o in json.loads(data)) == sorted(a.to_text() for a in legal)
    # the seat's private information (engine view text) and the deadline in the player's zone
    view_text = get_game("lacitta").view_text(state.view(0))
    assert "You are seat 1." in view_text and "You are seat 1." in html
    assert "(UTC)" in html
    assert f'name="step" value="{state.step}"' in html


def test_not_your_move_shows_no_order_form(app):
    gid = new_lacitta()
    bo = signed_in(app, "bo@example.org")
    html = bo.get(f"/games/{gid}/seat/2").get_data(as_text=True)
    assert "Not your move now" in html and 'id="order-form"' not in html
    assert "Waiting for Ada." in text_of(html)


def test_a_seat_waiting_for_others_sees_its_turn_come_without_reloading(app):
    """Live play: the page of a seat with nothing to decide reloads itself
    (its email waits out the grace); the page of the seat to move never
    does, so nothing typed is lost."""
    from pbem.web.orders import WAITING_REFRESH

    gid = new_lacitta()
    bo = signed_in(app, "bo@example.org")
    waiting = bo.get(f"/games/{gid}/seat/2").get_data(as_text=True)
    # it looks again in place (order.js), never by a meta refresh (axe-core: critical)
    assert f'data-refresh="{WAITING_REFRESH}"' in waiting and 'http-equiv="refresh"' not in waiting
    assert f"every {WAITING_REFRESH} seconds" in waiting
    ada = signed_in(app, "ada@example.org")
    to_move = ada.get(f"/games/{gid}/seat/1").get_data(as_text=True)
    assert 'id="order-form"' in to_move and 'http-equiv="refresh"' not in to_move and "data-refresh" not in to_move


def test_a_seat_whose_orders_are_in_looks_again_only_while_its_field_is_empty(app):
    """A simultaneous decision: the seat that has sent its orders may still
    replace them, so its page has no meta refresh; order.js reloads it every
    data-refresh seconds while the order field is empty."""
    from pbem.web.orders import WAITING_REFRESH

    gid = new_lacitta()
    first, other = to_a_decision_taken_at_once(gid)[:2]
    html = signed_in(app, PLAYERS[first][1]).get(f"/games/{gid}/seat/{first + 1}").get_data(as_text=True)
    assert "Your orders are in" in html and 'id="order-form"' in html
    assert 'http-equiv="refresh"' not in html
    assert f'data-refresh="{WAITING_REFRESH}"' in html
    html = signed_in(app, PLAYERS[other][1]).get(f"/games/{gid}/seat/{other + 1}").get_data(as_text=True)
    assert "Your orders are in" not in html and "data-refresh" not in html


def test_review_shows_orders_in_the_command_language_then_submit_notifies_next_seat(app):
    gid = new_lacitta()
    ada = signed_in(app, "ada@example.org")
    state = game_state(gid)
    farm = next(a for a in state.legal_actions(0) if a.label == "build farm")
    token = csrf_token(ada, f"/games/{gid}/seat/1")
    typed = farm.to_text().upper()
    review = ada.post(f"/games/{gid}/seat/1/review", data={"csrf_token": token, "orders": typed,
                                                            "step": state.step})
    html = review.get_data(as_text=True)
    assert review.status_code == 200 and "Send these orders?" in html
    assert f'<code class="order">{farm.to_text()}</code>' in html
    # the board marks the site the order targets, and only that one
    lit = set(re.findall(r'class="site legal"[^>]*data-site="([A-Z0-9]+)"', html)) | \
        set(re.findall(r'data-site="([A-Z0-9]+)"[^>]*class="site legal"', html))
    assert lit == {farm.site}
    # nothing is stored by the review
    assert db.session.execute(select(PendingOrder)).first() is None
    canonical = re.search(r'<textarea name="orders" hidden>(.*?)</textarea>', html, re.S).group(1)
    sent = ada.post(f"/games/{gid}/seat/1", data={"csrf_token": token, "orders": canonical, "step": state.step})
    assert sent.status_code == 302
    after = game_state(gid)
    assert after.step == state.step + 1 and after.current_seats() == [1]
    page = ada.get(f"/games/{gid}/seat/1").get_data(as_text=True)
    assert "Sent: " + farm.to_text() + "." in page and "Not your move now" in page
    notices = db.session.execute(select(OutboxMessage).where(OutboxMessage.kind == "turn",
                                                             OutboxMessage.seat_index == 1)).scalars().all()
    assert [n.recipient for n in notices] == ["bo@example.org"]


def test_refusal_shows_what_was_read_why_and_what_is_legal_and_keeps_the_text(app):
    gid = new_lacitta()
    ada = signed_in(app, "ada@example.org")
    state = game_state(gid)
    token = csrf_token(ada, f"/games/{gid}/seat/1")
    typed = "build farm Z99\nbuild quarry nowhere"
    for url in (f"/games/{gid}/seat/1/review", f"/games/{gid}/seat/1"):
        resp = ada.post(url, data={"csrf_token": token, "orders": typed, "step": state.step})
        html = resp.get_data(as_text=True)
        assert resp.status_code == 422
        assert "Not sent" in html and "<code>build farm Z99</code>" in html and "refused:" in html
        assert "not looked at" in html  # the second line
        assert "Legal orders now" in html and "<code>gold</code>" in html
        assert f">{typed}</textarea>" in html
    assert game_state(gid).step == state.step
    assert db.session.execute(select(PendingOrder)).first() is None


def test_stale_form_is_refused_clearly(app):
    gid = new_lacitta()
    ada = signed_in(app, "ada@example.org")
    state = game_state(gid)
    token = csrf_token(ada, f"/games/{gid}/seat/1")
    # the form was made on step-1's page... simulate a page made before the last move
    old_step = state.step
    ada.post(f"/games/{gid}/seat/1", data={"csrf_token": token, "orders": "gold", "step": old_step})
    for n, email in ((2, "bo@example.org"), (3, "cy@example.org")):
        client = signed_in(app, email)
        client.post(f"/games/{gid}/seat/{n}", data={"csrf_token": csrf_token(client, f"/games/{gid}/seat/{n}"),
                                                    "orders": "gold", "step": old_step + n - 1})
    now = game_state(gid)
    assert now.current_seats() == [0] and now.step == old_step + 3
    for url in (f"/games/{gid}/seat/1/review", f"/games/{gid}/seat/1"):
        resp = ada.post(url, data={"csrf_token": token, "orders": "gold", "step": old_step})
        html = resp.get_data(as_text=True)
        assert resp.status_code == 409
        assert "The game has moved on" in html and ">gold</textarea>" in html
        # the turns as players see them (the phase then and now), never step numbers
        assert f"written for {state.phase()}, but the game has moved on to {now.phase()}." in html
        assert str(state.phase()) != str(now.phase()) and not re.search(r"\bstep \d", html)
    assert game_state(gid).step == now.step


def test_form_without_step_is_refused(app):
    gid = new_lacitta()
    ada = signed_in(app, "ada@example.org")
    token = csrf_token(ada, f"/games/{gid}/seat/1")
    resp = ada.post(f"/games/{gid}/seat/1", data={"csrf_token": token, "orders": "gold"})
    assert resp.status_code == 400 and "which turn" in resp.get_data(as_text=True)
    assert game_state(gid).current_seats() == [0]
    assert db.session.execute(select(PendingOrder)).first() is None


def test_view_json_is_the_seats_own_view(app):
    gid = new_lacitta()
    ada = signed_in(app, "ada@example.org")
    data = ada.get(f"/games/{gid}/seat/1/view.json").get_json()
    state = game_state(gid)
    import json

    assert data["view"] == json.loads(json.dumps(state.view(0)))
    assert data["view"] != json.loads(json.dumps(state.view(1)))
    assert data["to_move"] is True
    assert sorted(o["text"] for o in data["legal"]) == sorted(a.to_text() for a in state.legal_actions(0))
    bo = ada.get(f"/games/{gid}/seat/2/view.json")
    assert bo.status_code == 403 and b"bo@example.org" not in bo.data


def test_order_page_before_the_start_sends_to_join(app):
    gid = new_lacitta(start=False)
    bo = signed_in(app, "bo@example.org")
    resp = bo.get(f"/games/{gid}/seat/2")
    assert resp.status_code == 302 and resp.headers["Location"].endswith(f"/games/{gid}/join/2")


def test_paused_game_takes_no_orders(app):
    from pbem.service.play.lifecycle import pause_game

    gid = new_lacitta()
    ada = signed_in(app, "ada@example.org")
    token = csrf_token(ada, f"/games/{gid}/seat/1")
    pause_game(gid)
    html = ada.get(f"/games/{gid}/seat/1").get_data(as_text=True)
    assert "paused by the host" in html and 'id="order-form"' not in html
    resp = ada.post(f"/games/{gid}/seat/1", data={"csrf_token": token, "orders": "gold", "step": 0})
    assert resp.status_code == 422 and "paused" in resp.get_data(as_text=True)


def test_change_on_the_review_page_brings_the_typed_text_back(app):
    gid = new_lacitta()
    ada = signed_in(app, "ada@example.org")
    token = csrf_token(ada, f"/games/{gid}/seat/1")
    review = ada.post(f"/games/{gid}/seat/1/review", data={"csrf_token": token, "orders": "GOLD", "step": 0}) \
        .get_data(as_text=True)
    typed = re.search(r'<form method="get"[^>]*>\s*<textarea name="orders" hidden>(.*?)</textarea>', review, re.S)
    assert typed and typed.group(1) == "GOLD"
    page = ada.get(f"/games/{gid}/seat/1", query_string={"orders": typed.group(1)}).get_data(as_text=True)
    assert ">GOLD</textarea>" in page


def test_while_the_worker_resolves_the_page_says_so_and_refreshes(app):
    """With a real worker the redirect after sending can come before the
    resolution: the page must not offer the move again."""
    gid = new_lacitta()
    ada = signed_in(app, "ada@example.org")
    state = game_state(gid)
    db.session.add(PendingOrder(game_id=gid, seat_index=0, step=state.step, text="gold", source="web"))
    db.session.commit()
    html = ada.get(f"/games/{gid}/seat/1").get_data(as_text=True)
    assert "are being applied now" in html and 'data-refresh="3"' in html and 'http-equiv="refresh"' not in html
    assert 'id="order-form"' not in html and "<code>gold</code>" in html
