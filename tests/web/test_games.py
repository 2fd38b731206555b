"""Creating a game, joining it, the public game page (log, replay, final
scores), the dashboard and the host's controls."""
from __future__ import annotations

import re

from sqlalchemy import select

from pbem.engine import GAMES
from pbem.service.core.db import db
from pbem.service.core.models import Game, GameEvent, OutboxMessage
from pbem.service.core.snapshot import engine_state

from .conftest import csrf_token, new_lacitta, player_id, sign_in
from .pagetext import text_of


def _client(app, email):
    client = app.test_client()
    sign_in(client, player_id(email))
    return client


def _fresh():
    db.session.rollback()


def test_new_game_form_offers_every_registered_game_and_its_options(app):
    new_lacitta()
    ada = _client(app, "ada@example.org")
    html = ada.get("/games/new").get_data(as_text=True)
    for name, game in GAMES.items():
        assert f'name="kind" value="{name}"' in html
        for option, values in game.options.items():
            assert f'name="opt-{name}-{option}"' in html
            for v in values:
                assert f'<option value="{v}"' in html
    assert '<option value="Europe/Helsinki"' in html and 'value="48"' in html
    assert 'value="ada@example.org"' in html  # the host's own seat is filled in


def test_host_creates_a_game_and_invitations_go_out(app):
    new_lacitta()
    ada = _client(app, "ada@example.org")
    data = {"csrf_token": csrf_token(ada, "/games/new"), "kind": "lacitta", "opt-lacitta-setup": "experienced",
            "title": "Winter league", "deadline_hours": "24", "timezone": "Europe/Helsinki",
            "seat-0-name": "Ada", "seat-0-email": "ada@example.org",
            "seat-1-name": "Dee", "seat-1-email": "dee@example.org",
            "seat-2-name": "", "seat-2-email": "",
            "seat-3-name": "Eve", "seat-3-email": "eve@example.org"}
    resp = ada.post("/games/new", data=data)
    assert resp.status_code == 302
    _fresh()
    game = db.session.execute(select(Game).where(Game.title == "Winter league")).scalar_one()
    assert (game.kind, game.options, game.deadline_seconds, game.timezone, game.status) == \
        ("lacitta", {"setup": "experienced"}, 24 * 3600, "Europe/Helsinki", "invited")
    assert [s.player.email for s in game.seats] == ["ada@example.org", "dee@example.org", "eve@example.org"]
    invites = db.session.execute(select(OutboxMessage).where(OutboxMessage.kind == "invite",
                                                             OutboxMessage.game_id == game.id)).scalars().all()
    assert sorted(i.recipient for i in invites) == ["dee@example.org", "eve@example.org"]
    page = ada.get(resp.headers["Location"]).get_data(as_text=True)
    assert "invitations are on their way" in page and "Start now" in page


def test_bad_create_form_is_answered_and_keeps_what_was_typed(app):
    new_lacitta()
    ada = _client(app, "ada@example.org")
    token = csrf_token(ada, "/games/new")
    base = {"csrf_token": token, "kind": "lacitta", "opt-lacitta-setup": "beginner", "deadline_hours": "48",
            "timezone": "UTC", "seat-0-name": "Ada", "seat-0-email": "ada@example.org",
            "seat-1-name": "Dee", "seat-1-email": "not-an-address"}
    resp = ada.post("/games/new", data=base)
    html = resp.get_data(as_text=True)
    assert resp.status_code == 422 and "not an email address" in html and 'value="not-an-address"' in html
    for change, words in [({"seat-1-email": "ada@example.org"}, "its own email address"),
                          ({"seat-1-email": ""}, "needs an email address"),
                          ({"deadline_hours": "0.1"}, "between 1 and"),
                          ({"timezone": "Mars/Base"}, "time zone"),
                          ({"opt-lacitta-setup": "tournament"}, "setup must be one of"),
                          ({"seat-1-name": "", "seat-1-email": ""}, "2-5 seats")]:
        resp = ada.post("/games/new", data={**base, "seat-1-email": "dee@example.org", **change})
        assert resp.status_code == 422 and words in resp.get_data(as_text=True), words
    _fresh()
    assert db.session.execute(select(Game)).scalars().all().__len__() == 1


def test_invited_seat_joins_and_the_game_starts_when_everyone_is_in(app):
    gid = new_lacitta(start=False)
    bo = _client(app, "bo@example.org")
    page = bo.get(f"/games/{gid}/join/2").get_data(as_text=True)
    assert "seat 2" in page and 'id="join"' in page
    resp = bo.post(f"/games/{gid}/join/2", data={"csrf_token": csrf_token(bo, f"/games/{gid}/join/2")})
    assert resp.status_code == 302
    _fresh()
    assert db.session.get(Game, gid).status == "invited"
    cy = _client(app, "cy@example.org")
    resp = cy.post(f"/games/{gid}/join/3", data={"csrf_token": csrf_token(cy, f"/games/{gid}/join/3")})
    assert resp.status_code == 302 and resp.headers["Location"].endswith(f"/games/{gid}/seat/3")
    _fresh()
    assert db.session.get(Game, gid).status == "active"
    # one cannot join another's seat
    assert bo.get(f"/games/{gid}/join/3").status_code == 403


def test_host_starts_pauses_resumes_and_extends(app):
    gid = new_lacitta(start=False)
    ada = _client(app, "ada@example.org")
    bo = _client(app, "bo@example.org")
    token = csrf_token(ada, f"/games/{gid}")
    assert bo.post(f"/games/{gid}/start", data={"csrf_token": csrf_token(bo, f"/games/{gid}")}).status_code == 403
    assert ada.post(f"/games/{gid}/start", data={"csrf_token": token}).status_code == 302
    _fresh()
    game = db.session.get(Game, gid)
    assert game.status == "active"
    deadline = game.deadline_at
    ada.post(f"/games/{gid}/extend", data={"csrf_token": token, "hours": "12"})
    _fresh()
    assert (db.session.get(Game, gid).deadline_at - deadline).total_seconds() == 12 * 3600
    ada.post(f"/games/{gid}/pause", data={"csrf_token": token})
    _fresh()
    assert db.session.get(Game, gid).status == "paused"
    page = ada.get(f"/games/{gid}").get_data(as_text=True)
    assert "The game is paused" in page and 'id="resume"' in page
    # resuming twice: the second is answered, not an error page
    ada.post(f"/games/{gid}/resume", data={"csrf_token": token})
    again = ada.post(f"/games/{gid}/resume", data={"csrf_token": token}, follow_redirects=True)
    assert "only a paused game can be resumed" in again.get_data(as_text=True)
    _fresh()
    assert db.session.get(Game, gid).status == "active"
    bad = ada.post(f"/games/{gid}/extend", data={"csrf_token": token, "hours": "lots"}, follow_redirects=True)
    assert "number of hours" in bad.get_data(as_text=True)


def test_game_page_public_log_and_replay(app):
    gid = new_lacitta()
    ada = _client(app, "ada@example.org")
    token = csrf_token(ada, f"/games/{gid}/seat/1")
    start = engine_state(db.session.get(Game, gid)).step
    ada.post(f"/games/{gid}/seat/1", data={"csrf_token": token, "orders": "gold", "step": start})
    _fresh()
    db.session.add(GameEvent(game_id=gid, step=start + 1, seat_index=0, kind="peek",
                             text="PRIVATE: you looked at a Voice card"))
    db.session.commit()
    anonymous = app.test_client()
    html = anonymous.get(f"/games/{gid}").get_data(as_text=True)
    # the log names the player, not the seat, with the seat colour's dot
    assert "Ada plays an action card and takes 2 gold" in text_of(html)
    assert "Seat 1 plays" not in text_of(html) and 'class="who" style="--seat:#' in html
    assert "PRIVATE" not in html and "ada@example.org" not in html
    assert "<svg" in html and f'max="{start + 1}"' in html and f'value="{start + 1}"' in html
    # the replay shows the board before the move: seat 1 still has 1 gold
    before = anonymous.get(f"/games/{gid}?step={start}").get_data(as_text=True)
    assert "Replay: after step" in before and "Seat 1 (you)" not in before
    assert re.search(r"Ada: [^<]*gold 1", before) and re.search(r"Ada: [^<]*gold 3", html)
    # out of range steps are clamped, not errors
    assert anonymous.get(f"/games/{gid}?step=999").status_code == 200
    assert anonymous.get(f"/games/{gid}?step=abc").status_code == 200
    # the seat itself sees its private event on its order page
    assert "PRIVATE" in ada.get(f"/games/{gid}/seat/1").get_data(as_text=True)
    bo = _client(app, "bo@example.org")
    assert "PRIVATE" not in bo.get(f"/games/{gid}/seat/2").get_data(as_text=True)


def test_the_replay_starts_where_the_set_up_left_the_game_read_from_the_stored_moves(app, monkeypatch):
    """The replay's first step is the step after the game's set-up, before
    any move and after some; the game page reads it from the stored moves
    (play.reads.first_step) instead of setting the game up again."""
    from pbem.engine import get_game
    from pbem.service.play.reads import first_step

    gid = new_lacitta()
    game = db.session.get(Game, gid)
    set_up = get_game("lacitta").new_state(len(game.seats), game.seed, **game.options).step
    assert first_step(gid, game.step) == game.step == set_up      # no move yet: the current step
    ada = _client(app, "ada@example.org")
    token = csrf_token(ada, f"/games/{gid}/seat/1")
    ada.post(f"/games/{gid}/seat/1", data={"csrf_token": token, "orders": "gold", "step": set_up})
    _fresh()
    assert db.session.get(Game, gid).step > set_up and first_step(gid, db.session.get(Game, gid).step) == set_up

    last = db.session.get(Game, gid).step
    anonymous = app.test_client()
    clamped = anonymous.get(f"/games/{gid}?step=-5").get_data(as_text=True)   # clamped to the first step
    assert f'min="{set_up}" max="{last}" value="{set_up}"' in clamped

    def no_set_up(*args, **kwargs):
        raise AssertionError("the game page set the game up again")

    monkeypatch.setattr(get_game("lacitta"), "new_state", no_set_up)
    now = anonymous.get(f"/games/{gid}")
    assert now.status_code == 200 and f'min="{set_up}" max="{last}" value="{last}"' in now.get_data(as_text=True)


def test_finished_game_shows_final_scores(app):
    import random

    gid = new_lacitta(seats=2, players=[("Ada", "ada@example.org"), ("Bo", "bo@example.org")])
    _fresh()
    game = db.session.get(Game, gid)
    state = engine_state(game)
    rng = random.Random(1)
    while not state.is_terminal():
        seat = state.current_seats()[0]
        actions = state.legal_actions(seat)
        state.apply(seat, rng.choice(actions) if actions else state.default_action(seat))
    game.state, game.step, game.phase, game.status = state.to_json(), state.step, state.phase(), "finished"
    game.deadline_at = None
    db.session.commit()
    html = app.test_client().get(f"/games/{gid}").get_data(as_text=True)
    assert "Final scores" in html
    for score in state.scores():
        assert re.search(rf"\b{score.rank} {['Ada', 'Bo'][score.seat]} {score.points}\b", text_of(html))
    ada = _client(app, "ada@example.org")
    dash = ada.get("/").get_data(as_text=True)
    assert "Finished" in dash and "won by" in dash
    page = ada.get(f"/games/{gid}/seat/1").get_data(as_text=True)
    assert "The game is over" in page and 'id="order-form"' not in page
    mine = next(s for s in state.scores() if s.seat == 0)
    assert re.search(rf"\b{mine.rank} Ada \(you\) {mine.points}\b", text_of(page))


def test_dashboard_lists_games_whose_move_and_deadline_in_players_zone(app):
    gid = new_lacitta()
    _fresh()
    from pbem.service.core.models import Player

    db.session.get(Player, player_id("bo@example.org")).timezone = "Asia/Tokyo"
    db.session.commit()
    ada = _client(app, "ada@example.org")
    html = ada.get("/").get_data(as_text=True)
    assert "Your move" in html and f"/games/{gid}/seat/1" in html and "(UTC)" in html
    bo = _client(app, "bo@example.org")
    html = bo.get("/").get_data(as_text=True)
    assert "Waiting for others" in html and "waiting for Ada" in html and "(Asia/Tokyo)" in html
    _fresh()
    deadline = db.session.get(Game, gid).deadline_at
    from zoneinfo import ZoneInfo

    assert deadline.astimezone(ZoneInfo("Asia/Tokyo")).strftime("%H:%M") in html


def test_anonymous_visitor_gets_the_front_page_and_is_sent_to_sign_in(app):
    gid = new_lacitta()
    client = app.test_client()
    assert "Send me a sign-in link" in client.get("/").get_data(as_text=True)
    for path in (f"/games/{gid}/seat/1", "/games/new", f"/games/{gid}/join/2"):
        resp = client.get(path)
        assert resp.status_code == 302 and "/signin?next=" in resp.headers["Location"]


def test_game_creation_is_limited_per_host_not_per_address(app):
    new_lacitta()
    ada = _client(app, "ada@example.org")
    token = csrf_token(ada, "/games/new")
    codes = [ada.post("/games/new", data={"csrf_token": token, "kind": "lacitta", "deadline_hours": "48",
                                          "timezone": "UTC", "seat-0-name": "Ada", "seat-0-email": "ada@example.org",
                                          "seat-1-email": "bad"}).status_code for _ in range(21)]
    assert codes[:20] == [422] * 20 and codes[20] == 429
    # another host on the same address is not held back
    bo = _client(app, "bo@example.org")
    resp = bo.post("/games/new", data={"csrf_token": csrf_token(bo, "/games/new"), "kind": "lacitta",
                                       "deadline_hours": "48", "timezone": "UTC", "seat-0-email": "bad"})
    assert resp.status_code == 422
