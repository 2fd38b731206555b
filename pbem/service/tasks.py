"""Celery tasks. Each is idempotent: delivered twice, it acts once.

``pbem.resolve(game_id)``, ``pbem.scan()``, ``pbem.deliver_outbox()``,
``pbem.inbound(raw_b64)``, ``pbem.prune_outbox()``, ``pbem.talk_mail()``,
``pbem.bot_turns(game_id)``. Each runs in an app
context of its own whose database session is removed when it ends
(:class:`pbem.service.celery_app` ``FlaskTask``).
"""
from __future__ import annotations

import base64

from celery import Celery


def register(celery: Celery) -> None:
    """Define the tasks on ``celery`` (called by :func:`init_celery`)."""
    _register_play(celery)
    _register_mail(celery)


def _register_play(celery: Celery) -> None:
    """The game's tasks: resolving, the bots' decisions, the minute scan."""

    @celery.task(name="pbem.resolve", shared=False)
    def resolve(game_id: int) -> str:
        from pbem.service.play.resolve import resolve_game

        return resolve_game(game_id).status

    @celery.task(name="pbem.bot_turns", shared=False)
    def bot_turns(game_id: int) -> int:
        """The decisions the game's bots owe, made (issue 27; :mod:`pbem.service.play.bot_turns`)."""
        from pbem.service.play.bot_turns import play_bots

        return len(play_bots(game_id).moves)

    @celery.task(name="pbem.scan", shared=False)
    def scan() -> dict:
        from pbem.service.play.deadlines import scan as run_scan

        r = run_scan()
        return {"expired": r.expired, "reminded": r.reminded, "ready": r.ready}


def _register_mail(celery: Celery) -> None:
    """The mail's tasks: delivery, inbound mail, talk mail, pruning."""

    @celery.task(name="pbem.deliver_outbox", shared=False)
    def deliver_outbox() -> dict:
        from pbem.service.core.queue import delivery_started
        from pbem.service.post.delivery import deliver_due

        delivery_started()  # before reading the outbox: a later commit queues the next run
        r = deliver_due()
        return {"sent": r.sent, "failed": r.failed, "gave_up": r.gave_up, "superseded": r.superseded}

    @celery.task(name="pbem.inbound", shared=False)
    def inbound(raw_b64: str) -> str:
        from pbem.service.inbound import handle_inbound

        return handle_inbound(base64.b64decode(raw_b64)).result

    @celery.task(name="pbem.talk_mail", shared=False)
    def talk_mail() -> int:
        """The message mail that is due (issue 26; :mod:`pbem.service.play.talk_mail`)."""
        from pbem.service.core import queue
        from pbem.service.play.talk_mail import send_due

        n = send_due()
        if n:
            queue.enqueue(queue.DELIVER)
        return n

    @celery.task(name="pbem.prune_outbox", shared=False)
    def prune_outbox() -> dict:
        from pbem.service.post.outbox import prune

        r = prune()
        return {"emptied": r.emptied, "failed_emptied": r.failed_emptied, "deleted": r.deleted}
