"""The real Celery worker in-process on the SQLite broker (no eager mode)."""
from __future__ import annotations

import time

from pbem.service.embedded import EmbeddedWorker
from pbem.service.play.orders import submit_orders

from .helpers import game, new_tally


def wait_for(predicate, timeout=20.0):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if predicate():
            return True
        time.sleep(0.1)
    return False


def test_orders_resolve_through_the_broker_and_worker(app, t0):
    gid = new_tally(t0)
    with EmbeddedWorker(app, beat=False):
        res = submit_orders(gid, 0, "add 2", expected_step=0, source="web")
        assert res.ready
        assert wait_for(lambda: game(gid).step == 1), "the worker did not resolve the turn"
        res = submit_orders(gid, 1, "add 1", expected_step=1, source="web")
        assert wait_for(lambda: game(gid).step == 2)
