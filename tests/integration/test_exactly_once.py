"""Exactly once, against PostgreSQL + Redis + real ``celery worker``
processes: a turn is resolved once, whatever arrives twice, races or dies."""
from __future__ import annotations

import threading
import uuid

import pytest

from pbem.engine import get_game
from pbem.service.core.db import db
from pbem.service.core.models import GameEvent, Move, PendingOrder
from pbem.service.play.orders import submit_orders

from .play import (
    count, events, fresh, moves, new_game, pending, play_round_of_adds, settle, step, submit,
    turn_notices, wait_step,
)
from .stack import wait_for

pytestmark = pytest.mark.integration


def replayed_state(gid: int):
    """The state the action log gives when replayed once from the seed:
    what the stored state must equal if every move was applied once."""
    g = fresh(gid)
    state = get_game(g.kind).new_state(len(g.seats), g.seed, **g.options)
    engine = get_game(g.kind)
    for _step, seat, text in moves(gid):
        state.apply(seat, engine.parse_action(state, seat, text))
    return state


def test_two_final_orders_at_the_same_moment_resolve_once(stack):
    stack.worker(concurrency=2)
    gid = new_game()
    g = play_round_of_adds(gid)
    bid_step = g.step
    assert submit(gid, 0, "bid 0").status == "stored"

    # Seats 2 and 3 send their last orders at the same instant from two web
    # processes, and each also kicks a resolve task (as if both believed
    # they were last): two resolutions race on two pool processes.
    barrier = threading.Barrier(2)
    results = {}

    def send(seat: int) -> None:
        with stack.app.app_context():
            barrier.wait()
            results[seat] = submit_orders(gid, seat, "bid 1", expected_step=bid_step, source="web")
            stack.send("pbem.resolve", gid)
            db.session.remove()

    threads = [threading.Thread(target=send, args=(s,)) for s in (1, 2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert {s: r.status for s, r in results.items()} == {1: "stored", 2: "stored"}
    assert sum(r.ready for r in results.values()) == 1  # exactly one saw the decision complete

    wait_step(gid, bid_step + 3)
    settle(stack)
    g = fresh(gid)
    assert g.step == bid_step + 3
    bids = [m for m in moves(gid) if m[0] >= bid_step]
    assert bids == [(bid_step, 0, "bid 0"), (bid_step + 1, 1, "bid 1"), (bid_step + 2, 2, "bid 1")]
    assert len(events(gid, "reveal")) == 1
    assert pending(gid) == []
    assert g.state == replayed_state(gid).to_json()
    # one turn notice for the seat to move next, not two
    assert turn_notices(gid, g.step) == [f"turn:{gid}:{g.step}:0"]


def test_the_same_resolve_task_delivered_twice_applies_once(stack):
    stack.app.config["RESOLVE_IN_REQUEST"] = False  # the worker's resolution is what is tested
    gid = new_game()
    stack.worker(concurrency=2)
    play_round_of_adds(gid)
    for w in stack.workers:
        w.stop()
    g = fresh(gid)
    bid_step = g.step
    for seat in range(3):
        assert submit(gid, seat, "bid 0").status == "stored"  # the last one enqueues pbem.resolve
    # the broker delivers the same message again (same task id), and a
    # resolve for the same game arrives from the scan as well
    task_id = str(uuid.uuid4())
    stack.send("pbem.resolve", gid, task_id=task_id)
    stack.send("pbem.resolve", gid, task_id=task_id)
    stack.send("pbem.resolve", gid)
    assert step(gid) == bid_step  # nothing ran yet: no worker
    stack.worker(concurrency=2)
    wait_step(gid, bid_step + 3)
    settle(stack)
    g = fresh(gid)
    assert g.step == bid_step + 3
    assert count(Move, game_id=gid) == bid_step + 3
    assert len(events(gid, "reveal")) == 1
    assert g.state == replayed_state(gid).to_json()
    assert turn_notices(gid, g.step) == [f"turn:{gid}:{g.step}:0"]


@pytest.mark.slow
def test_worker_killed_mid_resolution_resolves_later_once(stack, tmp_path):
    pause = tmp_path / "pause"
    pause.mkdir()
    victim = stack.worker(concurrency=1, PBEM_TEST_PAUSE_DIR=str(pause))
    stack.app.config["RESOLVE_IN_REQUEST"] = False  # the worker's resolution is what is killed
    gid = new_game()
    g = fresh(gid)
    start_step = g.step
    assert submit(gid, 0, "add 3").status == "stored"
    # the worker has claimed the turn inside its transaction and stops there
    wait_for(lambda: any(pause.glob("paused-*")), 30, "the resolution to reach the pause hook")
    assert step(gid) == start_step  # not committed: nobody sees it
    victim.kill()
    assert not victim.alive

    # the killed transaction is rolled back: nothing applied, the order kept
    g = fresh(gid)
    assert g.step == start_step
    assert count(Move, game_id=gid) == 0
    assert pending(gid) == [(0, start_step, "add 3")]
    assert count(GameEvent, game_id=gid, kind="add") == 0

    # a new worker; the periodic scan finds the ready turn (the old message
    # waits for the broker's visibility timeout) and resolves it
    stack.worker(concurrency=2)
    stack.send("pbem.scan")
    g = wait_step(gid, start_step + 1)
    # the scan again, and the resolve task again (redelivery of the message
    # the dead worker held): still once
    stack.send("pbem.scan")
    stack.send("pbem.resolve", gid)
    settle(stack)
    g = fresh(gid)
    assert g.step == start_step + 1
    assert moves(gid) == [(start_step, 0, "add 3")]
    assert count(GameEvent, game_id=gid, kind="add") == 1
    assert pending(gid) == []
    assert turn_notices(gid, g.step) == [f"turn:{gid}:{g.step}:1"]


def test_stale_web_order_is_refused_and_not_applied(stack):
    stack.worker()
    gid = new_game()
    written_on = step(gid)  # seat 1 opens its order page at this step...
    assert submit(gid, 0, "add 2").status == "stored"
    wait_step(gid, written_on + 1)
    # ...and seat 2 posts a form it loaded before the turn moved on
    res = submit_orders(gid, 1, "add 1", expected_step=written_on, source="web")
    assert res.status == "stale"
    # the turns are named as players see them, never by internal step numbers (issue 29)
    assert "moved on to" in res.message and "Nothing was applied" in res.message
    assert f"step {written_on}" not in res.message
    assert res.legal  # what is legal now is quoted
    settle(stack, quiet=0.5)
    assert step(gid) == written_on + 1
    assert pending(gid) == []
    assert moves(gid) == [(written_on, 0, "add 2")]
    assert count(PendingOrder, game_id=gid) == 0


def test_stale_order_page_form_is_refused_over_http(stack):
    """The real order page: a form loaded on one step and posted after the
    worker moved the game on is answered 409 with what happened, and the
    orders are neither stored nor applied."""
    import re
    from html import escape as html_escape

    from pbem.service.core.snapshot import engine_state
    from pbem.service.play.lifecycle import create_game, join_game

    stack.worker()
    players = [("Ada", "ada@example.org"), ("Bo", "bo@example.org"), ("Cy", "cy@example.org")]
    gid = create_game("lacitta", players[0][1], players, options={"setup": "beginner"}, seed=9).id
    for i in (1, 2):
        join_game(gid, i)
    g = fresh(gid)
    state = engine_state(g)
    seat = state.current_seats()[0]
    client = stack.app.test_client()
    with client.session_transaction() as session:
        session["player_id"] = g.seat(seat).player_id
    page = client.get(f"/games/{gid}/seat/{seat + 1}").get_data(as_text=True)
    token = re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)
    form_step = int(re.search(r'name="step" value="(\d+)"', page).group(1))
    assert form_step == g.step
    first, second = [a.to_text() for a in state.legal_actions(seat)[:2]]
    # the same player sends orders another way (a second tab, an email)...
    assert submit(gid, seat, first).status == "stored"
    wait_step(gid, form_step + 1)  # ...and they are resolved
    resp = client.post(f"/games/{gid}/seat/{seat + 1}",
                       data={"csrf_token": token, "step": str(form_step), "orders": second})
    assert resp.status_code == 409
    html = resp.get_data(as_text=True)
    assert "moved on" in html and html_escape(str(state.phase())) in html
    assert f"step {form_step}" not in html
    settle(stack, quiet=0.5)
    assert moves(gid) == [(form_step, seat, first)]
    assert pending(gid) == []
