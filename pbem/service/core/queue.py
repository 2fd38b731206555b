"""Enqueueing Celery tasks after a commit.

Service functions commit their transaction first and enqueue afterwards, so
a task never runs before the rows it needs are visible. A broker that is down
loses nothing: the failure is logged and the periodic scan
(:func:`pbem.service.play.deadlines.scan`) finds the ready turn and the due
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
#: a game's bot seats make the decisions they owe (issue 27; pbem.service.play.bot_turns)
BOTS = "pbem.bot_turns"


def enqueue(name: str, *args: Any) -> None:
    """Send task ``name`` with ``args``; in eager mode (tests, ``CELERY_EAGER``)
    run it here and now. Never raises for a broker failure.

    Delivery (``DELIVER``) is asked for once however many commits want it
    before it starts: on a Redis broker a key (:func:`delivery_key`) is set
    with ``SET NX`` when a run is queued and deleted by the run as it
    starts, so a commit either finds the key gone and queues a run, or
    finds one queued that has not looked at the outbox yet."""
    if name == DELIVER and not current_app.config.get("DELIVER_AFTER_COMMIT", True):
        return  # left to the beat schedule (tests deliver explicitly)
    celery = current_app.extensions.get("celery")
    if celery is None:
        log.warning("no Celery app; %s%r left to the periodic scan", name, args)
        return
    if name == DELIVER and not celery.conf.task_always_eager and not _claim_delivery():
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


#: seconds a "delivery queued" mark lives if its run never starts (a lost
#: message); beat's delivery every few seconds covers the gap meanwhile
DELIVERY_MARK_SECONDS = 30


def delivery_key() -> str:
    return f"pbem:{current_app.config.get('TASK_QUEUE', 'celery')}:delivery-queued"


def _redis():
    """A Redis client on the broker, one per process; ``None`` when the
    broker is not Redis."""
    client = current_app.extensions.get("pbem-broker-redis", False)
    if client is False:
        url = current_app.config.get("BROKER_URL") or ""
        client = None
        if url.startswith(("redis://", "rediss://")):
            import redis

            client = redis.Redis.from_url(url, socket_timeout=2, socket_connect_timeout=2)
        current_app.extensions["pbem-broker-redis"] = client
    return client


def _claim_delivery() -> bool:
    """True when this caller should queue a delivery run (none is queued
    and not yet started, or the broker is not Redis, or Redis fails)."""
    client = _redis()
    if client is None:
        return True
    try:
        return bool(client.set(delivery_key(), "1", nx=True, ex=DELIVERY_MARK_SECONDS))
    except Exception:
        return True  # sending will fail too, and say so


def delivery_started() -> None:
    """Called by a delivery run before it reads the outbox: a commit after
    this moment queues a new run."""
    client = _redis()
    if client is not None:
        try:
            client.delete(delivery_key())
        except Exception:
            log.warning("could not clear the delivery mark; it expires in %s s", DELIVERY_MARK_SECONDS)
