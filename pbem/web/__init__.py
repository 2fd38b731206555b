"""The Flask app factory.

``create_app(test_config=None)`` loads the configuration
(:func:`pbem.config.load_config`, then ``test_config`` over it; with
``SECRET_KEY_FALLBACKS`` set, CSRF fields signed with those keys are accepted too), initialises
the database, the Celery app (``app.extensions["celery"]``) and registers
the blueprints. Blueprints register here, one line each; a misspelt one
stops the app from starting. One in :data:`OPTIONAL_BLUEPRINTS` registers
only when its module's ``enabled(config)`` says so (``/dev/mail``: only
with ``DEV_MAIL`` on, as ``pbem demo`` sets it).
"""
from __future__ import annotations

import importlib
import logging
import os
from typing import Any, Mapping

from flask import Blueprint, Flask

log = logging.getLogger(__name__)

#: (module, attribute) of each blueprint. A missing module or attribute is an
#: error at start-up (:func:`register_blueprints`), never a quiet skip.
BLUEPRINTS: list[tuple[str, str]] = [
    ("pbem.mail.dev_page", "bp"),
    ("pbem.web.assets", "bp"),
    ("pbem.web.auth", "bp"),
    ("pbem.web.dashboard", "bp"),
    ("pbem.web.games", "bp"),
    ("pbem.web.orders", "bp"),
    ("pbem.web.mailprefs", "bp"),
    ("pbem.web.tokens", "bp"),
    ("pbem.web.api", "bp"),
    ("pbem.web.talk", "bp"),
    ("pbem.web.channel", "bp"),
    ("pbem.web.away", "bp"),
    ("pbem.web.calendar", "bp"),
    ("pbem.web.watch", "bp"),
    ("pbem.web.standin", "bp"),
]
#: modules of :data:`BLUEPRINTS` whose ``enabled(config)`` decides whether they register
OPTIONAL_BLUEPRINTS = frozenset({"pbem.mail.dev_page"})


def create_app(test_config: Mapping[str, Any] | None = None) -> Flask:
    """A configured Flask app. ``test_config`` may set ``INSTANCE_PATH`` and
    any config key (``SQLALCHEMY_DATABASE_URI``, ``CELERY_EAGER``...)."""
    test_config = dict(test_config or {})
    instance_path = test_config.pop("INSTANCE_PATH", None) or os.environ.get("PBEM_INSTANCE_PATH")
    from pbem.web.pageapp import PageApp

    app = PageApp("pbem", instance_path=os.path.abspath(instance_path) if instance_path else None,
                instance_relative_config=True)
    from pbem.config import load_config

    app.config.update(load_config(app.instance_path))
    app.config.update(test_config)
    fallbacks = app.config.get("SECRET_KEY_FALLBACKS")
    if fallbacks and not app.config.get("WTF_CSRF_SECRET_KEY"):
        # A form rendered before a key rotation still posts: its CSRF field was
        # signed with an older key (itsdangerous: the last key signs, any verifies).
        app.config["WTF_CSRF_SECRET_KEY"] = [*reversed(fallbacks), app.config["SECRET_KEY"]]

    from pbem.service.core import requests

    requests.init_app(app)  # the service's database, bound to this app

    from pbem.service.celery_app import init_celery

    init_celery(app)

    from pbem.web import extensions  # CSRF, rate limits, the signed-in player

    extensions.init_app(app)

    # a blueprint the config leaves off (/dev/mail outside the demo) has no routes at all
    register_blueprints(app, [(module, attr) for module, attr in BLUEPRINTS if module not in OPTIONAL_BLUEPRINTS
                              or importlib.import_module(module).enabled(app.config)])
    extensions.route_limits_only(app)  # no rate-limit check before the routes' own, unless one is set
    return app


def register_blueprints(app: Flask, blueprints: list[tuple[str, str]]) -> None:
    """Register each ``(module, attribute)`` blueprint on ``app``. A module
    that does not import, a missing attribute or one that is not a
    :class:`flask.Blueprint` raises ``ImportError`` naming it; so does a
    blueprint listed twice (Flask's own check)."""
    for module, attr in blueprints:
        bp = getattr(importlib.import_module(module), attr, None)
        if not isinstance(bp, Blueprint):
            raise ImportError(f"blueprint {module}.{attr} is not a flask.Blueprint (found {bp!r})")
        app.register_blueprint(bp)
