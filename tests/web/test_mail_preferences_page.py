"""The mail-preferences and account pages call the accounts wing's actions
(pbem/service/accounts/preferences.py, profile.py): a token or a session
changes its own player's row only, "mail to me works again" clears a hard
bounce, and a refusal is shown in the reader's language with nothing
stored."""
from __future__ import annotations

import datetime as dt

from sqlalchemy import select

from pbem.service.accounts import profile
from pbem.service.core import links
from pbem.service.core.db import db
from pbem.service.core.models import Player

from .conftest import csrf_token, new_lacitta, signed_in


def _player(email: str) -> Player:
    db.session.rollback()
    return db.session.execute(select(Player).where(Player.email == email)).scalar_one()


def _path(player: Player) -> str:
    return "/" + links.preferences_url(player.id).split("://", 1)[1].split("/", 1)[1]


def test_a_footer_link_changes_its_own_players_preferences_and_clears_a_bounce_when_told(app):
    new_lacitta()
    for email in ("ada@example.org", "bo@example.org"):
        row = _player(email)
        row.bounced_at, row.bounce_reason = dt.datetime(2026, 11, 1, tzinfo=dt.timezone.utc), "550 unknown"
        db.session.commit()
    client = app.test_client()
    path = _path(_player("bo@example.org"))
    sent = client.post(path, data={"csrf_token": csrf_token(client, path), "notify_mode": "my_turn",
                                   "digest_hour": "9", "mail_works": "on"})
    assert sent.status_code == 302
    bo, ada = _player("bo@example.org"), _player("ada@example.org")
    assert (bo.notify_mode, bo.digest_hour, bo.bounced_at, bo.bounce_reason) == ("my_turn", 9, None, "")
    assert (ada.notify_mode, ada.digest_hour, ada.bounce_reason) == ("every", 18, "550 unknown")


def test_the_signed_in_page_changes_the_signed_in_player_only(app):
    new_lacitta()
    ada = signed_in(app, "ada@example.org")
    sent = ada.post("/account/mail", data={"csrf_token": csrf_token(ada, "/account/mail"),
                                           "notify_mode": "none", "digest_hour": "18"})
    assert sent.status_code == 302
    assert _player("ada@example.org").notify_mode == "none" and _player("bo@example.org").notify_mode == "every"


def test_a_refused_hour_is_said_in_the_readers_language_and_nothing_is_stored(app):
    new_lacitta()
    profile.set_account(_player("bo@example.org").id, name="Bo", timezone="UTC", language="fi")
    client = app.test_client()
    path = _path(_player("bo@example.org"))
    refused = client.post(path, data={"csrf_token": csrf_token(client, path), "notify_mode": "digest",
                                      "digest_hour": "25", "no_invites": "on"})
    assert refused.status_code == 400
    assert "Valitse koosteelle kellonaika väliltä 0–23." in refused.get_data(as_text=True)
    bo = _player("bo@example.org")
    assert (bo.notify_mode, bo.digest_hour, bo.no_invites) == ("every", 18, False)


def test_the_account_page_refuses_a_bad_name_in_the_players_language(app):
    new_lacitta()
    ada = signed_in(app, "ada@example.org")
    profile.set_account(_player("ada@example.org").id, name="Ada", timezone="UTC", language="de")
    refused = ada.post("/account", data={"csrf_token": csrf_token(ada, "/account"), "name": "  ",
                                         "timezone": "Europe/Berlin", "language": "de"})
    assert "Bitte gib einen Namen mit 1 bis 100 Zeichen an." in refused.get_data(as_text=True)
    assert (_player("ada@example.org").name, _player("ada@example.org").timezone) == ("Ada", "UTC")
