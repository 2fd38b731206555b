"""Invariants of bot seats, by property tests (hypothesis): whatever mix of
a person's orders, bot runs (repeated, and late submissions of a run that
chose on an older step), and passed deadlines (take-over included), every
decision is made once (the action log's steps are 0..n-1 and replay to the
snapshot), a bot seat's moves are the bot's, and no mail is addressed to a bot."""
from __future__ import annotations

import datetime as dt

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st
from sqlalchemy import select

from pbem.service.core import queue
from pbem.service.core.bots import is_bot_email
from pbem.service.core.db import db
from pbem.service.core.models import GameEvent, Move, OutboxMessage
from pbem.service.play import bot_turns
from pbem.service.play.deadlines import scan
from pbem.service.play.lifecycle import SeatSpec, create_game
from pbem.service.play.orders import submit_orders
from pbem.service.play.replay import verify

from .helpers import game

ADA, BO = "ada@example.org", "bo@example.org"
steps = st.sampled_from(["person", "bots", "bots", "late", "deadline"])


@pytest.fixture
def manual_bots(app, monkeypatch):
    """Bot runs happen only when the plan says (commits start none)."""
    real = queue.enqueue
    monkeypatch.setattr(queue, "enqueue", lambda name, *a: None if name == queue.BOTS else real(name, *a))


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(plan=st.lists(st.tuples(steps, st.integers(1, 3)), min_size=1, max_size=14), seed=st.integers(0, 50))
def test_every_decision_is_made_once_and_no_bot_is_mailed(app, t0, manual_bots, plan, seed):
    gid = create_game("tally", ADA, [SeatSpec(ADA, "Ada"), SeatSpec(BO, "Bo"), SeatSpec(bot="random")],
                      seed=seed, now=t0, deadline_seconds=3600).id
    from pbem.service.play.lifecycle import join_game

    join_game(gid, 1, now=t0)
    for what, k in plan:
        g = game(gid)
        if g.status != "active":
            break
        if what == "person":
            seat = g.step % 2   # Ada or Bo, whoever; a refusal changes nothing
            submit_orders(gid, seat, f"add {k}" if g.phase != "Bidding" else "bid 0", expected_step=g.step,
                          source="web", now=t0)
        elif what == "bots":
            bot_turns.play_bots(gid, now=t0)
        elif what == "late" and g.step > 0:   # a run that chose on the step before submits now
            submit_orders(gid, 2, f"add {k}", expected_step=g.step - 1, source="bot", now=t0)
        elif what == "deadline" and g.deadline_at is not None:
            scan(now=g.deadline_at + dt.timedelta(seconds=1))
    assert verify(gid)
    moves = list(db.session.execute(select(Move).where(Move.game_id == gid).order_by(Move.step)).scalars())
    assert [m.step for m in moves] == list(range(len(moves)))
    assert {m.source for m in moves if m.seat_index == 2} <= {"bot", "deadline"}
    stood_in = {e.data.get("seat") for e in db.session.execute(
        select(GameEvent).where(GameEvent.game_id == gid, GameEvent.kind == "standin")).scalars()}
    assert {m.seat_index for m in moves if m.source == "bot" and m.seat_index != 2} <= stood_in
    rows = db.session.execute(select(OutboxMessage.recipient).where(OutboxMessage.game_id == gid)).scalars().all()
    assert not [r for r in rows if is_bot_email(r)]
