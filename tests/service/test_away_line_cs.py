"""Czech away lines and "to everyone" as a Czech player writes them (issues 25, 26).

A Czech writes a date with a space after each dot (``20. 12. 2026``, the
standard form), says "nepřítomný", "nepřítomnost" or "dovolená", "až" and
"včetně" around the dates, and "komu: všem hráčům" for a message to all.
"""
from __future__ import annotations

import datetime as dt

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pbem.mail.talk_reply import split
from pbem.service.play.away_line import AwayLineError, is_away_line, read_away

UTC = dt.timezone.utc
FIRST, AFTER_LAST = dt.datetime(2026, 12, 20, tzinfo=UTC), dt.datetime(2026, 12, 28, tzinfo=UTC)


@pytest.mark.parametrize("line", [
    "pryč od 20. 12. 2026 do 27. 12. 2026",
    "Pryč 20. 12. 2026 – 27. 12. 2026",
    "nepřítomný od 20.12.2026 do 27.12.2026",
    "Nepřítomnost: 20. 12. 2026 až 27. 12. 2026",
    "dovolená od 20. 12. 2026 do 27. 12. 2026 včetně",
    "dovolena 20.12.2026 - 27.12.2026",
])
def test_a_czech_away_line_is_read_as_a_czech_writes_it(line):
    assert is_away_line(line)
    away = read_away(line, "UTC")
    assert (away.start, away.end) == (FIRST, AFTER_LAST), line


def test_a_spaced_date_keeps_its_time():
    away = read_away("pryč od 20. 12. 2026 18:00 do 27. 12. 2026 9:30", "Europe/Prague")
    assert (away.start, away.end) == (dt.datetime(2026, 12, 20, 17, 0, tzinfo=UTC),
                                      dt.datetime(2026, 12, 27, 8, 30, tzinfo=UTC))


def test_a_spaced_date_that_does_not_exist_is_refused():
    with pytest.raises(AwayLineError) as err:
        read_away("pryč od 30. 2. 2026 do 3. 3. 2026", "UTC")
    assert err.value.code == "date"


@given(st.dates(dt.date(2000, 1, 1), dt.date(2090, 12, 31)), st.integers(0, 300))
def test_the_spaced_and_the_iso_form_of_a_line_mean_the_same_days(first, length):
    last = first + dt.timedelta(days=length)
    spaced = f"pryč od {first.day}. {first.month}. {first.year} do {last.day}. {last.month}. {last.year}"
    iso = f"away {first.isoformat()} to {last.isoformat()}"
    a, b = read_away(spaced, "Europe/Prague"), read_away(iso, "Europe/Prague")
    assert (a.start, a.end) == (b.start, b.end)


@pytest.mark.parametrize("line", ["komu: všem", "Komu: všem hráčům", "komu: všichni hráči", "komu: Všichni"])
def test_to_everyone_in_czech(line):
    to = split([line, "Ahoj!"])
    assert to is not None and to.everyone and to.message == "Ahoj!", line
