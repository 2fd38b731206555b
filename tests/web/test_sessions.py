"""The session cookie as browsers receive it, and signing out: on this
device (a copy of its cookie stops working, other devices stay signed in)
or everywhere (pbem/web/sessions.py; docs/production.md, security)."""
from __future__ import annotations

import datetime as dt
from email.utils import parsedate_to_datetime

import pytest
from sqlalchemy import select

from pbem.service.core import links
from pbem.service.core.db import db
from pbem.service.core.models import Game, PendingOrder, Player
from pbem.service.core.snapshot import engine_state

from tests.webapp import CSRF_RE

from .conftest import app_with_schema, csrf_token, make_app, new_lacitta, player_id, sign_in

ADA = "ada@example.org"


def _session_cookie(resp) -> dict[str, str]:
    """The attributes of the ``session`` cookie ``resp`` sets (names lower-case)."""
    for header in resp.headers.getlist("Set-Cookie"):
        name, _, rest = header.partition("=")
        if name == "session":
            attrs = {}
            for part in rest.split(";")[1:]:
                key, _, value = part.strip().partition("=")
                attrs[key.lower()] = value
            return attrs
    raise AssertionError(f"no session cookie in {resp.headers.getlist('Set-Cookie')}")


def _sign_in_response(client, pid: int, base: str = "http://pbem.test", **kw):
    path = links.signin_url(pid, "/").removeprefix(base)
    page = client.get(path, **kw)
    assert page.status_code == 200, page.get_data(as_text=True)
    return client.post(path, data={"csrf_token": CSRF_RE.search(page.get_data(as_text=True)).group(1)}, **kw)


# ------------------------------------------------------------------ the cookie
def test_the_session_cookie_is_httponly_samesite_lax_and_lasts_the_documented_30_days(app, client):
    new_lacitta()
    resp = _sign_in_response(client, player_id(ADA))
    assert resp.status_code == 302
    cookie = _session_cookie(resp)
    assert "httponly" in cookie and cookie["samesite"] == "Lax"
    assert "secure" not in cookie  # an http site (PBEM_BASE_URL http://...): the browser would drop it
    expires = parsedate_to_datetime(cookie["expires"])
    left = expires - dt.datetime.now(dt.timezone.utc)
    assert dt.timedelta(days=30) - dt.timedelta(minutes=2) < left <= dt.timedelta(days=30)
    page = client.get("/account")
    assert page.status_code == 200 and "Strict-Transport-Security" not in page.headers


def test_the_sign_in_length_is_a_setting(tmp_path, service_database_url):
    for app in app_with_schema(make_app(tmp_path, service_database_url, SESSION_DAYS=7)):
        new_lacitta()
        cookie = _session_cookie(_sign_in_response(app.test_client(), player_id(ADA)))
        left = parsedate_to_datetime(cookie["expires"]) - dt.datetime.now(dt.timezone.utc)
        assert dt.timedelta(days=7) - dt.timedelta(minutes=2) < left <= dt.timedelta(days=7)


def test_an_https_site_sends_a_secure_cookie_and_strict_transport_security(tmp_path, service_database_url):
    base = "https://pbem.test"
    for app in app_with_schema(make_app(tmp_path, service_database_url, BASE_URL=base)):
        new_lacitta()
        client = app.test_client()
        kw = {"base_url": base, "headers": {"Referer": base + "/"}}  # Flask-WTF checks the Referer on https
        resp = _sign_in_response(client, player_id(ADA), base=base, **kw)
        assert resp.status_code == 302, resp.get_data(as_text=True)
        cookie = _session_cookie(resp)
        assert "secure" in cookie and "httponly" in cookie and cookie["samesite"] == "Lax"
        for path in ("/", "/account", "/assets/pbem.css", "/no-such-page"):
            answer = client.get(path, **kw)
            assert answer.headers["Strict-Transport-Security"] == "max-age=31536000", path


# ------------------------------------------------------------------ signing out
def _capture(client) -> str:
    return client.get_cookie("session").value


def _thief(app, cookie: str):
    thief = app.test_client()
    thief.set_cookie("session", cookie)
    return thief


def _opens_nothing(app, cookie: str, gid: int, seat_number: int) -> None:
    """A browser holding ``cookie`` is a visitor on every page of the player."""
    thief = _thief(app, cookie)
    for path in ("/account", f"/games/{gid}/seat/{seat_number}", f"/games/{gid}/seat/{seat_number}/view.json",
                 f"/games/{gid}/seat/{seat_number}/next.json?orders=&step=0", "/games/new"):
        resp = thief.get(path, follow_redirects=True)
        assert resp.request.path == "/signin", (path, resp.request.path, resp.status_code)
    dashboard = thief.get("/").get_data(as_text=True)
    assert "My games" not in dashboard and ADA not in dashboard


def test_a_cookie_captured_before_sign_out_opens_none_of_the_players_pages(app, client):
    gid = new_lacitta()
    state = engine_state(db.session.get(Game, gid))
    seat = state.current_seats()[0]
    email = next(s.player.email for s in db.session.get(Game, gid).seats if s.index == seat)
    sign_in(client, player_id(email))
    order_page = client.get(f"/games/{gid}/seat/{seat + 1}").get_data(as_text=True)
    token = CSRF_RE.search(order_page).group(1)  # the thief saw the page too
    captured = _capture(client)
    assert client.post("/signout", data={"csrf_token": token}).status_code == 302

    _opens_nothing(app, captured, gid, seat + 1)
    thief = _thief(app, captured)
    resp = thief.post(f"/games/{gid}/seat/{seat + 1}", data={
        "orders": state.legal_actions(seat)[0].to_text(), "step": str(state.step), "csrf_token": token},
        follow_redirects=True)
    assert resp.request.path == "/signin"
    db.session.rollback()
    assert db.session.execute(select(PendingOrder)).first() is None
    assert db.session.get(Game, gid).step == state.step


def test_sign_out_ends_this_device_only(app, client):
    gid = new_lacitta()
    ada = player_id(ADA)
    phone = app.test_client()
    sign_in(client, ada)
    sign_in(phone, ada)
    phone_before = _capture(phone)  # a copy of the phone's cookie, from before the laptop signs out
    assert client.post("/signout", data={"csrf_token": csrf_token(client, "/account")}).status_code == 302
    assert client.get("/account").status_code == 302
    assert phone.get("/account").status_code == 200  # the other device stays signed in
    assert _thief(app, phone_before).get("/account").status_code == 200
    # the phone signs out later: its cookie, and the copy taken before the laptop's sign-out, are dead
    assert phone.post("/signout", data={"csrf_token": csrf_token(phone, "/account")}).status_code == 302
    _opens_nothing(app, phone_before, gid, 1)


def test_sign_out_everywhere_ends_every_session_of_the_player(app, client):
    gid = new_lacitta()
    ada = player_id(ADA)
    phone, bo = app.test_client(), app.test_client()
    sign_in(client, ada)
    sign_in(phone, ada)
    sign_in(bo, player_id("bo@example.org"))
    laptop_copy = _capture(client)
    account = client.get("/account").get_data(as_text=True)
    assert "Sign out everywhere" in account and 'action="/signout/everywhere"' in account
    resp = client.post("/signout/everywhere", data={"csrf_token": CSRF_RE.search(account).group(1)})
    assert resp.status_code == 302
    for cookie in (laptop_copy, _capture(phone)):
        _opens_nothing(app, cookie, gid, 1)
    assert "signed out on every device" in client.get("/").get_data(as_text=True)
    assert bo.get("/account").status_code == 200  # another player is not touched
    db.session.rollback()
    assert db.session.get(Player, ada).session_version == 1
    assert phone.get("/account").status_code == 302  # the phone itself is signed out
    sign_in(phone, ada)  # a new sign-in works as before
    assert phone.get("/account").status_code == 200


def test_a_cookie_from_before_session_versions_holds_until_the_first_sign_out(app, client):
    gid = new_lacitta()
    ada = player_id(ADA)
    old = app.test_client()
    with old.session_transaction() as sess:  # player_id alone, as cookies were written before
        sess["player_id"] = ada
        sess["_permanent"] = True
    assert old.get("/account").status_code == 200
    sign_in(client, ada)
    client.post("/signout", data={"csrf_token": csrf_token(client, "/account")})
    _opens_nothing(app, _capture(old), gid, 1)


@pytest.mark.parametrize("route", ["/signout", "/signout/everywhere"])
def test_signing_out_needs_the_forms_token(app, client, route):
    new_lacitta()
    sign_in(client, player_id(ADA))
    assert client.post(route).status_code == 400
    assert client.get("/account").status_code == 200


def _seat_link_path(pid: int, gid: int, index: int) -> str:
    return links.seat_signin_url(pid, gid, index).removeprefix("http://pbem.test")


def _use(client, path: str):
    page = client.get(path, follow_redirects=True)
    assert page.status_code == 200, page.get_data(as_text=True)
    return client.post(path, data={"csrf_token": CSRF_RE.search(page.get_data(as_text=True)).group(1)})


def test_signing_out_of_a_turn_email_session_ends_it_too(app, client):
    """A seat-only session (a turn email's link, pbem/web/scope.py) signs out
    like any other: a copy of its cookie no longer opens the seat's page."""
    gid = new_lacitta()
    ada = player_id(ADA)
    assert _use(client, _seat_link_path(ada, gid, 0)).status_code == 302
    assert client.get(f"/games/{gid}/seat/1").status_code == 200
    captured = _capture(client)
    assert client.post("/signout", data={"csrf_token": csrf_token(client, f"/games/{gid}")}).status_code == 302
    thief = _thief(app, captured)
    assert thief.get(f"/games/{gid}/seat/1", follow_redirects=True).request.path == "/signin"


def test_a_browser_signed_out_everywhere_signs_in_again_with_a_turn_email_link(app, client):
    """A browser holding a turn-email session when Ada signs out everywhere
    elsewhere: the next turn email's link signs it in afresh (the ended
    session is not the one the link's seat is added to)."""
    first, second = new_lacitta(), new_lacitta(seed=7)
    ada = player_id(ADA)
    assert _use(client, _seat_link_path(ada, first, 0)).status_code == 302
    laptop = app.test_client()
    sign_in(laptop, ada)
    laptop.post("/signout/everywhere", data={"csrf_token": csrf_token(laptop, "/account")})
    assert _use(client, _seat_link_path(ada, second, 0)).status_code == 302
    assert client.get(f"/games/{second}/seat/1").status_code == 200
    assert client.get(f"/games/{first}/seat/1", follow_redirects=True).request.path == "/signin"
