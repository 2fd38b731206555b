"""The production stack for integration tests: PostgreSQL (a fresh
database per session, migrated with Alembic), Redis (a queue name per
test), a real SMTP server, real ``celery -A worker worker`` processes, and a
Flask app in the test process configured like the web process."""
from __future__ import annotations

import secrets
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import text

from pbem.engine import GAMES
from tests.service.tinygame import GAME as TALLY

from .stack import ROOT, SMTPServer, Worker


@pytest.fixture(scope="session")
def migrated_postgres(postgres_url):
    """The session's PostgreSQL database, brought to the newest schema by
    the Alembic migrations (as the Procfile's web process does)."""
    from pbem.service.core.migrate import upgrade

    upgrade(postgres_url)
    return postgres_url


@dataclass
class Stack:
    """One test's production stack. ``env`` is the ``PBEM_*`` environment a
    worker gets; ``app`` the test process's Flask app with the same settings
    (tasks go to Redis, not run in-process)."""

    env: dict[str, str]
    app: Any
    smtp: SMTPServer
    log_dir: Path
    workers: list[Worker] = field(default_factory=list)

    @property
    def celery(self):
        return self.app.extensions["celery"]

    def worker(self, *, concurrency: int = 2, **extra_env: str) -> Worker:
        w = Worker({**self.env, **extra_env}, self.log_dir, concurrency=concurrency)
        self.workers.append(w)
        return w.start()

    def send(self, task: str, *args, task_id: str | None = None) -> None:
        """Publish a task to Redis, as beat or a web process would."""
        self.celery.send_task(task, args=list(args), task_id=task_id)

    def close(self) -> None:
        for w in self.workers:
            w.stop()
        self.smtp.stop()


def _clean_tables(url: str) -> None:
    from sqlalchemy import create_engine

    from pbem.service.core.db import db

    names = ", ".join(f'"{t.name}"' for t in db.metadata.sorted_tables)
    engine = create_engine(url)
    with engine.begin() as conn:
        conn.execute(text(f"TRUNCATE {names} RESTART IDENTITY CASCADE"))
    engine.dispose()


@pytest.fixture
def make_stack(migrated_postgres, redis_url, tmp_path):
    """``make_stack(broker_url=None)`` -> :class:`Stack` on emptied tables,
    a queue of its own on ``broker_url`` (default: PBEM_TEST_REDIS_URL) and
    a fresh SMTP server. Workers are started by the test
    (``stack.worker()``) and all stopped afterwards."""
    import os as _os

    from pbem.service.core.db import db
    from pbem.web import create_app

    GAMES["tally"] = TALLY
    _clean_tables(migrated_postgres)
    made: list[Stack] = []

    def make(broker_url: str | None = None) -> Stack:
        smtp = SMTPServer().start()
        instance = tmp_path / f"instance{len(made)}"
        instance.mkdir()
        env = {k: v for k, v in _os.environ.items() if not k.startswith("PBEM_")}
        env.update({
            "PYTHONPATH": str(ROOT),
            "PBEM_INSTANCE_PATH": str(instance),
            "PBEM_DATABASE_URL": migrated_postgres,
            "PBEM_BROKER_URL": broker_url or redis_url,
            "PBEM_TASK_QUEUE": f"pbem_test_{secrets.token_hex(6)}",
            "PBEM_SMTP_HOST": "127.0.0.1",
            "PBEM_SMTP_PORT": str(smtp.port),
            "PBEM_SECRET_KEY": "integration-secret-" + secrets.token_hex(8),
            "PBEM_INBOUND_ADDRESS": "play@pbem.test",
            "PBEM_MAIL_FROM": "pbem <pbem@pbem.test>",
            "PBEM_BASE_URL": "http://pbem.test",
            "PBEM_OUTBOX_BACKOFF": "1",
            "PBEM_DEADLINE_HOURS": "48",
        })
        from pbem.config import load_config

        config = load_config(instance, env)
        config.update({"TESTING": True, "INSTANCE_PATH": str(instance), "CELERY_EAGER": False})
        app = create_app(config)
        stack = Stack(env=env, app=app, smtp=smtp, log_dir=tmp_path)
        made.append(stack)
        return stack

    contexts = []

    def factory(broker_url: str | None = None) -> Stack:
        stack = make(broker_url)
        ctx = stack.app.app_context()
        ctx.push()
        contexts.append((stack, ctx))
        return stack

    yield factory
    for stack, ctx in reversed(contexts):
        try:
            db.session.remove()
            db.engine.dispose()
        finally:
            ctx.pop()
            stack.close()
            stack.celery.close()
    GAMES.pop("tally", None)


@pytest.fixture
def stack(make_stack) -> Stack:
    return make_stack()
