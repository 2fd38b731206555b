"""Away lines whose days are written without their year, or the first day
alone (``20.–27.12.``): the shapes a Finn, a Czech, a German or a Catalan
writes (native reads of issue 25), and the year such a day means
(pbem.service.play.away_dates)."""
from __future__ import annotations

import datetime as dt

import pytest
from hypothesis import given, strategies as st

from pbem.service.play.away_dates import Day, read_day, resolve
from pbem.service.play.away_line import AwayLineError, read_away

NOW = dt.datetime(2026, 11, 29, 9, 0, tzinfo=dt.timezone.utc)


def days(line: str, now: dt.datetime = NOW, zone: str = "UTC") -> tuple[dt.date, dt.date]:
    """The first and last day away (the end is the start of the day after)."""
    away = read_away(line, zone, now=now)
    return away.start.date(), (away.end - dt.timedelta(seconds=1)).date()


@pytest.mark.parametrize("line", [
    "poissa 20.–27.12.",            # fi: the first day alone, an en dash
    "poissa 20.-27.12.",            # ... a hyphen without spaces
    "lomalla 20.12.–27.12.",
    "pryč od 20. 12. do 27. 12.",   # cs: with spaces after the dots
    "pryč 20. do 27. 12.",
    "weg vom 20.12. bis 27.12.",    # de
    "fora del 20/12 al 27/12",      # ca: day first with a slash
    "away 20.12. to 27.12.2026",    # the year on the last day only
])
def test_a_range_without_years_is_this_december(line):
    assert days(line) == (dt.date(2026, 12, 20), dt.date(2026, 12, 27))


def test_a_range_over_new_year_ends_next_year():
    assert days("weg 28.12.-3.1.") == (dt.date(2026, 12, 28), dt.date(2027, 1, 3))
    assert days("poissa 28.–3.1.") == (dt.date(2026, 12, 28), dt.date(2027, 1, 3))


def test_january_written_in_late_december_is_next_january():
    late = dt.datetime(2026, 12, 29, 12, tzinfo=dt.timezone.utc)
    assert days("weg 2.1.-5.1.", late) == (dt.date(2027, 1, 2), dt.date(2027, 1, 5))


def test_an_absence_already_begun_is_not_moved_a_year_ahead():
    later = dt.datetime(2026, 12, 21, 12, tzinfo=dt.timezone.utc)
    assert days("poissa 20.–27.12.", later) == (dt.date(2026, 12, 20), dt.date(2026, 12, 27))


def test_the_year_is_read_on_the_players_date_not_utcs():
    # 31 December 23:30 UTC is already 1 January in Helsinki
    eve = dt.datetime(2026, 12, 31, 23, 30, tzinfo=dt.timezone.utc)
    away = read_away("poissa 1.7.–3.7.", "Europe/Helsinki", now=eve)
    assert away.start.astimezone(dt.timezone(dt.timedelta(hours=3))).date() == dt.date(2027, 7, 1)


def test_times_after_days_without_years():
    away = read_away("poissa 20.12. klo 18.00 - 27.12. klo 9.30", "UTC", now=NOW)
    assert (away.start, away.end) == (dt.datetime(2026, 12, 20, 18, tzinfo=dt.timezone.utc),
                                      dt.datetime(2026, 12, 27, 9, 30, tzinfo=dt.timezone.utc))


@pytest.mark.parametrize("line", ["away 31.11. to 3.12.", "away 29.2. to 3.3.", "poissa 20.12.–27."])
def test_a_day_that_does_not_exist_is_refused(line):
    with pytest.raises(AwayLineError) as err:
        read_away(line, "UTC", now=NOW)
    assert err.value.code in ("date", "word")


def test_a_time_without_a_trailing_dot_is_not_a_day():
    assert read_day("20.12") is None and read_day("20.12.") == Day(20, 12)


@given(st.dates(min_value=dt.date(2001, 1, 1), max_value=dt.date(2098, 12, 31)),
       st.integers(min_value=-150, max_value=150), st.integers(min_value=0, max_value=300))
def test_a_day_within_five_months_of_today_reads_back(first, offset, length):
    """Whoever writes a range within five months of today without years
    gets the days they meant, and the last day is never before the first."""
    today = first - dt.timedelta(days=offset)
    last = first + dt.timedelta(days=length)
    if (first.month, first.day) == (2, 29) or (last.month, last.day) == (2, 29) or length > 330:
        return   # 29 February and ranges of nearly a year need the year written
    got = resolve(Day(first.day, first.month), Day(last.day, last.month), today)
    assert got == (first, last)


@given(st.dates(min_value=dt.date(2001, 1, 1), max_value=dt.date(2098, 12, 31)),
       st.integers(min_value=1, max_value=12), st.integers(min_value=1, max_value=28),
       st.integers(min_value=1, max_value=12), st.integers(min_value=1, max_value=28))
def test_the_last_day_is_never_before_the_first(today, m1, d1, m2, d2):
    first, last = resolve(Day(d1, m1), Day(d2, m2), today)
    assert first <= last and (last - first).days < 366


@pytest.mark.parametrize("line, start_hour", [
    ("Urlaub ab 20.12.2026 18 Uhr bis 27.12.2026", 18),   # de: the hour alone, with Uhr
    ("fora del 20/12/2026 a les 18h al 27/12/2026", 18),   # ca: 18h
    ("poissa 20.12.2026 klo 18 – 27.12.2026", 18),         # fi: klo 18
    ("pryč od 20. 12. 2026 v 18 hod. do 27. 12. 2026", 18),  # cs: v 18 hod.
])
def test_an_hour_without_minutes(line, start_hour):
    away = read_away(line, "UTC", now=NOW)
    assert away.start == dt.datetime(2026, 12, 20, start_hour, tzinfo=dt.timezone.utc)
    assert away.end == dt.datetime(2026, 12, 28, tzinfo=dt.timezone.utc)


def test_a_number_alone_is_not_an_hour():
    """``away 20.12.2026 18 27.12.2026``: 18 with nothing to say it is an
    hour is refused, not guessed."""
    with pytest.raises(AwayLineError) as err:
        read_away("away 20.12.2026 18 to 27.12.2026", "UTC", now=NOW)
    assert err.value.word == "18"
