"""A Celery worker and beat inside this process (the embedded defaults).

``pbem demo`` and the tests run the real Celery machinery — broker, worker,
beat schedule — without separate processes: the worker uses a thread pool,
beat runs as a thread, and both stop with :meth:`EmbeddedWorker.stop`.
"""
from __future__ import annotations

import logging
import os
import threading
import uuid

from celery.beat import EmbeddedService
from celery.worker import WorkController
from flask import Flask

log = logging.getLogger(__name__)


class EmbeddedWorker:
    """Start with :meth:`start`; ``beat=False`` runs only the worker (tests
    that drive the scan themselves)."""

    def __init__(self, app: Flask, *, concurrency: int = 2, beat: bool = True):
        self.app = app
        self.celery = app.extensions["celery"]
        self.concurrency = concurrency
        self.beat = beat
        self._worker: WorkController | None = None
        self._thread: threading.Thread | None = None
        self._beat: EmbeddedService | None = None

    def start(self) -> "EmbeddedWorker":
        self.celery.conf.task_always_eager = False
        self._worker = WorkController(
            app=self.celery, hostname=f"embedded-{uuid.uuid4().hex[:8]}@pbem", pool_cls="threads",
            concurrency=self.concurrency, loglevel="WARNING", without_heartbeat=True,
            without_mingle=True, without_gossip=True, task_events=False)
        self._thread = threading.Thread(target=self._run, name="celery-worker", daemon=True)
        self._thread.start()
        if self.beat:
            schedule = os.path.join(self.app.instance_path, "celerybeat-schedule")
            self._beat = EmbeddedService(self.celery, thread=True, schedule_filename=schedule)
            self._beat.start()
        return self

    def _run(self) -> None:
        try:
            self._worker.start()
        except Exception:  # pragma: no cover - logged for the demo's console
            log.exception("embedded Celery worker stopped")

    def stop(self) -> None:
        if self._beat is not None:
            self._beat.stop()
            self._beat = None
        if self._worker is not None:
            self._worker.stop(in_sighandler=False, exitcode=0)
            self._worker = None
        if self._thread is not None:
            self._thread.join(timeout=10)
            self._thread = None

    def __enter__(self) -> "EmbeddedWorker":
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()
