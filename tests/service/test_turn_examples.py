"""The example in a turn notice is one whole legal reply for that turn:
Medina's two pieces, one line in a La Città political round. Sent as
written, it is accepted and ends the seat's turn."""
from __future__ import annotations

import re

import pytest

from pbem.engine import get_game
from pbem.service.play.lifecycle import create_game, join_game
from pbem.service.play.orders import submit_orders

from .helpers import PLAYERS, body_text, game, outbox


def _example(body: str) -> list[str]:
    block = body.split("A reply may look like this:", 1)[1]
    lines = []
    for line in block.strip("\r\n").splitlines():
        if not line.startswith("    "):
            break
        lines.append(line.strip())
    return lines


@pytest.mark.parametrize("kind, options, pieces", [("medina", {}, 2), ("lacitta", {"setup": "beginner"}, 1)])
def test_the_example_reply_is_a_whole_legal_turn(app, t0, kind, options, pieces):
    gid = create_game(kind, PLAYERS[0][1], PLAYERS, seed=4, now=t0, options=options).id
    for i in (1, 2):
        join_game(gid, i, now=t0)
    engine = get_game(kind)
    if kind == "medina":   # past the start merchant, to a full turn
        state = engine.state_from_json(game(gid).state)
        submit_orders(gid, 0, state.legal_actions(0)[0].to_text(), expected_step=0, source="web", now=t0)
    g = game(gid)
    state = engine.state_from_json(g.state)
    [seat] = state.current_seats()
    notice = [r for r in outbox(kind="turn") if r.seat_index == seat][-1]
    lines = _example(body_text(notice))
    assert len(lines) == pieces and all(re.match(r"^[a-z]", l) for l in lines)
    result = submit_orders(gid, seat, "\n".join(lines), expected_step=g.step, source="email", now=t0)
    assert result.accepted, result.summary()
    after = engine.state_from_json(game(gid).state)
    assert seat not in after.current_seats() or after.turn_key() != state.turn_key()
