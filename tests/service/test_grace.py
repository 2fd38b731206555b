"""The late player's grace (issue 25, section 4): a seat's first missed
deadline in a game waits ``grace_hours`` instead of the default order,
announced once and never contradicted (the diplicity-react #1222 failure:
an extension notice followed within minutes by a "deadline passed" one)."""
from __future__ import annotations

import datetime as dt

from sqlalchemy import select

from pbem.service.core.db import db
from pbem.service.core.models import GameEvent, Move
from pbem.service.play.deadlines import scan
from pbem.service.play.orders import submit_orders

from .helpers import body_text, game, new_tally, outbox

H = dt.timedelta(hours=1)
MIN = dt.timedelta(minutes=1)


def test_the_first_missed_deadline_waits_the_grace_instead_of_the_default(app, t0):
    gid = new_tally(t0, grace_hours=24)
    assert scan(now=t0 + 48 * H).expired == []
    g = game(gid)
    assert g.step == 0 and g.deadline_at == t0 + 72 * H and g.seat(0).grace_step == 0
    assert g.seat(0).missed_turns == 0 and db.session.execute(select(Move)).first() is None
    graces = outbox(kind="grace")
    assert [(r.seat_index, r.recipient) for r in graces] == [(0, "ada@example.org")]
    text = body_text(graces[0])
    assert "You missed the deadline" in text and "Monday 23 November 2026, 12:00" in text
    assert db.session.execute(select(GameEvent).where(GameEvent.kind == "grace")).scalar_one().seat_index is None


def test_the_grace_is_announced_once_and_never_contradicted_within_minutes(app, t0):
    """Scans every minute for the next hour: no second grace notice, no
    missed notice, no default order, no other mail to the late seat that
    says the deadline passed; the next word on it is when the grace ends."""
    gid = new_tally(t0, grace_hours=24)
    for minute in range(0, 61):
        scan(now=t0 + 48 * H + minute * MIN)
    rows = [r for r in outbox() if r.created_at >= t0 + 48 * H]
    assert [r.kind for r in rows] == ["grace"]
    assert outbox(kind="missed") == [] and game(gid).step == 0
    # a reminder already went before the deadline; none after it contradicts the grace
    # the grace runs out as announced, not a minute earlier
    assert scan(now=t0 + 72 * H - MIN).expired == []
    assert scan(now=t0 + 72 * H).expired == [gid]
    assert len(outbox(kind="grace")) == 1
    assert sorted(r.seat_index for r in outbox(kind="missed")) == [0, 1, 2]
    assert game(gid).seat(0).missed_turns == 1


def test_orders_within_the_grace_resolve_the_turn_as_usual(app, t0):
    gid = new_tally(t0, grace_hours=24)
    scan(now=t0 + 48 * H)
    res = submit_orders(gid, 0, "add 2", expected_step=0, source="web", now=t0 + 50 * H)
    assert res.status == "stored" and game(gid).step == 1
    assert game(gid).deadline_at == t0 + 50 * H + 48 * H
    assert outbox(kind="missed") == []


def test_the_grace_is_given_once_per_seat_per_game(app, t0):
    """Nobody sends orders: every deadline passes. Each seat gets one grace
    in the whole game, the first time it is late; every later miss is the
    default order at once."""
    gid = new_tally(t0, grace_hours=6)
    for _ in range(40):
        g = game(gid)
        if g.status != "active":
            break
        scan(now=g.deadline_at)
    graces = outbox(kind="grace")
    assert sorted(r.seat_index for r in graces) == [0, 1, 2]
    g = game(gid)
    assert g.status == "finished" and all(s.missed_turns > 1 for s in g.seats)


def test_no_grace_when_the_host_gave_none(app, t0):
    gid = new_tally(t0)
    assert scan(now=t0 + 48 * H).expired == [gid]
    assert outbox(kind="grace") == [] and game(gid).seat(0).grace_step is None
