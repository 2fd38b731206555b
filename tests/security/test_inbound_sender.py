"""Who an inbound mail is from, and who hears back.

The sender is the address the ``email`` package's parser reads from the raw
``From:`` (inside ``<...>``), never a display name, however it is written.
A mail that is not from the seat's own address alone changes nothing, and
nothing its sender wrote (lines, display name, address) is mailed to
anyone: at most a fixed-text notice goes to the seat's registered address,
and answers to mail through no reply address are limited over all senders
together."""
from __future__ import annotations

from email import message_from_bytes, policy
from email.message import EmailMessage
from email.utils import make_msgid

import pytest
from sqlalchemy import func, select

from pbem.mail.flowed import plain_text
from pbem.mail.inbound import InboundRejected, parse_inbound
from pbem.service.core.db import db
from pbem.service.core.models import Game, OutboxMessage, PendingOrder
from pbem.service.core.snapshot import engine_state
from pbem.service.inbound import handle_inbound
from pbem.service.post.outbox import render

from .conftest import new_lacitta

ATTACKER_LINE = "Urgent: confirm your account at http://evil.example/login"


def _notice(gid: int, seat: int):
    row = db.session.execute(select(OutboxMessage).where(
        OutboxMessage.game_id == gid, OutboxMessage.kind == "turn",
        OutboxMessage.seat_index == seat)).scalars().all()[-1]
    return message_from_bytes(render(row), policy=policy.default)


def _mail(from_value: str, to: str, body: str, *, extra: dict[str, str] = ()) -> bytes:
    """A message whose From is written byte for byte as given (no
    re-encoding by the test's own mail library)."""
    msg = EmailMessage()
    msg["To"] = to
    msg["Subject"] = "Re: your turn"
    msg["Message-ID"] = make_msgid(domain="example.org")
    for k, v in dict(extra).items():
        msg[k] = v
    msg.set_content(body + "\n")
    return f"From: {from_value}\r\n".encode() + msg.as_bytes(policy=policy.SMTP)


def _game_and_order():
    gid = new_lacitta()
    state = engine_state(db.session.get(Game, gid))
    seat = state.current_seats()[0]
    assert seat == 0  # Ada's seat: the spoofs below claim to be Ada
    return gid, seat, state.legal_actions(seat)[0].to_text(), str(_notice(gid, seat)["Reply-To"])


def _world(gid: int):
    db.session.rollback()
    g = db.session.get(Game, gid)
    db.session.refresh(g)
    pending = db.session.execute(select(func.count()).select_from(PendingOrder)).scalar_one()
    return g.step, g.state, pending


def _answers(kind: str | None = None) -> list[OutboxMessage]:
    q = select(OutboxMessage).where(OutboxMessage.kind.not_in(["turn", "invite"]))
    if kind:
        q = q.where(OutboxMessage.kind == kind)
    return db.session.execute(q.order_by(OutboxMessage.id)).scalars().all()


def _text(row: OutboxMessage) -> str:
    msg = message_from_bytes(row.raw, policy=policy.default)
    return plain_text(msg) + msg.get_body(("html",)).get_content() + str(msg)


# Ada holds seat 1 (ada@example.org); each From below is Mallory's mail, written to look like Ada's.
SPOOFS = {
    "encoded-word display name": "=?utf-8?q?ada=40example=2Eorg?= <mallory@evil.example>",
    "unquoted address as display name": "ada@example.org <mallory@evil.example>",
    "quoted address as display name": '"ada@example.org" <mallory@evil.example>',
    "address in a comment": "mallory@evil.example (ada@example.org)",
    "base64 encoded-word display name": "=?utf-8?b?YWRhQGV4YW1wbGUub3Jn?= <mallory@evil.example>",
}


@pytest.mark.parametrize("kind", sorted(SPOOFS))
def test_the_sender_is_the_address_not_the_display_name(kind):
    mail = parse_inbound(_mail(SPOOFS[kind], "play@pbem.test", "castle F7"))
    assert mail.author == "mallory@evil.example"
    assert mail.from_addresses == ("mallory@evil.example",)


@pytest.mark.parametrize("kind", sorted(SPOOFS))
def test_a_display_name_spoof_is_not_applied(app, kind):
    gid, seat, order, reply_to = _game_and_order()
    before = _world(gid)
    res = handle_inbound(_mail(SPOOFS[kind], reply_to, order))
    assert res.result == "wrong-sender", (kind, res)
    assert _world(gid) == before


@pytest.mark.parametrize("headers,why", [
    ({"From": "ada@example.org, mallory@evil.example"}, "two authors"),
    ({"From": "Ada <ada@example.org>", "Sender": "mallory@evil.example"}, "a Sender that is not the author"),
    ({"From": "Ada <ada@example.org>", "Sender": "(nobody)"}, "a Sender with no readable address"),
])
def test_several_authors_or_another_sender_is_not_the_seat(app, headers, why):
    gid, seat, order, reply_to = _game_and_order()
    before = _world(gid)
    extra = {k: v for k, v in headers.items() if k != "From"}
    res = handle_inbound(_mail(headers["From"], reply_to, order, extra=extra))
    assert res.result == "wrong-sender", why
    assert _world(gid) == before


def test_two_from_fields_are_not_read():
    """RFC 5322 allows one From field: a second is a forgery's tell (and
    each costs the address parser), so the mail has no sender."""
    raw = _mail("ada@example.org", "play@pbem.test", "castle F7").replace(
        b"\r\n", b"\r\nFrom: mallory@evil.example\r\n", 1)
    with pytest.raises(InboundRejected, match="2 From"):
        parse_inbound(raw)


def test_the_seat_holder_with_any_display_name_is_read(app):
    """The refusals above are about the address: Ada with an encoded
    display name, and with Sender naming herself, is read."""
    gid, seat, order, reply_to = _game_and_order()
    res = handle_inbound(_mail("=?utf-8?q?Ada_L=C3=B6velace?= <Ada@EXAMPLE.org>", reply_to, order,
                               extra={"Sender": "ada@example.org"}))
    assert res.result == "stored", res.detail


# ------------------------------------------------------------ backscatter
def test_wrong_sender_gets_nothing_and_the_holder_a_fixed_notice(app):
    gid, seat, order, reply_to = _game_and_order()
    raw = _mail("Mallory the Phisher <mallory@evil.example>", reply_to, ATTACKER_LINE + "\n" + order)
    assert handle_inbound(raw).result == "wrong-sender"
    rows = _answers()
    assert [r.recipient for r in rows] == ["ada@example.org"]  # the seat's registered address only
    text = _text(rows[0])
    assert "Hello Ada," in text
    assert "from another address" in text and "Nothing in it was applied" in text
    for written_by_mallory in ("Mallory", "mallory@evil.example", "evil.example", "Urgent", order):
        assert written_by_mallory not in text
    # it answers no Message-ID of Mallory's (Ada never saw that mail): it
    # threads only under the seat's own conversation root
    notice = message_from_bytes(rows[0].raw, policy=policy.default)
    assert notice["In-Reply-To"] in (None, "<pbem.game-1.seat-1@pbem.test>")
    assert "evil.example" not in str(notice["References"] or "")


def test_unknown_mail_with_a_players_forged_address_quotes_nothing(app):
    """No valid reply address, From forged as Ada with a display name of the
    attacker's choosing: Ada gets the fixed hint, by her registered name,
    with none of the mail's lines."""
    new_lacitta()
    lines = "\n".join(f"{ATTACKER_LINE} {i}" for i in range(25))
    res = handle_inbound(_mail("Dear Customer <ada@example.org>", "play+9-9-forged@pbem.test", lines))
    assert res.result == "unknown"
    rows = _answers()
    assert [r.recipient for r in rows] == ["ada@example.org"]
    text = _text(rows[0])
    assert "Hello Ada," in text and "reply address" in text
    assert "Urgent" not in text and "evil.example" not in text and "Dear Customer" not in text


def test_unknown_mail_from_a_stranger_is_not_answered(app):
    new_lacitta()
    res = handle_inbound(_mail("Mallory <mallory@evil.example>", "play@pbem.test", ATTACKER_LINE))
    assert res.result == "unknown"
    assert _answers() == []


def test_answers_to_unknown_mail_are_limited_over_all_senders(app):
    """The limit is one count for every claimed sender together: forging a
    new From for each mail does not buy more answers."""
    app.config["UNKNOWN_MAIL_ANSWER_LIMIT"] = "2 per hour"
    new_lacitta()
    senders = ["ada@example.org", "bo@example.org", "cy@example.org", "ada@example.org", "bo@example.org"]
    results = [handle_inbound(_mail(s, "play+1-1-forged@pbem.test", "castle F7")).result for s in senders]
    assert results == ["unknown"] * 5
    assert len(_answers()) == 2


def test_notices_to_one_seat_are_limited(app):
    """Strangers writing through Ada's reply address, each from a new
    address: Ada hears of it at most NOTICE_LIMIT times (2 an hour)."""
    gid, seat, order, reply_to = _game_and_order()
    for i in range(6):
        assert handle_inbound(_mail(f"m{i}@evil.example", reply_to, order)).result == "wrong-sender"
    rows = _answers()
    assert [r.recipient for r in rows] == ["ada@example.org"] * 2
