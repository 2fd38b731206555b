"""``pbem bench service --floor``: the framework floor, measured like pbem.

The floor app (:mod:`pbem_dev.bench.floor_app`: Flask + SQLAlchemy + psycopg, one
endpoint that locks a game row, inserts an order and moves the step on) is
served by the same granian as pbem's bench (``--web-workers`` processes of
``--web-threads`` blocking threads, :meth:`bench.service.Stack.web_argv`)
on a database of its own beside the bench's (``<db-name>_floor``, created
and dropped here). The clients are pbem's bench clients without the game:
``games`` coroutines in one asyncio event loop, keep-alive aiohttp
connections, each posting one order for its game's step, then waiting
``think`` seconds (randomised ±50 %, and a random start offset).

CPU is taken as in :func:`bench.service.cpu_snapshot`: user + system
seconds of the web server's process group and of the PostgreSQL processes
(the floor database's backends and the server's own) in the measured window; per request, next to pbem's per order, and their
ratio (:func:`ratio_line`).
"""
from __future__ import annotations

import asyncio
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from pbem_dev.bench.service import KEEPALIVE, ROOT, StackConfig, _check_local, _free_port, cpu_snapshot


@dataclass
class FloorResult:
    """One floor run: accepted requests in the window, refusals (any status
    but 302), the window in seconds, request latencies (ms) and CPU seconds
    of ``web`` and ``postgres`` in the window."""

    requests: int
    refused: int
    seconds: float
    latencies_ms: list[float] = field(default_factory=list)
    cpu: dict[str, float] = field(default_factory=dict)
    shape: str = ""

    def cpu_ms_per_request(self) -> dict[str, float]:
        """CPU ms per accepted request: ``web``, ``postgres`` and ``server``
        (their sum; the floor has no worker and no broker)."""
        if not self.requests:
            return {}
        out = {k: 1000 * self.cpu.get(k, 0.0) / self.requests for k in ("web", "postgres")}
        out["server"] = out["web"] + out["postgres"]
        return out

    def line(self) -> str:
        per = self.cpu_ms_per_request()
        lat = sorted(self.latencies_ms) or [float("nan")]
        p99 = lat[min(len(lat) - 1, int(0.99 * len(lat)))]
        return (f"floor: {self.requests / self.seconds if self.seconds else 0:.0f} requests/s ({self.shape}), "
                f"refused {self.refused}, request p50 {statistics.median(lat):.1f} ms, p99 {p99:.1f} ms; "
                f"server CPU ms per request {per.get('server', float('nan')):.2f} "
                f"(web {per.get('web', float('nan')):.2f}, postgres {per.get('postgres', float('nan')):.2f})")


def ratio_line(pbem_server_ms: float, floor: FloorResult) -> str:
    """``floor ratio: pbem <ms> ms server CPU per order / floor <ms> ms per request = <x>``."""
    floor_ms = floor.cpu_ms_per_request().get("server", float("nan"))
    ratio = pbem_server_ms / floor_ms if floor_ms and floor_ms == floor_ms else float("nan")
    return (f"floor ratio: pbem {pbem_server_ms:.2f} ms server CPU per order / floor {floor_ms:.2f} ms "
            f"per request = {ratio:.2f}x")


async def _client(gid: int, http, base: str, think: float, rng: random.Random, window: "_Window") -> None:
    from yarl import URL

    url = URL(base).join(URL(f"/games/{gid}/seat/1", encoded=True))
    headers = {"Content-Type": "application/x-www-form-urlencoded"}
    step = 0
    await asyncio.sleep(rng.uniform(0, think))
    while time.monotonic() < window.stop_at:
        body = f"orders=build+a+palace+at+{rng.randrange(1, 99)}&step={step}".encode()
        t0 = time.monotonic()
        try:
            async with http.post(url, data=body, allow_redirects=False, headers=headers) as resp:
                await resp.read()
                status = resp.status
        except (OSError, asyncio.TimeoutError):
            status = 0
        window.record(t0, status)
        if status == 302:
            step += 1
        await asyncio.sleep(think * rng.uniform(0.5, 1.5))


class _Window:
    def __init__(self, start: float, stop_at: float):
        self.start, self.stop_at = start, stop_at
        self.latencies: list[float] = []
        self.requests = self.refused = 0

    def record(self, t0: float, status: int) -> None:
        if self.start <= t0 < self.stop_at:
            if status == 302:
                self.requests += 1
                self.latencies.append((time.monotonic() - t0) * 1000)
            else:
                self.refused += 1


async def _play(games: int, port: int, web_pid: int, db_name: str, *, warmup: float, seconds: float,
                think: float, seed: int) -> tuple[_Window, dict[str, float]]:
    import aiohttp

    begin = time.monotonic()
    window = _Window(begin + warmup, begin + warmup + seconds)
    connector = aiohttp.TCPConnector(limit=200, keepalive_timeout=KEEPALIVE)
    groups = {"web": web_pid}
    async with aiohttp.ClientSession(connector=connector, cookie_jar=aiohttp.DummyCookieJar(),
                                     timeout=aiohttp.ClientTimeout(total=60)) as http:
        tasks = [asyncio.create_task(_client(g, http, f"http://127.0.0.1:{port}", think,
                                             random.Random(seed * 7919 + g), window))
                 for g in range(1, games + 1)]
        await asyncio.sleep(max(0.0, window.start - time.monotonic()))
        cpu0 = cpu_snapshot(groups, db_name)
        await asyncio.sleep(max(0.0, window.stop_at - time.monotonic()))
        cpu1 = cpu_snapshot(groups, db_name)
        await asyncio.wait(tasks, timeout=30)
        for t in tasks:
            t.cancel()
    return window, {k: cpu1[k] - cpu0[k] for k in ("web", "postgres")}


def run_floor(cfg: StackConfig, games: int, *, seconds: float, warmup: float, think: float = 1.0,
              seed: int = 1, echo: Callable[[str], None] = print) -> FloorResult:
    """Serve the floor app under ``cfg``'s web server shape, play ``games``
    clients for ``warmup + seconds`` seconds, stop the server and drop the
    floor's database; the figures of the window."""
    from pbem_dev.bench.floor_app import create_tables

    floor_cfg = StackConfig(pg_admin_url=cfg.pg_admin_url, db_name=f"{cfg.db_name}_floor",
                            web_workers=cfg.web_workers, web_threads=cfg.web_threads)
    _database(floor_cfg, create=True)
    tmp = Path(tempfile.mkdtemp(prefix="pbem-floor-"))
    proc = None
    try:
        create_tables(floor_cfg.sqlalchemy_url, games)
        port = _free_port()
        argv = [str(Path(sys.executable).parent / "granian"), "--interface", "wsgi",
                "--workers", str(cfg.web_workers), "--blocking-threads", str(max(1, cfg.web_threads)),
                "--host", "127.0.0.1", "--port", str(port), "--backlog", "2048", "--log-level", "warning",
                "--factory", "pbem_dev.bench.floor_app:create_app"]
        env = dict(os.environ, PBEM_FLOOR_DATABASE_URL=floor_cfg.sqlalchemy_url,
                   PBEM_WEB_THREADS=str(max(1, cfg.web_threads)),
                   PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]).rstrip(os.pathsep))
        log = open(tmp / "floor-web.log", "wb")
        proc = subprocess.Popen(argv, env=env, cwd=str(ROOT), stdout=log, stderr=subprocess.STDOUT,
                                start_new_session=True)
        _wait_http(port, proc, tmp / "floor-web.log")
        shape = f"granian {cfg.web_workers} workers x {max(1, cfg.web_threads)} blocking threads"
        echo(f"floor up: {shape} on 127.0.0.1:{port}, database {floor_cfg.db_name}, {games} games")
        window, cpu = asyncio.run(_play(games, port, proc.pid, floor_cfg.db_name, warmup=warmup, seconds=seconds, think=think,
                                        seed=seed))
        return FloorResult(requests=window.requests, refused=window.refused, seconds=seconds,
                           latencies_ms=window.latencies, cpu=cpu, shape=shape)
    finally:
        if proc is not None:
            _stop(proc)
            log.close()
        _database(floor_cfg, create=False)
        shutil.rmtree(tmp, ignore_errors=True)


def _database(cfg: StackConfig, *, create: bool) -> None:
    """Drop ``cfg``'s database (a bench name only) and, with ``create``, make it anew."""
    import psycopg

    _check_local(cfg.pg_admin_url)
    if not cfg.db_name.startswith("pbem_bench"):
        raise ValueError(f"refusing database name {cfg.db_name!r}")
    with psycopg.connect(cfg.pg_admin_url, autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {cfg.db_name} WITH (FORCE)")
        if create:
            conn.execute(f"CREATE DATABASE {cfg.db_name}")


def _wait_http(port: int, proc: subprocess.Popen, log: Path, timeout: float = 60) -> None:
    """Wait until the server on ``port`` answers a GET; RuntimeError with its log when it dies or times out."""
    import http.client

    end = time.monotonic() + timeout
    while True:
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
            conn.request("GET", "/")
            conn.getresponse().read()
            conn.close()
            return
        except OSError:
            if time.monotonic() > end or proc.poll() is not None:
                raise RuntimeError("the floor's granian did not start; its log:\n"
                                   + log.read_text(errors="replace")[-3000:])
            time.sleep(0.2)


def _stop(proc: subprocess.Popen) -> None:
    import signal

    try:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(timeout=20)
    except ProcessLookupError:
        pass
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=10)
