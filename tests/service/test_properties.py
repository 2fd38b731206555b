"""Invariants of the turn machinery, by property tests (hypothesis).

- Whatever text any seat sends, either it is stored as orders, or the game
  (state, step, stored orders, action log) is exactly as before.
- Whatever mix of orders, refusals and passed deadlines, the action log
  replays from the seed to the stored snapshot, step by step.
"""
from __future__ import annotations

import datetime as dt

from hypothesis import HealthCheck, given, settings, strategies as st
from sqlalchemy import select

from pbem.service.core.db import db
from pbem.service.core.models import Move, PendingOrder
from pbem.service.play.deadlines import scan
from pbem.service.play.orders import submit_orders
from pbem.service.play.replay import verify

from .helpers import game, new_tally

words = st.sampled_from(["add", "bid", "ADD", "pass", "1", "2", "3", "9", "0", "-1", "x", "\u00e4", ""])
lines = st.lists(words, min_size=0, max_size=3).map(" ".join)
texts = st.lists(lines, min_size=0, max_size=4).map("\n".join)

HC = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


def snapshot(gid):
    g = game(gid)
    pending = sorted((p.seat_index, p.step, p.text) for p in db.session.execute(
        select(PendingOrder).where(PendingOrder.game_id == gid)).scalars())
    moves = [(m.step, m.seat_index, m.text) for m in db.session.execute(
        select(Move).where(Move.game_id == gid).order_by(Move.step)).scalars()]
    return g.state, g.step, pending, moves


@HC
@given(seat=st.integers(0, 2), text=texts, stale=st.booleans())
def test_a_refused_submission_changes_nothing(app, t0, seat, text, stale):
    gid = new_tally(t0, seed=3)
    before = snapshot(gid)
    step = before[1] - 1 if stale else before[1]
    res = submit_orders(gid, seat, text, expected_step=step, source="email")
    after = snapshot(gid)
    if res.status == "stored":
        assert after[1] > before[1] or after[2] != before[2]
    else:
        assert after == before
        assert res.message
        assert all(line.error or not line.checked or line.order for line in res.lines)


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(plan=st.lists(st.tuples(st.integers(0, 2), texts, st.booleans()), min_size=1, max_size=15))
def test_the_action_log_always_replays_to_the_snapshot(app, t0, plan):
    gid = new_tally(t0, seed=5, options={"length": "long"})
    for seat, text, expire in plan:
        g = game(gid)
        if g.status != "active":
            break
        if expire:
            scan(now=g.deadline_at)
        else:
            submit_orders(gid, seat, text, expected_step=g.step, source="web")
    assert verify(gid)
    steps = [m.step for m in db.session.execute(select(Move).where(Move.game_id == gid)
                                                .order_by(Move.step)).scalars()]
    assert steps == list(range(len(steps)))
