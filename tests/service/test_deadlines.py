"""Deadlines, reminders, pause/resume/extend, with an injected clock."""
from __future__ import annotations

import datetime as dt

import pytest
from sqlalchemy import select

from pbem.service.core.db import db
from pbem.service.core.errors import NotAllowed, WrongStatus
from pbem.service.core.models import GameEvent, Move, Player
from pbem.service.play.deadlines import scan
from pbem.service.play.lifecycle import extend_deadline, pause_game, resume_game
from pbem.service.play.orders import submit_orders

from .helpers import body_text, game, new_tally, outbox

H = dt.timedelta(hours=1)


def test_deadline_is_48h_and_reminder_12h_before(app, t0):
    gid = new_tally(t0)
    assert game(gid).deadline_at == t0 + 48 * H
    assert scan(now=t0 + 35 * H).reminded == []
    report = scan(now=t0 + 36 * H)
    assert report.reminded == [gid] and report.expired == []
    reminders = outbox(kind="reminder")
    assert [r.seat_index for r in reminders] == [0]
    assert "reminder: your move, 12 hours left" in reminders[0].subject
    # a second scan does not remind again
    assert scan(now=t0 + 40 * H).reminded == []
    assert len(outbox(kind="reminder")) == 1


def test_passed_deadline_applies_default_counts_missed_turn_and_tells_everyone(app, t0):
    gid = new_tally(t0)
    assert scan(now=t0 + 48 * H - dt.timedelta(seconds=1)).expired == []
    report = scan(now=t0 + 48 * H)
    assert report.expired == [gid]
    g = game(gid)
    assert g.step == 1 and g.deadline_at == t0 + 96 * H
    move = db.session.execute(select(Move)).scalar_one()
    assert (move.seat_index, move.text, move.source) == (0, "add 1", "deadline")
    assert g.seat(0).missed_turns == 1 and g.seat(1).missed_turns == 0
    missed = outbox(kind="missed")
    assert sorted(r.seat_index for r in missed) == [0, 1, 2]
    assert "You missed the deadline" in body_text(missed[0])
    assert "The default order was applied for you: add 1" in body_text(missed[0])
    assert "Missed the deadline (the default order was applied): Ada (seat 1)" in body_text(missed[1])
    assert "Ada adds 1" in body_text(missed[2])
    assert [r.seat_index for r in outbox(kind="turn")] == [0, 1]
    # the next seat's notice says what happened, the missed deadline first
    assert "- Ada (seat 1) missed the deadline" in body_text(outbox(kind="turn")[1])
    # the scan is idempotent: the same instant again changes nothing
    assert scan(now=t0 + 48 * H).expired == []
    assert game(gid).step == 1


def test_deadline_in_simultaneous_decision_defaults_only_missing_seats(app, t0):
    gid = new_tally(t0)
    now = t0
    for seat in range(3):
        submit_orders(gid, seat, "add 1", expected_step=game(gid).step, source="web", now=now)
    g = game(gid)
    step, deadline = g.step, g.deadline_at
    submit_orders(gid, 1, "bid 1", expected_step=step, source="web")
    scan(now=deadline)
    moves = db.session.execute(select(Move).where(Move.step >= step).order_by(Move.step)).scalars().all()
    assert [(m.seat_index, m.text, m.source) for m in moves] == [
        (0, "bid 0", "deadline"), (1, "bid 1", "web"), (2, "bid 0", "deadline")]
    g = game(gid)
    assert [s.missed_turns for s in g.seats] == [1, 0, 1]
    assert db.session.execute(select(GameEvent).where(GameEvent.kind == "missed")).scalars().all()


def test_pause_stops_the_clock_and_resume_restores_it(app, t0):
    gid = new_tally(t0)
    host = db.session.execute(select(Player).where(Player.email == "ada@example.org")).scalar_one()
    bo = db.session.execute(select(Player).where(Player.email == "bo@example.org")).scalar_one()
    with pytest.raises(NotAllowed):
        pause_game(gid, by_player_id=bo.id, now=t0 + 10 * H)
    pause_game(gid, by_player_id=host.id, now=t0 + 10 * H)
    g = game(gid)
    assert g.status == "paused" and g.deadline_at is None and g.paused_remaining == 38 * 3600
    assert scan(now=t0 + 100 * H).expired == []
    res = submit_orders(gid, 0, "add 1", expected_step=0, source="web")
    assert res.status == "refused" and "paused" in res.message
    with pytest.raises(WrongStatus):
        pause_game(gid, now=t0 + 101 * H)
    resume_game(gid, by_player_id=host.id, now=t0 + 200 * H)
    g = game(gid)
    assert g.status == "active" and g.deadline_at == t0 + 238 * H
    assert sorted(r.kind for r in outbox() if r.kind in ("paused", "resumed")) == ["paused"] * 3 + ["resumed"] * 3
    assert scan(now=t0 + 237 * H).expired == []
    assert scan(now=t0 + 238 * H).expired == [gid]


def test_extend_moves_deadline_and_allows_a_new_reminder(app, t0):
    gid = new_tally(t0)
    scan(now=t0 + 40 * H)
    assert len(outbox(kind="reminder")) == 1
    extend_deadline(gid, 24 * 3600, now=t0 + 41 * H)
    g = game(gid)
    assert g.deadline_at == t0 + 72 * H
    assert scan(now=t0 + 48 * H).expired == []
    assert scan(now=t0 + 60 * H).reminded == [gid]
    assert len(outbox(kind="reminder")) == 2
    assert "extended the deadline" in body_text(outbox(kind="extended")[0])
    assert scan(now=t0 + 72 * H).expired == [gid]


def test_reminder_skips_seats_whose_orders_are_in(app, t0):
    gid = new_tally(t0)
    for seat in range(3):
        submit_orders(gid, seat, "add 1", expected_step=game(gid).step, source="web", now=t0)
    g = game(gid)
    submit_orders(gid, 2, "bid 0", expected_step=g.step, source="web")
    scan(now=g.deadline_at - 11 * H)
    assert sorted(r.seat_index for r in outbox(kind="reminder")) == [0, 1]


def test_deadline_shown_in_recipients_time_zone(app, t0):
    from pbem.service.play.lifecycle import SeatSpec, create_game, join_game

    g = create_game("tally", "ada@example.org",
                    [SeatSpec("ada@example.org", "Ada", "Europe/Helsinki"),
                     SeatSpec("bo@example.org", "Bo", "America/New_York")], seed=1, now=t0)
    join_game(g.id, 1, now=t0)
    text = body_text(outbox(kind="turn")[0])
    # t0 + 48 h = Sunday 22 November 2026 12:00 UTC = 14:00 in Helsinki
    assert "Deadline: Sunday 22 November 2026, 14:00 (Europe/Helsinki)" in text


@pytest.mark.parametrize("hours", [6, 12, 1])
def test_no_reminder_in_the_first_half_of_a_short_turn(app, t0, hours):
    """With a deadline under the 12 h reminder lead, "your move" and the
    reminder came in the same scan: the reminder waits half the turn."""
    gid = new_tally(t0, deadline_seconds=hours * 3600)
    assert scan(now=t0).reminded == [] and outbox(kind="reminder") == []
    half = t0 + dt.timedelta(hours=hours / 2)
    assert scan(now=half - dt.timedelta(seconds=61)).reminded == []
    assert scan(now=half).reminded == [gid]
    assert len(outbox(kind="reminder")) == 1


def test_a_long_turn_keeps_the_12_hour_reminder(app, t0):
    gid = new_tally(t0, deadline_seconds=30 * 3600)
    assert scan(now=t0 + 17 * H).reminded == []
    assert scan(now=t0 + 18 * H).reminded == [gid]


def test_extending_a_short_turn_after_its_reminder_reminds_again_half_a_turn_before(app, t0):
    """A 6 h turn is reminded 3 h before its deadline (never in its first
    half, deadlines.reminder_lead); extended after that reminder, the new
    deadline gets one too, 3 h before it, not the 12 h lead that has passed."""
    gid = new_tally(t0, deadline_seconds=6 * 3600)
    assert scan(now=t0 + 3 * H).reminded == [gid]
    extend_deadline(gid, 2 * 3600, now=t0 + 3.5 * H)                # deadline t0 + 8 h
    assert scan(now=t0 + 5 * H - dt.timedelta(seconds=61)).reminded == []
    assert scan(now=t0 + 5 * H).reminded == [gid]
    assert len(outbox(kind="reminder")) == 2


def test_resuming_a_short_turn_with_more_than_half_a_turn_left_reminds_again(app, t0):
    """Paused after its reminder and given 2 h more while paused, a 6 h turn
    resumes with 4 h left: the reminder goes again 3 h before the deadline."""
    gid = new_tally(t0, deadline_seconds=6 * 3600)
    assert scan(now=t0 + 3 * H).reminded == [gid]
    host = db.session.execute(select(Player).where(Player.email == "ada@example.org")).scalar_one()
    pause_game(gid, by_player_id=host.id, now=t0 + 4 * H)          # 2 h left
    extend_deadline(gid, 2 * 3600, by_player_id=host.id, now=t0 + 5 * H)
    resume_game(gid, by_player_id=host.id, now=t0 + 10 * H)        # deadline t0 + 14 h
    assert game(gid).deadline_at == t0 + 14 * H
    assert scan(now=t0 + 11 * H - dt.timedelta(seconds=61)).reminded == []
    assert scan(now=t0 + 11 * H).reminded == [gid]
    assert len(outbox(kind="reminder")) == 2
