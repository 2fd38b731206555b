"""Signed reply addresses and sign-in links; replies accepted only for
their own seat and only from that seat's address."""
from __future__ import annotations

import datetime as dt
import hmac
import time
from email.message import EmailMessage
from email.utils import make_msgid

import pytest
from sqlalchemy import func, select

from pbem.mail import tokens
from pbem.mail.flowed import plain_text
from pbem.mail.tokens import BadToken, ExpiredToken, make_reply_address, parse_reply_address
from pbem.service.core.db import db
from pbem.service.core.models import Game, InboundMessage, OutboxMessage, PendingOrder, Player
from pbem.service.inbound import handle_inbound

from .conftest import CSRF_RE, PLAYERS, new_lacitta, player_id

from .conftest import SECRET
from pbem.service.post.outbox import render


def test_reply_address_is_signed_per_game_and_seat():
    addr = make_reply_address(SECRET, "play@pbem.test", 12, 1)
    assert parse_reply_address(SECRET, "play@pbem.test", addr) == (12, 1)
    assert parse_reply_address(SECRET, "play@pbem.test", addr.upper()) == (12, 1)  # case folded by MTAs
    local, domain = addr.split("@")
    base, tag = local.split("+")
    game, seat, sig = tag.split("-")
    forgeries = [
        f"{base}+{game}-2-{sig}@{domain}",                      # another seat, same signature
        f"{base}+13-{seat}-{sig}@{domain}",                     # another game
        f"{base}+{game}-{seat}-{sig[:-1]}{'a' if sig[-1] != 'a' else 'b'}@{domain}",  # one character
        f"{base}+{game}-{seat}-{sig[:-1]}@{domain}",            # cut short
        make_reply_address("another-secret", "play@pbem.test", 12, 1),
        addr.replace("pbem.test", "evil.test"),
    ]
    for forged in forgeries:
        with pytest.raises(BadToken):
            parse_reply_address(SECRET, "play@pbem.test", forged)


def test_signatures_are_compared_in_constant_time(monkeypatch):
    calls = []
    real = hmac.compare_digest

    def spy(a, b):
        calls.append((a, b))
        return real(a, b)

    monkeypatch.setattr(hmac, "compare_digest", spy)
    addr = make_reply_address(SECRET, "play@pbem.test", 3, 0)
    parse_reply_address(SECRET, "play@pbem.test", addr)
    with pytest.raises(BadToken):
        parse_reply_address(SECRET, "play@pbem.test", addr.replace("-0-", "-1-"))
    assert len(calls) == 2  # reply addresses
    token, _nonce = tokens.make_signin_token(SECRET, {"player": 1})
    tokens.read_signin_token(SECRET, token)
    with pytest.raises(BadToken):
        tokens.read_signin_token(SECRET, token[:-2] + ("AA" if not token.endswith("AA") else "BB"))
    assert len(calls) >= 4  # sign-in links (itsdangerous)


def test_signin_link_expires(monkeypatch):
    token, _ = tokens.make_signin_token(SECRET, {"player": 1})
    assert tokens.read_signin_token(SECRET, token, max_age=3600).subject == {"player": 1}
    later = time.time() + 3601
    monkeypatch.setattr("itsdangerous.timed.time.time", lambda: later)
    with pytest.raises(ExpiredToken):
        tokens.read_signin_token(SECRET, token, max_age=3600)
    with pytest.raises(BadToken):
        tokens.read_signin_token("another-secret", token, max_age=10 ** 9)


def test_signin_link_works_once_and_is_kept_out_of_referers(app, client):
    gid = new_lacitta()
    from pbem.service.core import links

    path = links.signin_url(player_id(PLAYERS[1][1]), f"/games/{gid}").removeprefix("http://pbem.test")
    page = client.get(path)
    assert page.headers["Referrer-Policy"] == "no-referrer" and "no-store" in page.headers["Cache-Control"]
    token = CSRF_RE.search(page.get_data(as_text=True)).group(1)
    assert client.post(path, data={"csrf_token": token}).status_code == 302
    other = app.test_client()
    page2 = other.get(path)
    assert page2.status_code == 410
    token2 = CSRF_RE.search(other.get("/signin").get_data(as_text=True)).group(1)
    assert other.post(path, data={"csrf_token": token2}).status_code == 410
    assert other.get(f"/games/{gid}/seat/2").status_code in (302, 303, 401, 403)


# ----------------------------------------------------------------- replies
def _turn_notice(gid: int, seat: int):
    from email import message_from_bytes, policy

    rows = db.session.execute(select(OutboxMessage).where(
        OutboxMessage.game_id == gid, OutboxMessage.kind == "turn",
        OutboxMessage.seat_index == seat)).scalars().all()
    return message_from_bytes(render(rows[-1]), policy=policy.default)


def _reply(notice, body: str, *, sender: str | None = None, to: str | None = None) -> bytes:
    msg = EmailMessage()
    msg["From"] = sender or str(notice["To"])
    msg["To"] = to or str(notice["Reply-To"])
    msg["Subject"] = "Re: " + str(notice["Subject"])
    msg["Message-ID"] = make_msgid(domain="example.org")
    msg["In-Reply-To"] = str(notice["Message-ID"])
    msg.set_content(body + "\n")
    return msg.as_bytes()


def _snapshot(gid: int):
    db.session.rollback()
    g = db.session.get(Game, gid)
    db.session.refresh(g)
    return g.step, g.state, db.session.execute(select(func.count()).select_from(PendingOrder)).scalar_one()


def test_reply_from_another_address_is_not_read_as_orders(app):
    gid = new_lacitta()
    notice = _turn_notice(gid, 0)
    before = _snapshot(gid)
    # Bo (seat 2) answers through Ada's (seat 1) reply address
    res = handle_inbound(_reply(notice, "castle F7", sender="Bo <bo@example.org>"))
    assert res.result == "wrong-sender"
    assert _snapshot(gid) == before
    # Bo is not answered; Ada, the seat's holder, gets the fixed-text notice
    rows = db.session.execute(select(OutboxMessage).where(OutboxMessage.kind == "not-applied")).scalars().all()
    assert [r.recipient for r in rows] == ["ada@example.org"]
    from email import message_from_bytes, policy

    text = plain_text(message_from_bytes(rows[0].raw, policy=policy.default))
    assert "from another address" in text and "Nothing in it was applied" in text
    assert "bo@example.org" not in text and "castle F7" not in text


def test_reply_to_a_forged_seat_address_is_not_read(app):
    gid = new_lacitta()
    notice = _turn_notice(gid, 0)
    good = str(notice["Reply-To"]).strip("<>")
    local, domain = good.split("@")
    base, tag = local.split("+")
    g, _seat, _holder, sig = tag.split("-")
    bo = db.session.execute(select(Player.id).where(Player.email == "bo@example.org")).scalar_one()
    forged = f"{base}+{g}-1-{bo}-{sig}@{domain}"  # seat 2's number and holder with seat 1's signature
    before = _snapshot(gid)
    res = handle_inbound(_reply(notice, "castle F7", sender="Bo <bo@example.org>", to=forged))
    assert res.result == "unknown"
    assert _snapshot(gid) == before
    rec = db.session.execute(select(InboundMessage)).scalar_one()
    assert rec.result == "unknown" and rec.game_id is None


def test_reply_from_the_seat_is_accepted(app):
    """The two refusals above are about the address: the right sender on
    the right address is read."""
    gid = new_lacitta()
    from pbem.engine import get_game
    from pbem.service.core.snapshot import engine_state

    state = engine_state(db.session.get(Game, gid))
    seat = state.current_seats()[0]
    order = state.legal_actions(seat)[0].to_text()
    res = handle_inbound(_reply(_turn_notice(gid, seat), order))
    assert res.result == "stored", res.detail
    assert _snapshot(gid)[0] == state.step + 1


# ------------------------------------------- Authentication-Results (RFC 8601)
AUTHSERV = "mx.pbem.test"


def _authed_reply(notice, body: str, results: list[str], *, sender: str | None = None) -> bytes:
    """A reply with these Authentication-Results fields on top (as the
    receiving MTA prepends them)."""
    raw = _reply(notice, body, sender=sender)
    return b"".join(f"Authentication-Results: {r}\r\n".encode() for r in results) + raw


def _seat_and_order(gid: int):
    from pbem.service.core.snapshot import engine_state

    state = engine_state(db.session.get(Game, gid))
    seat = state.current_seats()[0]
    return seat, state.legal_actions(seat)[0].to_text()


@pytest.fixture
def require_auth(app):
    app.config["INBOUND_REQUIRE_AUTH"] = True
    app.config["INBOUND_AUTHSERV_IDS"] = [AUTHSERV]
    return app


@pytest.mark.parametrize("results", [
    [f"{AUTHSERV}; dkim=pass header.d=example.org; dmarc=pass (p=reject) header.from=example.org"],
    [f"{AUTHSERV}; spf=pass smtp.mailfrom=ada@example.org"],
    [f"{AUTHSERV.upper()} 1; spf=pass (ok) smtp.mailfrom=example.org", f"{AUTHSERV}; dmarc=none"],
], ids=["dmarc", "spf", "spf, id in capitals, two fields"])
def test_required_auth_reads_a_reply_our_mta_authenticated(require_auth, results):
    gid = new_lacitta()
    seat, order = _seat_and_order(gid)
    res = handle_inbound(_authed_reply(_turn_notice(gid, seat), order, results))
    assert res.result == "stored", res.detail


@pytest.mark.parametrize("results", [
    [],
    [f"{AUTHSERV}; spf=fail smtp.mailfrom=example.org; dmarc=fail header.from=example.org"],
    [f"{AUTHSERV}; dmarc=pass header.from=evil.example"],                 # another domain passed
    [f"{AUTHSERV}; spf=pass smtp.mailfrom=bounces.evil.example"],         # SPF not aligned with From
    [f"{AUTHSERV}; dkim=pass header.d=example.org"],                      # DKIM alone
    [f"{AUTHSERV}; spf=pass smtp.mailfrom=example.org; dmarc=fail header.from=example.org"],
    ["mx.evil.example; dmarc=pass header.from=example.org"],              # not our MTA
    # ours is not the topmost: the pass below came with the mail
    ["mx.other.example; none", f"{AUTHSERV}; dmarc=pass header.from=example.org"],
    [f"{AUTHSERV}; dmarc=pass header.from=example.org ((("],              # unparseable
    [f"{AUTHSERV}; dmarc=pass header.from=example.org" + " x.y=z" * 50],  # too costly to parse
], ids=["none", "fail", "other domain", "spf unaligned", "dkim only", "dmarc fail wins", "foreign id",
        "ours below a foreign one", "junk", "too many properties"])
def test_required_auth_refuses_what_our_mta_did_not_authenticate(require_auth, results):
    gid = new_lacitta()
    seat, order = _seat_and_order(gid)
    before = _snapshot(gid)
    res = handle_inbound(_authed_reply(_turn_notice(gid, seat), order, results))
    assert res.result == "unauthenticated"
    assert _snapshot(gid) == before
    # the seat's holder hears of it at the registered address, with none of the mail's text
    rows = db.session.execute(select(OutboxMessage).where(OutboxMessage.kind == "not-applied")).scalars().all()
    assert len(rows) == 1 and rows[0].game_id == gid
    assert order not in rows[0].raw.decode("utf-8", "replace")


def test_auth_is_off_by_default_and_needs_an_authserv_id(tmp_path):
    from pbem.config import load_config

    assert load_config(tmp_path, {})["INBOUND_REQUIRE_AUTH"] is False
    with pytest.raises(ValueError, match="PBEM_INBOUND_AUTHSERV_ID"):
        load_config(tmp_path, {"PBEM_INBOUND_REQUIRE_AUTH": "on"})
    cfg = load_config(tmp_path, {"PBEM_INBOUND_REQUIRE_AUTH": "on", "PBEM_INBOUND_AUTHSERV_ID": "MX.a.org, mx.b.org"})
    assert cfg["INBOUND_REQUIRE_AUTH"] is True and cfg["INBOUND_AUTHSERV_IDS"] == ["mx.a.org", "mx.b.org"]
