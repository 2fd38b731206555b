"""Celery entry module: ``celery -A worker worker`` and ``celery -A worker beat``.

Builds the Flask app from the environment (``PBEM_*`` variables, see
README.md) and exposes its Celery app as ``worker.celery``.
"""
from pbem.web import create_app

flask_app = create_app()
celery = app = flask_app.extensions["celery"]
