"""Rate limits outside the web pages: inbound mail per sender address, and
the answers inbound mail may cause (:func:`allow`).

Uses the ``limits`` library (the engine under Flask-Limiter) on the same
storage as the pages' limits (``RATELIMIT_STORAGE_URI``: Redis in
production, so every worker shares the counts; memory on the embedded
defaults, where one process runs the worker). Limits are strings like
``"10 per minute; 60 per hour"``.
"""
from __future__ import annotations

import logging
import threading

from flask import current_app
from limits import parse_many
from limits.storage import storage_from_string
from limits.strategies import FixedWindowRateLimiter

log = logging.getLogger(__name__)

_lock = threading.Lock()


def _limiter(uri: str) -> FixedWindowRateLimiter:
    """One limiter per app (kept in ``app.extensions``), so a memory
    storage counts per app, not per Python process."""
    with _lock:
        limiter = current_app.extensions.get("pbem.inbound_limiter")
        if limiter is None:
            limiter = FixedWindowRateLimiter(storage_from_string(uri))
            current_app.extensions["pbem.inbound_limiter"] = limiter
        return limiter


def allow_inbound(sender: str) -> bool:
    """Count one inbound mail from ``sender`` (an address); ``False`` when
    it is over ``INBOUND_RATE_LIMIT``. A storage that is down lets mail
    through (the Message-ID dedupe and size limits still hold)."""
    key = (sender or "").strip().lower()[:320]
    return allow("pbem-inbound", key, current_app.config.get("INBOUND_RATE_LIMIT") or "")


def allow(namespace: str, key: str, spec: str, *, fail_open: bool = True) -> bool:
    """Count one event ``key`` in ``namespace`` against ``spec`` (``"10
    per minute; 60 per hour"``; empty: no limit); ``False`` when over it.
    Every window is counted (no short-circuit), so a key over the hourly
    limit stays over it. When the storage fails the answer is
    ``fail_open``."""
    if not spec or not current_app.config.get("RATELIMIT_ENABLED", True):
        return True
    uri = current_app.config.get("RATELIMIT_STORAGE_URI") or "memory://"
    try:
        limiter = _limiter(uri)
        return all([limiter.hit(item, namespace, key) for item in parse_many(spec)])
    except Exception:
        log.exception("rate limit storage %s failed; %s", uri, "allowing" if fail_open else "refusing")
        return fail_open
