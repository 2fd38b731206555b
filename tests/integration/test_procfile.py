"""The Procfile's three processes, run as written: the web process migrates
an empty PostgreSQL database and serves pages through granian, beat
schedules outbox delivery, and the worker resolves turns and sends mail."""
from __future__ import annotations

import os
import secrets
import signal
import subprocess
import urllib.request
from pathlib import Path

import pytest
from sqlalchemy import create_engine, inspect, text
from sqlalchemy.engine import make_url

from pbem.service.core.db import db
from pbem.service.core.models import Game

from .stack import ROOT, SMTPServer, VENV_BIN, free_port, port_open, wait_for

pytestmark = pytest.mark.integration


def procfile() -> dict[str, str]:
    entries = {}
    for line in (ROOT / "Procfile").read_text().splitlines():
        if line.strip() and not line.lstrip().startswith("#"):
            name, _, command = line.partition(":")
            entries[name.strip()] = command.strip()
    return entries


def test_procfile_names_the_four_processes():
    entries = procfile()
    assert set(entries) == {"web", "worker", "mail", "beat"}
    assert "alembic upgrade head" in entries["web"] and "granian --interface wsgi" in entries["web"]
    assert "celery -A worker worker" in entries["worker"]
    # the mail queue has a worker of its own (normal priority), the other worker leaves it alone
    assert '-X "${PBEM_TASK_QUEUE:-celery}.mail"' in entries["worker"]
    assert "celery -A worker worker" in entries["mail"] and '-Q "${PBEM_TASK_QUEUE:-celery}.mail"' in entries["mail"]
    assert "celery -A worker beat" in entries["beat"]


@pytest.mark.slow
def test_procfile_processes_run_the_service(postgres_url, redis_url, tmp_path):
    name = f"pbem_proc_{secrets.token_hex(5)}"
    admin = create_engine(postgres_url, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f'CREATE DATABASE "{name}"'))
    url = make_url(postgres_url).set(database=name).render_as_string(hide_password=False)
    smtp = SMTPServer().start()
    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("PBEM_")}
    env.update({
        "PATH": f"{VENV_BIN}:{env.get('PATH', '')}", "PYTHONPATH": str(ROOT), "PORT": str(port),
        "WEB_CONCURRENCY": "1", "PBEM_WORKER_CONCURRENCY": "1",
        "PBEM_BEAT_SCHEDULE": str(tmp_path / "beat-schedule"),
        "PBEM_INSTANCE_PATH": str(tmp_path / "instance"), "PBEM_DATABASE_URL": url,
        "PBEM_BROKER_URL": redis_url, "PBEM_TASK_QUEUE": f"pbem_test_{secrets.token_hex(6)}",
        "PBEM_SMTP_PORT": str(smtp.port), "PBEM_SECRET_KEY": "procfile-" + secrets.token_hex(8),
        "PBEM_INBOUND_ADDRESS": "play@pbem.test", "PBEM_MAIL_FROM": "pbem <pbem@pbem.test>",
        "PBEM_BASE_URL": "http://pbem.test",
    })
    procs: dict[str, subprocess.Popen] = {}
    logs: dict[str, Path] = {}
    app = ctx = None
    try:
        for proc_name, command in procfile().items():
            logs[proc_name] = tmp_path / f"{proc_name}.log"
            procs[proc_name] = subprocess.Popen(
                ["bash", "-c", command], cwd=ROOT, env=env, start_new_session=True,
                stdout=open(logs[proc_name], "wb"), stderr=subprocess.STDOUT)

        def web_up() -> bool:
            assert procs["web"].poll() is None, logs["web"].read_text()
            return port_open(port)

        wait_for(web_up, 90, "granian to listen")
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/signin", timeout=10) as resp:
            assert resp.status == 200 and b"csrf_token" in resp.read()
        engine = create_engine(url)
        with engine.connect() as conn:  # the web process migrated the empty database
            tables = set(inspect(conn).get_table_names())
        engine.dispose()
        assert set(db.metadata.tables) <= tables and "alembic_version" in tables

        # the test process plays the web's part; mail goes out only through
        # beat's deliver-outbox schedule and the mail worker
        from pbem.config import load_config
        from pbem.service.core.snapshot import engine_state
        from pbem.service.play.lifecycle import create_game, join_game
        from pbem.service.play.orders import submit_orders
        from pbem.web import create_app

        config = load_config(tmp_path / "instance", env)
        config.update({"INSTANCE_PATH": str(tmp_path / "instance"), "DELIVER_AFTER_COMMIT": False})
        app = create_app(config)
        ctx = app.app_context()
        ctx.push()
        players = [("Ada", "ada@example.org"), ("Bo", "bo@example.org"), ("Cy", "cy@example.org")]
        gid = create_game("lacitta", players[0][1], players, options={"setup": "beginner"}, seed=4).id
        wait_for(lambda: len(smtp.messages()) >= 2, 60, "beat and the mail worker to send the invitations")
        for seat in (1, 2):
            join_game(gid, seat)
        g = db.session.get(Game, gid)
        state = engine_state(g)
        seat = state.current_seats()[0]
        res = submit_orders(gid, seat, state.legal_actions(seat)[0].to_text(), expected_step=g.step,
                            source="web")
        assert res.ready

        def resolved() -> bool:
            db.session.rollback()
            return db.session.get(Game, gid, populate_existing=True).step > state.step

        wait_for(resolved, 60, "the worker to resolve the turn")
        for proc_name, proc in procs.items():
            assert proc.poll() is None, (proc_name, logs[proc_name].read_text()[-3000:])
    finally:
        if ctx is not None:
            db.session.remove()
            db.engine.dispose()
            ctx.pop()
        if app is not None:
            app.extensions["celery"].close()
        for proc in procs.values():
            try:
                os.killpg(proc.pid, signal.SIGTERM)
            except ProcessLookupError:
                pass
        for proc in procs.values():
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait(timeout=10)
        smtp.stop()
        with admin.connect() as conn:
            conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()
