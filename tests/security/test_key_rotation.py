"""Rotating the secret key (``PBEM_SECRET_KEY_FALLBACKS``): session cookies,
sign-in links and reply addresses signed with an older key keep working while
that key is a fallback, stop working once it is dropped, and whatever is made
after the rotation is signed with the new key only.

Each phase is its own app (a deployment restarted with other settings) on
one shared database: key A before the rotation, key B with fallback A
during it, key B alone after it."""
from __future__ import annotations

from email.message import EmailMessage
from email.utils import make_msgid

import pytest
from itsdangerous import BadSignature

from pbem.config import load_config
from pbem.mail.tokens import BadToken, make_reply_address, parse_reply_address, read_signin_token
from pbem.service.core import links
from pbem.service.core.db import db
from pbem.service.core.models import Game
from pbem.service.inbound import handle_inbound

from .conftest import CSRF_RE, app_with_schema, make_app, new_lacitta, player_id, sign_in

KEY_A, KEY_B, KEY_C = "rotation-key-a", "rotation-key-b", "rotation-key-c"
INBOUND = "play@pbem.test"


@pytest.fixture
def phases(tmp_path, service_database_url):
    """``(before, during, after)`` apps; the test runs in ``before``'s app
    context (tables created there)."""
    def app(key, *fallbacks):
        return make_app(tmp_path, service_database_url, SECRET_KEY=key, SECRET_KEY_FALLBACKS=list(fallbacks))

    before = make_app(tmp_path, service_database_url, SECRET_KEY=KEY_A)
    for _ in app_with_schema(before):
        yield before, app(KEY_B, KEY_A), app(KEY_B)


def test_setting_is_read_from_the_environment(tmp_path):
    cfg = load_config(tmp_path, {"PBEM_SECRET_KEY": "new",
                                 "PBEM_SECRET_KEY_FALLBACKS": " older , oldest,, "})
    assert cfg["SECRET_KEY"] == "new"
    assert cfg["SECRET_KEY_FALLBACKS"] == ["older", "oldest"]  # newest first, blanks dropped
    assert load_config(tmp_path, {"PBEM_SECRET_KEY": "new"})["SECRET_KEY_FALLBACKS"] == []


def _signed_in(app, cookie: str) -> bool:
    client = app.test_client()
    client.set_cookie("session", cookie)
    resp = client.get("/account")
    assert resp.status_code in (200, 302)
    return resp.status_code == 200


def test_session_cookie_survives_rotation(phases):
    before, during, after = phases
    new_lacitta()
    ada = player_id("ada@example.org")
    client = before.test_client()
    sign_in(client, ada)
    old_cookie = client.get_cookie("session").value
    assert _signed_in(before, old_cookie)

    assert _signed_in(during, old_cookie)
    assert not _signed_in(after, old_cookie)

    # a form opened before the rotation still posts during it (CSRF field signed with A)
    form = client.get("/account").get_data(as_text=True)
    csrf = CSRF_RE.search(form).group(1)
    late = during.test_client()
    late.set_cookie("session", client.get_cookie("session").value)  # holds the form's raw token
    resp = late.post("/account", data={"csrf_token": csrf, "name": "Ada L", "timezone": "UTC"})
    assert resp.status_code in (200, 302, 303), resp.get_data(as_text=True)[:500]

    # a cookie written during the rotation is signed with B only
    fresh = during.test_client()
    sign_in(fresh, ada)
    new_cookie = fresh.get_cookie("session").value
    assert _signed_in(after, new_cookie)
    assert not _signed_in(before, new_cookie)
    with pytest.raises(BadSignature):
        before.session_interface.get_signing_serializer(before).loads(new_cookie)


def test_signin_link_survives_rotation(phases):
    before, during, after = phases
    new_lacitta()
    bo = player_id("bo@example.org")
    path = links.signin_url(bo, "/account").removeprefix("http://pbem.test")

    assert after.test_client().get(path).status_code == 410  # A dropped: refused
    client = during.test_client()
    page = client.get(path)
    assert page.status_code == 200
    resp = client.post(path, data={"csrf_token": CSRF_RE.search(page.get_data(as_text=True)).group(1)})
    assert resp.status_code == 302 and resp.headers["Location"] == "/account"
    assert client.get("/account").status_code == 200

    with during.app_context():
        token = links.signin_url(bo, "/").rsplit("/", 1)[1]
    assert read_signin_token(KEY_B, token).subject == {"player": bo, "next": "/"}
    with pytest.raises(BadToken):
        read_signin_token(KEY_A, token)


def _reply(to: str, sender: str, body: str) -> bytes:
    msg = EmailMessage()
    msg["From"] = sender
    msg["To"] = to
    msg["Subject"] = "Re: your turn"
    msg["Message-ID"] = make_msgid(domain="example.org")
    msg.set_content(body + "\n")
    return msg.as_bytes()


def test_reply_address_survives_rotation(phases):
    before, during, after = phases
    gid = new_lacitta()
    from pbem.service.core.snapshot import engine_state

    game = db.session.get(Game, gid)
    state = engine_state(game)
    seat = state.current_seats()[0]
    sender = game.seat(seat).player.email
    order = state.legal_actions(seat)[0].to_text()
    old_address = links.reply_address(gid, seat)  # in the Reply-To of notices already sent
    db.session.rollback()

    forged = make_reply_address(KEY_C, INBOUND, gid, seat)  # a key in neither list
    with during.app_context():
        assert handle_inbound(_reply(forged, sender, order)).result == "unknown"
    with after.app_context():
        assert handle_inbound(_reply(old_address, sender, order)).result == "unknown"
    with during.app_context():
        res = handle_inbound(_reply(old_address, sender, order))
        assert res.result == "stored", res.detail
        new_address = links.reply_address(gid, seat)
    assert new_address != old_address
    assert parse_reply_address(KEY_B, INBOUND, new_address) == (gid, seat)
    with pytest.raises(BadToken):
        parse_reply_address(KEY_A, INBOUND, new_address)
