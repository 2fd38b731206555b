"""A reply to an old turn notice is refused naming the turns as players
see them, never the service's step numbers (issue 29: "written for turn
step 9 … moved on to step 21")."""
from __future__ import annotations

import re

from pbem.service.inbound import handle_inbound
from pbem.service.play.orders import submit_orders

from .helpers import body_text, compose_pending, game, new_tally, outbox
from .test_inbound import reply_to_notice


def test_a_stale_reply_names_the_turns_not_step_numbers(app, t0):
    gid = new_tally(t0)
    compose_pending()
    old = outbox(kind="turn")[0]                      # Ada's notice: "Seat 1 to add"
    submit_orders(gid, 0, "add 1", expected_step=0, source="web")   # now Bo's turn
    res = handle_inbound(reply_to_notice(old, "add 1"))
    assert res.result == "stale"
    text = body_text(outbox(kind="refusal")[0])
    assert "written for Ada to add" in text and "moved on to Bo to add" in text, text
    assert not re.search(r"\bstep \d", text)


def test_a_stale_order_in_the_same_turn_says_a_move_was_made(app, t0):
    gid = new_tally(t0)
    for seat in (0, 1, 2):
        submit_orders(gid, seat, "add 1", expected_step=game(gid).step, source="web")
    step = game(gid).step                             # everyone bids at once now
    submit_orders(gid, 0, "bid 1", expected_step=step, source="web")
    res = submit_orders(gid, 1, "bid 1", expected_step=step - 1, source="web")
    assert res.status == "stale" and "step" not in str(res.message)
