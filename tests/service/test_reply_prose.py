"""Issue 29 item 3 through the inbound pipeline: in Medina, a greeting was
reported as the refused line when the line below it held two orders ("It
took three mails"); a chatty line refused a whole email."""
from __future__ import annotations

from email.message import EmailMessage
from email.utils import make_msgid

from pbem.service.inbound import handle_inbound

from .helpers import PLAYERS, body_text, compose_pending, game, outbox, parsed


def _medina_turn(t0):
    """A Medina game at seat 2's turn (two pieces owed); its notice and example pieces."""
    from pbem.service.core.snapshot import engine_state
    from pbem.service.play.lifecycle import create_game, join_game
    from pbem.service.play.orders import submit_orders
    from pbem.service.post.content import example_reply

    gid = create_game("medina", PLAYERS[0][1], PLAYERS, seed=7, now=t0).id
    for i in (1, 2):
        join_game(gid, i, now=t0)
    for _ in range(2):  # the start merchant, then seat 1's turn
        g = game(gid)
        state = engine_state(g)
        seat = state.current_seats()[0]
        submit_orders(gid, seat, "\n".join(example_reply(state, seat)), expected_step=g.step, source="web", now=t0)
    compose_pending()
    first, second = example_reply(engine_state(game(gid)), 1)
    notice = [r for r in outbox(kind="turn") if r.seat_index == 1][-1]
    return gid, notice, first, second


def _reply(notice, text: str) -> bytes:
    msg = EmailMessage()
    msg["From"], msg["To"] = notice.recipient, parsed(notice)["Reply-To"]
    msg["Subject"], msg["Message-ID"] = "Re: your move", make_msgid(domain="example.org")
    msg["In-Reply-To"] = msg["References"] = parsed(notice)["Message-ID"]
    quoted = "\n".join("> " + line for line in body_text(notice).splitlines())
    msg.set_content(f"{text}\n\nOn Fri, 20 Nov 2026 at 12:00, pbem <pbem@pbem.test> wrote:\n{quoted}\n")
    return msg.as_bytes()


def test_two_orders_on_one_line_under_a_greeting_are_applied(app, t0):
    gid, notice, first, second = _medina_turn(t0)
    res = handle_inbound(_reply(notice, f"Hey,\n{first}, {second}\nI think this will be close."))
    assert res.result == "stored", res.detail
    assert [l.text for l in res.submit.lines] == [first, second]
    assert game(gid).phase.startswith("Turn 3")
    text = body_text(outbox(kind="confirmation")[0])
    assert "ignored, not orders: Hey, / I think this will be close." in text


def test_the_refusal_names_the_failing_order_not_the_greeting(app, t0):
    gid, notice, first, _second = _medina_turn(t0)
    res = handle_inbound(_reply(notice, f"Hey,\n{first}, {first}"))
    assert res.result == "refused"
    refusal = outbox(kind="refusal")[0]
    assert "order refused: line 2" in parsed(refusal)["Subject"]
    text = body_text(refusal)
    assert f"2. {first}    <== REFUSED" in text and "Hey,    <==" not in text
    assert "ignored, not orders: Hey," in text


def test_a_refusal_says_its_reason_once(app, t0):
    """The refusal named the line and its reason at the top and the whole
    sentence again beside the line ("Nothing was applied: the line … could
    not be read. could not read …" twice); the reason is now said once, as
    the engine's why (the subject and first lines say nothing was applied)."""
    _gid, notice, first, _second = _medina_turn(t0)
    res = handle_inbound(_reply(notice, f"{first}\nmerchant Z99 frob"))
    assert res.result == "refused"
    refusal = outbox(kind="refusal")[0]
    why = "could not read 'z99' in 'merchant Z99 frob'"
    text = body_text(refusal)
    assert text.count(why) == 1 and "Nothing was applied" not in text, text
    assert f"Line 2 was refused: {why}" in text
    assert "  2. merchant Z99 frob    <== REFUSED" in text.splitlines()
    html = parsed(refusal).get_body(("html",)).get_content()
    shown = html.split("mso-hide:all;", 1)[1].split("</div>", 1)[1]   # after the hidden preheader
    assert shown.count(why.replace("'", "&#39;")) == 1 and "Nothing was applied" not in html
