"""Seating a bot from the pages (issue 27 section 3): the new-game form's
seat rows and the host's replace-player form."""
from __future__ import annotations

from sqlalchemy import select

from pbem.service.core.db import db
from pbem.service.core.models import Game, Move, OutboxMessage

from .conftest import csrf_token, new_lacitta, player_id, sign_in
from .pagetext import text_of


def _client(app, email):
    client = app.test_client()
    sign_in(client, player_id(email))
    return client


def _form(token: str, **change) -> dict:
    return {"csrf_token": token, "kind": "lacitta", "opt-lacitta-setup": "beginner", "title": "Practice",
            "deadline_hours": "", "timezone": "UTC", "bot_takeover": "on",
            "seat-0-name": "Ada", "seat-0-email": "ada@example.org",
            "seat-1-who": "greedy", "seat-2-who": "standard", **change}


def test_the_new_game_form_seats_bots_and_the_game_waits_for_its_person(app):
    new_lacitta()
    ada = _client(app, "ada@example.org")
    page = ada.get("/games/new").get_data(as_text=True)
    assert 'name="seat-1-who"' in page and '<option value="greedy"' in page and 'name="bot_takeover"' in page
    resp = ada.post("/games/new", data=_form(csrf_token(ada, "/games/new")))
    assert resp.status_code == 302, text_of(resp.get_data(as_text=True))
    db.session.rollback()
    game = db.session.execute(select(Game).where(Game.title == "Practice")).scalar_one()
    assert [s.bot for s in game.seats] == [None, "greedy", "standard"]
    assert game.status == "active" and game.person_paced and game.deadline_at is None and game.bot_takeover
    assert not db.session.execute(select(OutboxMessage).where(OutboxMessage.game_id == game.id,
                                                              OutboxMessage.recipient.like("%bots.invalid"))).first()
    page = ada.get(f"/games/{game.id}").get_data(as_text=True)
    assert 'id="extend"' not in page and "Standard bot" in text_of(page)   # no deadline to extend


def test_a_table_of_bots_alone_is_refused(app):
    new_lacitta()
    ada = _client(app, "ada@example.org")
    resp = ada.post("/games/new", data=_form(csrf_token(ada, "/games/new"), **{"seat-0-who": "greedy"}))
    assert resp.status_code == 422 and "at least one person" in text_of(resp.get_data(as_text=True))


def test_the_host_gives_a_seat_to_a_bot_which_then_plays_it(app):
    app.config["BOT_SECONDS"] = 0.05
    gid = new_lacitta()
    ada = _client(app, "ada@example.org")
    page = ada.get(f"/games/{gid}").get_data(as_text=True)
    assert 'name="who"' in page
    ok = ada.post(f"/games/{gid}/replace", data={"csrf_token": csrf_token(ada, f"/games/{gid}"), "seat": "2",
                                                  "who": "greedy", "email": ""}, follow_redirects=True)
    assert "Seat 2 is played by a bot" in text_of(ok.get_data(as_text=True))
    db.session.rollback()
    game = db.session.get(Game, gid)
    assert game.seat(1).bot == "greedy" and game.seat(1).joined
    told = db.session.execute(select(OutboxMessage).where(OutboxMessage.kind == "seat_given")).scalars().all()
    assert [m.recipient for m in told] == ["bo@example.org"]
    # Ada (seat 1) moves; the bot answers for seat 2
    from tests.webapp import game_state
    from pbem.service.play.orders import submit_orders

    state = game_state(gid)
    while 0 in state.current_seats():
        submit_orders(gid, 0, state.legal_actions(0)[0].to_text(), expected_step=state.step, source="web")
        state = game_state(gid)
    db.session.rollback()
    sources = {m.seat_index: m.source for m in db.session.execute(select(Move).where(Move.game_id == gid)).scalars()}
    assert sources.get(1) == "bot"
    page = text_of(ada.get(f"/games/{gid}").get_data(as_text=True))
    assert "Greedy bot" in page and "(bot's order)" in page


def test_the_game_page_says_a_bot_stands_in_and_its_person_stops_it(app):
    from pbem.service.core.models import Seat

    gid = new_lacitta()
    seat = db.session.execute(select(Seat).where(Seat.game_id == gid, Seat.index == 1)).scalar_one()
    seat.bot_standin = True
    db.session.commit()
    ada, bo = _client(app, "ada@example.org"), _client(app, "bo@example.org")
    assert "Bo (played by a bot for now)" in text_of(ada.get(f"/games/{gid}").get_data(as_text=True))
    assert 'id="back"' not in ada.get(f"/games/{gid}").get_data(as_text=True)
    page = bo.get(f"/games/{gid}").get_data(as_text=True)
    assert 'id="back"' in page
    token = csrf_token(bo, f"/games/{gid}")
    assert ada.post(f"/games/{gid}/back/2", data={"csrf_token": csrf_token(ada, f"/games/{gid}")}).status_code == 403
    done = bo.post(f"/games/{gid}/back/2", data={"csrf_token": token}, follow_redirects=True)
    assert "Welcome back" in text_of(done.get_data(as_text=True))
    db.session.rollback()
    assert not db.session.get(Seat, seat.id).bot_standin


def test_the_absence_form_records_the_bot_choice(app):
    from pbem.service.core.absence_rows import Absence

    gid = new_lacitta()
    bo = _client(app, "bo@example.org")
    page = bo.get(f"/games/{gid}").get_data(as_text=True)
    assert 'id="game-away-bot"' in page
    token = csrf_token(bo, f"/games/{gid}")
    for bot in ("on", None):
        data = {"csrf_token": token, "first": "2030-01-01", "last": "2030-01-05"}
        if bot:
            data["bot"] = bot
        assert bo.post(f"/games/{gid}/absences", data=data).status_code == 302
    db.session.rollback()
    assert [a.bot_after_cap for a in db.session.execute(select(Absence).order_by(Absence.id)).scalars()] == [True, False]


def test_the_demo_with_bots_is_alice_against_standard_bots_at_her_pace(app):
    import pytest

    from pbem.cli.demo import seed_demo_game

    game = seed_demo_game("lacitta", bots=2)
    assert [s.bot for s in game.seats] == [None, "standard", "standard"]
    assert game.status == "active" and game.person_paced and game.deadline_at is None
    assert seed_demo_game("lacitta", bots=2).id == game.id          # seeded once
    with pytest.raises(ValueError):
        seed_demo_game("lacitta", bots=5)


def test_nobody_can_ask_for_a_bots_sign_in_link(app):
    from pbem.service.play.lifecycle import SeatSpec, create_game

    create_game("lacitta", "ada@example.org", [SeatSpec("ada@example.org", "Ada"), SeatSpec(bot="standard")],
                options={"setup": "beginner"})
    client = app.test_client()
    resp = client.post("/signin", data={"csrf_token": csrf_token(client, "/signin"), "email": "standard@bots.invalid"})
    assert resp.status_code == 422
    db.session.rollback()
    assert not db.session.execute(select(OutboxMessage).where(OutboxMessage.recipient.like("%bots.invalid"))).first()


def test_the_host_turns_the_take_over_off_and_on(app):
    gid = new_lacitta()
    ada, bo = _client(app, "ada@example.org"), _client(app, "bo@example.org")
    page = ada.get(f"/games/{gid}").get_data(as_text=True)
    assert 'id="bot-takeover"' in page and 'id="bot-takeover" checked' in page
    assert bo.post(f"/games/{gid}/takeover", data={"csrf_token": csrf_token(bo, f"/games/{gid}")}).status_code == 403
    done = ada.post(f"/games/{gid}/takeover", data={"csrf_token": csrf_token(ada, f"/games/{gid}")},
                    follow_redirects=True)
    assert "The take-over setting is saved." in text_of(done.get_data(as_text=True))
    db.session.rollback()
    assert not db.session.get(Game, gid).bot_takeover
    ada.post(f"/games/{gid}/takeover", data={"csrf_token": csrf_token(ada, f"/games/{gid}"), "bot_takeover": "on"})
    db.session.rollback()
    assert db.session.get(Game, gid).bot_takeover
