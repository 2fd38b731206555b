"""``pbem bench service`` machinery, run for a few seconds so it cannot rot.

Not a timed test: it checks that the stack starts, orders go over HTTP, the
notifications are seen, the figures add up and everything is cleaned away —
never how fast anything is.
"""
from __future__ import annotations

import os
import re
import secrets
from collections import Counter

import pytest

from tests.conftest import need_service
from pbem_dev.bench.service import (
    NotificationWatch, ServiceBenchResult, StackConfig, default_spares, parse_payload, run_service_bench,
)

LINE = re.compile(r"^service: \d+ orders/s, p50 \d+ ms, p99 \d+ ms order-to-notification$")


def test_the_last_line_and_percentiles():
    r = ServiceBenchResult(games=1, seats=2, stored_games=0, seconds=2.0, orders=4,
                           latencies_ms=[10.0, 20.0, 30.0, 400.0], errors=Counter())
    assert r.orders_per_s == 2.0
    assert r.percentile(50) == 20.0 and r.percentile(99) == 400.0
    assert r.line() == "service: 2 orders/s, p50 20 ms, p99 400 ms order-to-notification"


def test_slow_orders_are_told_apart_as_stalls_or_slowness():
    # five slow orders, four of them sent within one second of the window (a stall)
    r = ServiceBenchResult(games=1, seats=2, stored_games=0, seconds=10.0, orders=7,
                           latencies_ms=[900.0, 800.0, 700.0, 650.0, 20.0, 30.0, 600.0],
                           sent_at=[3.1, 3.2, 3.5, 3.9, 4.0, 6.0, 8.2])
    assert r.slow() == (5, 2)
    assert r.slow(limit_ms=750) == (2, 1)
    assert "over 500 ms: 5 orders, sent in 2 distinct seconds" in r.details()


def test_notification_payloads():
    assert parse_payload("12:turn:turn:12:40:2") == (12, "turn", 40)
    assert parse_payload("12:missed:missed:12:41:0") == (12, "missed", 41)
    assert parse_payload("12:over:over:12:1") == (12, "over", None)
    assert parse_payload("12:turn:turn:12:x") == (12, "turn", None)


def test_a_decision_is_answered_by_the_first_notice_of_its_new_step():
    w = NotificationWatch()
    w.seen("5:turn:turn:5:10:0", 1.0)
    assert w.match(5, 11, before=0) is None           # an older step answers nothing
    w.seen("5:turn:turn:5:11:1", 2.0)
    w.seen("5:turn:turn:5:11:2", 3.0)                 # same commit, seen a little later
    assert w.match(5, 11, before=1) == (2.0, 11)
    assert w.match(6, 11, before=0) is None           # another game
    assert w.match(5, None, before=3) is None         # the game has not ended
    w.seen("5:over:over:5:0", 4.0)
    assert w.match(5, None, before=3) == (4.0, None)
    assert w.match(5, 12, before=3) == (4.0, None)    # ended on the server, not in the mirror: a resync
    w.seen("7:turn:turn:7:odd", 5.0)                  # a step it cannot read: counted instead
    assert w.match(7, 3, before=0) == (5.0, 3) and w.match(7, 3, before=1) is None


def test_spares_scale_with_games_seconds_and_think():
    assert default_spares(300, 100, 1.0) > default_spares(300, 100, 2.0) > default_spares(30, 100, 2.0)
    assert default_spares(1, 1, 0.0) >= 2


def _services() -> tuple[str, str]:
    pg = os.environ.get("PBEM_TEST_POSTGRES_URL")
    rd = os.environ.get("PBEM_TEST_REDIS_URL")
    if not pg or not rd:
        need_service("PBEM_TEST_POSTGRES_URL and PBEM_TEST_REDIS_URL must name the local PostgreSQL and Redis")
    pg = re.sub(r"^postgres(ql)?(\+psycopg)?://", "postgresql://", pg)
    # the bench empties its broker database: give it one of its own, never the tests' shared one
    rd = re.sub(r"/\d*$", "", rd.rstrip("/")) + "/11"
    try:
        import psycopg
        import redis

        psycopg.connect(pg, connect_timeout=3).close()
        redis.Redis.from_url(rd, socket_connect_timeout=3).ping()
    except Exception as err:
        need_service(f"PostgreSQL or Redis is not usable: {err}")
    return pg, rd


@pytest.mark.integration
@pytest.mark.slow
def test_a_few_seconds_of_the_service_bench(tmp_path):
    pg, rd = _services()
    import psycopg

    name = f"pbem_bench_test_{secrets.token_hex(4)}"
    cfg = StackConfig(pg_admin_url=pg, db_name=name, redis_url=rd, web_workers=1, web_threads=2,
                      worker_concurrency=1, log_dir=tmp_path)
    lines: list[str] = []
    # settle: on a slow or busy machine the worker's first delivery (board
    # picture, SMTP) can take longer than the 5 s played (seen in CI: 70
    # pending, 1 sending); the check is that it delivers, not how soon
    result = run_service_bench(2, 2, seconds=4.0, warmup=1.0, stored=30, cfg=cfg, think=0.1, echo=lines.append,
                               settle=60.0)
    assert any("seeded 30 finished games" in line for line in lines)
    assert not result.errors, (result.errors, (tmp_path / "web.log").read_text()[-2000:])
    # the local mirrors kept in step with the server: no order refused, no notice missed
    assert result.resyncs == 0 and result.timeouts == 0
    assert result.orders > 0 and len(result.latencies_ms) == result.orders
    assert all(0 < ms < 60_000 for ms in result.latencies_ms)
    assert result.cpu["web"] > 0 and result.client_cpu_seconds > 0
    # the run's notices were written, and the worker took them (sent or superseded)
    assert result.outbox["written"] > 0
    assert result.outbox.get("sent", 0) + result.outbox.get("superseded", 0) > 0, result.outbox
    assert LINE.match(result.line()), result.line()
    assert "resyncs 0" in result.details() and "superseded" in result.details()
    # nothing is left behind: the database is dropped, the processes are gone
    with psycopg.connect(pg, autocommit=True) as conn:
        assert conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (name,)).fetchone() is None
    for log in ("web", "worker", "mail", "smtp"):
        assert (tmp_path / f"{log}.log").exists()
    assert result.mail_line().startswith("mail: ")


@pytest.mark.integration
@pytest.mark.slow
def test_a_few_seconds_of_the_floor(tmp_path):
    pg, rd = _services()
    import psycopg

    from pbem_dev.bench.floor import run_floor

    name = f"pbem_bench_test_{secrets.token_hex(4)}"
    cfg = StackConfig(pg_admin_url=pg, db_name=name, redis_url=rd, web_workers=1, web_threads=2)
    floor = run_floor(cfg, 3, seconds=3.0, warmup=1.0, think=0.1, echo=lambda line: None)
    # every request moved its game on: no refusal, and the CPU was counted
    assert floor.requests > 0 and floor.refused == 0
    assert floor.cpu["web"] > 0 and floor.cpu_ms_per_request()["server"] > 0
    with psycopg.connect(pg, autocommit=True) as conn:
        assert conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (f"{name}_floor",)).fetchone() is None
