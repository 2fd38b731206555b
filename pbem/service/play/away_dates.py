"""The days of an away line (:mod:`pbem.service.play.away_line`), pure.

A day is written with its year (``2026-12-20``, ``20.12.2026``,
``20/12/2026``), without it (``20.12.``, ``20/12``), or, first of two, as
a day alone whose month comes from the second (``20.–27.12.``, the way a
Finn, a Czech or a German shortens a range).

The year a day without one means (:func:`resolve`):

- the last day without a year falls on or after the first day: in the first
  day's year, or the next (``28.12.–3.1.``);
- the first day without a year, when the last has one, is the latest such
  day not after the last;
- when neither has a year, the first day is the one nearest to ``today``
  (the player's date), looking a year back and a year ahead: written on
  29 December, ``2.1.`` is next January; written on 21 December,
  ``20.12.`` is yesterday, an absence already begun.

The answer to every away line states both days with their years, so a
player who meant another year sees it at once.
"""
from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass

_FULL = re.compile(r"^(?:(\d{4})-(\d{1,2})-(\d{1,2})|(\d{1,2})[./](\d{1,2})[./](\d{4}))[.,]?$")
#: ``20.12.`` (the dot after the month is needed: ``20.12`` is a time) or ``20/12``
_NO_YEAR = re.compile(r"^(\d{1,2})(?:\.(\d{1,2})\.|/(\d{1,2})[.]?)[,]?$")
_DAY_ALONE = re.compile(r"^(\d{1,2})\.$")


@dataclass(frozen=True)
class Day:
    """A day as written: ``month`` None for a day alone (``20.``), ``year``
    None when not written."""

    day: int
    month: int | None = None
    year: int | None = None


def read_day(word: str) -> Day | None:
    """The :class:`Day` that ``word`` (folded, one word) writes, or None
    when it writes none. The numbers are not checked here (:func:`resolve`
    raises ``ValueError`` for a day that does not exist)."""
    found = _FULL.match(word)
    if found is not None:
        if found[1]:
            return Day(int(found[3]), int(found[2]), int(found[1]))
        return Day(int(found[4]), int(found[5]), int(found[6]))
    found = _NO_YEAR.match(word)
    if found is not None:
        return Day(int(found[1]), int(found[2] or found[3]))
    found = _DAY_ALONE.match(word)
    return Day(int(found[1])) if found is not None else None


def resolve(first: Day, last: Day, today: dt.date) -> tuple[dt.date, dt.date]:
    """The two calendar days ``first`` and ``last`` mean, read on ``today``
    (the module's rules). Raises ``ValueError``: a day that does not exist,
    the last day written as a day alone, or a day alone whose month cannot
    come from the last day."""
    if last.month is None:
        raise ValueError("the last day needs its month")
    if first.month is None:
        first = _with_month_of(first, last)
    if first.year is not None:
        start = dt.date(first.year, first.month, first.day)
    elif last.year is not None:
        end = dt.date(last.year, last.month, last.day)
        start = _latest_not_after(first, end)
        return start, end
    else:
        start = _nearest(first, today)
    return start, _on_or_after(last, start)


def _with_month_of(first: Day, last: Day) -> Day:
    """A day alone takes the last day's month and year, or the month
    before when its number is larger than the last day's (``28.–3.1.``)."""
    month, year = last.month, last.year
    if first.day > last.day:
        month, year = (12, year - 1 if year else None) if month == 1 else (month - 1, year)
    return Day(first.day, month, year)


def _nearest(day: Day, today: dt.date) -> dt.date:
    options = []
    for year in (today.year - 1, today.year, today.year + 1):
        try:
            options.append(dt.date(year, day.month, day.day))
        except ValueError:   # 29 February of a common year, or no such day at all
            continue
    if not options:
        raise ValueError(f"no day {day.day}.{day.month}.")
    return min(options, key=lambda d: (abs((d - today).days), d < today))


def _on_or_after(day: Day, start: dt.date) -> dt.date:
    if day.year is not None:
        return dt.date(day.year, day.month, day.day)
    for year in (start.year, start.year + 1, start.year + 4):
        try:
            found = dt.date(year, day.month, day.day)
        except ValueError:
            continue
        if found >= start:
            return found
    raise ValueError(f"no day {day.day}.{day.month}.")


def _latest_not_after(day: Day, end: dt.date) -> dt.date:
    for year in (end.year, end.year - 1, end.year - 4):
        try:
            found = dt.date(year, day.month, day.day)
        except ValueError:
            continue
        if found <= end:
            return found
    raise ValueError(f"no day {day.day}.{day.month}.")


__all__ = ["Day", "read_day", "resolve"]
