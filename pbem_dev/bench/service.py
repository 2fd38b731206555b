"""Load benchmark of the production stack (``pbem bench service``).

What runs, all on this machine and only on 127.0.0.1, shaped like the
Procfile:

- PostgreSQL: a database of its own (default ``pbem_bench``), created,
  migrated with Alembic, optionally seeded with finished games
  (:mod:`pbem_dev.bench.service_seed`), and dropped afterwards. Nothing is added
  to its schema: the notifications are found by reading ``outbox`` (see
  *Order-to-notification*);
- Redis: one database number as the Celery broker and the rate-limit store
  (default 12), emptied before and after;
- the web server as the Procfile runs it: ``granian --interface wsgi
  --factory pbem.web:create_app`` (``--web-workers`` processes of
  ``--web-threads`` blocking threads each, the threads that run the app);
  ``--web-server gunicorn`` runs ``gunicorn 'pbem.web:create_app()'``
  instead, to compare (``--web-threads`` > 0 gives gthread workers with
  that many threads and HTTP keep-alive, 0 gives sync workers, one request
  per connection); two workers as the Procfile runs them: ONE
  ``celery -A worker worker -X <mail queue>`` (``--worker-concurrency``,
  default 1) for everything but mail, made SCHED_IDLE once it is ready (it
  runs only on CPU nothing else wants; ``--no-worker-idle`` leaves it at
  ``nice -n 10``, ``--worker-nice``) inside an idle CPU group
  (``--worker-group``, :mod:`pbem_dev.bench.idle_cpu`: a cgroup with ``cpu.idle``,
  else its autogroup at nice 19; without one, SCHED_IDLE ranks it only
  within its own session, whose group competes with the web's and
  PostgreSQL's as an equal), and ONE ``celery -A worker worker -Q <mail
  queue>`` (``--mail-worker``, one process, nice 0 in a session of its own)
  that delivers the outbox (board pictures, SMTP to the discarding server
  :mod:`pbem_dev.bench.service_smtp`; a turn notice whose seat has moved meanwhile is
  superseded, not sent): a due "your move" must not wait for an idle CPU,
  docs/production.md (``--no-mail-worker``: the idle worker delivers too, as
  before issue 24; ``--no-worker`` starts neither: the turn notices stay in
  the outbox, and what is measured is the order path alone); and ONE ``celery -A worker
  beat`` (its periodic delivery sends the turn notices that waited out a
  live player's grace, ``PBEM_NOTICE_GRACE``: every bench player plays on
  the web page, so most of them are superseded unsent; ``--notice-grace 0``
  sends every notice at once, docs/service.md "Live play"). The
  request whose order completes a decision resolves it
  (``PBEM_RESOLVE_IN_REQUEST``, on by default; the bench passes its own
  environment on, so ``PBEM_RESOLVE_IN_REQUEST=off pbem bench service``
  measures resolution in the worker's ``pbem.resolve`` task instead). No
  access log.
  All started as subprocesses with the ``PBEM_*`` environment a production
  deployment would set.

The clients. ``games`` La Città games of ``seats`` seats are created through
the service (``create_game``/``join_game``, four threads), plus spare games
for clients whose game ends within the run (default ``games x (warmup +
seconds) / 100 / think``: a game is about 100 decisions). The mail written
while setting up (invitations, first turn notices) is marked sent before
the worker starts, so the worker begins with the run's own mail. ONE
asyncio event loop in the bench process plays all the games: per game, a
coroutine that

1. reads the game once when it takes it (step, status, state JSON and the
   orders already stored for that step, in one statement) and builds the
   state with ``state_from_json``; from then on it keeps a local mirror;
2. for every seat in ``state.current_seats()`` without a stored order picks
   a random legal order (``legal_actions``, ``to_text``) on the state of the
   decision, and posts it over HTTP exactly as the order page does (``POST
   /games/<id>/seat/<n>`` with the turn step and a CSRF token, signed in as
   the seat's player; aiohttp, keep-alive connections shared by all games,
   an idle one dropped after 1 s, before the server (gunicorn: 2 s) closes
   it). The seats of a simultaneous decision are posted at once, as
   independent players would send them (they meet at the game row lock);
3. applies the orders to its mirror as the server's resolution
   (``pbem.service.play.resolve.resolve_locked``) does: in ascending seat order
   ``state.apply(seat, parse_action(state, seat, line))`` for each line
   while the seat is still current, or ``state.default_action(seat)`` when
   that raises ``OrderError`` (an earlier seat's order made it illegal);
   the state is seeded, so its draws replay identically;
4. waits until a notification of its game for the new step has been seen
   (``turn``/``missed`` with a step at least the mirror's new step, or
   ``over`` when the mirror's game ended; a notice whose step cannot be
   read counts when it is the game's first since the decision began).
   When the request that completes a decision resolves it, the notice is
   committed before the HTTP answer, so this wait is usually over at once;
5. waits ``think`` seconds, randomised uniformly between 0.5 and 1.5 times
   (``--think``; also a random start offset), so games do not march in step.

An HTTP refusal (409 stale, 422 refused, anything but the 302 redirect;
all but 409/422 also count as errors), a notification for another step
than the mirror's, or no notification within
30 s makes the client read the game again from the database: a *resync*,
counted in the details line (0 in a normal run). The order POST is rate
limited to 60 a minute per player, so a player posts at most ~1 order a
second: throughput comes from many concurrent games, about ``games / think``
decisions a second (La Città: ~1.3 orders a decision at 3 seats).

Order-to-notification: from just before an order's HTTP request to the
moment the watcher sees the first notification that answers it: an outbox
row of kind ``turn``, ``over`` or ``missed`` for its game (the dedupe key
of a turn or missed notice, ``turn:<game>:<step>:<seat>``, names the step
it is about). The watcher is an autocommit psycopg connection in the same
event loop that reads the outbox rows committed since its last look every
:data:`POLL_SECONDS` (10 ms): the rows above the highest id seen, and the
ids below it not seen yet (inserts not committed yet; forgotten after
:data:`HOLE_SECONDS`). So the time is when the row is committed, plus up to
one polling interval. ``--watch notify`` times them instead with a bench-only
trigger on ``outbox`` that calls ``pg_notify`` (and ``LISTEN``), as before
the fourth session; it needs no polling, but a transaction that notifies
takes PostgreSQL's database-wide notification lock at commit and holds it
through its WAL flush, so every order's commit waits for the one before
it, which the production stack (no trigger) never does: one slow flush
then stalls every order behind it (docs/performance.md). Orders that do not
complete a decision (a simultaneous decision still missing other seats'
orders) get the latency of the notification that follows them. Throughput
counts accepted orders whose request started inside the measured window
(after the warm-up). The last line is
``service: <orders/s> orders/s, p50 <ms> ms, p99 <ms> ms order-to-notification``.

Order-to-mail (the ``mail:`` line): a notice written due at once (to a
seat not playing live, the final scores, a missed turn; every notice with
``--notice-grace 0``) is timed from the orders it answers to its mail's
arrival at the SMTP sink, which tells the bench of every message with a
UDP datagram naming the outbox row (its VERP envelope sender). The client
does not wait for it (it plays on the page); a notice superseded before
its mail went out (the seat moved first) counts as never mailed, endless
in the percentiles.

CPU: user + system seconds in the measured window of each part — web
(granian or gunicorn), worker (celery), mail (the mail worker), smtp (the
sink), postgres (the ``postgres`` user's processes but the backends of
other databases: another session's tests on the same server do not count),
redis (``redis-server``, shared likewise) and client (this process: the
event loop, HTTP, the listener, and the engine — picking and mirroring
orders — shown apart) — and per measured order.
At the end, the outbox rows written during the run by status: written,
sent, superseded (a turn notice whose seat moved before it was delivered),
still pending.

Sessions: the clients do not go through emailed sign-in links, because the
sign-in page is rate limited per client address (20 a minute — for hundreds
of players coming from one address that limit is the point). Each seat's
player gets the signed session cookie and CSRF token that sign-in would
have given, made with the app's own session serializer and Flask-WTF.

``PBEM_BENCH_DEBUG=1`` prints the body of every refused HTTP answer.
"""
from __future__ import annotations

import asyncio
import http.client
import math
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
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable
from urllib.parse import quote_plus

import pbem
from pbem_dev.bench import pg_statements
from pbem_dev.bench.idle_cpu import IdleGroup, idle_group

try:
    from yarl import URL   # aiohttp's URL type (dev extra)
except ModuleNotFoundError:  # pragma: no cover - the result class and its test need no aiohttp
    URL = None

#: the top folder of the checkout whose ``pbem`` is measured (the one first on
#: ``sys.path``): the subprocesses' working directory and first on their
#: PYTHONPATH, so this bench can measure another checkout (docs/performance.md, A/B)
ROOT = Path(pbem.__file__).resolve().parents[1]
#: the NOTIFY channel of the bench's outbox trigger (``--watch notify``)
CHANNEL = "pbem_bench_outbox"
#: seconds between two looks at the outbox (``--watch poll``)
POLL_SECONDS = 0.01
#: seconds an outbox id below the highest seen stays awaited (a rolled-back
#: insert, or one that found its dedupe key taken, never commits)
HOLE_SECONDS = 30.0
#: outbox kinds that tell a seat the game moved (the notifications timed)
KINDS = ("turn", "over", "missed")
#: the goal's p99 bound (ms): the details line counts the orders above it
SLOW_MS = 500.0
#: seconds a client waits for the notification of its decision before it resyncs
NOTIFY_TIMEOUT = 30.0
#: seconds the client keeps an idle connection (under gunicorn's --keep-alive, 2 s by default)
KEEPALIVE = 1.0
#: La Città decisions in a game, roughly (for the default number of spare games)
DECISIONS_PER_GAME = 100

#: ``--watch notify``: installed in the bench database only (after seeding,
#: so seeded rows notify nobody)
TRIGGER_SQL = f"""
CREATE FUNCTION pbem_bench_outbox_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('{CHANNEL}', NEW.game_id || ':' || NEW.kind || ':' || NEW.dedupe_key);
    RETURN NULL;
END $$;
CREATE TRIGGER pbem_bench_outbox_notify AFTER INSERT ON outbox FOR EACH ROW
    WHEN (NEW.game_id IS NOT NULL AND NEW.kind IN ({", ".join(f"'{k}'" for k in KINDS)}))
    EXECUTE FUNCTION pbem_bench_outbox_notify();
"""


@dataclass
class StackConfig:
    """Where and how the stack runs. ``web_server``: ``granian`` (the
    Procfile's) with ``web_threads`` blocking threads per worker (at least
    1), or ``gunicorn``: ``web_threads`` 0 gives sync workers, more gthread
    workers with that many threads each."""

    pg_admin_url: str = "postgresql://postgres@127.0.0.1:5432/postgres"
    db_name: str = "pbem_bench"
    redis_url: str = "redis://127.0.0.1:6379/12"
    web_server: str = "granian"
    web_workers: int = 2
    web_threads: int = 2
    #: False: no celery worker at all (turn notices stay in the outbox):
    #: the order path alone, to see what the mail worker costs it
    worker: bool = True
    worker_concurrency: int = 1
    #: nice level of the celery worker (mail): 0 competes with the order path as an equal
    worker_nice: int = 10
    #: SCHED_IDLE (``chrt --idle 0``): the worker runs only on CPU nothing
    #: else wants in its own group (see ``worker_group``)
    worker_idle: bool = False
    #: the worker in an idle CPU group (:mod:`pbem_dev.bench.idle_cpu`: a cgroup with
    #: ``cpu.idle``, else its autogroup at nice 19): without it, SCHED_IDLE
    #: and nice rank it only within its own session's group
    worker_group: bool = True
    #: a second celery worker, at normal priority (nice ``mail_nice``, no idle
    #: group), reads the mail queue (outbox delivery,
    #: :func:`pbem.service.celery_app.mail_queue`) and the first one everything
    #: else, as docs/production.md runs them; False: the one worker reads both
    mail_worker: bool = True
    mail_nice: int = 0
    #: ``PBEM_NOTICE_GRACE`` for the stack (seconds); ``None``: the service's
    #: default. The bench's players all play on the web page, so with a grace
    #: their turn notices wait it out and most are superseded unsent
    notice_grace: float | None = None
    deliver: bool = True
    keep_db: bool = False
    log_dir: Path | None = None
    #: read PostgreSQL's ``pg_stat_statements`` for the window (:mod:`pbem_dev.bench.pg_statements`)
    pg_statements: bool = False
    #: how notifications are seen: ``poll`` (read the outbox) or ``notify``
    #: (a bench-only trigger; serialises commits, see the module docstring)
    watch: str = "poll"

    def worker_sched(self, group: str = "") -> str:
        if not self.worker:
            return "none"
        sched = f"SCHED_IDLE, nice {self.worker_nice}" if self.worker_idle else f"nice {self.worker_nice}"
        mail = (f"; mail queue: a worker of its own at nice {self.mail_nice}, its session" if self.mail_worker
                else "; it reads the mail queue too")
        return f"{sched}, group: {group or 'its session'}{mail}"

    @property
    def libpq_url(self) -> str:
        return self.pg_admin_url.rsplit("/", 1)[0] + "/" + self.db_name

    @property
    def sqlalchemy_url(self) -> str:
        return "postgresql+psycopg://" + self.libpq_url.split("://", 1)[1]

    def web_shape(self) -> str:
        if self.web_server == "granian":
            return f"granian {self.web_workers} workers x {max(1, self.web_threads)} blocking threads"
        if self.web_threads > 0:
            return f"gunicorn {self.web_workers} gthread workers x {self.web_threads} threads"
        return f"gunicorn {self.web_workers} sync workers"


@dataclass
class ServiceBenchResult:
    """Figures of one run. ``latencies_ms``: one per measured order;
    ``cpu``: CPU seconds in the window per part; ``outbox``: rows written
    during the run by status (``written`` is their total)."""

    games: int
    seats: int
    stored_games: int
    seconds: float
    orders: int
    latencies_ms: list[float]
    errors: Counter = field(default_factory=Counter)
    #: when each measured order was sent, in seconds from the window's start
    #: (same order as ``latencies_ms``)
    sent_at: list[float] = field(default_factory=list)
    timeouts: int = 0
    resyncs: int = 0
    #: order -> the mail of a notice the service sent at once (ms), for the
    #: orders answered by one; ``mail_missed``: such orders whose mail never
    #: came (superseded: the seat moved on the page first)
    mail_latencies_ms: list[float] = field(default_factory=list)
    mail_missed: int = 0
    finished_games: int = 0
    think: float = 0.0
    client_cpu_seconds: float = 0.0
    client_sys_seconds: float = 0.0
    client_engine_seconds: float = 0.0
    cpu: dict[str, float] = field(default_factory=dict)
    outbox: dict[str, int] = field(default_factory=dict)
    load: str = ""
    shape: str = ""
    #: ``--pg-statements``: the window's top statements (:mod:`pbem_dev.bench.pg_statements`)
    statements: list = field(default_factory=list)

    @property
    def orders_per_s(self) -> float:
        return self.orders / self.seconds if self.seconds else 0.0

    def percentile(self, p: float, latencies: list[float] | None = None) -> float:
        """The ``p``-th percentile (nearest rank) of ``latencies`` (default: order-to-notification)."""
        data = sorted(self.latencies_ms if latencies is None else latencies)
        if not data:
            return float("nan")
        k = min(len(data) - 1, max(0, int(round(p / 100 * len(data) + 0.5)) - 1))
        return data[k]

    def mail_line(self) -> str:
        """``mail: <n> orders answered by a notice sent at once, p50 <ms> ms, p99 <ms> ms
        order-to-mail, <n> never mailed``; the percentiles count a mail that never came as
        endless (``inf``)."""
        mail = self.mail_latencies_ms + [math.inf] * self.mail_missed
        return (f"mail: {len(mail)} orders answered by a notice sent at once, p50 {self.percentile(50, mail):.0f} ms, "
                f"p99 {self.percentile(99, mail):.0f} ms order-to-mail, {self.mail_missed} never mailed "
                f"(superseded: the seat moved first)")

    def slow(self, limit_ms: float = SLOW_MS) -> tuple[int, int]:
        """``(orders over limit_ms, distinct whole seconds of the window they
        were sent in)``: a tail made of a few stalls shows many orders in
        few seconds; a slow service, slow orders all through the window."""
        seconds = {int(t) for t, ms in zip(self.sent_at, self.latencies_ms) if ms > limit_ms}
        return sum(ms > limit_ms for ms in self.latencies_ms), len(seconds)

    def details(self) -> str:
        lat = self.latencies_ms
        n_slow, slow_seconds = self.slow()
        mean = statistics.fmean(lat) if lat else float("nan")
        errs = ", ".join(f"{k}: {v}" for k, v in sorted(self.errors.items())) or "none"
        ob = self.outbox
        return (f"{self.games} games x {self.seats} seats, think {self.think:g} s, {self.stored_games} stored "
                f"finished games; {self.shape}; "
                f"{self.orders} orders in {self.seconds:.1f} s; latency mean {mean:.0f} ms, "
                f"p90 {self.percentile(90):.0f} ms, max {max(lat) if lat else float('nan'):.0f} ms; "
                f"over {SLOW_MS:.0f} ms: {n_slow} orders, sent in {slow_seconds} distinct seconds; "
                f"errors {errs}; notification timeouts {self.timeouts}; resyncs {self.resyncs}; "
                f"games finished {self.finished_games}; "
                f"CPU s in the window: " + ", ".join(f"{k} {v:.1f}" for k, v in self.cpu.items())
                + f", client {self.client_cpu_seconds:.1f} (system {self.client_sys_seconds:.1f}, "
                f"engine {self.client_engine_seconds:.1f}); load average at the end {self.load}\n"
                + "CPU ms per order: " + ", ".join(f"{k} {v:.2f}" for k, v in self.cpu_ms_per_order().items())
                + f"; server-side capacity on 2 idle cores ~{self.capacity():.0f} orders/s\n"
                + f"outbox rows of the run: written {ob.get('written', 0)}, sent {ob.get('sent', 0)}, "
                f"superseded {ob.get('superseded', 0)}, still pending {ob.get('pending', 0)}"
                + "".join(f", {k} {v}" for k, v in sorted(ob.items())
                          if k not in {"written", "sent", "superseded", "pending"}))

    def cpu_ms_per_order(self) -> dict[str, float]:
        """CPU milliseconds per measured order of each part (web, worker,
        mail worker, postgres, redis, smtp sink, client) and of the server side (all but
        the client and the SMTP sink). Steadier than wall-clock figures on
        a machine shared with other work."""
        if not self.orders:
            return {}
        parts = {k: self.cpu.get(k, 0.0) for k in ("web", "worker", "mail", "postgres", "redis", "smtp")}
        parts["client"] = self.client_cpu_seconds
        out = {k: 1000 * v / self.orders for k, v in parts.items()}
        out["server"] = sum(out[k] for k in ("web", "worker", "mail", "postgres", "redis"))
        return out

    def capacity(self, cores: int = 2) -> float:
        """Orders/s the server side (web, worker, PostgreSQL, Redis)
        could take on ``cores`` idle cores at the measured CPU cost."""
        server = self.cpu_ms_per_order().get("server", 0.0)
        return 1000 * cores / server if server else float("nan")

    def line(self) -> str:
        return (f"service: {self.orders_per_s:.0f} orders/s, p50 {self.percentile(50):.0f} ms, "
                f"p99 {self.percentile(99):.0f} ms order-to-notification")


# --------------------------------------------------------------------------- stack

def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _free_udp_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
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
    from pbem.service.core.migrate import upgrade

    upgrade(cfg.sqlalchemy_url)


def install_notify_trigger(cfg: StackConfig) -> None:
    """The bench's outbox trigger (:data:`TRIGGER_SQL`), in the bench
    database only."""
    import psycopg

    with psycopg.connect(cfg.libpq_url, autocommit=True) as conn:
        conn.execute(TRIGGER_SQL)


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
        #: UDP port the SMTP sink tells of every mail it accepts (:class:`MailReports`)
        self.report_port = _free_udp_port()
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
            # as the Procfile passes it: each web process pools one connection per thread
            "PBEM_WEB_THREADS": str(max(1, cfg.web_threads)),
            "PBEM_INBOUND_ADDRESS": "play@bench.example.org",
            "PBEM_MAIL_FROM": "pbem bench <pbem@bench.example.org>",
            "PYTHONPATH": os.pathsep.join([str(ROOT), self.env.get("PYTHONPATH", "")]).rstrip(os.pathsep),
        })
        if cfg.notice_grace is not None:
            self.env["PBEM_NOTICE_GRACE"] = f"{cfg.notice_grace:g}"
        self.worker_group: IdleGroup | None = None

    def app_config(self) -> dict:
        """The Flask config of the bench process's own app (same settings)."""
        return {"INSTANCE_PATH": str(self.tmp / "instance"), "SECRET_KEY": self.secret,
                "SQLALCHEMY_DATABASE_URI": self.cfg.sqlalchemy_url, "BROKER_URL": self.cfg.redis_url,
                "BASE_URL": self.env["PBEM_BASE_URL"], "INBOUND_ADDRESS": "play@bench.example.org",
                "MAIL_FROM": "pbem bench <pbem@bench.example.org>", "SMTP_PORT": int(self.env["PBEM_SMTP_PORT"])}

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

    def mail_queue(self) -> str:
        """The stack's mail queue (:func:`pbem.service.celery_app.mail_queue`)."""
        from pbem.service.celery_app import mail_queue

        return mail_queue(self.env.get("PBEM_TASK_QUEUE") or "celery")

    def web_argv(self, bindir: Path) -> list[str]:
        """The web server's command line: granian as the Procfile runs it
        (``blocking threads`` run the WSGI app), or gunicorn (gthread or
        sync workers) to compare."""
        cfg = self.cfg
        if cfg.web_server == "granian":
            return [str(bindir / "granian"), "--interface", "wsgi", "--workers", str(cfg.web_workers),
                    "--blocking-threads", str(max(1, cfg.web_threads)), "--host", "127.0.0.1",
                    "--port", str(self.web_port), "--backlog", "2048", "--log-level", "warning",
                    "--factory", "pbem.web:create_app"]
        web_class = (["--worker-class", "gthread", "--threads", str(cfg.web_threads)]
                     if cfg.web_threads > 0 else ["--worker-class", "sync"])
        return [str(bindir / "gunicorn"), "--workers", str(cfg.web_workers), *web_class,
                "--bind", f"127.0.0.1:{self.web_port}", "--backlog", "2048",
                "--timeout", "60", "--log-level", "warning", "pbem.web:create_app()"]

    def start(self) -> None:
        bindir = Path(sys.executable).parent
        if self.cfg.deliver:
            self._spawn("smtp", [sys.executable, "-m", "pbem_dev.bench.service_smtp", str(self.smtp_port),
                                 "--max-seconds", "7200", "--report", str(self.report_port)])
            self._wait_log("smtp", "smtp ready", 20)
        self._spawn("web", self.web_argv(bindir))
        # ONE worker, niced or idle-only: outbox delivery (pictures, SMTP) may lag, orders may not.
        # It starts at normal priority (on a busy machine an idle process might never get
        # the CPU to import itself) and is made idle once it is ready.
        if self.cfg.worker:
            mail = self.mail_queue()
            argv = ["nice", "-n", str(self.cfg.worker_nice), str(bindir / "celery"), "-A",
                    "worker", "worker", "--concurrency", str(self.cfg.worker_concurrency),
                    "--without-gossip", "--without-mingle", "--without-heartbeat", "--loglevel", "info",
                    "-n", "bulk@%h", *(["-X", mail] if self.cfg.mail_worker else [])]
            proc = self._spawn("worker", argv)
            self._wait_log("worker", "ready.", 120)
            if self.cfg.worker_group:
                self.worker_group = idle_group(f"pbem-bench-worker-{os.getpid()}")
            make_idle(proc.pid, self.worker_group, sched_idle=self.cfg.worker_idle)
            if self.cfg.mail_worker:
                # the mail players wait for: normal priority, a session (autogroup) of its own
                self._spawn("mail", ["env", "PBEM_WARM_PICTURES=on", "nice", "-n", str(self.cfg.mail_nice),
                                     str(bindir / "celery"), "-A", "worker",
                                     "worker", "--concurrency", "1", "-Q", mail, "-n", "mail@%h",
                                     "--without-gossip", "--without-mingle", "--without-heartbeat",
                                     "--loglevel", "info"])
                self._wait_log("mail", "ready.", 60)
            # as the Procfile: one beat sends the periodic delivery (the turn
            # notices that waited out a live player's grace) and the scan
            self._spawn("beat", [str(bindir / "celery"), "-A", "worker", "beat", "--loglevel", "info",
                                 "--schedule", str(self.tmp / "celerybeat-schedule")])
            self._wait_log("beat", "beat: Starting", 60)
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
                    raise RuntimeError(f"{self.cfg.web_server} did not start; its log:\n"
                                       + (self.log_dir / "web.log").read_text(errors="replace")[-3000:])
                time.sleep(0.2)

    def stop(self) -> None:
        for name, proc in reversed(self.procs):
            if proc.poll() is None:
                if name == "worker":
                    # an idle process on a busy machine may not get the CPU to exit
                    make_idle(proc.pid, IdleGroup("none", self.worker_group and self.worker_group.parent()),
                              sched_idle=False, back=True)
                try:
                    os.killpg(proc.pid, signal.SIGTERM)
                except ProcessLookupError:
                    pass
        for name, proc in reversed(self.procs):
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                try:
                    os.killpg(proc.pid, signal.SIGKILL)
                    proc.wait(timeout=30)
                except (ProcessLookupError, subprocess.TimeoutExpired):
                    self.echo(f"{name} (process group {proc.pid}) did not exit in time")
        self.procs.clear()
        if self.worker_group is not None:
            self.worker_group.remove()

    def __enter__(self) -> "Stack":
        return self

    def __exit__(self, *exc) -> None:
        self.stop()
        if self.cfg.log_dir is None:
            shutil.rmtree(self.tmp, ignore_errors=True)


def group_pids(pgid: int) -> list[int]:
    """The live processes of process group ``pgid``."""
    pids = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_text()
            except OSError:
                continue
            if int(stat[stat.rindex(")") + 2:].split()[2]) == pgid:
                pids.append(int(entry))
    return pids


def make_idle(pgid: int, group: IdleGroup | None, *, sched_idle: bool, back: bool = False) -> None:
    """Put every process of process group ``pgid`` (a session leader and
    its children) into ``group`` and, with ``sched_idle``, under
    SCHED_IDLE; children started later inherit both from their parent.
    ``back``: under SCHED_OTHER again instead (``group``: the cgroup to go back to)."""
    for pid in group_pids(pgid):
        if group is not None:
            group.move(pid)
        if sched_idle or back:
            try:
                policy = os.SCHED_OTHER if back else os.SCHED_IDLE
                os.sched_setscheduler(pid, policy, os.sched_param(0))
            except (OSError, AttributeError):
                pass


#: a PostgreSQL backend's process title: ``postgres: [<cluster>: ]<user> <database> <host>(<port>) ...``
BACKEND_TITLE = re.compile(rb"^postgres: (?:\S+: )?\S+ (\S+) (?:\S+\(\d+\)|\[local\])")


def cpu_snapshot(groups: dict[str, int], db_name: str | None = None) -> dict[str, float]:
    """CPU seconds (user + system) used so far by each named process group
    (live processes only), by the ``postgres`` processes and by all
    ``redis-server`` processes (Redis includes any other users of this
    machine's Redis). With ``db_name``, PostgreSQL's backends serving
    another database are left out (another session's tests on the same
    server); its own processes (WAL writer, checkpointer...) count."""
    tick = os.sysconf("SC_CLK_TCK")
    by_group = {pgid: name for name, pgid in groups.items()}
    out = dict.fromkeys([*groups, "postgres", "redis"], 0.0)
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
            if db_name is not None:
                try:
                    title = BACKEND_TITLE.match(Path(f"/proc/{entry}/cmdline").read_bytes())
                except OSError:
                    continue
                if title is not None and title.group(1).decode(errors="replace") != db_name:
                    continue
            out["postgres"] += cpu
        elif stat[stat.index("(") + 1:stat.rindex(")")] == "redis-server":
            out["redis"] += cpu
    return out


# --------------------------------------------------------------------------- games and sessions

@dataclass
class SeatClient:
    game_id: int
    number: int           # as players count (index + 1)
    cookie: str
    csrf: str


def create_games(app, games: int, seats: int, *, seed: int, echo, threads: int = 4) -> dict[int, list[SeatClient]]:
    """Start ``games`` La Città games through the service (``threads``
    at a time: the time goes to database round trips); returns, per game
    id in id order, a signed-in client per seat (session cookie + CSRF
    token). Game ``g`` (0-based) has seed ``seed + g``."""
    from concurrent.futures import ThreadPoolExecutor

    from flask import g as flask_g, session
    from flask_wtf.csrf import generate_csrf

    from pbem.service.core.db import db
    from pbem.service.core.models import Game
    from pbem.service.play.lifecycle import create_game, join_game

    def some(numbers: range) -> dict[int, list[SeatClient]]:
        out = {}
        with app.app_context():
            for g in numbers:
                people = [(f"Bench {g}.{s + 1}", f"bench-{g}-{s + 1}@bench.example.org") for s in range(seats)]
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
        return out

    t0 = time.perf_counter()
    threads = max(1, min(threads, games))
    out: dict[int, list[SeatClient]] = {}
    with ThreadPoolExecutor(threads) as pool:
        for part in pool.map(some, [range(k, games, threads) for k in range(threads)]):
            out.update(part)
    echo(f"created {games} games in {time.perf_counter() - t0:.1f} s")
    return dict(sorted(out.items()))


def skip_setup_mail(cfg: StackConfig) -> int:
    """Mark the outbox rows written while the games were set up
    (invitations, first turn notices) as sent, so the worker starts with
    the run's own mail, not a backlog of setup mail. Returns how many."""
    import psycopg

    with psycopg.connect(cfg.libpq_url, autocommit=True) as conn:
        return conn.execute("UPDATE outbox SET status = 'sent', sent_at = now() WHERE status = 'pending'").rowcount


# --------------------------------------------------------------------------- measuring

def parse_payload(payload: str) -> tuple[int, str, int | None]:
    """``'<game id>:<kind>:<dedupe key>'`` (a watcher's payload) ->
    (game id, kind, the step the notice is about or ``None``): turn and
    missed notices carry it in their dedupe key (``turn:<game>:<step>:<seat>``);
    ``over`` notices have none."""
    gid, kind, key = payload.split(":", 2)
    step = None
    if kind != "over":
        parts = key.split(":")
        if len(parts) > 2:
            try:
                step = int(parts[2])
            except ValueError:
                step = None
    return int(gid), kind, step


class NotificationWatch:
    """What the watcher (outbox reads or LISTEN) has seen, per game: the newest step
    notified and when it was first seen, when the final scores were seen,
    and a count (for notices whose step cannot be read). All in the event
    loop's thread; clients wait on a future per game."""

    def __init__(self):
        self.count: Counter = Counter()
        self.newest: dict[int, tuple[int, float]] = {}   # game -> (step, first seen)
        self.over: dict[int, float] = {}
        self.unknown: dict[int, tuple[int, float]] = {}  # game -> (count, seen) of a step-less notice
        self.waiters: dict[int, tuple[int | None, int, asyncio.Future]] = {}
        self.seen_total = 0
        # notices the service sends at once (due when written) and their mail
        self.due_rows: dict[int, tuple[int, str, int | None]] = {}    # row id -> (game, kind, step)
        self.due_newest: dict[int, int] = {}          # game -> newest step with a notice due at once
        self.due_over: set[int] = set()
        self.early: dict[int, float] = {}              # row id -> mail seen before its row was
        #: (game, step or None for the final scores) -> when its first mail arrived
        self.mailed: dict[tuple[int, int | None], float] = {}
        #: (game, step or None) -> (the sink, the orders' send times) still waiting for that mail
        self.expected: dict[tuple[int, int | None], list[tuple["Sink", list[float]]]] = {}

    def seen(self, payload: str, at: float, *, row_id: int | None = None, due: bool = False) -> None:
        """A notice row seen committed at ``at``; ``due``: written due at
        once (no live player's grace), so it is mailed now."""
        gid, kind, step = parse_payload(payload)
        if due and row_id is not None:
            self.due_rows[row_id] = (gid, kind, step)
            if kind == "over":
                self.due_over.add(gid)
            elif step is not None and step > self.due_newest.get(gid, -1):
                self.due_newest[gid] = step
            if row_id in self.early:
                self.mail(row_id, self.early.pop(row_id))
        self.seen_total += 1
        self.count[gid] += 1
        if kind == "over":
            self.over.setdefault(gid, at)
        elif step is not None:
            old = self.newest.get(gid)
            if old is None or step > old[0]:
                self.newest[gid] = (step, at)
        else:
            self.unknown[gid] = (self.count[gid], at)
        waiter = self.waiters.get(gid)
        if waiter is not None:
            hit = self.match(gid, waiter[0], waiter[1])
            if hit is not None and not waiter[2].done():
                waiter[2].set_result(hit)

    def match(self, gid: int, target: int | None, before: int) -> tuple[float, int | None] | None:
        """The notification answering a decision whose new step is
        ``target`` (``None``: the game ended), ``before`` being the game's
        count when the decision began: (seen at, step notified or ``None``
        for the final scores)."""
        if target is None:
            return (self.over[gid], None) if gid in self.over else None
        newest = self.newest.get(gid)
        if newest is not None and newest[0] >= target:
            return newest[1], newest[0]
        if gid in self.over:            # the server's game ended, the mirror's did not
            return self.over[gid], None
        unknown = self.unknown.get(gid)
        if unknown is not None and unknown[0] > before:
            return unknown[1], target
        return None

    def mail(self, row_id: int, at: float) -> None:
        """The mail of outbox row ``row_id`` reached the SMTP sink at ``at``."""
        row = self.due_rows.pop(row_id, None)
        if row is None:
            self.early[row_id] = at   # its row not seen yet (or not a notice sent at once)
            return
        gid, kind, step = row
        key = (gid, None if kind == "over" else step)
        if key in self.mailed:
            return
        self.mailed[key] = at
        for sink, sent in self.expected.pop(key, ()):
            sink.record_mail(sent, at)

    def expect_mail(self, gid: int, target: int | None, sink: "Sink", sent: list[float]) -> None:
        """Orders ``sent`` were answered by a notice sent at once about
        step ``target`` (``None``: the final scores): time them to its
        mail's arrival, now or when it comes (:meth:`mail`)."""
        at = self.mailed.get((gid, target))
        if at is not None:
            sink.record_mail(sent, at)
        else:
            self.expected.setdefault((gid, target), []).append((sink, sent))

    def not_mailed(self) -> int:
        """Orders whose mail has not come (yet): superseded, or still on its way."""
        return sum(len(sent) for waiting in self.expected.values() for _sink, sent in waiting)

    def due_for(self, gid: int, target: int | None) -> bool:
        """Whether a notice about step ``target`` (``None``: the final
        scores) of game ``gid`` was written due at once."""
        if target is None:
            return gid in self.due_over
        return self.due_newest.get(gid, -1) == target

    async def wait(self, gid: int, target: int | None, before: int, timeout: float):
        """:meth:`match`, waiting up to ``timeout`` seconds; ``None`` on timeout."""
        hit = self.match(gid, target, before)
        if hit is not None:
            return hit
        loop = asyncio.get_running_loop()
        fut = loop.create_future()
        self.waiters[gid] = (target, before, fut)
        timer = loop.call_later(timeout, lambda: fut.done() or fut.set_result(None))
        try:
            return await fut
        finally:
            timer.cancel()
            self.waiters.pop(gid, None)


#: the outbox rows above the highest id seen and the awaited ids below it;
#: ``due``: written due at once (a live player's turn notice waits its grace)
POLL_SQL = ("SELECT id, game_id, kind, dedupe_key, next_attempt_at <= created_at + interval '1 second' "
            "FROM outbox WHERE id > %(top)s OR id = ANY(%(holes)s) ORDER BY id")
#: the outbox row id in an envelope sender (``play+bounce-<id>-<sig>@...``, :mod:`pbem.mail.tokens`)
BOUNCE_ID = re.compile(r"\+bounce-(\d+)-")


class MailReports(asyncio.DatagramProtocol):
    """The SMTP sink's reports (:mod:`pbem_dev.bench.service_smtp` ``--report``):
    each mail's arrival, handed to ``watch`` in ``perf_counter`` time."""

    def __init__(self, watch: NotificationWatch):
        self.watch = watch
        self.offset = time.perf_counter() - time.monotonic()

    def datagram_received(self, data: bytes, addr) -> None:
        at, _, sender = data.decode(errors="replace").partition(" ")
        found = BOUNCE_ID.search(sender)
        if found:
            self.watch.mail(int(found.group(1)), float(at) + self.offset)


async def poll(url: str, watch: NotificationWatch, ready: asyncio.Event, *, interval: float = POLL_SECONDS) -> None:
    """Read the outbox rows committed since the last look every
    ``interval`` seconds and hand each notification, timed when read, to
    ``watch`` until cancelled. Ids are taken at insert and rows commit in
    another order, so an id below the highest seen that has not been read
    yet is looked for again (for :data:`HOLE_SECONDS`)."""
    import psycopg

    async with await psycopg.AsyncConnection.connect(url, autocommit=True) as conn:
        cur = await conn.execute("SELECT coalesce(max(id), 0) FROM outbox")
        top = (await cur.fetchone())[0]
        holes: dict[int, float] = {}    # id -> when it was first missed
        ready.set()
        while True:
            cur = await conn.execute(POLL_SQL, {"top": top, "holes": list(holes)})
            rows = await cur.fetchall()
            now = time.perf_counter()
            for row_id, gid, kind, key, due in rows:
                holes.pop(row_id, None)
                if row_id > top:
                    holes.update(dict.fromkeys(range(top + 1, row_id), now))
                    top = row_id
                if gid is not None and kind in KINDS:
                    watch.seen(f"{gid}:{kind}:{key}", now, row_id=row_id, due=bool(due))
            for row_id in [i for i, since in holes.items() if now - since > HOLE_SECONDS]:
                del holes[row_id]
            await asyncio.sleep(interval)


async def listen(url: str, watch: NotificationWatch, ready: asyncio.Event) -> None:
    """``LISTEN`` on :data:`CHANNEL` and hand every notification, timed on
    arrival, to ``watch`` until cancelled."""
    import psycopg

    async with await psycopg.AsyncConnection.connect(url, autocommit=True) as conn:
        await conn.execute(f"LISTEN {CHANNEL}")
        ready.set()
        async for note in conn.notifies():
            watch.seen(note.payload, time.perf_counter())


class Sink:
    """Tally of what the clients saw (one event loop: no locks)."""

    def __init__(self, measure_from: float, stop_at: float):
        # the window in perf_counter time
        off = time.perf_counter() - time.monotonic()
        self.lo, self.hi = measure_from + off, stop_at + off
        self.latencies: list[float] = []
        self.sent_at: list[float] = []
        self.orders = 0
        self.errors: Counter = Counter()
        self.timeouts = 0
        self.resyncs = 0
        self.finished_games = 0
        self.mail_latencies: list[float] = []
        #: orders in the window answered by a notice sent at once whose mail never came
        self.mail_missed = 0
        self.statements: list = []
        #: seconds picking and mirroring orders (the engine; synchronous code, so
        #: about its CPU time) of decisions begun in the window
        self.engine_seconds = 0.0

    def record(self, sent: list[float], seen: float) -> None:
        for t0 in sent:
            if self.lo <= t0 < self.hi:
                self.orders += 1
                self.latencies.append((seen - t0) * 1000)
                self.sent_at.append(t0 - self.lo)

    def record_mail(self, sent: list[float], at: float) -> None:
        """The mail answering orders ``sent`` arrived ``at``."""
        self.mail_latencies.extend((at - t0) * 1000 for t0 in sent if self.lo <= t0 < self.hi)


class GameClient:
    """Plays one game with a local mirror of its state until ``stop_at``
    (monotonic); when its game ends it takes a spare game from ``spares``
    (if any is left) and plays on. See the module docstring."""

    def __init__(self, gid: int, seats: list[SeatClient], *, db, http, base: str, watch: NotificationWatch,
                 sink: Sink, stop_at: float, think: float, seed: int,
                 spares: "list[tuple[int, list[SeatClient]]]"):
        import aiohttp

        from pbem.engine import OrderError, get_game

        self.engine = get_game("lacitta")
        self.order_error = OrderError
        self.http_errors = aiohttp.ClientError
        self.gid, self.seats = gid, seats
        self.db, self.http, self.base = db, http, URL(base)
        self.routes: dict[tuple[int, int], tuple] = {}
        self.watch, self.sink, self.stop_at, self.think = watch, sink, stop_at, think
        self.rng = random.Random(seed)
        self.spares = spares
        self.state = None
        self.stored: dict[int, str] = {}     # seat -> order already on the server for this step

    async def load(self) -> bool:
        """Read the game (state and the orders stored for its step, one
        statement); False when it is not active."""
        cur = await self.db.execute(
            "SELECT g.step, g.status, g.state, p.seats, p.texts FROM games g LEFT JOIN LATERAL "
            "(SELECT array_agg(seat_index) AS seats, array_agg(text) AS texts FROM pending_orders "
            " WHERE game_id = g.id AND step = g.step) p ON true WHERE g.id = %s", (self.gid,))
        step, status, state_json, seats, texts = await cur.fetchone()
        if status != "active":
            return False
        self.state = self.engine.state_from_json(state_json)
        self.stored = dict(zip(seats or [], texts or []))
        return True

    async def post(self, seat: "SeatClient", text: str, step: int) -> int:
        """POST one order as the order page's form does; the HTTP status."""
        route = self.routes.get((self.gid, seat.number))
        if route is None:
            # made once per seat: the URL, the headers and the quoted CSRF token
            route = self.routes[(self.gid, seat.number)] = (
                self.base.join(URL(f"/games/{self.gid}/seat/{seat.number}", encoded=True)),
                {"Content-Type": "application/x-www-form-urlencoded", "Cookie": f"session={seat.cookie}"},
                quote_plus(seat.csrf))
        url, headers, csrf = route
        body = f"orders={quote_plus(text)}&step={step}&csrf_token={csrf}".encode()
        async with self.http.post(url, data=body, allow_redirects=False, headers=headers) as resp:
            data = await resp.read()
            if resp.status >= 400 and os.environ.get("PBEM_BENCH_DEBUG"):
                print(resp.status, data[:3000].decode(errors="replace"), file=sys.stderr)
            return resp.status

    async def post_timed(self, seat: "SeatClient", text: str, step: int) -> tuple[float, int | str]:
        """:meth:`post` with the time it was sent (``perf_counter``); a
        connection failure gives its error's name instead of a status."""
        t0 = time.perf_counter()
        try:
            return t0, await self.post(seat, text, step)
        except (OSError, asyncio.TimeoutError, self.http_errors) as err:
            return t0, type(err).__name__

    def mirror(self, orders: dict[int, str]) -> None:
        """Apply a decision's orders (seat -> order text, one order a line)
        as :func:`pbem.service.play.resolve.resolve_locked` does."""
        state, parse, order_error = self.state, self.engine.parse_action, self.order_error
        for seat in sorted(orders):
            for line in orders[seat].split("\n"):
                if seat not in state.current_seats():
                    break
                try:
                    state.apply(seat, parse(state, seat, line))
                except order_error:
                    # an earlier seat's order made this one illegal: the default instead
                    if seat in state.current_seats():
                        state.apply(seat, state.default_action(seat))
                    break

    async def decide(self) -> bool:
        """One decision: post the missing orders, mirror, wait for the
        notification. False when the mirror must be read again."""
        state, sink = self.state, self.sink
        step = state.step
        orders = dict(self.stored)
        # engine time by perf_counter: a CPU clock is a system call here, dearer than the code it times
        c0 = time.perf_counter()
        in_window = sink.lo <= c0 < sink.hi
        todo = [(s, self.rng.choice(state.legal_actions(s)).to_text())
                for s in state.current_seats() if s not in orders]
        if in_window:
            sink.engine_seconds += time.perf_counter() - c0
        before = self.watch.count[self.gid]
        # the seats' players act independently: a simultaneous decision's
        # orders are posted at once (they meet at the game row lock)
        posted = await asyncio.gather(*(self.post_timed(self.seats[seat], text, step) for seat, text in todo))
        sent: list[float] = []
        for (seat, text), (t0, code) in zip(todo, posted):
            if isinstance(code, str):
                sink.errors[code] += 1
                return False
            if code not in (302, 303):
                if code not in (409, 422):
                    sink.errors[f"HTTP {code}"] += 1
                return False
            sent.append(t0)
            orders[seat] = text
        self.stored = {}
        c0 = time.perf_counter()
        self.mirror(orders)
        if in_window:
            sink.engine_seconds += time.perf_counter() - c0
        target = None if self.state.is_terminal() else self.state.step
        hit = await self.watch.wait(self.gid, target, before, NOTIFY_TIMEOUT)
        if hit is None:
            if time.monotonic() < self.stop_at:
                sink.timeouts += 1
            return False
        seen, notified = hit
        sink.record(sent, seen)
        if self.watch.due_for(self.gid, target):
            # the service mails this news at once: time its mail too (the client plays on)
            self.watch.expect_mail(self.gid, target, sink, sent)
        return notified == target

    async def run(self) -> None:
        sink = self.sink
        try:
            await asyncio.sleep(self.rng.uniform(0, self.think))
            fresh = await self.load()
            while time.monotonic() < self.stop_at:
                if not fresh:
                    sink.finished_games += 1
                    if not self.spares:
                        sink.errors["client out of games before the end (use --spare-games)"] += 1
                        return
                    self.gid, self.seats = self.spares.pop()
                    fresh = await self.load()
                    continue
                if await self.decide():
                    if self.state.is_terminal():
                        fresh = False
                        continue
                else:
                    if time.monotonic() >= self.stop_at:
                        return
                    sink.resyncs += 1
                    await asyncio.sleep(0.2)
                    fresh = await self.load()
                    continue
                await asyncio.sleep(self.think * self.rng.uniform(0.5, 1.5))
        except Exception as err:
            sink.errors[f"{type(err).__name__}: {err}"] += 1


async def play(cfg: StackConfig, port: int, clients: dict[int, list["SeatClient"]],
               spare_games: list, groups: dict[str, int], *, warmup: float, seconds: float,
               think: float, seed: int, report_port: int | None = None,
               settle_mail: float = 5.0) -> tuple[Sink, dict, dict, float, str]:
    """Play every game in one event loop; returns the sink, the CPU
    seconds per part in the window, the notifications, the client's CPU
    seconds in the window (user, system), the load average at the end of
    it and the number of notifications seen."""
    import aiohttp
    import psycopg

    import gc

    # the games' states and the app's objects are long-lived: keep the
    # collector from walking them again and again
    gc.collect()
    gc.freeze()
    gc.set_threshold(50_000, 50, 100)
    watch = NotificationWatch()
    ready = asyncio.Event()
    listener = asyncio.create_task((listen if cfg.watch == "notify" else poll)(cfg.libpq_url, watch, ready))
    await asyncio.wait_for(ready.wait(), 30)
    reports = None
    if report_port is not None:
        reports, _ = await asyncio.get_running_loop().create_datagram_endpoint(
            lambda: MailReports(watch), local_addr=("127.0.0.1", report_port))
    begin = time.monotonic()
    measure_from, stop_at = begin + warmup, begin + warmup + seconds
    sink = Sink(measure_from, stop_at)
    # idle connections are dropped before a server's keep-alive (gunicorn: 2 s) closes them
    connector = aiohttp.TCPConnector(limit=200, keepalive_timeout=KEEPALIVE)
    async with await psycopg.AsyncConnection.connect(cfg.libpq_url, autocommit=True) as db, \
            aiohttp.ClientSession(connector=connector, cookie_jar=aiohttp.DummyCookieJar(),
                                  timeout=aiohttp.ClientTimeout(total=60)) as http:
        players = [GameClient(gid, seat_clients, db=db, http=http, base=f"http://127.0.0.1:{port}", watch=watch,
                              sink=sink, stop_at=stop_at, think=think, seed=seed * 7919 + i, spares=spare_games)
                   for i, (gid, seat_clients) in enumerate(clients.items())]
        tasks = [asyncio.create_task(p.run()) for p in players]
        await asyncio.sleep(max(0.0, measure_from - time.monotonic()))
        if cfg.pg_statements:
            pg_statements.reset(cfg.pg_admin_url)
        proc_cpu0, cpu0 = cpu_snapshot(groups, cfg.db_name), os.times()
        await asyncio.sleep(max(0.0, stop_at - time.monotonic()))
        cpu1, proc_cpu1 = os.times(), cpu_snapshot(groups, cfg.db_name)
        if cfg.pg_statements:
            sink.statements = pg_statements.top(cfg.pg_admin_url, cfg.db_name)
        load = " ".join(Path("/proc/loadavg").read_text().split()[:3])
        # the orders in flight at the end still get their notification
        _, late = await asyncio.wait(tasks, timeout=NOTIFY_TIMEOUT + 5)
        for t in late:
            t.cancel()
    await asyncio.sleep(min(settle_mail, NOTIFY_TIMEOUT))   # the mails still being drawn
    sink.mail_missed = sum(sum(sink.lo <= t0 < sink.hi for t0 in sent)
                           for waiting in watch.expected.values() for _s, sent in waiting)
    listener.cancel()
    if reports is not None:
        reports.close()
    try:
        await listener
    except (asyncio.CancelledError, Exception):
        pass
    client = (cpu1.user - cpu0.user, cpu1.system - cpu0.system)
    return sink, {k: proc_cpu1[k] - proc_cpu0[k] for k in proc_cpu1}, client, load, watch.seen_total


def default_spares(games: int, seconds: float, think: float) -> int:
    """Spare games for ``games`` clients playing ``seconds`` with ``think``
    seconds between decisions (a game is about
    :data:`DECISIONS_PER_GAME` decisions)."""
    return math.ceil(games * seconds / DECISIONS_PER_GAME / max(think, 0.05)) + 2


def _outbox_counts(cfg: StackConfig, start_id: int, settle: float) -> list[tuple[str, int]]:
    """The outbox rows after ``start_id`` by status; with ``settle`` > 0,
    looked at every 0.2 s until one is sent or superseded (at most
    ``settle`` seconds)."""
    import psycopg

    until = time.monotonic() + settle
    while True:
        with psycopg.connect(cfg.libpq_url, autocommit=True) as conn:
            rows = conn.execute("SELECT status, count(*) FROM outbox WHERE id > %s GROUP BY status",
                                (start_id,)).fetchall()
        done = any(status in ("sent", "superseded") and n for status, n in rows)
        if done or time.monotonic() >= until:
            return rows
        time.sleep(0.2)


def run_service_bench(games: int, seats: int, *, seconds: float = 30.0, warmup: float = 5.0,
                      stored: int = 0, cfg: StackConfig | None = None, seed: int = 1, spares: int | None = None,
                      think: float = 1.0, echo: Callable[[str], None] = print,
                      settle: float = 0.0) -> ServiceBenchResult:
    """Start the stack, create and play ``games`` games for ``warmup +
    seconds`` seconds, ``think`` seconds (±50%) between a game's decisions
    (``spares`` more games wait for clients whose game ends; default
    :func:`default_spares`), stop everything, drop the database (unless
    ``cfg.keep_db``); returns the figures. ``settle`` (seconds, default 0):
    after playing, wait up to that long for the worker to have delivered
    (or superseded) one of the run's notices before the outbox is counted;
    a check that the worker delivers at all, on a slow or busy machine."""
    import psycopg

    from pbem_dev.bench.service_seed import SeedShape, seed_finished_games

    cfg = cfg or StackConfig()
    _check_local(cfg.redis_url)
    if cfg.pg_statements and not pg_statements.available(cfg.pg_admin_url):
        raise ValueError("pg_stat_statements cannot be read there (pbem_dev/bench/pg_statements.py says how to get it)")
    if games < 1 or seats < 2:
        raise ValueError("need at least one game of at least two seats")
    if think < 0:
        raise ValueError("think must be >= 0 seconds")
    create_database(cfg)
    try:
        flush_broker(cfg)
        if stored:
            seed_finished_games(cfg.libpq_url, stored, SeedShape(seats=3), echo=echo)
        if cfg.watch == "notify":
            install_notify_trigger(cfg)
        with Stack(cfg, echo=echo) as stack:
            from pbem.web import create_app

            app = create_app(stack.app_config())
            if spares is None:
                spares = default_spares(games, warmup + seconds, think)
            clients = create_games(app, games + spares, seats, seed=seed, echo=echo)
            spare_games = [(gid, clients.pop(gid)) for gid in sorted(clients)[games:]]
            spare_games.reverse()   # pop() takes the oldest first
            with app.app_context():
                from pbem.service.core.db import db

                db.engine.dispose()
            skipped = skip_setup_mail(cfg)
            stack.start()
            group = stack.worker_group.how if stack.worker_group is not None else ""
            grace = stack.env.get("PBEM_NOTICE_GRACE")
            echo(f"stack up: {cfg.web_shape()} on 127.0.0.1:{stack.web_port}, celery worker "
                 f"({cfg.worker_sched(group)}) x{cfg.worker_concurrency}"
                 + (" and beat" if cfg.worker else "")
                 + f", notice grace {grace + ' s' if grace is not None else 'as the service sets it'}"
                 f", broker {cfg.redis_url}, database {cfg.db_name}"
                 + ("" if cfg.deliver else ", delivery to nowhere")
                 + f"; {skipped} setup mails (invitations, first turn notices) marked sent unsent")
            with psycopg.connect(cfg.libpq_url, autocommit=True) as conn:
                start_id = conn.execute("SELECT coalesce(max(id), 0) FROM outbox").fetchone()[0]
            groups = {name: proc.pid for name, proc in stack.procs}
            t_begin = time.monotonic()
            sink, cpu, client_cpu, load, _seen = asyncio.run(play(
                cfg, stack.web_port, clients, spare_games, groups, warmup=warmup, seconds=seconds,
                think=think, seed=seed, report_port=stack.report_port if cfg.deliver else None))
            rows = _outbox_counts(cfg, start_id, settle)
            outbox = {status: n for status, n in rows}
            outbox["written"] = sum(n for _, n in rows)
            window = min(seconds, max(0.0, time.monotonic() - t_begin - warmup))
            return ServiceBenchResult(
                games=games, seats=seats, stored_games=stored, seconds=window, orders=sink.orders,
                latencies_ms=sink.latencies, sent_at=sink.sent_at, errors=sink.errors, timeouts=sink.timeouts,
                resyncs=sink.resyncs, mail_latencies_ms=sink.mail_latencies, mail_missed=sink.mail_missed,
                statements=sink.statements,
                finished_games=sink.finished_games, think=think, client_cpu_seconds=sum(client_cpu), client_sys_seconds=client_cpu[1],
                client_engine_seconds=sink.engine_seconds,
                cpu=cpu, outbox=outbox, load=load, shape=cfg.web_shape())
    finally:
        try:
            flush_broker(cfg)
        finally:
            if not cfg.keep_db:
                drop_database(cfg)
