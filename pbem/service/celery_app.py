"""The Celery app bound to a Flask app.

Tasks run inside the Flask app context (:class:`FlaskTask`), so they use the
same ``db`` session machinery as pages. The beat schedule runs the periodic
scan (deadlines, reminders, ready turns the broker lost) every minute and
outbox delivery every few seconds, outbox retention
(:func:`pbem.service.post.outbox.prune`) once a day at :data:`PRUNE_AT`; all
are idempotent.
"""
from __future__ import annotations

import logging
import os

from celery import Celery, Task
from celery.schedules import crontab
from celery.signals import worker_process_init
from flask import Flask
from kombu import Queue

#: seconds between scans for passed deadlines, due reminders and ready turns
SCAN_EVERY = 60.0
#: seconds between outbox delivery runs
DELIVER_EVERY = 5.0
#: outbox retention runs daily at this UTC time (a crontab, not an interval:
#: beat's schedule file may not survive a restart, a daily one would never come)
PRUNE_AT = crontab(hour=4, minute=17)
log = logging.getLogger(__name__)

#: the task sent to :func:`mail_queue`
DELIVER_TASK = "pbem.deliver_outbox"


def mail_queue(task_queue: str) -> str:
    """The queue of outbox delivery runs beside ``task_queue``: ``"<task_queue>.mail"``."""
    return f"{task_queue}.mail"


#: environment variable that makes each worker process draw the boards as it
#: starts (:func:`warm_pictures`); the Procfile's ``mail`` worker sets it
WARM_PICTURES = "PBEM_WARM_PICTURES"


def warm_pictures(**_signal) -> None:
    """Draw each registered game's board once (a new game's view, thrown
    away): the first notice a fresh worker process sends then does not pay
    the imaging imports and the board's static layer, about a second of CPU
    (several on a busy machine). A game without a board is skipped."""
    from pbem import boards
    from pbem.engine import GAMES

    for name, game in list(GAMES.items()):
        try:
            boards.render_png(name, game.new_state(game.min_seats, 0).view(None))
        except Exception as err:  # never stops a worker: its first picture is merely slower
            log.info("board of %s not drawn ahead: %s", name, err)


def _warm_when_asked(**_signal) -> None:
    """``worker_process_init``: :func:`warm_pictures` in a worker process
    started with ``PBEM_WARM_PICTURES=on`` (a mail worker: the others draw
    nothing, and a process busy drawing takes no task meanwhile)."""
    if os.environ.get(WARM_PICTURES, "").lower() in ("1", "on", "true", "yes"):
        warm_pictures()


def settings(app: Flask) -> dict:
    """The Celery settings of ``app`` (before its ``CELERY`` config
    overrides): broker, the two queues and the route of delivery runs,
    late acknowledgement, beat's schedule."""
    queue = app.config.get("TASK_QUEUE", "celery")
    return dict(
        broker_url=app.config["BROKER_URL"],
        result_backend=app.config.get("RESULT_BACKEND"),
        task_ignore_result=True,
        task_default_queue=queue,
        # a worker without -Q reads both; delivery runs (beat's and those a
        # commit queues) go to the mail queue
        task_queues=(Queue(queue, routing_key=queue), Queue(mail_queue(queue), routing_key=mail_queue(queue))),
        task_routes={DELIVER_TASK: {"queue": mail_queue(queue)}},
        task_always_eager=bool(app.config.get("CELERY_EAGER")),
        task_eager_propagates=True,
        # a task is acknowledged after it ran: a worker killed mid-task leaves
        # it on the broker to run again (the tasks are idempotent)
        task_acks_late=True,
        task_reject_on_worker_lost=True,
        worker_prefetch_multiplier=1,
        broker_connection_retry_on_startup=True,
        timezone="UTC",
        enable_utc=True,
        beat_schedule={
            "scan": {"task": "pbem.scan", "schedule": SCAN_EVERY},
            "deliver-outbox": {"task": DELIVER_TASK, "schedule": DELIVER_EVERY},
            "prune-outbox": {"task": "pbem.prune_outbox", "schedule": PRUNE_AT},
            "talk-mail": {"task": "pbem.talk_mail", "schedule": SCAN_EVERY},  # issue 26
        },
    )


def init_celery(app: Flask) -> Celery:
    """Create the Celery app for ``app``, store it in
    ``app.extensions["celery"]`` and return it."""

    class FlaskTask(Task):
        """Runs the task in an app context of its own and always removes
        its database session (a task that raised leaves no transaction
        open in the worker process for the next one)."""

        def __call__(self, *args, **kwargs):
            from pbem.service.core.db import db

            with app.app_context():
                try:
                    return self.run(*args, **kwargs)
                finally:
                    db.session.remove()

    celery = Celery(app.import_name, task_cls=FlaskTask)
    celery.conf.update(settings(app))
    celery.conf.update(app.config.get("CELERY", {}))
    celery.set_default()
    worker_process_init.connect(_warm_when_asked, weak=False, dispatch_uid="pbem-warm-pictures")
    app.extensions["celery"] = celery
    from pbem.service import tasks

    tasks.register(celery)
    return celery
