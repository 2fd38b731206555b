"""The host's tools on the game page: who has joined, resend an invitation,
replace a player, cancel the game (issue #14)."""
from __future__ import annotations

import datetime as dt

from sqlalchemy import select

from pbem.service.db import db
from pbem.service.models import Game, GameEvent, OutboxMessage

from .conftest import csrf_token, new_lacitta, player_id, sign_in
from .pagetext import text_of


def _client(app, email):
    client = app.test_client()
    sign_in(client, player_id(email))
    return client


def _game(gid: int) -> Game:
    db.session.rollback()
    return db.session.get(Game, gid)


def _invites(email: str) -> int:
    db.session.rollback()
    return len(db.session.execute(select(OutboxMessage).where(
        OutboxMessage.kind == "invite", OutboxMessage.recipient == email)).scalars().all())


def test_waiting_game_shows_who_joined_and_host_resends_an_invitation(app):
    gid = new_lacitta(start=False)
    ada, bo = _client(app, "ada@example.org"), _client(app, "bo@example.org")
    page = ada.get(f"/games/{gid}").get_data(as_text=True)
    text = text_of(page)
    assert "1 of 3 have joined; waiting for Bo, Cy." in text
    assert 'id="resend-2"' in page and 'id="resend-3"' in page and 'id="resend-1"' not in page
    assert 'id="resend-2"' not in bo.get(f"/games/{gid}").get_data(as_text=True)  # host only
    token = csrf_token(ada, f"/games/{gid}")
    assert bo.post(f"/games/{gid}/invite/2", data={"csrf_token": csrf_token(bo, f"/games/{gid}")}).status_code == 403
    # the first invitation has just gone: a second one waits ten minutes
    too_soon = ada.post(f"/games/{gid}/invite/2", data={"csrf_token": token}, follow_redirects=True)
    assert "you can send another in 10 min" in text_of(too_soon.get_data(as_text=True))
    assert _invites("bo@example.org") == 1
    for row in db.session.execute(select(OutboxMessage)).scalars():
        row.created_at -= dt.timedelta(minutes=11)  # the first invitation went 11 minutes ago
    db.session.commit()
    done = ada.post(f"/games/{gid}/invite/2", data={"csrf_token": token}, follow_redirects=True)
    assert "A new invitation is on its way to bo@example.org." in text_of(done.get_data(as_text=True))
    assert _invites("bo@example.org") == 2
    assert ada.post(f"/games/{gid}/invite/9", data={"csrf_token": token}).status_code == 404


def test_host_replaces_a_player_from_the_game_page(app):
    gid = new_lacitta()
    ada, bo = _client(app, "ada@example.org"), _client(app, "bo@example.org")
    page = ada.get(f"/games/{gid}").get_data(as_text=True)
    assert '<label for="replace-email">' in page and 'id="replace-email"' in page
    token = csrf_token(ada, f"/games/{gid}")
    form = {"csrf_token": token, "seat": "2", "email": "dee@example.org", "name": "Dee"}
    assert bo.post(f"/games/{gid}/replace", data={**form, "csrf_token": csrf_token(bo, f"/games/{gid}")}
                   ).status_code == 403
    bad = ada.post(f"/games/{gid}/replace", data={**form, "email": "not-an-address"}, follow_redirects=True)
    assert "not an email address" in text_of(bad.get_data(as_text=True))
    taken = ada.post(f"/games/{gid}/replace", data={**form, "email": "cy@example.org"}, follow_redirects=True)
    assert "already holds another seat" in text_of(taken.get_data(as_text=True))
    noseat = ada.post(f"/games/{gid}/replace", data={**form, "seat": "7"}, follow_redirects=True)
    assert "Choose the seat" in text_of(noseat.get_data(as_text=True))
    assert _game(gid).seat(1).player.email == "bo@example.org"  # nothing changed by the refusals
    ok = ada.post(f"/games/{gid}/replace", data=form, follow_redirects=True)
    assert "Dee takes over seat 2" in text_of(ok.get_data(as_text=True))
    assert _game(gid).seat(1).player.email == "dee@example.org"
    assert _invites("dee@example.org") == 1


def test_host_cancels_the_game_after_confirming(app):
    gid = new_lacitta()
    ada, bo = _client(app, "ada@example.org"), _client(app, "bo@example.org")
    token = csrf_token(ada, f"/games/{gid}")
    assert bo.post(f"/games/{gid}/cancel", data={"csrf_token": csrf_token(bo, f"/games/{gid}"), "confirm": "yes"}
                   ).status_code == 403
    unconfirmed = ada.post(f"/games/{gid}/cancel", data={"csrf_token": token}, follow_redirects=True)
    assert "Tick the box" in text_of(unconfirmed.get_data(as_text=True))
    assert _game(gid).status == "active"
    done = ada.post(f"/games/{gid}/cancel", data={"csrf_token": token, "confirm": "yes"}, follow_redirects=True)
    text = text_of(done.get_data(as_text=True))
    assert "The game is cancelled" in text and "The host cancelled the game." in text
    assert _game(gid).status == "cancelled"
    page = done.get_data(as_text=True)
    players = page.split("<h2>Players</h2>")[1].split("</section>")[0]
    assert 'id="pause"' not in page and 'id="cancel"' not in page and "to move" not in players
    db.session.rollback()
    assert len(db.session.execute(select(OutboxMessage).where(OutboxMessage.kind == "cancelled")).scalars().all()) == 3
    assert db.session.execute(select(GameEvent).where(GameEvent.kind == "cancelled")).scalars().all()
    order_page = bo.get(f"/games/{gid}/seat/2")
    assert order_page.status_code == 200 and 'id="review"' not in order_page.get_data(as_text=True)
    dash = text_of(bo.get("/").get_data(as_text=True))
    assert "Finished" in dash and "cancelled" in dash


def test_a_cancelled_game_says_so_on_the_game_page_and_the_order_page_takes_no_orders(app):
    from pbem.service.lifecycle import cancel_game

    gid = new_lacitta()
    bo = _client(app, "bo@example.org")
    seat = next(s for s in _game(gid).seats if s.player is not None and s.player.email == "bo@example.org")
    before = bo.get(f"/games/{gid}/seat/{seat.number}").get_data(as_text=True)
    assert 'id="cancelled' not in before
    cancel_game(gid)
    game_page = bo.get(f"/games/{gid}").get_data(as_text=True)
    assert 'status-cancelled' in game_page and 'id="cancelled"' in game_page
    assert "The host cancelled this game" in text_of(game_page)
    order = bo.get(f"/games/{gid}/seat/{seat.number}")
    page = order.get_data(as_text=True)
    assert order.status_code == 200 and 'id="cancelled-label"' in page and 'id="cancelled"' in page
    assert "The game is cancelled" in text_of(page)
    assert 'id="order-form"' not in page and "<textarea" not in page and 'id="review"' not in page
    assert 'http-equiv="refresh"' not in page   # nothing to wait for
    # an order posted anyway is refused and nothing is kept
    refused = bo.post(f"/games/{gid}/seat/{seat.number}/review",
                      data={"csrf_token": csrf_token(bo, f"/games/{gid}"), "orders": "gold", "step": "0"})
    assert refused.status_code == 422 and "cancelled" in text_of(refused.get_data(as_text=True))
    assert _game(gid).status == "cancelled"
