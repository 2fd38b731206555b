"""``pbem bench service``: load benchmark of the production stack.

The machinery is in :mod:`pbem_dev.bench.service`; this module is
only the command, added to the ``bench`` group by pbem_dev/bench/cli.py.
"""
from __future__ import annotations

from pathlib import Path

import click


@click.command("service")
@click.option("--games", type=int, default=100, show_default=True, help="concurrent games")
@click.option("--seats", type=int, default=3, show_default=True, help="seats per game")
@click.option("--seconds", type=float, default=30.0, show_default=True, help="measured time")
@click.option("--warmup", type=float, default=5.0, show_default=True, help="unmeasured time first")
@click.option("--stored-games", "stored", type=int, default=0, show_default=True,
              help="finished games bulk-inserted into the database first")
@click.option("--think", type=float, default=1.0, show_default=True,
              help="seconds a game's client waits after a decision's notification (randomised +-50%)")
@click.option("--web-server", type=click.Choice(["granian", "gunicorn"]), default="granian", show_default=True,
              help="the Procfile's granian, or gunicorn to compare")
@click.option("--web-workers", type=int, default=2, show_default=True, help="web server worker processes")
@click.option("--web-threads", type=int, default=2, show_default=True,
              help="threads per web worker that run the app (granian: blocking threads; gunicorn: "
                   "gthread threads, 0 for sync workers)")
@click.option("--no-worker", is_flag=True,
              help="start no celery worker (turn notices stay in the outbox): the order path alone")
@click.option("--worker-concurrency", type=int, default=1, show_default=True,
              help="processes of the one (niced) celery worker")
@click.option("--worker-nice", type=int, default=10, show_default=True,
              help="nice level of the celery worker (outbox delivery: mail may lag, orders may not)")
@click.option("--worker-idle/--no-worker-idle", default=True, show_default=True,
              help="run the celery worker under SCHED_IDLE (chrt --idle 0): it gets only CPU nothing "
                   "else wants, as docs/production.md advises on a small machine; --no-worker-idle "
                   "uses --worker-nice alone")
@click.option("--worker-group/--no-worker-group", default=True, show_default=True,
              help="put the celery worker in an idle CPU group (a cgroup with cpu.idle, else its "
                   "autogroup at nice 19): the kernel shares the CPU between groups first, so "
                   "SCHED_IDLE and nice alone rank the worker only against itself (pbem_dev/bench/idle_cpu.py)")
@click.option("--mail-worker/--no-mail-worker", default=True, show_default=True,
              help="a second celery worker at normal priority reads the mail queue (outbox delivery) and "
                   "the idle one the rest, as docs/production.md runs them; --no-mail-worker: the idle "
                   "worker delivers too")
@click.option("--floor", is_flag=True,
              help="then serve the framework floor (pbem_dev/bench/floor_app.py: Flask + SQLAlchemy + psycopg, lock, "
                   "insert, update) under the same granian, drive it the same way and print its server CPU "
                   "per request and pbem's ratio to it")
@click.option("--pg-statements", is_flag=True,
              help="print PostgreSQL's pg_stat_statements for the window, per order (the server must have "
                   "loaded it: pbem_dev/bench/pg_statements.py)")
@click.option("--notice-grace", type=float, default=None,
              help="PBEM_NOTICE_GRACE for the stack, seconds (default: the service's, 120): the "
                   "bench's players play on the web page, so their turn notices wait it out; "
                   "0 sends every notice at once")
@click.option("--no-delivery", is_flag=True, help="point SMTP at a closed port (outbox delivery fails fast)")
@click.option("--pg-url", default="postgresql://postgres@127.0.0.1:5432/postgres", show_default=True,
              help="PostgreSQL to use (an admin connection; the bench creates and drops its own database)")
@click.option("--db-name", default="pbem_bench", show_default=True)
@click.option("--redis-url", default="redis://127.0.0.1:6379/12", show_default=True,
              help="Redis database used as the broker (emptied before and after)")
@click.option("--keep-db", is_flag=True, help="do not drop the bench database afterwards")
@click.option("--log-dir", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="keep the web/celery/smtp logs here")
@click.option("--spare-games", type=int, default=None,
              help="games waiting for clients whose game ends (default: games x seconds / 100 / think)")
@click.option("--watch", type=click.Choice(["poll", "notify"]), default="poll", show_default=True,
              help="see notifications by reading the outbox every 10 ms, or by a bench-only NOTIFY "
                   "trigger (which serialises the commits: see pbem_dev/bench/service.py)")
@click.option("--machine", is_flag=True,
              help="first print the CPU, the Python, a yardstick loop's time and the load average")
@click.option("--seed", type=int, default=1, show_default=True)
def service(games: int, seats: int, seconds: float, warmup: float, stored: int, think: float, web_server: str,
            web_workers: int, web_threads: int, no_worker: bool, worker_concurrency: int, worker_nice: int,
            worker_idle: bool, worker_group: bool, mail_worker: bool, floor: bool, pg_statements: bool,
            notice_grace: float | None,
            no_delivery: bool,
            pg_url: str, db_name: str, redis_url: str,
            keep_db: bool, log_dir: Path | None, spare_games: int | None, watch: str, machine: bool,
            seed: int) -> None:
    """Play GAMES concurrent La Città games against granian + an idle-priority celery
    worker + PostgreSQL + Redis on this machine, orders posted over HTTP by
    one asyncio client keeping a local mirror of each game; notifications
    timed by reading the outbox as it commits (see pbem_dev/bench/service.py).

    Before it, ``mail: ...``: the orders the service answered with a mail
    sent at once (not a live player's, whose notice waits its grace: all of
    them with ``--notice-grace 0``), from the order to the mail's arrival at
    the SMTP sink; those clients wait for that mail before they move. With
    ``--floor``, the floor's line and the ratio of pbem's server CPU per
    order to the floor's per request. The last line is ``service:
    <orders/s> orders/s, p50 <ms> ms, p99 <ms> ms order-to-notification``
    (the order's commit, as a player on the page sees it).
    """
    from pbem_dev.bench.service import StackConfig, run_service_bench

    if machine:
        from pbem_dev.bench.machine import line

        click.echo(line() + "; load average " + " ".join(Path("/proc/loadavg").read_text().split()[:3]))

    if log_dir is not None:
        log_dir.mkdir(parents=True, exist_ok=True)
    cfg = StackConfig(pg_admin_url=pg_url, db_name=db_name, redis_url=redis_url, web_server=web_server,
                      web_workers=web_workers, web_threads=web_threads,
                      worker_concurrency=worker_concurrency, worker_nice=worker_nice,
                      worker_idle=worker_idle, worker_group=worker_group, mail_worker=mail_worker,
                      pg_statements=pg_statements, notice_grace=notice_grace,
                      deliver=not no_delivery, worker=not no_worker,
                      keep_db=keep_db, log_dir=log_dir, watch=watch)
    result = run_service_bench(games, seats, seconds=seconds, warmup=warmup, stored=stored, cfg=cfg,
                               seed=seed, spares=spare_games, think=think, echo=click.echo)
    click.echo(result.details())
    if result.statements:
        from pbem_dev.bench.pg_statements import report

        click.echo(report(result.statements, result.orders))
    click.echo(result.mail_line())
    if floor:
        from pbem_dev.bench.floor import ratio_line, run_floor

        low = run_floor(cfg, games, seconds=seconds, warmup=warmup, think=think, seed=seed, echo=click.echo)
        click.echo(low.line())
        click.echo(ratio_line(result.cpu_ms_per_order().get("server", float("nan")), low))
    click.echo(result.line())
