"""The database as the player pages use it: bound to the Flask app, and a
request's transaction ended without keeping anything.

The pages never import :mod:`pbem.service.core.db` (an import-linter
contract, pyproject.toml): they call service actions, which commit, and
these two functions.
"""
from __future__ import annotations

import logging

from flask import Flask

from pbem.service.core import models  # noqa: F401  (every table on db.metadata)
from pbem.service.core.db import configure_sqlite, db

log = logging.getLogger(__name__)


def init_app(app: Flask) -> None:
    """Bind the service's database (``SQLALCHEMY_DATABASE_URI``) to ``app``,
    with the SQLite settings when it is SQLite (:func:`configure_sqlite`)."""
    db.init_app(app)
    with app.app_context():
        configure_sqlite(db.engine)


def discard() -> None:
    """End this request's transaction, keeping nothing (a rollback): before
    an error page (a failed statement leaves the session unusable until
    then) or to read afresh. Never raises: when the connection itself is
    gone, that is logged and the caller goes on."""
    try:
        db.session.rollback()
    except Exception:
        log.exception("rollback of the request's transaction failed")
