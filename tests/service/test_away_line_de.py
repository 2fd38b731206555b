"""Away lines and to: lines as a German speaker writes them (issues 25, 26):
the words a native speaker types are read, pure (no database)."""
from __future__ import annotations

import datetime as dt

import pytest

from pbem.mail.talk_reply import split
from pbem.service.play.away_line import AwayLineError, is_away_line, read_away

UTC = dt.timezone.utc


@pytest.mark.parametrize("line", [
    "abwesend 20.12.2026 bis 27.12.2026",
    "Abwesend: vom 20.12.2026 bis zum 27.12.2026",
    "Urlaub vom 20.12.2026 bis einschließlich 27.12.2026",
    "urlaub 20.12.2026 - 27.12.2026 einschliesslich",
    "Verreist zwischen 20.12.2026 und 27.12.2026",
    "Abwesenheit: 20.12.2026 bis 27.12.2026 inkl.",
    "weg ab 20.12.2026 bis 27.12.2026",
])
def test_german_away_lines_give_the_whole_days(line):
    assert is_away_line(line)
    away = read_away(line, "UTC")
    assert (away.start, away.end) == (dt.datetime(2026, 12, 20, tzinfo=UTC), dt.datetime(2026, 12, 28, tzinfo=UTC))


def test_uhr_after_a_time_is_read_as_the_time():
    away = read_away("Urlaub vom 20.12.2026 18:00 Uhr bis zum 27.12.2026 9.30 Uhr", "UTC")
    assert (away.start, away.end) == (dt.datetime(2026, 12, 20, 18, tzinfo=UTC),
                                      dt.datetime(2026, 12, 27, 9, 30, tzinfo=UTC))


def test_a_new_command_word_still_refuses_a_word_it_does_not_know():
    assert is_away_line("Urlaub 20.12.2026 irgendwo 27.12.2026")
    with pytest.raises(AwayLineError) as err:
        read_away("Urlaub 20.12.2026 irgendwo 27.12.2026", "UTC")
    assert (err.value.code, err.value.word) == ("word", "irgendwo")


def test_a_line_without_a_digit_is_no_away_line():
    assert not is_away_line("Urlaub ist schön")


@pytest.mark.parametrize("value", ["alle", "Alle", "alle Spieler", "Alle am Tisch"])
def test_german_words_for_everyone_in_a_to_line(value):
    got = split(["an: " + value, "Hallo!"])
    assert got is not None and got.everyone and got.message == "Hallo!"


def test_names_joined_by_und_are_not_everyone():
    got = split(["An: Bruno und Carla", "Hallo!"])
    assert got is not None and not got.everyone and got.names == ["Bruno", "Carla"]
