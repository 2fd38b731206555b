"""Absences on the pages (issue 25): declared on the account page (all
games) or the game page (one game), in the player's own zone; the other
seats see "away until …", the host the cap left; nobody sees where or why."""
from __future__ import annotations

import datetime as dt
from zoneinfo import ZoneInfo

from sqlalchemy import select

from pbem.service.core.absence_rows import Absence
from pbem.service.core.db import db
from pbem.service.core.models import Game, Player

from .conftest import csrf_token, new_lacitta, player_id, signed_in
from .pagetext import text_of


def _days(first: int, last: int, zone: str = "UTC") -> dict:
    today = dt.datetime.now(ZoneInfo(zone)).date()
    return {"first": (today + dt.timedelta(days=first)).isoformat(), "last": (today + dt.timedelta(days=last)).isoformat()}


def test_an_absence_on_the_account_page_moves_the_deadline_and_others_see_until_when(app):
    gid = new_lacitta()
    db.session.get(Player, player_id("ada@example.org")).timezone = "Europe/Helsinki"
    db.session.commit()
    ada, bo = signed_in(app, "ada@example.org"), signed_in(app, "bo@example.org")
    before = db.session.get(Game, gid).deadline_at
    page = ada.post("/account/absences", data={"csrf_token": csrf_token(ada, "/account"), **_days(0, 6, "Europe/Helsinki")},
                    follow_redirects=True)
    text = text_of(page.get_data(as_text=True))
    assert "Your absence is recorded" in text and "all your games" in text
    db.session.rollback()
    row = db.session.execute(select(Absence)).scalar_one()
    assert row.game_id is None
    local_end = row.ends_at.astimezone(ZoneInfo("Europe/Helsinki"))
    assert (local_end.hour, local_end.minute) == (0, 0)      # the end of the last day, in her zone
    db.session.rollback()
    game = db.session.get(Game, gid)
    assert game.deadline_at > before
    seen = text_of(bo.get(f"/games/{gid}").get_data(as_text=True))
    assert "Ada" in seen and "away until" in seen
    host = text_of(ada.get(f"/games/{gid}").get_data(as_text=True))
    assert "of 14 days" in host                             # the host sees the cap left
    assert "of 14 days" not in seen


def test_one_game_only_from_the_game_page_and_withdraw(app):
    gid = new_lacitta()
    bo = signed_in(app, "bo@example.org")
    token = csrf_token(bo, f"/games/{gid}")
    bo.post(f"/games/{gid}/absences", data={"csrf_token": token, **_days(1, 3)})
    db.session.rollback()
    row = db.session.execute(select(Absence)).scalar_one()
    assert row.game_id == gid and row.player_id == player_id("bo@example.org")
    row_id = row.id
    cy = signed_in(app, "cy@example.org")
    assert cy.post(f"/account/absences/{row_id}/withdraw",
                   data={"csrf_token": csrf_token(cy, "/account")}).status_code == 404
    db.session.rollback()
    assert db.session.execute(select(Absence.id)).scalars().all() == [row_id]   # not Cy's to withdraw
    bo.post(f"/account/absences/{row_id}/withdraw", data={"csrf_token": token})
    db.session.rollback()
    assert db.session.execute(select(Absence.id)).scalars().all() == []


def test_bad_days_are_refused_with_a_clear_sentence(app):
    new_lacitta()
    ada = signed_in(app, "ada@example.org")
    token = csrf_token(ada, "/account")
    page = ada.post("/account/absences", data={"csrf_token": token, **_days(5, 2)}, follow_redirects=True)
    assert "cannot come before the first" in text_of(page.get_data(as_text=True))
    page = ada.post("/account/absences", data={"csrf_token": token, "first": "soon", "last": ""}, follow_redirects=True)
    assert "first and the last day" in text_of(page.get_data(as_text=True))
    db.session.rollback()
    assert db.session.execute(select(Absence)).first() is None


def test_a_stranger_cannot_declare_in_a_game(app):
    gid = new_lacitta(seats=2)
    cy = signed_in(app, "cy@example.org") if False else None
    from pbem.service.accounts.players import get_or_create_player

    get_or_create_player("zed@example.org", "Zed", "UTC")
    db.session.commit()
    zed = signed_in(app, "zed@example.org")
    resp = zed.post(f"/games/{gid}/absences", data={"csrf_token": csrf_token(zed, "/account"), **_days(1, 3)})
    assert resp.status_code == 403 and cy is None
    db.session.rollback()
    assert db.session.execute(select(Absence)).first() is None


def test_the_host_sets_the_cap_and_the_grace_at_creation(app):
    ada = signed_in(app, "ada@example.org") if new_lacitta() else None
    token = csrf_token(ada, "/games/new")
    form = {"csrf_token": token, "kind": "lacitta", "title": "Long one", "deadline_hours": "48", "timezone": "UTC",
            "seat-0-name": "Ada", "seat-0-email": "ada@example.org", "seat-1-name": "Bo",
            "seat-1-email": "bo@example.org", "seat-2-name": "Cy", "seat-2-email": "cy@example.org",
            "opt-lacitta-setup": "beginner", "absence_cap_days": "7", "grace_hours": "12"}
    resp = ada.post("/games/new", data=form)
    assert resp.status_code == 302, text_of(resp.get_data(as_text=True))[:500]
    db.session.rollback()
    game = db.session.execute(select(Game).where(Game.title == "Long one")).scalar_one()
    assert (game.absence_cap_days, game.grace_hours) == (7, 12)
    bad = ada.post("/games/new", data={**form, "title": "Two", "absence_cap_days": "99"})
    assert bad.status_code == 422 and "between 0 and 60 days" in text_of(bad.get_data(as_text=True))


def test_the_demo_game_has_a_seat_away_and_strangers_see_none_of_it(app):
    from pbem.cli.demo import seed_demo_game
    from pbem.service.accounts.players import get_or_create_player

    game = seed_demo_game()
    gid = game.id
    db.session.rollback()
    assert db.session.execute(select(Absence.player_id)).scalars().all() == [game.seats[-1].player_id]
    alice = signed_in(app, "alice@example.com")
    assert "Carla" in (seen := text_of(alice.get(f"/games/{gid}").get_data(as_text=True))) and "away until" in seen
    db.session.rollback()   # a fresh snapshot before writing
    get_or_create_player("zed@example.org", "Zed", "UTC")
    db.session.commit()
    for client in (app.test_client(), signed_in(app, "zed@example.org")):
        page = text_of(client.get(f"/games/{gid}").get_data(as_text=True))
        assert "away until" not in page and "Away" not in page
