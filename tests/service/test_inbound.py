"""The inbound pipeline: reply address, sender check, dedupe, stale, answers."""
from __future__ import annotations

from email.message import EmailMessage
from email.utils import make_msgid

from pbem.service.inbound import handle_inbound
from pbem.service.links import reply_address

from .helpers import body_text, compose_pending, game, new_tally, outbox, parsed


def reply_to_notice(notice_row, text: str, *, sender: str | None = None, msgid: str | None = None,
                    to: str | None = None, extra: dict | None = None) -> bytes:
    notice = parsed(notice_row)
    msg = EmailMessage()
    msg["From"] = sender or notice_row.recipient
    msg["To"] = to or notice["Reply-To"]
    msg["Subject"] = "Re: " + notice["Subject"]
    msg["Message-ID"] = msgid or make_msgid(domain="example.org")
    msg["In-Reply-To"] = notice["Message-ID"]
    msg["References"] = notice["Message-ID"]
    for k, v in (extra or {}).items():
        msg[k] = v
    quoted = "\n".join("> " + line for line in body_text(notice_row).splitlines())
    msg.set_content(f"{text}\n\nOn Fri, 20 Nov 2026 at 12:00, pbem <pbem@pbem.test> wrote:\n{quoted}\n")
    return msg.as_bytes()


def test_reply_with_orders_is_applied_and_confirmed(app, t0):
    gid = new_tally(t0)
    notice = outbox(kind="turn")[0]
    raw = reply_to_notice(notice, "Add 2")
    res = handle_inbound(raw)
    assert res.result == "stored" and res.submit.ready
    assert game(gid).step == 1
    conf = outbox(kind="confirmation")
    assert len(conf) == 1 and conf[0].recipient == "ada@example.org"
    msg = parsed(conf[0])
    assert msg["In-Reply-To"] and msg["Auto-Submitted"] == "auto-replied"
    assert "Add 2" in body_text(conf[0]) and "add 2" in body_text(conf[0])
    # the same message delivered again: applied once, answered once
    again = handle_inbound(raw)
    assert again.result == "duplicate"
    assert game(gid).step == 1 and len(outbox(kind="confirmation")) == 1


def test_reply_from_another_address_is_not_applied(app, t0):
    gid = new_tally(t0)
    notice = outbox(kind="turn")[0]
    res = handle_inbound(reply_to_notice(notice, "add 2", sender="mallory@example.net"))
    assert res.result == "wrong-sender"
    assert game(gid).step == 0
    # no answer to the stranger; a fixed-text notice to the seat's own address
    assert outbox(kind="refusal") == []
    notice_rows = outbox(kind="not-applied")
    assert len(notice_rows) == 1 and notice_rows[0].recipient != "mallory@example.net"
    assert "from another address" in body_text(notice_rows[0])
    assert "mallory" not in body_text(notice_rows[0]) and "add 2" not in body_text(notice_rows[0])


def test_forged_reply_address_is_not_applied(app, t0):
    gid = new_tally(t0)
    notice = outbox(kind="turn")[0]
    good = reply_address(gid, 0)
    forged = good[:-len("@pbem.test") - 2] + "zz@pbem.test"
    res = handle_inbound(reply_to_notice(notice, "add 2", to=forged))
    assert res.result == "unknown" and game(gid).step == 0
    # the sender is a known player, so she is told how to answer (fixed text, nothing quoted)
    text = body_text(outbox(kind="not-applied")[0])
    assert "reply address" in text and "add 2" not in text


def test_illegal_order_by_mail_gets_the_line_why_and_what_is_legal(app, t0):
    gid = new_tally(t0)
    notice = outbox(kind="turn")[0]
    res = handle_inbound(reply_to_notice(notice, "add 1\nadd 7"))
    assert res.result == "refused" and game(gid).step == 0
    text = body_text(outbox(kind="refusal")[0])
    assert "add 7" in text and "line 2" in parsed(outbox(kind="refusal")[0])["Subject"]
    assert "add 3" in text  # what is legal now


def test_reply_to_an_old_notice_is_stale(app, t0):
    from pbem.service.orders import submit_orders

    gid = new_tally(t0)
    compose_pending()  # the step-0 notice went out before anyone moved
    old = outbox(kind="turn")[0]
    submit_orders(gid, 0, "add 1", expected_step=0, source="web")
    for seat in (1, 2):
        submit_orders(gid, seat, "add 1", expected_step=game(gid).step, source="web")
    # the game came back to seat 1 (bidding); answering the step-0 email is stale
    res = handle_inbound(reply_to_notice(old, "bid 0"))
    assert res.result == "stale"
    assert game(gid).step == 3
    assert "moved on" in body_text(outbox(kind="refusal")[0])


def test_automatic_mail_is_dropped_unanswered(app, t0):
    gid = new_tally(t0)
    notice = outbox(kind="turn")[0]
    res = handle_inbound(reply_to_notice(notice, "I am on holiday", extra={"Auto-Submitted": "auto-replied"}))
    assert res.result == "rejected"
    assert outbox(kind="refusal") == [] and game(gid).step == 0
