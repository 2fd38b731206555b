"""Each player's pages in their own language (issue 16, the web part).

- The account page's language choice is stored (``language_chosen``) and
  the pages switch: ``<html lang>`` and the marked strings come from the
  catalog (expectations built from :func:`pbem.i18n.translations`, and,
  to show the path works before the catalogs are translated, from a
  stand-in catalog).
- The first sign-in takes the browser's ``Accept-Language`` (when the
  player has not chosen) and the browser's time zone; later sign-ins do not.
- The host's per-seat language reaches the invitee's player row, is shown
  on the invitee's sign-in page, and never overrides a player's own choice.
- Dates, "time left" and engine texts follow the page's language.
"""
from __future__ import annotations

import datetime as dt
import re

from babel.dates import format_timedelta
from markupsafe import escape
from sqlalchemy import select

import pbem.i18n
from pbem.engine.messages import Msg
from pbem.service.core import links
from pbem.service.core.db import db
from pbem.service.core.models import Game, GameEvent, Player
from tests.webapp import CSRF_RE, csrf_token, new_lacitta, player_id, signed_in


def _lang(html: str) -> str:
    return re.search(r'<html lang="([^"]+)"', html).group(1)


def _player(email: str) -> Player:
    db.session.rollback()  # the test's read snapshot ends: see what the requests committed
    return db.session.execute(select(Player).where(Player.email == email)).scalar_one()


def _signin_path(email: str) -> str:
    return links.signin_url(player_id(email), "/").removeprefix("http://pbem.test")


def _sign_in_with(client, path: str, headers=None, **fields):
    page = client.get(path, headers=headers or {})
    assert page.status_code == 200, page.get_data(as_text=True)
    token = CSRF_RE.search(page.get_data(as_text=True)).group(1)
    resp = client.post(path, data={"csrf_token": token, **fields}, headers=headers or {})
    assert resp.status_code == 302, resp.get_data(as_text=True)
    return page.get_data(as_text=True)


def _save_account(client, **fields):
    data = {"csrf_token": csrf_token(client, "/account"), "name": "Ada", "timezone": "UTC", **fields}
    return client.post("/account", data=data)


# --- the account page ------------------------------------------------------

def test_account_language_choice_persists_and_the_pages_switch(app):
    new_lacitta()
    ada = signed_in(app, "ada@example.org")
    page = ada.get("/account").get_data(as_text=True)
    assert _lang(page) == "en"
    for code, name in pbem.i18n.LANGUAGE_NAMES.items():  # every language offered, in its own words
        assert f'<option value="{code}" lang="{code}"' in page and name in page
    assert _save_account(ada, language="fi").status_code == 302
    ada_row = _player("ada@example.org")
    assert (ada_row.language, ada_row.language_chosen) == ("fi", True)
    home = ada.get("/").get_data(as_text=True)
    assert _lang(home) == "fi"
    assert f"<h1>{escape(pbem.i18n.translations('fi').gettext('My games'))}</h1>" in home
    account = ada.get("/account").get_data(as_text=True)
    assert '<option value="fi" lang="fi" selected>' in account
    # a later save without the field (an old form) keeps the choice
    assert _save_account(ada).status_code == 302
    assert _player("ada@example.org").language == "fi"


def test_pages_read_the_catalog_of_the_players_language(app, stand_in_catalog):
    stand_in_catalog("cs", {"My games": "Moje hry (test)", "Your account": "Tvůj účet (test)",
                            "The table": "Stůl (test)"})
    gid = new_lacitta()
    ada = signed_in(app, "ada@example.org")
    assert _save_account(ada, language="cs").status_code == 302
    home = ada.get("/").get_data(as_text=True)
    assert _lang(home) == "cs"
    expected = pbem.i18n.translations("cs").gettext("My games")
    assert expected != "My games" and f"<h1>{expected}</h1>" in home
    assert pbem.i18n.translations("cs").gettext("Your account") in ada.get("/account").get_data(as_text=True)
    order_page = ada.get(f"/games/{gid}/seat/1").get_data(as_text=True)
    assert f'<h2 id="table-h">{pbem.i18n.translations("cs").gettext("The table")}</h2>' in order_page
    # another player of the same game still reads English
    bo_page = signed_in(app, "bo@example.org").get(f"/games/{gid}/seat/2").get_data(as_text=True)
    assert _lang(bo_page) == "en" and '<h2 id="table-h">The table</h2>' in bo_page


def test_an_unknown_language_is_refused_and_nothing_is_lost(app):
    new_lacitta()
    ada = signed_in(app, "ada@example.org")
    resp = _save_account(ada, language="xx", name="Ada Lovelace")
    assert resp.status_code == 200 and "choose a language from the list" in resp.get_data(as_text=True)
    row = _player("ada@example.org")
    assert (row.language, row.language_chosen, row.name) == ("", False, "Ada")  # nobody has said yet


def test_visitor_pages_follow_accept_language(app, client):
    assert _lang(client.get("/", headers={"Accept-Language": "de-AT,de;q=0.9"}).get_data(as_text=True)) == "de"
    assert _lang(client.get("/", headers={"Accept-Language": "ja"}).get_data(as_text=True)) == "en"


# --- the first sign-in -----------------------------------------------------

def test_first_signin_takes_the_browsers_language(app):
    new_lacitta(start=False)
    bo = app.test_client()
    _sign_in_with(bo, _signin_path("bo@example.org"), {"Accept-Language": "cs-CZ,cs;q=0.9,en;q=0.5"})
    row = _player("bo@example.org")
    assert (row.language, row.language_chosen) == ("cs", False) and row.first_signin_at is not None
    assert _lang(bo.get("/").get_data(as_text=True)) == "cs"
    # only the first sign-in counts
    _sign_in_with(app.test_client(), _signin_path("bo@example.org"), {"Accept-Language": "de"})
    assert _player("bo@example.org").language == "cs"


def test_first_signin_keeps_a_chosen_language_and_ignores_unsupported_ones(app):
    new_lacitta(start=False)
    cy = _player("cy@example.org")
    cy.language, cy.language_chosen = "ca", True
    db.session.commit()
    _sign_in_with(app.test_client(), _signin_path("cy@example.org"), {"Accept-Language": "fi"})
    assert _player("cy@example.org").language == "ca"
    _sign_in_with(app.test_client(), _signin_path("bo@example.org"), {"Accept-Language": "ja, ko;q=0.5"})
    row = _player("bo@example.org")
    assert row.language == "" and row.first_signin_at is not None   # still unknown: pages follow the browser


def test_first_signin_takes_the_browsers_time_zone(app):
    new_lacitta(start=False)
    path = _signin_path("bo@example.org")
    page = _sign_in_with(app.test_client(), path, browser_zone="America/Argentina/Buenos_Aires")
    assert 'name="browser_zone"' in page and "signin.js" in page
    assert _player("bo@example.org").timezone == "America/Argentina/Buenos_Aires"
    # signed in once: the page no longer asks, and a posted zone changes nothing
    page = _sign_in_with(app.test_client(), _signin_path("bo@example.org"), browser_zone="Asia/Tokyo")
    assert 'name="browser_zone"' not in page
    assert _player("bo@example.org").timezone == "America/Argentina/Buenos_Aires"


def test_a_bad_browser_zone_is_ignored(app):
    new_lacitta(start=False)
    before = _player("cy@example.org").timezone
    _sign_in_with(app.test_client(), _signin_path("cy@example.org"), browser_zone="Mars/Olympus_Mons")
    row = _player("cy@example.org")
    assert row.timezone == before and row.first_signin_at is not None


# --- the host's choice for each invitee ----------------------------------------

def _create(client, seats, **extra):
    data = {"csrf_token": csrf_token(client, "/games/new"), "kind": "lacitta", "opt-lacitta-setup": "beginner",
            "title": "Languages", "deadline_hours": "48", "timezone": "UTC", **extra}
    for i, (name, email, language) in enumerate(seats):
        data.update({f"seat-{i}-name": name, f"seat-{i}-email": email, f"seat-{i}-language": language})
    resp = client.post("/games/new", data=data)
    assert resp.status_code == 302, resp.get_data(as_text=True)
    return resp


def test_host_sets_each_invitees_language(app, stand_in_catalog):
    stand_in_catalog("fi", {"Continue": "Jatka (testi)"})
    new_lacitta()
    chooser = Player(email="dee@example.org", name="Dee", language="de", language_chosen=True)
    db.session.add(chooser)
    db.session.commit()
    ada = signed_in(app, "ada@example.org")
    form = ada.get("/games/new").get_data(as_text=True)
    assert 'name="seat-1-language"' in form and '<option value="" lang="" selected>' in form
    _create(ada, [("Ada", "ada@example.org", "cs"), ("Eve", "eve@example.org", "fi"),
                  ("Dee", "dee@example.org", "ca"), ("Fay", "fay@example.org", "klingon")])
    assert _player("eve@example.org").language == "fi"
    assert _player("dee@example.org").language == "de"    # chose her own: the host's choice does not count
    assert _player("fay@example.org").language == ""      # not a supported language: unchanged
    assert _player("ada@example.org").language == ""      # the host's own row is never changed
    # the invitee's sign-in page speaks the language the host chose
    page = app.test_client().get(_signin_path("eve@example.org")).get_data(as_text=True)
    assert _lang(page) == "fi" and pbem.i18n.translations("fi").gettext("Continue") in page


def test_the_new_game_form_leaves_each_invitees_language_to_them(app):
    new_lacitta()
    ada = signed_in(app, "ada@example.org")
    _save_account(ada, language="cs")
    form = ada.get("/games/new").get_data(as_text=True)
    selects = re.findall(r'<select name="seat-(\d+)-language".*?</select>', form, re.S)
    rows = re.findall(r'<select name="seat-\d+-language".*?</select>', form, re.S)
    assert len(rows) > 2 and selects[0] == "0"
    # no invitee row is pre-filled with the host's language: "their own" is chosen
    assert all('<option value="" lang="" selected>' in r and 'value="cs" lang="cs" selected' not in r
               for r in rows[1:])


def test_a_hosts_language_choice_never_changes_a_player_who_has_signed_in(app):
    """Issue 22: a Finnish player invited by a Czech host keeps Finnish,
    in every game, whether she chose it or her browser said so."""
    new_lacitta(start=False)
    _sign_in_with(app.test_client(), _signin_path("bo@example.org"), {"Accept-Language": "fi"})
    assert _player("bo@example.org").language == "fi"
    hana = signed_in(app, "cy@example.org")
    _save_account(hana, language="cs", name="Cy")
    _create(hana, [("Cy", "cy@example.org", "cs"), ("Bo", "bo@example.org", "cs"),
                   ("Neo", "neo@example.org", "cs")])
    assert _player("bo@example.org").language == "fi"     # her browser's at her first sign-in
    assert _player("neo@example.org").language == "cs"    # never signed in: the host's choice
    page = app.test_client().get(_signin_path("neo@example.org"), headers={"Accept-Language": "fi"})
    assert _lang(page.get_data(as_text=True)) == "cs"
    # at Neo's first sign-in his browser's language wins over the host's
    _sign_in_with(app.test_client(), _signin_path("neo@example.org"), {"Accept-Language": "fi"})
    assert _player("neo@example.org").language == "fi"


def test_the_signin_link_mail_is_in_the_language_of_the_page_it_was_asked_from(app, client):
    from pbem.service.core.models import OutboxMessage

    for lang, email in (("fi", "new@example.org"), ("cs", "ada@example.org")):
        page = client.get("/signin", headers={"Accept-Language": lang})
        token = CSRF_RE.search(page.get_data(as_text=True)).group(1)
        if email == "ada@example.org":
            new_lacitta(start=False)  # Ada exists but has never said which language she reads
        client.post("/signin", data={"csrf_token": token, "email": email}, headers={"Accept-Language": lang})
        db.session.rollback()
        row = db.session.execute(select(OutboxMessage).where(OutboxMessage.recipient == email)
                                 .where(OutboxMessage.kind == "signin")).scalar_one()
        subject = pbem.i18n.translations(lang).gettext("[pbem] Your sign-in link")
        assert subject != "[pbem] Your sign-in link" and row.subject == subject


def test_the_demos_first_page_follows_the_browser(app):
    from pbem.cli.demo import seed_demo_game

    with app.app_context():
        game = seed_demo_game()
        path = links.signin_url(game.seats[1].player_id, links.order_path(game.id, 1)).removeprefix(
            "http://pbem.test")
    page = app.test_client().get(path, headers={"Accept-Language": "cs-CZ,cs;q=0.9"})
    assert _lang(page.get_data(as_text=True)) == "cs"


def test_the_footer_names_the_zone_the_deadline_is_shown_in(app, client):
    gid = new_lacitta()
    game = db.session.get(Game, gid)
    game.timezone = "Europe/Helsinki"
    db.session.commit()
    text = client.get(f"/games/{gid}").get_data(as_text=True)
    assert "Europe/Helsinki" in text and "Times are shown in Europe/Helsinki." in text
    assert "Times are shown in UTC" not in text


def test_host_sets_the_language_of_a_replacement(app):
    gid = new_lacitta()
    ada = signed_in(app, "ada@example.org")
    page = ada.get(f"/games/{gid}").get_data(as_text=True)
    assert 'id="replace-language"' in page
    form = {"csrf_token": csrf_token(ada, f"/games/{gid}"), "seat": "2", "email": "neo@example.org",
            "name": "Neo", "language": "ca"}
    assert ada.post(f"/games/{gid}/replace", data=form).status_code == 302
    assert _player("neo@example.org").language == "ca"
    # a player who has signed in keeps her language: the host's choice is for new addresses only
    _sign_in_with(app.test_client(), _signin_path("cy@example.org"), {"Accept-Language": "fi"})
    gid2 = new_lacitta(seats=2)
    form.update(csrf_token=csrf_token(ada, f"/games/{gid2}"), email="cy@example.org", language="cs")
    form["seat"] = "2"
    ada.post(f"/games/{gid2}/replace", data=form)
    assert _player("cy@example.org").language == "fi"
    assert db.session.get(Game, gid).seat(1).player.email == "neo@example.org"


# --- dates, time left and engine texts --------------------------------------

def test_time_left_and_deadline_in_the_pages_language(app):
    from pbem.web.common import deadline_text, time_left

    now = dt.datetime(2026, 11, 23, 12, 0, tzinfo=dt.timezone.utc)
    when = now + dt.timedelta(days=2, hours=3)
    with app.app_context(), app.test_request_context("/", headers={"Accept-Language": "fi"}):
        left = time_left(when, now)
        for part in (format_timedelta(dt.timedelta(days=2), granularity="day", threshold=10**6, format="long",
                                      locale="fi"),
                     format_timedelta(dt.timedelta(hours=3), granularity="hour", threshold=10**6,
                                      format="long", locale="fi")):
            assert part in left, left
        assert "marraskuuta" in deadline_text(when, "Europe/Helsinki")   # Babel's Finnish month name
        assert "17.00" in deadline_text(when, "Europe/Helsinki")          # 15:00 UTC is 17.00 in Helsinki
        assert time_left(now - dt.timedelta(minutes=1), now) == pbem.i18n.translations("fi").gettext(
            "deadline passed")
    with app.app_context(), app.test_request_context("/", headers={"Accept-Language": "en"}):
        assert time_left(now + dt.timedelta(minutes=40), now) == "40 minutes left"


def test_log_lines_and_engine_messages_in_the_readers_language(app, stand_in_catalog):
    template = "{who} built a test tower on {site}."
    stand_in_catalog("fi", {template: "{who} rakensi testitornin ruutuun {site}."})
    gid = new_lacitta()
    text = Msg(template, who="Seat 2", site="F7")
    db.session.add(GameEvent(game_id=gid, step=0, seat_index=None, kind="test", text=str(text),
                             data=pbem.i18n.stored_event_data(text, {})))
    db.session.commit()
    ada, bo = signed_in(app, "ada@example.org"), signed_in(app, "bo@example.org")
    _save_account(ada, language="fi")
    finnish = ada.get(f"/games/{gid}").get_data(as_text=True)
    assert "rakensi testitornin ruutuun F7." in finnish
    english = bo.get(f"/games/{gid}").get_data(as_text=True)
    assert "built a test tower on F7." in english and "rakensi" not in english


def test_mail_preferences_from_a_mail_speak_the_readers_language(app, client, stand_in_catalog):
    stand_in_catalog("de", {"Which mail you get": "Welche Post du bekommst (Test)"})
    new_lacitta()
    cy = _player("cy@example.org")
    cy.language = "de"
    db.session.commit()
    path = links.preferences_url(cy.id).removeprefix("http://pbem.test")
    page = client.get(path, headers={"Accept-Language": "fi"}).get_data(as_text=True)   # nobody signed in
    assert _lang(page) == "de"
    assert f"<h1>{pbem.i18n.translations('de').gettext('Which mail you get')}</h1>" in page


def test_the_phase_and_seats_in_log_lines_in_the_readers_language(app, stand_in_catalog):
    """The phase is stored with its message (games.phase_msg), so the header
    reads it in the page's language; a seat a translated log line names
    ("Paikka 2") still becomes that player's name chip."""
    from pbem.service.core.snapshot import engine_state

    gid = new_lacitta()
    game = db.session.get(Game, gid)
    phase = engine_state(game).phase()
    assert isinstance(phase, Msg) and game.phase_msg == phase.to_json()
    template = "{who} built a test tower on {site}."
    stand_in_catalog("fi", {phase.template: "VAIHE " + phase.template, "Seat {n}": "Paikka {n}",
                            template: "{who} rakensi testitornin ruutuun {site}."})
    db.session.add(GameEvent(game_id=gid, step=0, seat_index=None, kind="test",
                             text=str(Msg(template, who=Msg("Seat {n}", n=2), site="F7")),
                             data=pbem.i18n.stored_event_data(Msg(template, who=Msg("Seat {n}", n=2), site="F7"), {})))
    db.session.commit()
    ada = signed_in(app, "ada@example.org")
    _save_account(ada, language="fi")
    page = ada.get(f"/games/{gid}").get_data(as_text=True)
    assert str(escape(pbem.i18n.translate(phase, "fi"))) in page and "VAIHE" in page
    line = re.search(r"<li>.*?rakensi testitornin ruutuun F7\.</li>", page)
    assert line and "Paikka 2" not in line.group(0) and 'class="who"' in line.group(0) and "Bo" in line.group(0)


def test_the_order_page_lists_legal_orders_in_the_players_words(app):
    """The legal-order list and the order box's example are written as the
    page's language writes orders (``Game.order_text``), which the order
    reader reads back."""
    from pbem.engine import get_game
    from pbem.service.core.snapshot import engine_state

    gid = new_lacitta()
    game = db.session.get(Game, gid)
    state, engine = engine_state(game), get_game("lacitta")
    seat = state.current_seats()[0]
    email = game.seat(seat).player.email
    page_as = signed_in(app, email)
    _save_account(page_as, language="cs")
    page = page_as.get(f"/games/{gid}/seat/{seat + 1}").get_data(as_text=True)
    actions = state.legal_actions(seat)
    czech = [engine.order_text(a, "cs") for a in actions]
    assert any(c != a.to_text() for c, a in zip(czech, actions))
    for text in czech:
        assert f"<code>{escape(text)}</code>" in page
        assert engine.parse_action(state, seat, text) in actions


def test_migration_0011_forgets_the_old_default_language_of_players_never_seen(tmp_path):
    """Rows from before kept "en" for "nobody said": the demo's players,
    seeded by an older pbem, got English pages whatever the browser asked."""
    from sqlalchemy import create_engine, text

    from pbem.service.core.migrate import upgrade

    url = f"sqlite:///{tmp_path / 'old.sqlite'}"
    upgrade(url, "0010")
    engine = create_engine(url)
    with engine.begin() as conn:
        for email, lang, chosen, first in (("old@x.org", "en", False, None), ("chose@x.org", "en", True, None),
                                           ("seen@x.org", "en", False, "2026-11-01 10:00:00"),
                                           ("host@x.org", "fi", False, None)):
            conn.execute(text("INSERT INTO players (email, name, timezone, language, language_chosen, "
                              "first_signin_at, created_at) VALUES (:e, 'n', 'UTC', :l, :c, :f, '2026-11-01')"),
                         {"e": email, "l": lang, "c": chosen, "f": first})
    upgrade(url)
    with engine.connect() as conn:
        rows = dict(conn.execute(text("SELECT email, language FROM players")).all())
    engine.dispose()
    assert rows == {"old@x.org": "", "chose@x.org": "en", "seen@x.org": "en", "host@x.org": "fi"}
