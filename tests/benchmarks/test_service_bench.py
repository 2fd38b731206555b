"""``pbem bench service`` machinery, run for a few seconds so it cannot rot.

Not a timed test: it checks that the stack starts, orders go over HTTP, the
notifications are seen, the figures add up and everything is cleaned away —
never how fast anything is.
"""
from __future__ import annotations

import os
import re
import secrets
import sys
from collections import Counter
from pathlib import Path

import pytest

from tests.conftest import need_service

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.service import ServiceBenchResult, StackConfig, run_service_bench  # noqa: E402

LINE = re.compile(r"^service: \d+ orders/s, p50 \d+ ms, p99 \d+ ms order-to-notification$")


def test_the_last_line_and_percentiles():
    r = ServiceBenchResult(games=1, seats=2, stored_games=0, seconds=2.0, orders=4,
                           latencies_ms=[10.0, 20.0, 30.0, 400.0], errors=Counter())
    assert r.orders_per_s == 2.0
    assert r.percentile(50) == 20.0 and r.percentile(99) == 400.0
    assert r.line() == "service: 2 orders/s, p50 20 ms, p99 400 ms order-to-notification"


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
    cfg = StackConfig(pg_admin_url=pg, db_name=name, redis_url=rd, web_workers=1, worker_concurrency=1,
                      log_dir=tmp_path)
    lines: list[str] = []
    result = run_service_bench(2, 2, seconds=4.0, warmup=1.0, stored=30, cfg=cfg, echo=lines.append)
    assert any("seeded 30 finished games" in line for line in lines)
    assert not result.errors, (result.errors, (tmp_path / "web.log").read_text()[-2000:])
    assert result.orders > 0 and len(result.latencies_ms) == result.orders
    assert all(0 < ms < 60_000 for ms in result.latencies_ms)
    assert result.cpu["web"] > 0 and result.cpu["worker"] > 0
    assert LINE.match(result.line()), result.line()
    # nothing is left behind: the database is dropped, the processes are gone
    with psycopg.connect(pg, autocommit=True) as conn:
        assert conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (name,)).fetchone() is None
    for log in ("web", "worker", "mailer", "smtp"):
        assert (tmp_path / f"{log}.log").exists()
