"""Issue #12, sign-in: one strict address wherever an address is entered,
names without control characters, the sign-in mail built like every other
mail, turn-email links that open only their seat, and the per-address
sign-in limit counted per mailbox. Runs on SQLite and (CI's second stage)
PostgreSQL through the ``app`` fixture."""
from __future__ import annotations

import re
import time
from email import message_from_bytes, policy

import pytest
from sqlalchemy import select

from pbem.mail.flowed import plain_text
from pbem.mail.tokens import make_signin_token
from pbem.service.core.db import db
from pbem.service.core.errors import ServiceError
from pbem.service.core.models import Game, OutboxMessage, Player, Seat
from pbem.service.play.lifecycle import create_game
from pbem.service.post.outbox import render

from .conftest import CSRF_RE, csrf_token, new_lacitta, player_id, sign_in

LIST = "victim@example.com,attacker@evil.example"


def _mail(row: OutboxMessage):
    return message_from_bytes(render(row), policy=policy.default)


def _rows(kind: str) -> list[OutboxMessage]:
    db.session.rollback()  # a fresh snapshot: the requests wrote in their own sessions
    return list(db.session.execute(select(OutboxMessage).where(OutboxMessage.kind == kind)
                                   .order_by(OutboxMessage.id)).scalars())


def _post_token(client, path):
    page = client.get(path)
    assert page.status_code == 200, page.get_data(as_text=True)
    return client.post(path, data={"csrf_token": CSRF_RE.search(page.get_data(as_text=True)).group(1)})


def _link(row: OutboxMessage) -> str:
    text = plain_text(_mail(row))
    return re.search(r"http://pbem\.test(/signin/[A-Za-z0-9_.\-]+)", text).group(1)


# -- one strict address, clean names -------------------------------------------

def test_signin_form_refuses_a_list_of_addresses_and_sends_nothing(app, client):
    resp = client.post("/signin", data={"csrf_token": csrf_token(client), "email": LIST})
    assert resp.status_code == 422
    assert "Give one address only" in resp.get_data(as_text=True)
    assert _rows("signin") == []
    assert db.session.execute(select(Player)).first() is None


@pytest.mark.parametrize("address", [LIST, "Ada <ada@example.org>", "ada@example.org\r\nBcc: x@evil.example",
                                     "ada@localhost", '"a b"@example.org'])
def test_create_game_refuses_anything_but_one_address(app, address):
    with pytest.raises(ServiceError, match="is not an email address"):
        create_game("lacitta", "ada@example.org", [("Ada", "ada@example.org"), ("Bo", address)],
                    options={"setup": "beginner"})
    assert db.session.execute(select(Game)).first() is None


def test_new_game_form_names_the_seat_row_with_a_bad_address(app, client):
    new_lacitta()
    sign_in(client, player_id("ada@example.org"))
    form = {"csrf_token": csrf_token(client, "/games/new"), "kind": "lacitta", "deadline_hours": "48",
            "timezone": "UTC", "opt-lacitta-setup": "beginner",
            "seat-0-name": "Ada", "seat-0-email": "ada@example.org",
            "seat-1-name": "Eve", "seat-1-email": LIST}
    resp = client.post("/games/new", data=form)
    assert resp.status_code == 422
    assert "Seat row 2" in resp.get_data(as_text=True)
    db.session.rollback()
    assert db.session.execute(select(Game.id)).scalars().all() == [1]  # only new_lacitta's
    # a line break in a one-line field is refused at the form layer (pbem/web/inputs.py)
    form["seat-1-email"] = "Eve@Example.ORG"
    assert client.post("/games/new", data={**form, "seat-1-name": "Eve\r\nBcc: x"}).status_code == 400
    db.session.rollback()
    assert db.session.execute(select(Game.id)).scalars().all() == [1]
    assert client.post("/games/new", data=form).status_code == 302
    db.session.rollback()
    eve = db.session.execute(select(Player).where(Player.email == "eve@example.org")).scalar_one()
    assert eve.name == "Eve"


def test_cli_new_game_refuses_a_list_in_one_seat(app):
    from click.testing import CliRunner

    from pbem.cli.service import new_game

    result = CliRunner().invoke(new_game, ["--game", "lacitta", "--host", "ada@example.org",
                                           "--seat", "Ada <ada@example.org>", "--seat", LIST])
    assert result.exit_code != 0 and "write one seat" in result.output
    result = CliRunner().invoke(new_game, ["--game", "lacitta", "--host", "ada@example.org",
                                           "--seat", "Ada <ada@example.org>", "--seat", "Bo <bo@pbem.test>"])
    assert result.exit_code != 0 and "special-use" in result.output


def test_names_lose_control_characters_where_they_are_entered(app, client):
    create_game("lacitta", "ada@example.org", [("Ada\x00", "ada@example.org"), ("Bo\u202eevil\n", "bo@example.org")],
                options={"setup": "beginner"})
    names = dict(db.session.execute(select(Player.email, Player.name)).all())
    assert names == {"ada@example.org": "Ada", "bo@example.org": "Bo evil"}
    sign_in(client, player_id("ada@example.org"))
    # the web form refuses them outright (pbem/web/inputs.py: 400, nothing stored) ...
    token = csrf_token(client, "/account")
    resp = client.post("/account", data={"csrf_token": token, "name": "Ada\r\nLovelace\x07",
                                         "timezone": "Europe/Helsinki"})
    assert resp.status_code == 400
    db.session.rollback()
    assert db.session.get(Player, player_id("ada@example.org")).name == "Ada"
    # ... and a bidi override, which is not a control character, is cleaned from the name
    resp = client.post("/account", data={"csrf_token": token, "name": "Ada\u202eLovelace",
                                         "timezone": "Europe/Helsinki"})
    assert resp.status_code == 302
    db.session.rollback()
    assert db.session.get(Player, player_id("ada@example.org")).name == "Ada Lovelace"


# -- the sign-in mail ------------------------------------------------------------

def test_a_stored_name_with_a_line_break_does_not_stop_sign_in(app, client):
    """A player row written before names were cleaned: the sign-in mail
    goes out (it used to fail with 500 for that address for ever)."""
    db.session.add(Player(email="ada@example.org", name="Ada\r\nBcc: evil@evil.example", timezone="UTC"))
    db.session.commit()
    resp = client.post("/signin", data={"csrf_token": csrf_token(client), "email": "ada@example.org"})
    assert resp.status_code == 200, resp.get_data(as_text=True)[:500]
    (row,) = _rows("signin")
    head = re.split(rb"\r?\n\r?\n", render(row), maxsplit=1)[0]
    assert not re.search(rb"(?im)^bcc:", head)  # no header was injected
    msg = _mail(row)
    assert msg["Bcc"] is None
    assert [a.addr_spec for a in msg["To"].addresses] == ["ada@example.org"]


def test_signin_mail_has_the_headers_and_parts_of_every_mail(app, client):
    client.post("/signin", data={"csrf_token": csrf_token(client), "email": "New@Example.org"})
    (row,) = _rows("signin")
    msg = _mail(row)
    assert row.recipient == "new@example.org"
    assert msg["X-PBEM-Kind"] == "signin"
    assert msg["Auto-Submitted"] == "auto-generated"
    assert msg["X-Auto-Response-Suppress"] == "All"
    assert msg["X-PBEM-Loop"] == "play@pbem.test"
    assert re.fullmatch(r"<pbem\.0\.signin\.[0-9a-f]{16}@pbem\.test>", msg["Message-ID"])
    assert msg["Date"] is not None and msg["Reply-To"] is None
    assert msg["Subject"] == "[pbem] Your sign-in link"
    html = msg.get_body(("html",)).get_content()
    text = plain_text(msg)
    link = _link(row)
    assert link in text and link in html.replace("&amp;", "&")
    assert "works once" in text and "Sign in to pbem" in html


def test_two_mails_get_two_message_ids(app, client):
    token = csrf_token(client)
    for _ in range(2):
        client.post("/signin", data={"csrf_token": token, "email": "ada@example.org"})
    ids = {_mail(r)["Message-ID"] for r in _rows("signin")}
    assert len(ids) == 2


# -- the per-address limit counts mailboxes --------------------------------------

def test_plus_tags_do_not_multiply_the_per_address_limit(app):
    codes = []
    for i in range(4):  # a new client each time: only the per-address limit can stop it
        client = app.test_client()
        codes.append(client.post("/signin", data={"csrf_token": csrf_token(client),
                                                  "email": f"Ada+{i}@Example.org"}).status_code)
    assert codes == [200, 200, 200, 429]
    other = app.test_client()
    assert other.post("/signin", data={"csrf_token": csrf_token(other),
                                       "email": "bo+1@example.org"}).status_code == 200


def test_mailbox_key():
    from pbem.service.accounts.addresses import mailbox_key

    assert mailbox_key(" Ada+games@Example.ORG ") == "ada@example.org"
    assert mailbox_key("a.d.a+x@googlemail.com") == mailbox_key("ada@gmail.com") == "ada@gmail.com"
    assert mailbox_key("a.da@example.org") == "a.da@example.org"  # dots count outside Gmail
    assert mailbox_key("not an address") == "not an address"


# -- turn-email links open one seat ----------------------------------------------

def _turn_link(game_id: int) -> tuple[int, str]:
    """The seat and sign-in path of the first turn notice of ``game_id``."""
    rows = [r for r in _rows("turn") if r.game_id == game_id]
    assert rows, "no turn notice"
    return rows[0].seat_index, _link(rows[0])


def test_turn_email_link_opens_that_seat_only(app, client):
    gid = new_lacitta()
    seat, path = _turn_link(gid)
    other_gid = new_lacitta()  # the same players hold seats here too
    resp = _post_token(client, path)
    assert resp.headers["Location"] == f"/games/{gid}/seat/{seat + 1}"
    assert client.get(f"/games/{gid}/seat/{seat + 1}").status_code == 200
    assert client.get(f"/games/{gid}/seat/{seat + 1}/view.json").status_code == 200
    assert client.get(f"/games/{gid}").status_code == 200
    review = client.post(f"/games/{gid}/seat/{seat + 1}/review",
                         data={"csrf_token": csrf_token(client, f"/games/{gid}/seat/{seat + 1}"), "orders": "gold"})
    assert review.status_code in (200, 422)  # the seat's own review answers (not a sign-in redirect)
    # everything else asks for a normal sign-in
    for page in (f"/games/{other_gid}/seat/{seat + 1}", "/account", "/games/new"):
        resp = client.get(page)
        assert resp.status_code == 302 and resp.headers["Location"].startswith("/signin"), page
    assert "My games" not in client.get("/").get_data(as_text=True)
    note = client.get("/signin?next=/account").get_data(as_text=True)
    assert "signed in from a turn email" in note


def test_a_seat_session_ends_after_a_day(app, client, monkeypatch):
    gid = new_lacitta()
    seat, path = _turn_link(gid)
    _post_token(client, path)
    order = f"/games/{gid}/seat/{seat + 1}"
    assert client.get(order).status_code == 200
    later = time.time() + 24 * 3600 + 60
    monkeypatch.setattr("pbem.web.scope.time.time", lambda: later)
    assert client.get(order).status_code == 302


def test_a_seat_link_does_not_narrow_a_full_sign_in(app, client):
    gid = new_lacitta()
    seat, path = _turn_link(gid)
    pid = db.session.execute(select(Seat.player_id).where(Seat.game_id == gid, Seat.index == seat)).scalar_one()
    sign_in(client, pid)
    assert client.get(path).headers["Location"] == f"/games/{gid}/seat/{seat + 1}"  # straight on
    resp = client.post(path, data={"csrf_token": csrf_token(client, "/account")})  # used all the same
    assert resp.status_code == 302
    assert "My games" in client.get("/").get_data(as_text=True)
    assert client.get("/account").status_code == 200


def test_seat_links_of_one_player_add_up(app, client):
    first = new_lacitta()
    second = new_lacitta()
    for gid in (first, second):
        seat, path = _turn_link(gid)
        _post_token(client, path)
    for gid in (first, second):
        seat, _ = _turn_link(gid)
        assert client.get(f"/games/{gid}/seat/{seat + 1}").status_code == 200


def test_a_seat_scope_cannot_be_malformed_into_the_whole_account(app, client):
    new_lacitta()
    ada = player_id("ada@example.org")
    for scope in ([1], ["1", 0], [1, -1], "1:0", [True, 0]):
        token, _ = make_signin_token(app.config["SECRET_KEY"], {"player": ada, "next": "/", "seat": scope})
        assert client.get(f"/signin/{token}").status_code == 410, scope
    # a seat the player does not hold
    token, _ = make_signin_token(app.config["SECRET_KEY"], {"player": ada, "next": "/", "seat": [1, 2]})
    resp = client.get(f"/signin/{token}")
    assert resp.status_code == 410 and "no longer hold" in resp.get_data(as_text=True)
