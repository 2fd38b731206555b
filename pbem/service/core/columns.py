"""Column types and the clock every table of the service uses, in a module
of their own so table modules beside :mod:`pbem.service.core.models`
(``talk_models``, ...) import them without importing ``models`` (which
imports them at its end: no import cycle)."""
from __future__ import annotations

import datetime as dt

from sqlalchemy import DateTime, TypeDecorator


def utcnow() -> dt.datetime:
    """Now, timezone-aware UTC. Service functions take ``now=`` so tests can
    freeze the clock; this is the default."""
    return dt.datetime.now(dt.timezone.utc)


class UTCDateTime(TypeDecorator):
    """A UTC instant: naive UTC in the database, aware UTC in Python."""

    impl = DateTime
    cache_ok = True

    def process_bind_param(self, value: dt.datetime | None, dialect) -> dt.datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError("naive datetime given to a UTC column")
        return value.astimezone(dt.timezone.utc).replace(tzinfo=None)

    def process_result_value(self, value: dt.datetime | None, dialect) -> dt.datetime | None:
        if value is None:
            return None
        return value.replace(tzinfo=dt.timezone.utc)
