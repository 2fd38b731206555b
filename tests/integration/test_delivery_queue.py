"""Outbox delivery is asked for once however many turns commit before it
starts (a Redis mark), and never left unasked: a commit after a run has
started queues the next one. Against the real stack's Redis broker."""
from __future__ import annotations

import pytest
import redis

from pbem.service.core import queue
from pbem.service.core.models import utcnow

from .play import new_game, outbox_rows, settle, submit, wait_step
from .stack import wait_for

pytestmark = pytest.mark.integration


def test_many_commits_queue_one_delivery_run_until_it_starts(stack, monkeypatch):
    sent = []
    celery = stack.app.extensions["celery"]
    monkeypatch.setattr(celery, "send_task", lambda name, args=(), **kw: sent.append(name))
    client = redis.Redis.from_url(stack.env["PBEM_BROKER_URL"])
    client.delete(queue.delivery_key())
    for _ in range(5):
        queue.enqueue(queue.DELIVER)
    assert sent == [queue.DELIVER]
    assert client.ttl(queue.delivery_key()) > 0  # a lost run cannot block delivery for ever
    queue.delivery_started()  # the run begins: it will read the outbox from here
    queue.enqueue(queue.DELIVER)
    assert sent == [queue.DELIVER, queue.DELIVER]
    client.delete(queue.delivery_key())
    client.close()


def test_turns_resolved_in_requests_are_all_mailed(stack):
    stack.worker(concurrency=1)
    gid = new_game()
    # players by mail: every notice is due at once (a live player's waits
    # its grace for beat: the test below)
    for seat in range(3):
        assert submit(gid, seat, "add 1", source="email").resolved
    wait_step(gid, 3)
    # every notice still current reaches the SMTP server without beat's help;
    # those whose seat had already moved are superseded, none is left pending
    wait_for(lambda: all(r.status in ("sent", "superseded") for r in outbox_rows(game_id=gid)), 30,
             "every outbox row of the game to be sent or superseded")
    settle(stack)
    rows = outbox_rows(game_id=gid)
    current = [r for r in rows if r.kind == "turn" and r.step == 3]
    assert current and all(r.status == "sent" for r in current)  # the bidding: every seat asked
    assert len(stack.smtp.messages()) == sum(r.status == "sent" for r in rows)


def test_a_live_players_notice_waits_its_grace_then_beats_delivery_sends_it(stack):
    stack.app.config["NOTICE_GRACE_SECONDS"] = 2
    stack.worker(concurrency=1)
    gid = new_game()
    for seat in range(3):
        assert submit(gid, seat, "add 1", source="web").resolved
    wait_step(gid, 3)
    # the round's notices were sent or superseded by the runs the commits queued;
    # the bidding's wait out the grace, and the commit that wrote them queued no run
    wait_for(lambda: all(r.status in ("sent", "superseded") for r in outbox_rows(game_id=gid)
                         if not (r.kind == "turn" and r.step == 3)), 30, "the round's notices to be done")
    bidding = [r for r in outbox_rows(game_id=gid) if r.kind == "turn" and r.step == 3]
    assert len(bidding) == 3 and all(r.status == "pending" for r in bidding)
    wait_for(lambda: all(r.next_attempt_at <= utcnow() for r in outbox_rows(game_id=gid)), 10,
             "the grace to pass")
    settle(stack)
    assert all(r.status == "pending" for r in outbox_rows(game_id=gid) if r.kind == "turn" and r.step == 3)
    stack.send(queue.DELIVER)  # beat's periodic delivery
    wait_for(lambda: all(r.status == "sent" for r in outbox_rows(game_id=gid) if r.kind == "turn" and r.step == 3),
             30, "beat's delivery to send the bidding's notices")
