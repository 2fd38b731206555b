"""Celery entry module of the bench stack: the production one (``worker``)
with outbox delivery routed to its own queue, so a separate, niced worker
draws board pictures and talks SMTP while the turn worker only resolves.
Run: ``celery -A bench.service_worker worker -Q celery`` and
``nice celery -A bench.service_worker worker -Q pbem-mail``."""
from bench.service import MAIL_QUEUE
from worker import celery, flask_app  # noqa: F401

celery.conf.task_routes = {"pbem.deliver_outbox": {"queue": MAIL_QUEUE}}
app = celery
