"""The host's tools on the game page: who has joined, resend an invitation,
replace a player, cancel the game (issue #14)."""
from __future__ import annotations

import datetime as dt

from sqlalchemy import select

from pbem.service.core.db import db
from pbem.service.core.models import Game, GameEvent, OutboxMessage

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
    # the first invitation has just gone: the first resend is allowed at once (issue 29)
    first = ada.post(f"/games/{gid}/invite/2", data={"csrf_token": token}, follow_redirects=True)
    assert "A new invitation is on its way to bo@example.org." in text_of(first.get_data(as_text=True))
    assert _invites("bo@example.org") == 2
    # a second resend waits ten minutes
    too_soon = ada.post(f"/games/{gid}/invite/2", data={"csrf_token": token}, follow_redirects=True)
    assert "you can send another in 10 min" in text_of(too_soon.get_data(as_text=True))
    assert _invites("bo@example.org") == 2
    for row in db.session.execute(select(OutboxMessage)).scalars():
        row.created_at -= dt.timedelta(minutes=11)  # the resend went 11 minutes ago
    db.session.commit()
    done = ada.post(f"/games/{gid}/invite/2", data={"csrf_token": token}, follow_redirects=True)
    assert "A new invitation is on its way to bo@example.org." in text_of(done.get_data(as_text=True))
    assert _invites("bo@example.org") == 3
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
    assert "Seat 2 is offered to Dee: an invitation is on its way, and the seat is theirs once they accept it. " \
           "Bo has been told." in text_of(ok.get_data(as_text=True))
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
    from pbem.service.play.lifecycle import cancel_game

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


def test_a_replaced_player_gets_one_mail_and_their_old_invitation_says_so_in_their_language(app):
    """Issue 29: the newcomer takes the seat by accepting the invitation;
    the player who leaves is told once, in German, and their old
    invitation page says the host gave the seat away (not an English 403)."""
    from pbem.i18n import translations
    from pbem.service.core.models import Player

    gid = new_lacitta(start=False)
    bo = db.session.execute(select(Player).where(Player.email == "bo@example.org")).scalar_one()
    bo.language, bo.language_chosen = "de", True
    db.session.commit()
    ada, bo_client = _client(app, "ada@example.org"), _client(app, "bo@example.org")
    token = csrf_token(ada, f"/games/{gid}")
    ada.post(f"/games/{gid}/replace", data={"csrf_token": token, "seat": "2", "email": "dee@example.org",
                                            "name": "Dee"})
    assert _game(gid).seat(1).player.email == "dee@example.org" and not _game(gid).seat(1).joined
    told = db.session.execute(select(OutboxMessage).where(OutboxMessage.recipient == "bo@example.org",
                                                          OutboxMessage.kind == "seat_given")).scalars().all()
    de = translations("de").gettext
    assert len(told) == 1 and de("your seat has a new player") in told[0].subject
    assert de("your seat has a new player") != "your seat has a new player"
    page = bo_client.get(f"/games/{gid}/join/2")
    html = page.get_data(as_text=True)
    assert page.status_code == 410 and '<html lang="de"' in html
    assert "Error 403" not in html and "someone else" not in html
    assert de("Your seat has a new player") in html
    # a stranger still gets the plain refusal
    assert _client(app, "cy@example.org").get(f"/games/{gid}/join/2").status_code == 403


def test_a_replacement_in_a_running_game_accepts_before_the_seat_is_theirs(app):
    gid = new_lacitta()
    ada = _client(app, "ada@example.org")
    ada.post(f"/games/{gid}/replace", data={"csrf_token": csrf_token(ada, f"/games/{gid}"), "seat": "2",
                                            "email": "dee@example.org", "name": "Dee"})
    page = ada.get(f"/games/{gid}").get_data(as_text=True)
    assert 'id="resend-2"' in page          # Resend stays for a seat that has never joined
    db.session.rollback()
    dee = _client(app, "dee@example.org")
    join = dee.get(f"/games/{gid}/join/2").get_data(as_text=True)
    assert 'id="join"' in join
    resp = dee.post(f"/games/{gid}/join/2", data={"csrf_token": csrf_token(dee, f"/games/{gid}/join/2")})
    assert resp.status_code == 302 and _game(gid).seat(1).joined
    assert 'id="resend-2"' not in ada.get(f"/games/{gid}").get_data(as_text=True)


def test_the_hosts_typed_name_is_kept(app):
    from pbem.service.core.models import Player

    new_lacitta(start=False)
    db.session.add(Player(email="hana@example.org", name="hana"))   # a row made by a sign-in request
    db.session.commit()
    ada = _client(app, "ada@example.org")
    data = {"csrf_token": csrf_token(ada, "/games/new"), "kind": "lacitta", "opt-lacitta-setup": "beginner",
            "title": "Names", "deadline_hours": "48", "timezone": "UTC",
            "seat-0-name": "Ada", "seat-0-email": "ada@example.org",
            "seat-1-name": "Hana", "seat-1-email": "hana@example.org",
            "seat-2-name": "Bo", "seat-2-email": "bo@example.org"}
    assert ada.post("/games/new", data=data).status_code == 302
    db.session.rollback()
    assert db.session.execute(select(Player.name).where(Player.email == "hana@example.org")).scalar_one() == "Hana"


def test_the_table_shows_a_seat_that_gets_no_turn_mail(app):
    from pbem.service.core.models import Player

    gid = new_lacitta()
    bo = db.session.execute(select(Player).where(Player.email == "bo@example.org")).scalar_one()
    bo.notify_mode = "none"
    db.session.commit()
    text = text_of(_client(app, "cy@example.org").get(f"/games/{gid}").get_data(as_text=True))
    assert text.count("gets no turn mail") == 1
