"""The inbound pipeline: reply address, sender check, dedupe, stale, answers."""
from __future__ import annotations

from email.message import EmailMessage
from email.utils import make_msgid

from pbem.service.core.links import reply_address
from pbem.service.inbound import handle_inbound

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
    from pbem.service.play.orders import submit_orders

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


def test_confirmation_names_the_turn_the_orders_were_for(app, t0):
    """Issue #13: the answer named the turn after the one played (the game
    had already moved on when the answer was written)."""
    gid = new_tally(t0)
    assert game(gid).phase == "Seat 1 to add"
    res = handle_inbound(reply_to_notice(outbox(kind="turn")[0], "Add 2"))
    assert res.result == "stored" and game(gid).phase != "Seat 1 to add"
    conf = parsed(outbox(kind="confirmation")[0])
    assert "orders accepted (Ada to add)" in conf["Subject"]
    assert "(Ada to add) are accepted" in body_text(outbox(kind="confirmation")[0])


def test_greeting_and_signoff_are_ignored_and_named(app, t0):
    gid = new_tally(t0)
    res = handle_inbound(reply_to_notice(outbox(kind="turn")[0], "Hi all,\n\nadd 2\n\nCheers\nBruno"))
    assert res.result == "stored" and game(gid).step == 1
    assert "ignored, not orders: Hi all, / Cheers / Bruno" in body_text(outbox(kind="confirmation")[0])


def test_a_mail_without_orders_is_answered_with_its_first_lines(app, t0):
    gid = new_tally(t0)
    res = handle_inbound(reply_to_notice(outbox(kind="turn")[0], ""))
    assert res.result == "refused" and game(gid).step == 0
    text = body_text(outbox(kind="refusal")[0])
    assert "could not find your orders in this mail" in text
    assert "| On Fri, 20 Nov 2026 at 12:00, pbem <pbem@pbem.test> wrote:" in text
    assert "Legal orders now (" in text


def test_the_whole_notice_unquoted_under_an_unknown_header_is_answered(app, t0):
    """Issue #13's silent loss: an Italian header the patterns did not know,
    over an unquoted copy of the notice, was read as 100+ order lines and
    dropped unanswered."""
    gid = new_tally(t0)
    notice = outbox(kind="turn")[0]
    raw = reply_to_notice(notice, "add 2")
    text = body_text(notice)
    msg = __import__("email").message_from_bytes(raw, policy=__import__("email").policy.default)
    msg.set_content("add 2\n\nIn data 20 nov 2026, alle ore 12:00, pbem <pbem@pbem.test> ha\nscritto:\n\n"
                    + text + "\n" + "\n".join(f"padding line {i}" for i in range(120)))
    res = handle_inbound(msg.as_bytes())
    assert res.result in ("stored", "refused")
    assert outbox(kind="confirmation") or outbox(kind="refusal")


def test_medina_flowed_reply_is_read_whole(app, t0):
    """Issue #13: in a format=flowed reply, the first piece written right
    under a quoted line ending in a space vanished into the quote and the
    second was applied alone, as piece 1 of 2: a move the player did not
    write. Both pieces are read and the turn is played as written."""
    from pbem.service.core.snapshot import engine_state
    from pbem.service.play.lifecycle import create_game, join_game
    from pbem.service.play.orders import submit_orders
    from pbem.service.post.content import example_reply

    from .helpers import PLAYERS, compose_pending

    gid = create_game("medina", PLAYERS[0][1], PLAYERS, seed=7, now=t0).id
    for i in (1, 2):
        join_game(gid, i, now=t0)
    for _ in range(2):  # the start merchant, then seat 1's turn
        g = game(gid)
        state = engine_state(g)
        seat = state.current_seats()[0]
        submit_orders(gid, seat, "\n".join(example_reply(state, seat)), expected_step=g.step, source="web", now=t0)
    compose_pending()
    g = game(gid)
    assert g.phase == "Turn 2: seat 2, piece 1 of 2"
    first, second = example_reply(engine_state(g), 1)
    notice = [r for r in outbox(kind="turn") if r.seat_index == 1][-1]
    msg = EmailMessage()
    msg["From"], msg["To"] = notice.recipient, parsed(notice)["Reply-To"]
    msg["Subject"], msg["Message-ID"] = "Re: your move", make_msgid(domain="example.org")
    msg["In-Reply-To"] = msg["References"] = parsed(notice)["Message-ID"]
    msg.set_content(f"On Fri, 20 Nov 2026 at 12:00, pbem <pbem@pbem.test> wrote:\n> Example turn: \n"
                    f"{first}\n{second}\n", cte="quoted-printable")
    msg.set_param("format", "flowed")
    res = handle_inbound(msg.as_bytes())
    assert res.result == "stored" and [l.text for l in res.submit.lines] == [first, second]
    assert game(gid).phase.startswith("Turn 3")
    text = body_text(outbox(kind="confirmation")[0])
    assert "(Turn 2: Bo, piece 1 of 2) are accepted" in text
