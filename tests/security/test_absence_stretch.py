"""A player at the table who wants to delay the game past the absence cap
(issue 25; docs/long-games.md, "Absences"): overlapping or chained
absences, and declaring and withdrawing them around a deadline. The cap
(``games.absence_cap_days``) and the yearly budget must bound the time the
table actually waited for an absent player, whatever the order of the
declarations."""
from __future__ import annotations

import datetime as dt

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import select

from pbem.service.core.absence_rows import Absence, AbsenceShift
from pbem.service.core.db import db
from pbem.service.core.models import Player
from pbem.service.play import absences
from pbem.service.play.deadlines import scan
from tests.service.helpers import game, new_tally
from tests.security.tally_app import app, tally_game  # noqa: F401  (fixtures)

H = dt.timedelta(hours=1)
DAY = dt.timedelta(days=1)
T0 = dt.datetime(2026, 11, 20, 12, 0, tzinfo=dt.timezone.utc)


def _pid(email: str) -> int:
    return db.session.execute(select(Player.id).where(Player.email == email)).scalar_one()


def test_withdrawing_after_the_table_waited_does_not_refund_the_wait(app):
    """Declare an absence over the deadline, let the table wait most of the
    move, withdraw it: the days waited stay spent, of the cap and of the
    player's budget (else the same move could be had again every turn,
    and the cap would bound nothing)."""
    gid = new_tally(T0, absence_cap_days=5)
    ada = _pid("ada@example.org")
    budget = absences.budget_left(db.session.get(Player, ada), now=T0)
    row = absences.declare(ada, T0, T0 + 5 * DAY, now=T0)
    assert game(gid).deadline_at == T0 + 5 * DAY
    later = T0 + 4 * DAY
    absences.withdraw(ada, row.id, now=later)
    g = game(gid)
    waited = later - (T0 + 48 * H)
    assert g.absence_used_seconds == int(waited.total_seconds())
    assert absences.cap_left(g) == dt.timedelta(days=5) - waited
    assert absences.budget_left(db.session.get(Player, ada), now=later) == budget - waited
    assert g.deadline_at == later   # the turn is due at once: nothing is left to wait for
    assert scan(now=later).expired == [gid]


def test_declare_wait_withdraw_turn_after_turn_stays_within_the_cap(app):
    """The cycle declare, wait, withdraw just before the moved deadline,
    turn after turn (Bo and Cy move at once, Ada is next again): the table
    waits for Ada no more than the cap in all."""
    from pbem.service.play.orders import submit_orders

    cap = 3
    gid = new_tally(T0, absence_cap_days=cap, options={"length": "long"})
    ada = _pid("ada@example.org")
    now, waited = T0, dt.timedelta(0)
    for _ in range(3):
        base = game(gid).deadline_at
        row = absences.declare(ada, now, base + 10 * DAY, now=now)
        moved = game(gid).deadline_at
        if moved - H > now:
            now = moved - H
            absences.withdraw(ada, row.id, now=now)
        now = max(now, game(gid).deadline_at)
        waited += max(dt.timedelta(0), now - base)
        assert scan(now=now).expired == [gid]
        for seat in (1, 2):
            g = game(gid)
            submit_orders(gid, seat, "add 1", expected_step=g.step, source="web", now=now)
        for row in absences.pending(ada, now=now):
            absences.withdraw(ada, row.id, now=now)
    assert waited <= dt.timedelta(days=cap)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.tuples(st.sampled_from(["declare", "withdraw"]), st.integers(0, 8 * 24),
                          st.integers(1, 12 * 24)), min_size=1, max_size=6))
def test_whatever_the_declarations_the_wait_stays_within_the_cap(app, plan):
    """Any sequence of declarations and withdrawals (hours after T0,
    lengths in hours) before the first turn ends: the deadline never lies
    further than the cap past its base, and the cap used is never less
    than the time the table already waited past the base."""
    db.session.execute(Absence.__table__.delete())
    db.session.execute(AbsenceShift.__table__.delete())
    db.session.commit()
    gid = new_tally(T0, absence_cap_days=4)
    ada = _pid("ada@example.org")
    base, now = T0 + 48 * H, T0
    for action, at, length in sorted(plan, key=lambda p: p[1]):
        now = max(now, T0 + at * H)
        if game(gid).deadline_at <= now:
            break
        if action == "declare":
            try:
                absences.declare(ada, now, now + length * H, game_id=gid, now=now)
            except absences.AbsenceError:
                continue
        else:
            for row in absences.pending(ada, now=now)[:1]:
                absences.withdraw(ada, row.id, now=now)
        g = game(gid)
        assert g.deadline_at <= base + 4 * DAY
        if now > base:
            assert g.absence_used_seconds >= int((min(now, g.deadline_at) - base).total_seconds())


def test_a_pause_and_resume_by_the_host_keeps_the_cap_used(app):
    """The paused game keeps the moved deadline's remaining time; resuming
    it refunds nothing of the cap the move used."""
    from pbem.service.play.lifecycle import pause_game, resume_game

    gid = new_tally(T0, absence_cap_days=5)
    ada = _pid("ada@example.org")
    absences.declare(ada, T0, T0 + 5 * DAY, now=T0)
    used = game(gid).absence_used_seconds
    assert used > 0
    pause_game(gid, by_player_id=ada, now=T0 + 6 * H)
    resume_game(gid, by_player_id=ada, now=T0 + 7 * H)
    g = game(gid)
    assert g.absence_used_seconds == used and g.deadline_at == T0 + 5 * DAY + H


@pytest.mark.xfail(strict=True, reason="open: after a pause, deadline_base_at is cleared while the step's shift "
                   "row stays; a new absence then settles from the moved deadline as its base and replaces the "
                   "shift, so the first move is no longer counted (cap and budget)")
def test_an_absence_declared_after_a_pause_still_counts_the_first_move(app):
    from pbem.service.play.lifecycle import pause_game, resume_game

    gid = new_tally(T0, absence_cap_days=5)
    ada = _pid("ada@example.org")
    absences.declare(ada, T0, T0 + 3 * DAY, now=T0)          # moves T0+2d to T0+3d: one day
    pause_game(gid, by_player_id=ada, now=T0 + H)
    resume_game(gid, by_player_id=ada, now=T0 + 2 * H)        # the deadline is now T0+3d+1h
    absences.declare(ada, T0 + 2 * H, T0 + 10 * DAY, now=T0 + 2 * H)
    g = game(gid)
    base = T0 + 48 * H + H                                    # the first deadline, moved on by the pause
    assert g.deadline_at - base <= dt.timedelta(days=5)       # the cap, counted from the deadline before any move
