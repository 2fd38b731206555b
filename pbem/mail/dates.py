"""Dates in mail: a deadline in the recipient's zone and locale
(:func:`format_deadline`), and the time left to it.
"""
from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from babel.core import Locale, UnknownLocaleError
from babel.dates import format_date, format_time, format_timedelta

from .render import catalog


def _zone(name: str) -> tuple[ZoneInfo, str]:
    try:
        return ZoneInfo(name), name
    except (ZoneInfoNotFoundError, ValueError, TypeError):
        return ZoneInfo("UTC"), "UTC"


def _locale(name: str) -> Locale:
    try:
        return Locale.parse(name)
    except (UnknownLocaleError, ValueError, TypeError):
        return Locale.parse("en_GB")


def format_deadline(when: datetime | None, tz: str = "UTC", locale: str = "en_GB") -> str:
    """An absolute date and time in the recipient's zone, with the zone name:
    ``"Tuesday 24 November 2026, 18:00 (Europe/Helsinki)"``; in Finnish
    ``"tiistai 24. marraskuuta 2026, 18.00 (Europe/Helsinki)"``.
    ``when`` must be aware (UTC or any zone); ``None`` gives
    ``"none (the game is paused)"``. An unknown zone falls back to UTC.
    """
    if when is None:
        return catalog(locale).gettext("none (the game is paused)")
    if when.tzinfo is None:
        raise ValueError("deadline must be timezone-aware (UTC)")
    zone, zone_name = _zone(tz)
    loc = _locale(locale)
    local = when.astimezone(zone)
    if loc.language == "en":
        date_text = format_date(local, "EEEE d MMMM y", locale=loc)
        time_text = format_time(local, "HH:mm", locale=loc)
    else:
        date_text = format_date(local, "full", locale=loc)
        time_text = format_time(local, "short", locale=loc)
    return f"{date_text}, {time_text} ({zone_name})"


def time_left(deadline: datetime | None, now: datetime, locale: str) -> str:
    """The bare duration to ``deadline`` ("12 hours", "12 Stunden"), for a
    sentence that holds its own "left" word; "" when there is none left."""
    if deadline is None or deadline <= now:
        return ""
    return format_timedelta(deadline - now, threshold=1.5, locale=_locale(locale), format="long")
