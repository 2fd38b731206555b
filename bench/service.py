"""Load benchmark of the production stack (``pbem bench service``).

What runs, all on this machine and only on 127.0.0.1:

- PostgreSQL: a database of its own (default ``pbem_bench``), created,
  migrated with Alembic, optionally seeded with finished games
  (:mod:`bench.service_seed`), and dropped afterwards;
- Redis: one database number as the Celery broker (default 12), emptied
  before and after;
- ``gunicorn 'pbem.web:create_app()'`` (sync workers), a ``celery -A worker
  worker`` and a discarding SMTP server (:mod:`bench.service_smtp`) so outbox
  delivery does real SMTP work — started as subprocesses with the ``PBEM_*``
  environment a production deployment would set.

Then ``games`` La Città games of ``seats`` seats are created through the
service and played concurrently by scripted clients, one thread per game.
A client reads its game's row from the database (step, state), picks a
random legal order for each seat the state waits for, and posts it over
HTTP exactly as the order page does (``POST /games/<id>/seat/<n>`` with the
turn step and a CSRF token, signed in as the seat's player). It then waits
for the next notification to sit in the outbox.

Order-to-notification: from just before the order's HTTP request to the
moment a poller (one query every ``POLL`` seconds, so up to that much late)
sees the next notification row of that game (a turn notice, the missed-turn
notice or the final scores) committed in ``outbox``. Throughput counts
accepted orders whose request started inside the measured window (after the
warm-up). The last line is
``service: <orders/s> orders/s, p50 <ms> ms, p99 <ms> ms order-to-notification``.

Sessions: the clients do not go through emailed sign-in links, because the
sign-in page is rate limited per client address (20 a minute — for hundreds
of players coming from one address that limit is the point). Each seat's
player gets the signed session cookie and CSRF token that sign-in would
have given, made with the app's own session serializer and Flask-WTF.

``PBEM_BENCH_DEBUG=1`` prints the body of every refused HTTP answer.
"""
from __future__ import annotations

import http.client
import os
import random
import re
import secrets
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parents[1]
#: seconds between two looks at the outbox by the notification poller
POLL = 0.005
#: Celery queue of outbox delivery in the bench stack (see bench/service_worker.py)
MAIL_QUEUE = "pbem-mail"
#: the poller looks this many ids back for rows committed out of id order
LOOKBACK = 400


@dataclass
class StackConfig:
    """Where and how the stack runs."""

    pg_admin_url: str = "postgresql://postgres@127.0.0.1:5432/postgres"
    db_name: str = "pbem_bench"
    redis_url: str = "redis://127.0.0.1:6379/12"
    web_workers: int = 3
    worker_concurrency: int = 2
    deliver: bool = True
    mail_worker: bool = True
    keep_db: bool = False
    log_dir: Path | None = None

    @property
    def libpq_url(self) -> str:
        return self.pg_admin_url.rsplit("/", 1)[0] + "/" + self.db_name

    @property
    def sqlalchemy_url(self) -> str:
        return "postgresql+psycopg://" + self.libpq_url.split("://", 1)[1]


@dataclass
class ServiceBenchResult:
    games: int
    seats: int
    stored_games: int
    seconds: float
    orders: int
    latencies_ms: list[float]
    errors: Counter = field(default_factory=Counter)
    timeouts: int = 0
    finished_games: int = 0
    client_cpu_seconds: float = 0.0
    client_engine_seconds: float = 0.0
    outbox_backlog: int = 0
    cpu: dict[str, float] = field(default_factory=dict)
    load: str = ""

    @property
    def orders_per_s(self) -> float:
        return self.orders / self.seconds if self.seconds else 0.0

    def percentile(self, p: float) -> float:
        if not self.latencies_ms:
            return float("nan")
        data = sorted(self.latencies_ms)
        k = min(len(data) - 1, max(0, int(round(p / 100 * len(data) + 0.5)) - 1))
        return data[k]

    def details(self) -> str:
        lat = self.latencies_ms
        mean = statistics.fmean(lat) if lat else float("nan")
        errs = ", ".join(f"{k}: {v}" for k, v in sorted(self.errors.items())) or "none"
        return (f"{self.games} games x {self.seats} seats, {self.stored_games} stored finished games; "
                f"{self.orders} orders in {self.seconds:.1f} s; latency mean {mean:.0f} ms, "
                f"p90 {self.percentile(90):.0f} ms, max {max(lat) if lat else float('nan'):.0f} ms; "
                f"errors {errs}; notification timeouts {self.timeouts}; games finished {self.finished_games}; "
                f"outbox not yet delivered at the end {self.outbox_backlog}; "
                f"client CPU {self.client_cpu_seconds:.1f} s (engine {self.client_engine_seconds:.1f} s); "
                f"CPU s in the window: " + ", ".join(f"{k} {v:.1f}" for k, v in self.cpu.items())
                + f"; load average at the end {self.load}\n"
                + "CPU ms per order: " + ", ".join(f"{k} {v:.1f}" for k, v in self.cpu_ms_per_order().items())
                + f"; server-side capacity on 2 idle cores ~{self.capacity():.0f} orders/s")

    def cpu_ms_per_order(self) -> dict[str, float]:
        """CPU milliseconds per measured order of the order path (gunicorn,
        turn worker, PostgreSQL, the scripted clients) and, apart, of mail
        delivery (mail worker drawing pictures + SMTP sink). Steadier than
        wall-clock figures on a machine shared with other work."""
        if not self.orders:
            return {}
        path = {k: self.cpu.get(k, 0.0) for k in ("web", "worker", "postgres")}
        path["client"] = self.client_cpu_seconds
        out = {k: 1000 * v / self.orders for k, v in path.items()}
        out["order path"] = sum(out.values())
        out["mail"] = 1000 * (self.cpu.get("mailer", 0.0) + self.cpu.get("smtp", 0.0)) / self.orders
        return out

    def capacity(self, cores: int = 2) -> float:
        """Orders/s the order path could take on ``cores`` idle cores at the
        measured CPU cost (server side only: gunicorn, worker, PostgreSQL)."""
        c = self.cpu_ms_per_order()
        server = c.get("web", 0) + c.get("worker", 0) + c.get("postgres", 0)
        return 1000 * cores / server if server else float("nan")

    def line(self) -> str:
        return (f"service: {self.orders_per_s:.0f} orders/s, p50 {self.percentile(50):.0f} ms, "
                f"p99 {self.percentile(99):.0f} ms order-to-notification")


# --------------------------------------------------------------------------- stack

def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _check_local(url: str) -> None:
    host = re.sub(r"^.*://(?:[^@/]*@)?([^:/]+).*$", r"\1", url)
    if host not in {"127.0.0.1", "localhost", "::1"}:
        raise ValueError(f"the bench only loads this machine; {url} is not on 127.0.0.1")


def create_database(cfg: StackConfig) -> None:
    import psycopg

    _check_local(cfg.pg_admin_url)
    if not re.fullmatch(r"[a-z_][a-z0-9_]*", cfg.db_name) or cfg.db_name in {"postgres", "template0", "template1"}:
        raise ValueError(f"refusing database name {cfg.db_name!r}")
    with psycopg.connect(cfg.pg_admin_url, autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {cfg.db_name} WITH (FORCE)")
        conn.execute(f"CREATE DATABASE {cfg.db_name}")
    from pbem.service.migrate import upgrade

    upgrade(cfg.sqlalchemy_url)


def drop_database(cfg: StackConfig) -> None:
    import psycopg

    with psycopg.connect(cfg.pg_admin_url, autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {cfg.db_name} WITH (FORCE)")


def flush_broker(cfg: StackConfig) -> None:
    import redis

    _check_local(cfg.redis_url)
    redis.Redis.from_url(cfg.redis_url).flushdb()


class Stack:
    """The subprocesses of the production stack; a context manager that
    always stops what it started (by process group id)."""

    def __init__(self, cfg: StackConfig, *, echo: Callable[[str], None] = print):
        self.cfg = cfg
        self.echo = echo
        self.procs: list[tuple[str, subprocess.Popen]] = []
        self.tmp = Path(tempfile.mkdtemp(prefix="pbem-bench-"))
        self.log_dir = cfg.log_dir or self.tmp
        self.web_port = _free_port()
        self.smtp_port = _free_port()
        self.secret = secrets.token_urlsafe(32)
        self.env = dict(os.environ)
        self.env.update({
            "PBEM_DATABASE_URL": cfg.sqlalchemy_url,
            "PBEM_BROKER_URL": cfg.redis_url,
            "PBEM_SECRET_KEY": self.secret,
            "PBEM_INSTANCE_PATH": str(self.tmp / "instance"),
            "PBEM_SMTP_HOST": "127.0.0.1",
            "PBEM_SMTP_PORT": str(self.smtp_port if cfg.deliver else 1),
            "PBEM_BASE_URL": f"http://127.0.0.1:{self.web_port}",
            "PBEM_INBOUND_ADDRESS": "play@bench.invalid",
            "PBEM_MAIL_FROM": "pbem bench <pbem@bench.invalid>",
            "PYTHONPATH": os.pathsep.join([str(ROOT), self.env.get("PYTHONPATH", "")]).rstrip(os.pathsep),
        })

    def app_config(self) -> dict:
        """The Flask config of the bench process's own app (same settings)."""
        return {"INSTANCE_PATH": str(self.tmp / "instance"), "SECRET_KEY": self.secret,
                "SQLALCHEMY_DATABASE_URI": self.cfg.sqlalchemy_url, "BROKER_URL": self.cfg.redis_url,
                "BASE_URL": self.env["PBEM_BASE_URL"], "INBOUND_ADDRESS": "play@bench.invalid",
                "MAIL_FROM": "pbem bench <pbem@bench.invalid>", "SMTP_PORT": int(self.env["PBEM_SMTP_PORT"])}

    def _spawn(self, name: str, argv: list[str]) -> subprocess.Popen:
        log = open(self.log_dir / f"{name}.log", "wb")
        proc = subprocess.Popen(argv, env=self.env, cwd=str(ROOT), stdout=log, stderr=subprocess.STDOUT,
                                start_new_session=True)
        self.procs.append((name, proc))
        return proc

    def _wait_log(self, name: str, pattern: str, timeout: float) -> None:
        path = self.log_dir / f"{name}.log"
        proc = dict(self.procs)[name]
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if pattern in path.read_text(errors="replace"):
                return
            if proc.poll() is not None:
                break
            time.sleep(0.1)
        raise RuntimeError(f"{name} did not start; its log ({path}):\n"
                           + path.read_text(errors="replace")[-3000:])

    def start(self) -> None:
        bindir = Path(sys.executable).parent
        if self.cfg.deliver:
            self._spawn("smtp", [sys.executable, "-m", "bench.service_smtp", str(self.smtp_port),
                                 "--max-seconds", "7200"])
            self._wait_log("smtp", "smtp ready", 20)
        self._spawn("web", [str(bindir / "gunicorn"), "--workers", str(self.cfg.web_workers),
                            "--bind", f"127.0.0.1:{self.web_port}", "--worker-class", "sync",
                            "--timeout", "60", "--log-level", "warning", "pbem.web:create_app()"])
        quiet = ["--without-gossip", "--without-mingle", "--without-heartbeat", "--loglevel", "info"]
        if self.cfg.mail_worker:
            # turns on one worker; pictures and SMTP on another, niced: mail may lag, turns may not
            self._spawn("worker", [str(bindir / "celery"), "-A", "bench.service_worker", "worker", "-Q", "celery",
                                   "--concurrency", str(self.cfg.worker_concurrency), "-n", "turns@%h", *quiet])
            self._spawn("mailer", ["nice", "-n", "10", str(bindir / "celery"), "-A", "bench.service_worker",
                                   "worker", "-Q", "pbem-mail", "--concurrency", "1", "-n", "mail@%h", *quiet])
            self._wait_log("mailer", "ready.", 60)
        else:
            self._spawn("worker", [str(bindir / "celery"), "-A", "worker", "worker",
                                   "--concurrency", str(self.cfg.worker_concurrency), *quiet])
        self._wait_log("worker", "ready.", 60)
        end = time.monotonic() + 60
        while True:
            try:
                conn = http.client.HTTPConnection("127.0.0.1", self.web_port, timeout=5)
                conn.request("GET", "/signin")
                conn.getresponse().read()
                conn.close()
                break
            except OSError:
                if time.monotonic() > end or dict(self.procs)["web"].poll() is not None:
                    raise RuntimeError("gunicorn did not start; its log:\n"
                                       + (self.log_dir / "web.log").read_text(errors="replace")[-3000:])
                time.sleep(0.2)

    def stop(self) -> None:
        for name, proc in reversed(self.procs):
            if proc.poll() is None:
                try:
                    os.killpg(proc.pid, signal.SIGTERM)
                except ProcessLookupError:
                    pass
        for name, proc in reversed(self.procs):
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait(timeout=10)
        self.procs.clear()

    def __enter__(self) -> "Stack":
        return self

    def __exit__(self, *exc) -> None:
        self.stop()
        if self.cfg.log_dir is None:
            shutil.rmtree(self.tmp, ignore_errors=True)


def cpu_snapshot(groups: dict[str, int]) -> dict[str, float]:
    """CPU seconds (user + system) used so far by each named process group
    (live processes only) and by all ``postgres`` processes (which include
    any other PostgreSQL users of this machine)."""
    tick = os.sysconf("SC_CLK_TCK")
    by_group = {pgid: name for name, pgid in groups.items()}
    out = dict.fromkeys([*groups, "postgres"], 0.0)
    try:
        pg_uid = __import__("pwd").getpwnam("postgres").pw_uid
    except KeyError:
        pg_uid = None
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
            uid = os.stat(f"/proc/{entry}").st_uid
        except OSError:
            continue
        fields = stat[stat.rindex(")") + 2:].split()
        pgid, cpu = int(fields[2]), (int(fields[11]) + int(fields[12])) / tick
        if pgid in by_group:
            out[by_group[pgid]] += cpu
        elif uid == pg_uid:
            out["postgres"] += cpu
    return out


# --------------------------------------------------------------------------- games and sessions

@dataclass
class SeatClient:
    game_id: int
    number: int           # as players count (index + 1)
    cookie: str
    csrf: str


def create_games(app, games: int, seats: int, *, seed: int, echo) -> dict[int, list[SeatClient]]:
    """Start ``games`` La Città games through the service; returns, per
    game id, a signed-in client per seat (session cookie + CSRF token)."""
    from flask import g as flask_g, session
    from flask_wtf.csrf import generate_csrf

    from pbem.service.db import db
    from pbem.service.lifecycle import create_game, join_game
    from pbem.service.models import Game

    out: dict[int, list[SeatClient]] = {}
    t0 = time.perf_counter()
    with app.app_context():
        for g in range(games):
            people = [(f"Bench {g}.{s + 1}", f"bench-{g}-{s + 1}@bench.invalid") for s in range(seats)]
            game = create_game("lacitta", people[0][1], people, seed=seed + g, title=f"Bench {g}")
            gid = game.id
            for s in range(1, seats):
                join_game(gid, s)
            row = db.session.get(Game, gid)
            clients = []
            for seat in row.seats:
                with app.test_request_context():
                    flask_g.pop("csrf_token", None)  # g belongs to the app context, shared by these requests
                    session["player_id"] = seat.player_id
                    session.permanent = True
                    token = generate_csrf()
                    cookie = app.session_interface.get_signing_serializer(app).dumps(dict(session))
                clients.append(SeatClient(gid, seat.number, cookie, token))
            out[gid] = clients
            db.session.remove()
    echo(f"created {games} games in {time.perf_counter() - t0:.1f} s")
    return out


# --------------------------------------------------------------------------- measuring

class NotificationWatch:
    """One thread polling ``outbox`` for new notification rows; each game's
    count of notifications seen and when the last one was seen."""

    KINDS = ("turn", "over", "missed")

    def __init__(self, url: str, stop_at: float):
        self.url = url
        self.stop_at = stop_at
        self.cond = threading.Condition()
        self.count: Counter = Counter()
        self.seen_at: dict[int, float] = {}
        self.thread = threading.Thread(target=self._run, name="outbox-watch", daemon=True)
        self.error: BaseException | None = None

    def start(self, start_id: int) -> None:
        self.hi = start_id
        self.thread.start()

    def _run(self) -> None:
        import psycopg

        seen: set[int] = set()
        try:
            with psycopg.connect(self.url, autocommit=True) as conn:
                cur = conn.cursor()
                while time.monotonic() < self.stop_at:
                    rows = cur.execute(
                        "SELECT id, game_id FROM outbox WHERE id > %s AND kind = ANY(%s) ORDER BY id",
                        (self.hi - LOOKBACK, list(self.KINDS))).fetchall()
                    now = time.perf_counter()
                    fresh = [(i, g) for i, g in rows if i not in seen]
                    if fresh:
                        with self.cond:
                            for i, g in fresh:
                                seen.add(i)
                                self.count[g] += 1
                                self.seen_at[g] = now
                            self.cond.notify_all()
                        self.hi = max(self.hi, max(i for i, _ in fresh))
                    time.sleep(POLL)
        except BaseException as err:  # pragma: no cover - surfaced by the runner
            self.error = err
        finally:
            with self.cond:
                self.cond.notify_all()

    def wait_after(self, game_id: int, count: int, timeout: float) -> float | None:
        """Wait until game ``game_id`` has more than ``count`` notifications;
        the time (perf_counter) the newest was seen, or ``None`` on timeout."""
        end = time.monotonic() + timeout
        with self.cond:
            while self.count[game_id] <= count:
                left = end - time.monotonic()
                if left <= 0 or not self.thread.is_alive():
                    return None
                self.cond.wait(left)
            return self.seen_at[game_id]


class GameClient(threading.Thread):
    """Plays one game until ``stop_at`` (monotonic); when its game ends it
    takes a spare game from ``spares`` (if any is left) and plays on."""

    def __init__(self, gid: int, seats: list[SeatClient], *, url: str, port: int, watch: NotificationWatch,
                 measure_from: float, stop_at: float, seed: int, sink: "Sink",
                 spares: "list[tuple[int, list[SeatClient]]] | None" = None):
        super().__init__(name=f"game-{gid}", daemon=True)
        self.gid, self.seats, self.url, self.port = gid, seats, url, port
        self.spares = spares if spares is not None else []
        self.watch, self.measure_from, self.stop_at = watch, measure_from, stop_at
        self.rng = random.Random(seed)
        self.sink = sink

    def _post(self, http: http.client.HTTPConnection, seat: SeatClient, text: str, step: int) -> int:
        body = urlencode({"orders": text, "step": str(step), "csrf_token": seat.csrf})
        http.request("POST", f"/games/{self.gid}/seat/{seat.number}", body=body, headers={
            "Content-Type": "application/x-www-form-urlencoded",
            "Cookie": f"session={seat.cookie}",
        })
        resp = http.getresponse()
        data = resp.read()
        if resp.status >= 400 and os.environ.get("PBEM_BENCH_DEBUG"):
            print(resp.status, data[:3000].decode(errors="replace"), file=sys.stderr)
        if resp.getheader("Connection", "").lower() == "close":
            http.close()
        return resp.status

    def run(self) -> None:
        import psycopg

        from pbem.engine import get_game

        engine = get_game("lacitta")
        http_conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
        try:
            with psycopg.connect(self.url, autocommit=True) as conn:
                cur = conn.cursor()
                while time.monotonic() < self.stop_at:
                    step, status, state_json = cur.execute(
                        "SELECT step, status, state FROM games WHERE id = %s", (self.gid,)).fetchone()
                    if status != "active":
                        self.sink.finished(self.gid)
                        try:
                            self.gid, self.seats = self.spares.pop()  # list.pop is atomic
                        except IndexError:
                            if time.monotonic() < self.stop_at:
                                self.sink.error("client out of games before the end (use --spare-games)")
                            return
                        continue
                    have = {r[0] for r in cur.execute(
                        "SELECT seat_index FROM pending_orders WHERE game_id = %s AND step = %s",
                        (self.gid, step))}
                    with self.watch.cond:
                        before = self.watch.count[self.gid]
                    t_engine = time.perf_counter()
                    state = engine.state_from_json(state_json)
                    todo = [(s, self.rng.choice(state.legal_actions(s)).to_text())
                            for s in state.current_seats() if s not in have]
                    self.sink.engine_time(time.perf_counter() - t_engine)
                    sent: list[float] = []
                    for seat_index, text in todo:
                        if time.monotonic() >= self.stop_at:
                            return
                        t0 = time.perf_counter()
                        code = self._post(http_conn, self.seats[seat_index], text, step)
                        if code in (302, 303):
                            sent.append(t0)
                        else:
                            self.sink.error(f"HTTP {code}")
                    if not sent and not have:
                        time.sleep(0.05)  # refused: look again
                        continue
                    seen = self.watch.wait_after(self.gid, before, timeout=30.0)
                    if seen is None:
                        if time.monotonic() < self.stop_at:
                            self.sink.timeout()
                        continue
                    self.sink.record(sent, seen, self.measure_from, self.stop_at)
        except Exception as err:
            self.sink.error(f"{type(err).__name__}: {err}")
        finally:
            http_conn.close()


class Sink:
    """Thread-safe tally of what the clients saw."""

    def __init__(self):
        self.lock = threading.Lock()
        self.latencies: list[float] = []
        self.orders = 0
        self.errors: Counter = Counter()
        self.timeouts = 0
        self.finished_games = 0
        self.engine_seconds = 0.0
        self._t0_mono_offset = time.monotonic() - time.perf_counter()

    def record(self, sent: list[float], seen: float, measure_from: float, stop_at: float) -> None:
        off = self._t0_mono_offset
        with self.lock:
            for t0 in sent:
                if measure_from <= t0 + off < stop_at:
                    self.orders += 1
                    self.latencies.append((seen - t0) * 1000)

    def error(self, what: str) -> None:
        with self.lock:
            self.errors[what] += 1

    def timeout(self) -> None:
        with self.lock:
            self.timeouts += 1

    def finished(self, gid: int) -> None:
        with self.lock:
            self.finished_games += 1

    def engine_time(self, seconds: float) -> None:
        with self.lock:
            self.engine_seconds += seconds


def run_service_bench(games: int, seats: int, *, seconds: float = 30.0, warmup: float = 5.0,
                      stored: int = 0, cfg: StackConfig | None = None, seed: int = 1, spares: int | None = None,
                      echo: Callable[[str], None] = print) -> ServiceBenchResult:
    """Start the stack, create and play ``games`` games for ``warmup +
    seconds`` seconds (``spares`` more games wait for clients whose game
    ends), stop everything, drop the database (unless
    ``cfg.keep_db``); returns the figures."""
    import psycopg

    from bench.service_seed import SeedShape, seed_finished_games

    cfg = cfg or StackConfig()
    _check_local(cfg.redis_url)
    if games < 1 or seats < 2:
        raise ValueError("need at least one game of at least two seats")
    create_database(cfg)
    try:
        flush_broker(cfg)
        if stored:
            seed_finished_games(cfg.libpq_url, stored, SeedShape(seats=3), echo=echo)
        with Stack(cfg, echo=echo) as stack:
            from pbem.web import create_app

            app = create_app(stack.app_config())
            if cfg.mail_worker:
                app.extensions["celery"].conf.task_routes = {"pbem.deliver_outbox": {"queue": MAIL_QUEUE}}
            # spare games for clients whose game ends within the run: a La Città game is about
            # 100 decisions, and this stack has not gone past ~15 orders/s here
            if spares is None:
                spares = max(2, int(15 * (warmup + seconds) / 90) + 1)
            clients = create_games(app, games + spares, seats, seed=seed, echo=echo)
            spare_games = [(gid, clients.pop(gid)) for gid in sorted(clients)[games:]]
            with app.app_context():
                from pbem.service.db import db

                db.engine.dispose()
            stack.start()
            echo(f"stack up: gunicorn x{cfg.web_workers} on 127.0.0.1:{stack.web_port}, "
                 f"celery worker x{cfg.worker_concurrency}"
                 + (" + niced mail worker x1" if cfg.mail_worker else "") + f", broker {cfg.redis_url}, database {cfg.db_name}"
                 + ("" if cfg.deliver else ", delivery to nowhere"))
            with psycopg.connect(cfg.libpq_url, autocommit=True) as conn:
                start_id = conn.execute("SELECT coalesce(max(id), 0) FROM outbox").fetchone()[0]
            begin = time.monotonic()
            measure_from, stop_at = begin + warmup, begin + warmup + seconds
            watch = NotificationWatch(cfg.libpq_url, stop_at + 35)
            watch.start(start_id)
            sink = Sink()
            groups = {name: proc.pid for name, proc in stack.procs}
            threads = [GameClient(gid, seat_clients, url=cfg.libpq_url, port=stack.web_port, watch=watch,
                                  measure_from=measure_from, stop_at=stop_at, seed=seed * 7919 + i, sink=sink,
                                  spares=spare_games)
                       for i, (gid, seat_clients) in enumerate(clients.items())]
            for t in threads:
                t.start()
            time.sleep(max(0.0, measure_from - time.monotonic()))
            proc_cpu0, cpu0 = cpu_snapshot(groups), os.times()
            time.sleep(max(0.0, stop_at - time.monotonic()))
            proc_cpu1, cpu1 = cpu_snapshot(groups), os.times()
            load = " ".join(Path("/proc/loadavg").read_text().split()[:3])
            for t in threads:
                t.join(timeout=max(0.0, stop_at - time.monotonic()) + 40)
            if watch.error is not None:
                raise RuntimeError(f"outbox poller failed: {watch.error}")
            with psycopg.connect(cfg.libpq_url, autocommit=True) as conn:
                backlog = conn.execute("SELECT count(*) FROM outbox WHERE status <> 'sent' AND id > %s",
                                       (start_id,)).fetchone()[0]
            window = min(seconds, max(0.0, time.monotonic() - measure_from))
            return ServiceBenchResult(
                games=games, seats=seats, stored_games=stored, seconds=window, orders=sink.orders,
                latencies_ms=sink.latencies, errors=sink.errors, timeouts=sink.timeouts,
                finished_games=sink.finished_games,
                client_cpu_seconds=(cpu1.user - cpu0.user) + (cpu1.system - cpu0.system),
                client_engine_seconds=sink.engine_seconds, outbox_backlog=backlog,
                cpu={k: proc_cpu1[k] - proc_cpu0[k] for k in proc_cpu1}, load=load)
    finally:
        try:
            flush_broker(cfg)
        finally:
            if not cfg.keep_db:
                drop_database(cfg)
