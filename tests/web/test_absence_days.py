"""The account page lists an absence by its days when it is whole days in
the player's zone (the form's first and last day), else by its instants
(an away line mailed with times) (issue 25)."""
from __future__ import annotations

import datetime as dt
from types import SimpleNamespace
from zoneinfo import ZoneInfo

from flask import g

from pbem.web.away import _span

HEL = ZoneInfo("Europe/Helsinki")


def _in(app, zone: str, start: dt.datetime, end: dt.datetime) -> tuple[str, str]:
    """``_span`` as a signed-in player of ``zone`` reading English sees it
    (the pages' ``g`` reads its player once, kept as ``_player``: given here)."""
    with app.test_request_context("/account"):
        g.player_id, g.__dict__["_player"] = 1, SimpleNamespace(timezone=zone, language="en")
        return _span(start.astimezone(dt.timezone.utc), end.astimezone(dt.timezone.utc))


def test_whole_days_show_the_first_and_the_last_day(app):
    first, last = _in(app, "Europe/Helsinki", dt.datetime(2026, 12, 20, tzinfo=HEL), dt.datetime(2026, 12, 28, tzinfo=HEL))
    assert "20" in first and "December" in first and "27" in last and "28" not in last
    assert ":" not in first + last                          # days, no clock


def test_an_absence_with_times_shows_its_instants(app):
    start, end = dt.datetime(2026, 12, 20, 18, 0, tzinfo=HEL), dt.datetime(2026, 12, 27, 9, 30, tzinfo=HEL)
    first, last = _in(app, "Europe/Helsinki", start, end)
    assert "18:00" in first and "9:30" in last


def test_midnight_elsewhere_is_not_a_whole_day_here(app):
    """Midnights in Helsinki are 22:00 UTC: a UTC reader sees the instants."""
    first, last = _in(app, "UTC", dt.datetime(2026, 12, 20, tzinfo=HEL), dt.datetime(2026, 12, 28, tzinfo=HEL))
    assert "22:00" in first and "22:00" in last
