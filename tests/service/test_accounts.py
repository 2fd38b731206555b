"""The accounts wing's actions (pbem/service/accounts): the only writer of
players and tokens. Each checks first, writes one player's row under the
write lock and commits; a refusal writes nothing."""
from __future__ import annotations

import datetime as dt

import pytest
from sqlalchemy import select

from pbem.service.accounts import preferences, profile, sessions
from pbem.service.accounts.first_signin import Browser, needs_browser_zone, take_browser_defaults
from pbem.service.accounts.players import find_player, get_or_create_player
from pbem.service.core.db import db
from pbem.service.core.errors import ServiceError
from pbem.service.core.models import Player, UsedToken


@pytest.fixture
def two(app):
    """Two players, committed: ``(ada id, bo id)``."""
    ada, bo = get_or_create_player("ada@example.org", "Ada"), get_or_create_player("bo@example.org", "Bo")
    db.session.commit()
    return ada.id, bo.id


def _row(pid: int) -> Player:
    db.session.rollback()   # read what was committed, not the session's copy
    return db.session.get(Player, pid)


# ---------------------------------------------------------------- preferences
def test_a_player_changes_their_own_mail_preferences_and_nobody_elses(two):
    ada, bo = two
    preferences.set_mail_preferences(ada, "digest", "7", no_invites=True)
    a, b = _row(ada), _row(bo)
    assert (a.notify_mode, a.digest_hour, a.no_invites) == ("digest", 7, True)
    assert (b.notify_mode, b.digest_hour, b.no_invites) == ("every", 18, False)


@pytest.mark.parametrize("mode, hour", [("often", "7"), ("", None), (None, None), ("digest", "24"),
                                        ("digest", "-1"), ("digest", "seven"), ("digest", "7.5")])
def test_a_refused_preference_changes_nothing(two, mode, hour):
    ada, _ = two
    with pytest.raises(ServiceError):
        preferences.set_mail_preferences(ada, mode, hour, no_invites=True)
    a = _row(ada)
    assert (a.notify_mode, a.digest_hour, a.no_invites) == ("every", 18, False)


def test_no_hour_keeps_the_digest_hour(two):
    ada, _ = two
    preferences.set_mail_preferences(ada, "my_turn", None)
    assert (_row(ada).notify_mode, _row(ada).digest_hour) == ("my_turn", 18)


def test_mail_works_again_clears_a_hard_bounce_and_only_when_said(two):
    ada, bo = two
    for pid in two:
        db.session.get(Player, pid).bounced_at = dt.datetime(2026, 11, 1, tzinfo=dt.timezone.utc)
        db.session.get(Player, pid).bounce_reason = "550 no such user"
    db.session.commit()
    preferences.set_mail_preferences(bo, "every", None)             # not said: the bounce stays
    preferences.set_mail_preferences(ada, "every", None, mail_works=True)
    assert (_row(ada).bounced_at, _row(ada).bounce_reason) == (None, "")
    assert _row(bo).bounced_at is not None and _row(bo).bounce_reason == "550 no such user"


def test_unsubscribe_keeps_turn_mail_unless_the_player_turned_it_off(two):
    ada, bo = two
    preferences.set_mail_preferences(bo, "none", None)
    preferences.unsubscribe(ada)
    preferences.unsubscribe(bo)
    assert (_row(ada).notify_mode, _row(ada).no_invites) == ("my_turn", True)
    assert (_row(bo).notify_mode, _row(bo).no_invites) == ("none", True)


# ---------------------------------------------------------------- account page
def test_the_account_takes_a_clean_name_a_listed_zone_and_a_language_as_the_players_choice(two):
    ada, bo = two
    stored = profile.set_account(ada, name="  Ada\u0007  Lovelace ", timezone="Europe/Helsinki", language="fi-FI")
    a = _row(ada)
    assert stored.name == a.name == "Ada Lovelace"
    assert (a.timezone, a.language, a.language_chosen) == ("Europe/Helsinki", "fi", True)
    assert _row(bo).name == "Bo" and not _row(bo).language_chosen


def test_no_language_given_keeps_the_players_and_their_choice_open(two):
    ada, _ = two
    profile.set_account(ada, name="Ada", timezone="UTC", language="")
    assert (_row(ada).language, _row(ada).language_chosen) == ("", False)


@pytest.mark.parametrize("name, zone, language", [("", "UTC", None), ("x" * 101, "UTC", None),
                                                   ("Ada", "Mars/Olympus", None), ("Ada", "Etc/GMT+3", None),
                                                   ("Ada", "UTC", "xx")])
def test_a_refused_account_change_writes_nothing(two, name, zone, language):
    ada, _ = two
    with pytest.raises(ServiceError):
        profile.set_account(ada, name=name, timezone=zone, language=language)
    a = _row(ada)
    assert (a.name, a.timezone, a.language_chosen) == ("Ada", "UTC", False)


# ---------------------------------------------------------------- first sign-in
def test_the_first_sign_in_takes_the_browsers_valid_defaults_once(two):
    ada, _ = two
    player = db.session.get(Player, ada)
    assert needs_browser_zone(player) and needs_browser_zone(None)
    take_browser_defaults(player, Browser("de-AT", " Europe/Vienna "))
    db.session.commit()
    take_browser_defaults(player, Browser("fi", "Europe/Helsinki"))   # later sign-ins change nothing
    db.session.commit()
    a = _row(ada)
    assert (a.language, a.timezone) == ("de", "Europe/Vienna") and not needs_browser_zone(a)


def test_bad_browser_values_and_a_chosen_language_are_kept(two):
    ada, bo = two
    profile.set_account(bo, name="Bo", timezone="UTC", language="cs")
    take_browser_defaults(db.session.get(Player, ada), Browser("klingon", "Mars/Olympus"))
    take_browser_defaults(db.session.get(Player, bo), Browser("fi", None))
    db.session.commit()
    assert (_row(ada).language, _row(ada).timezone) == ("", "UTC")
    assert _row(bo).language == "cs" and _row(bo).first_signin_at is not None


# ---------------------------------------------------------------- sessions
def test_sign_out_everywhere_steps_the_version_of_that_player_only(two):
    ada, bo = two
    assert sessions.end_all_sessions(ada) == 1
    assert (_row(ada).session_version, _row(bo).session_version) == (1, 0)
    assert sessions.ended_sessions(ada) == {}      # no session is named: every one ended


def test_sign_out_here_records_the_session_it_ended(two):
    ada, bo = two
    sessions.end_session(ada, "abc", lifetime=dt.timedelta(days=30))
    sessions.end_session(ada, None, lifetime=dt.timedelta(days=30))   # a cookie from before names
    sessions.end_all_sessions(ada)
    sessions.end_session(bo, "abc", lifetime=dt.timedelta(days=30))
    assert sessions.ended_sessions(ada) == {0: {"abc"}, 1: {sessions.NO_NAME}}
    assert sessions.ended_sessions(bo) == {0: {"abc"}}
    assert _row(ada).session_version == 3
    record = db.session.execute(select(UsedToken).where(UsedToken.nonce == f"{sessions.RECORD}{ada}:0:abc")).scalar_one()
    assert record.expires_at - record.used_at == dt.timedelta(days=30)


def test_find_player_is_none_for_an_unknown_id(two):
    assert find_player(two[0]).email == "ada@example.org" and find_player(10**6) is None
