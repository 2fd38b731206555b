"""Exactly once on the embedded defaults: racing submissions and resolutions
(threads, each with its own connection to the SQLite file)."""
from __future__ import annotations

import threading

from sqlalchemy import func, select

from pbem.service.core.db import db
from pbem.service.core.models import Move, OutboxMessage
from pbem.service.play.orders import submit_orders
from pbem.service.play.resolve import resolve_game

from .helpers import game, new_tally


def race(app, *calls):
    """Run each call in its own thread (own app context), all released at once."""
    barrier = threading.Barrier(len(calls))
    results, errors = [None] * len(calls), []

    def run(i, fn):
        with app.app_context():
            try:
                barrier.wait()
                results[i] = fn()
            except Exception as err:  # reported below
                errors.append(err)
            finally:
                db.session.remove()

    threads = [threading.Thread(target=run, args=(i, fn)) for i, fn in enumerate(calls)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert not errors, errors
    return results


def test_two_final_simultaneous_orders_at_the_same_moment_resolve_once(app, t0):
    gid = new_tally(t0)
    for seat in range(3):
        submit_orders(gid, seat, "add 1", expected_step=game(gid).step, source="web")
    step = game(gid).step
    submit_orders(gid, 0, "bid 0", expected_step=step, source="web")
    r1, r2 = race(app,
                  lambda: submit_orders(gid, 1, "bid 0", expected_step=step, source="web"),
                  lambda: submit_orders(gid, 2, "bid 0", expected_step=step, source="email"))
    assert {r1.status, r2.status} == {"stored"}
    assert r1.ready or r2.ready  # the later of the two saw everything in
    assert game(gid).step == step + 3
    assert db.session.scalar(select(func.count()).select_from(Move).where(Move.step >= step)) == 3
    turn_rows = db.session.scalar(select(func.count()).select_from(OutboxMessage).where(
        OutboxMessage.dedupe_key.like(f"turn:{gid}:{step + 3}:%")))
    assert turn_rows == 1


def test_the_same_resolution_run_twice_at_once_applies_once(app, t0):
    gid = new_tally(t0)
    # store the order without resolving it (in the request or by the eager task)
    app.config["RESOLVE_IN_REQUEST"] = False
    app.extensions["celery"].conf.task_always_eager = False
    app.config["BROKER_URL"] = "memory://"
    app.extensions["celery"].conf.broker_url = "memory://"
    submit_orders(gid, 0, "add 2", expected_step=0, source="web")
    assert game(gid).step == 0
    a, b = race(app, lambda: resolve_game(gid), lambda: resolve_game(gid))
    # one applies the turn; the other then finds the next decision waiting for orders
    assert sorted([a.status, b.status]) == ["resolved", "waiting"]
    assert game(gid).step == 1
    assert db.session.scalar(select(func.count()).select_from(Move)) == 1


def test_the_same_email_delivered_twice_at_once_is_applied_and_answered_once(app, t0):
    from pbem.service.inbound import handle_inbound

    from .helpers import outbox
    from .test_inbound import reply_to_notice

    gid = new_tally(t0)
    raw = reply_to_notice(outbox(kind="turn")[0], "add 2")
    a, b = race(app, lambda: handle_inbound(raw), lambda: handle_inbound(raw))
    assert sorted([a.result, b.result]) == ["duplicate", "stored"]
    assert game(gid).step == 1
    assert len(outbox(kind="confirmation")) == 1


def test_a_final_order_that_waited_for_the_game_lock_sees_the_orders_stored_meanwhile(app, t0):
    # Two seats bid at once. Seat 1's bid is stored and committed while seat
    # 2's request waits for the game row lock. On PostgreSQL the locking
    # SELECT then returns the newest game row, but whatever else it read (a
    # subquery, such as a count of stored orders) comes from the snapshot
    # taken before the wait: seat 2 must still see seat 1's bid, or the turn
    # would wait for its deadline with every order in.
    gid = new_tally(t0, seats=2)
    for seat in range(2):
        submit_orders(gid, seat, "add 1", expected_step=game(gid).step, source="web")
    step = game(gid).step
    holding = threading.Event()

    def hold_the_lock(result):
        holding.set()  # seat 1's bid is written, the game row locked, nothing committed
        threading.Event().wait(0.8)

    def seat_1():
        return submit_orders(gid, 0, "bid 0", expected_step=step, source="web", before_commit=hold_the_lock)

    def seat_2():
        assert holding.wait(10)
        return submit_orders(gid, 1, "bid 0", expected_step=step, source="web")

    first, last = race(app, seat_1, seat_2)
    assert first.status == "stored" and not first.ready and first.waiting_for == [1]
    assert last.ready and last.resolved, last.message
    assert game(gid).step == step + 2


def test_an_order_that_waited_for_the_game_lock_sees_a_player_replaced_meanwhile(app, t0):
    # The host replaces seat 2's player while seat 1's order waits for the
    # game row lock; the order completes seat 1's turn, so the next notice
    # goes to seat 2: to the new player, not to the one who left.
    from pbem.service.core.db import begin_write
    from pbem.service.core.models import Player
    from pbem.service.core.snapshot import load_game

    gid = new_tally(t0)
    step = game(gid).step
    db.session.add(Player(email="newcomer@example.org", name="Newcomer"))
    db.session.commit()
    holding = threading.Event()

    def replace():
        begin_write()
        seat = load_game(gid, for_update=True).seat(1)
        seat.player_id = db.session.execute(
            select(Player.id).where(Player.email == "newcomer@example.org")).scalar_one()
        db.session.flush()
        holding.set()  # the seat has its new player, the game row is locked, nothing committed
        threading.Event().wait(0.8)
        db.session.commit()

    def order():
        assert holding.wait(10)
        return submit_orders(gid, 0, "add 1", expected_step=step, source="web")

    _, result = race(app, replace, order)
    assert result.resolved
    notices = db.session.execute(select(OutboxMessage.recipient).where(
        OutboxMessage.dedupe_key == f"turn:{gid}:{step + 1}:1")).scalars().all()
    assert notices == ["newcomer@example.org"]
