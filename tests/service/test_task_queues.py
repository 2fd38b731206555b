"""The two Celery queues (issue 24): outbox delivery goes to the mail queue,
every other task to the task queue, and a worker started without ``-Q``
reads both, so one worker alone still does everything (Procfile,
docs/production.md)."""
from __future__ import annotations

from pbem.service import celery_app
from pbem.service.celery_app import DELIVER_TASK, mail_queue, warm_pictures


def _queue_of(celery, task: str) -> str:
    route = celery.amqp.router.route({}, task, (), {})
    return route["queue"].name


def test_delivery_runs_go_to_the_mail_queue_and_the_rest_to_the_task_queue(app):
    celery = app.extensions["celery"]
    queue = app.config.get("TASK_QUEUE", "celery")
    assert _queue_of(celery, DELIVER_TASK) == mail_queue(queue) == f"{queue}.mail"
    for task in ("pbem.resolve", "pbem.scan", "pbem.inbound", "pbem.prune_outbox"):
        assert _queue_of(celery, task) == queue


def test_beats_periodic_delivery_is_the_task_routed_to_the_mail_queue(app):
    celery = app.extensions["celery"]
    assert DELIVER_TASK in {e["task"] for e in celery.conf.beat_schedule.values()}


def test_a_worker_without_q_reads_both_queues(app):
    celery = app.extensions["celery"]
    queue = app.config.get("TASK_QUEUE", "celery")
    assert set(celery.amqp.queues) == {queue, mail_queue(queue)}


def test_a_worker_process_draws_every_game_board_ahead(monkeypatch):
    from pbem import boards
    from pbem.engine import GAMES

    drawn = []
    monkeypatch.setattr(boards, "render_png", lambda game, view, **kw: drawn.append(game) or b"")
    warm_pictures()
    assert sorted(drawn) == sorted(GAMES)


def test_a_board_that_cannot_be_drawn_does_not_stop_the_worker(monkeypatch):
    from pbem import boards

    def broken(game, view, **kw):
        raise ValueError("no board for this game")

    monkeypatch.setattr(boards, "render_png", broken)
    warm_pictures()  # logs, never raises


def test_only_a_worker_started_with_pbem_warm_pictures_draws_ahead(monkeypatch):
    # the Procfile's mail worker sets it; a worker busy drawing takes no task meanwhile
    calls = []
    monkeypatch.setattr(celery_app, "warm_pictures", lambda: calls.append(1))
    monkeypatch.delenv(celery_app.WARM_PICTURES, raising=False)
    celery_app._warm_when_asked()
    assert calls == []
    monkeypatch.setenv(celery_app.WARM_PICTURES, "on")
    celery_app._warm_when_asked()
    assert calls == [1]
