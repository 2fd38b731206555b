"""Rate limits outside the web pages: inbound mail per sender address, and
the answers inbound mail may cause (:func:`allow`).

The counts live in the database (:class:`pbem.service.core.models.RateCount`),
in the caller's transaction: an MTA runs one ``pbem mail ingest`` process a
message, so a count kept in a process's memory (the embedded default's
``memory://``) would start at zero for every mail, and the database is the
one store every process shares on every setup (issue 22). Each limit is a
fixed window, and the windows of one event are counted by one atomic
upsert of a row each (``INSERT ... ON CONFLICT DO UPDATE ... RETURNING``,
SQLite 3.35+ and PostgreSQL; one round trip, issue 24). Limits are strings
like ``"10 per minute; 60 per hour"`` (read by the ``limits`` library, as
the pages' limits are).
"""
from __future__ import annotations

import datetime as dt
import hashlib
import logging

from flask import current_app
from limits import RateLimitItem, parse_many
from sqlalchemy import delete, select, tuple_
from sqlalchemy.dialects import postgresql, sqlite

from pbem.service.core.db import db
from pbem.service.core.models import RateCount, utcnow

log = logging.getLogger(__name__)


def allow_inbound(sender: str, *, now: dt.datetime | None = None) -> bool:
    """Count one inbound mail under ``sender`` (its From address, or that
    with the reply address it came through: :mod:`pbem.service.inbound`);
    ``False`` when it is over ``INBOUND_RATE_LIMIT``."""
    key = (sender or "").strip().lower()[:1000]
    return allow("pbem-inbound", key, current_app.config.get("INBOUND_RATE_LIMIT") or "", now=now)


def allow(namespace: str, key: str, spec: str, *, fail_open: bool = True, now: dt.datetime | None = None) -> bool:
    """Count one event ``key`` in ``namespace`` against ``spec`` (``"10
    per minute; 60 per hour"``; empty: no limit); ``False`` when over it.
    Every window is counted (no short-circuit), so a key over the hourly
    limit stays over it. Written in the session's open transaction: it
    counts once the caller commits. A ``spec`` that does not parse is
    logged and answered ``fail_open``; a database error is raised (the
    caller's transaction is lost anyway, and ``pbem mail ingest`` asks the
    MTA to retry)."""
    if not spec or not current_app.config.get("RATELIMIT_ENABLED", True):
        return True
    try:
        items = parse_many(spec)
    except ValueError:
        log.exception("rate limit %r of %s does not parse; %s", spec, namespace, "allowing" if fail_open else "refusing")
        return fail_open
    now = now or utcnow()
    _purge(now)
    return _hit(namespace, key, items, now)


def _purge(now: dt.datetime, batch: int = 100) -> None:
    """Delete up to ``batch`` windows that ended before ``now``. On
    PostgreSQL rows another transaction is deleting are skipped (``SKIP
    LOCKED``), so two ingests never wait on each other here."""
    stale = select(RateCount.bucket, RateCount.window_start).where(RateCount.expires_at < now).limit(batch)
    if db.session.get_bind().dialect.name == "postgresql":
        stale = stale.with_for_update(skip_locked=True)
    db.session.execute(delete(RateCount).where(tuple_(RateCount.bucket, RateCount.window_start).in_(stale)))


def _hit(namespace: str, key: str, items: list[RateLimitItem], now: dt.datetime) -> bool:
    """Count one hit in each item's current window, all in one upsert;
    ``True`` while within every one."""
    digest = hashlib.sha256(key.encode("utf-8", "replace")).hexdigest()[:40]
    rows: dict[str, dict] = {}
    amounts: dict[str, int] = {}
    for item in items:
        period = item.get_expiry()  # seconds
        start = int(now.timestamp()) // period * period
        bucket = f"{namespace[:40]}:{item.amount}/{period}:{digest}"
        rows[bucket] = dict(bucket=bucket, window_start=start, hits=1,
                            expires_at=dt.datetime.fromtimestamp(start + period, dt.timezone.utc))
        amounts[bucket] = item.amount
    dialect = db.session.get_bind().dialect.name
    insert = postgresql.insert if dialect == "postgresql" else sqlite.insert
    stmt = insert(RateCount).values(list(rows.values()))
    stmt = stmt.on_conflict_do_update(index_elements=[RateCount.bucket, RateCount.window_start],
                                      set_={"hits": RateCount.hits + 1}).returning(RateCount.bucket, RateCount.hits)
    return all(hits <= amounts[bucket] for bucket, hits in db.session.execute(stmt).all())
