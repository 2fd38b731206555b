"""Enqueueing Celery tasks after a commit.

Service functions commit their transaction first and enqueue afterwards, so
a task never runs before the rows it needs are visible. A broker that is down
loses nothing: the failure is logged and the periodic scan
(:func:`pbem.service.deadlines.scan`) finds the ready turn and the due
outbox rows on its next run.
"""
from __future__ import annotations

import logging
from typing import Any

from flask import current_app

log = logging.getLogger(__name__)

RESOLVE = "pbem.resolve"
DELIVER = "pbem.deliver_outbox"
SCAN = "pbem.scan"
INBOUND = "pbem.inbound"


def enqueue(name: str, *args: Any) -> None:
    """Send task ``name`` with ``args``; in eager mode (tests, ``CELERY_EAGER``)
    run it here and now. Never raises for a broker failure."""
    if name == DELIVER and not current_app.config.get("DELIVER_AFTER_COMMIT", True):
        return  # left to the beat schedule (tests deliver explicitly)
    celery = current_app.extensions.get("celery")
    if celery is None:
        log.warning("no Celery app; %s%r left to the periodic scan", name, args)
        return
    try:
        if celery.conf.task_always_eager:
            celery.tasks[name].apply(args=args, throw=True)
        else:
            celery.send_task(name, args=args)
    except Exception:
        if celery.conf.task_always_eager:
            raise
        log.exception("could not enqueue %s%r; the periodic scan will pick it up", name, args)
