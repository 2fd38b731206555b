"""Inbound mail that must not be answered or applied: automatic mail
(RFC 3834), bounces, bulk and list mail, our own mail looping back, and
oversized or overlong mail. Each is dropped without an answer (no outbox
row) and leaves the game as it was; the worker task does not crash."""
from __future__ import annotations

import base64
from email.message import EmailMessage
from email.utils import make_msgid

import pytest
from sqlalchemy import func, select

from pbem.mail.inbound import LOOP_HEADER
from pbem.service.core.db import db
from pbem.service.core.models import Game, InboundMessage, OutboxMessage, PendingOrder
from pbem.service.core.snapshot import engine_state
from pbem.service.inbound import handle_inbound

from .conftest import new_lacitta
from pbem.service.post.outbox import render


def _notice(gid: int, seat: int):
    from email import message_from_bytes, policy

    row = db.session.execute(select(OutboxMessage).where(
        OutboxMessage.game_id == gid, OutboxMessage.kind == "turn",
        OutboxMessage.seat_index == seat)).scalars().all()[-1]
    return message_from_bytes(render(row), policy=policy.default)


def _world(gid: int):
    db.session.rollback()
    g = db.session.get(Game, gid)
    db.session.refresh(g)
    count = lambda m: db.session.execute(select(func.count()).select_from(m)).scalar_one()  # noqa: E731
    return g.step, g.state, count(PendingOrder), count(OutboxMessage)


def _valid_order(gid: int) -> tuple[int, str]:
    state = engine_state(db.session.get(Game, gid))
    seat = state.current_seats()[0]
    return seat, state.legal_actions(seat)[0].to_text()


def _reply(notice, body: str, headers: dict[str, str] = (), sender: str | None = None) -> EmailMessage:
    msg = EmailMessage()
    msg["From"] = sender or str(notice["To"])
    msg["To"] = str(notice["Reply-To"])
    msg["Subject"] = "Re: " + str(notice["Subject"])
    msg["Message-ID"] = make_msgid(domain="example.org")
    msg["In-Reply-To"] = str(notice["Message-ID"])
    for k, v in dict(headers).items():
        msg[k] = v
    msg.set_content(body + "\n")
    return msg


# (X-Auto-Response-Suppress is not here: Exchange puts it on mail people
# write too, so pbem.mail.inbound reads such orders.)
AUTOMATIC = {
    "auto-replied": {"Auto-Submitted": "auto-replied"},
    "auto-generated": {"Auto-Submitted": "auto-generated (vacation)"},
    "x-autoreply": {"X-Autoreply": "yes"},
    "bulk": {"Precedence": "bulk"},
    "junk": {"Precedence": "junk"},
    "list": {"List-Id": "<players.lists.example.org>"},
    "bounce return path": {"Return-Path": "<>"},
    "our own loop header": {LOOP_HEADER: "pbem"},
}


@pytest.mark.parametrize("kind", sorted(AUTOMATIC))
def test_automatic_mail_is_neither_answered_nor_applied(app, kind):
    gid = new_lacitta()
    seat, order = _valid_order(gid)
    before = _world(gid)
    raw = _reply(_notice(gid, seat), order, AUTOMATIC[kind]).as_bytes()
    res = handle_inbound(raw)
    assert res.result == "rejected", (kind, res)
    assert _world(gid) == before  # nothing stored, no answer written


@pytest.mark.parametrize("sender", ["MAILER-DAEMON@mx.example.org", "postmaster@example.org",
                                    "pbem@pbem.test", "play@pbem.test", "play+1-0-abc@pbem.test"])
def test_bounces_and_our_own_addresses_get_no_answer(app, sender):
    gid = new_lacitta()
    seat, order = _valid_order(gid)
    before = _world(gid)
    res = handle_inbound(_reply(_notice(gid, seat), order, sender=sender).as_bytes())
    assert res.result == "rejected"
    assert _world(gid) == before


def test_a_message_with_many_received_headers_is_a_loop(app):
    gid = new_lacitta()
    seat, order = _valid_order(gid)
    msg = _reply(_notice(gid, seat), order)
    for i in range(60):
        msg["Received"] = f"from relay{i}.example.org by relay{i + 1}.example.org; Sun, 22 Nov 2026 03:00:00 +0000"
    before = _world(gid)
    assert handle_inbound(msg.as_bytes()).result == "rejected"
    assert _world(gid) == before


@pytest.mark.parametrize("shape", ["huge body", "huge attachment", "many lines", "long order line"])
def test_oversized_mail_is_refused_without_answer(app, shape):
    gid = new_lacitta()
    seat, order = _valid_order(gid)
    notice = _notice(gid, seat)
    if shape == "huge body":
        msg = _reply(notice, order + "\n" + "x" * 3_000_000)
    elif shape == "huge attachment":
        msg = _reply(notice, order)
        msg.add_attachment(b"\0" * 2_500_000, maintype="application", subtype="octet-stream")
    elif shape == "many lines":
        msg = _reply(notice, order + "\n" + "\n".join("> q" for _ in range(70_000)))
    else:
        msg = _reply(notice, order + " " + "y" * 5000)
    before = _world(gid)
    res = handle_inbound(msg.as_bytes())
    assert res.result == "rejected", (shape, res.result, res.detail)
    assert _world(gid) == before


def test_many_order_lines_from_the_seat_are_refused_with_one_answer(app):
    """Issue #13: a mail from the seat's own address is never dropped
    silently; 150 order lines are refused (nothing applied) and answered
    once, to the seat."""
    gid = new_lacitta()
    seat, order = _valid_order(gid)
    step, state, pending, mails = _world(gid)
    res = handle_inbound(_reply(_notice(gid, seat), "\n".join([order] * 150)).as_bytes())
    assert res.result == "refused" and "At most 20 order lines" in res.detail
    assert _world(gid) == (step, state, pending, mails + 1)


def test_the_worker_task_survives_hostile_mail(app):
    """Through the Celery task (in-process here, a real worker in the
    integration run): nothing raises, nothing changes."""
    gid = new_lacitta()
    task = app.extensions["celery"].tasks["pbem.inbound"]
    before = _world(gid)
    for raw in (b"", b"\0\xff" * 1000, b"From: x\r\n\r\n", b"not a mail at all",
                b"From: a@b\r\nContent-Type: multipart/mixed; boundary=\"z\"\r\n\r\n--z\r\n" * 300,
                b"Subject: =?utf-8?b?////?=\r\nFrom: =?x-unknown?q?=FF?= <ada@example.org>\r\n\r\nadd"):
        result = task.apply(args=[base64.b64encode(raw).decode()], throw=True).get()
        assert result in ("rejected", "unknown", "duplicate", "wrong-sender", "refused")
    assert _world(gid)[:3] == before[:3]
    db.session.rollback()
    # only the answer to a known player can be written; an unknown sender gets nothing
    assert db.session.execute(select(func.count()).select_from(InboundMessage)).scalar_one() <= 6


@pytest.mark.parametrize("char,expected", [(b"\x00", "rejected"), (b"\x01", "rejected")])
def test_mail_whose_sender_cannot_be_answered_does_not_crash_the_worker(app, char, expected):
    """Found by the fuzzer: a control character in the sender's address made
    composing the "wrong sender" answer raise inside the task (and a NUL
    cannot even be stored in PostgreSQL), so the broker would have retried
    it forever. An address with a control character is no address: such
    mail has no readable sender and is dropped unanswered."""
    gid = new_lacitta()
    seat, order = _valid_order(gid)
    raw = _reply(_notice(gid, seat), order).as_bytes()
    raw = raw.replace(b"From: Ada <ada@", b"From: Ada <" + char + b"da@", 1)
    assert char + b"da@" in raw
    before = _world(gid)
    task = app.extensions["celery"].tasks["pbem.inbound"]
    assert task.apply(args=[base64.b64encode(raw).decode()], throw=True).get() == expected
    assert _world(gid) == before  # no answer row, nothing stored
    db.session.rollback()
    recorded = [r.result for r in db.session.execute(select(InboundMessage)).scalars()]
    assert recorded == ([] if expected == "rejected" else [expected])
