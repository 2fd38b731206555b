"""Away lines and to: lines as a Finn writes them (issues 25, 26): the
words a native speaker types are read, pure (no database)."""
from __future__ import annotations

import datetime as dt

import pytest

from pbem.mail.talk_reply import split
from pbem.service.play.away_line import AwayLineError, is_away_line, read_away

UTC = dt.timezone.utc


@pytest.mark.parametrize("line", [
    "poissa 20.12.2026–27.12.2026",
    "Lomalla 20.12.2026 - 27.12.2026 asti",
    "loma 20.12.2026–27.12.2026",
    "matkalla 20.12.2026 alkaen 27.12.2026 saakka",
    "reissussa 20.12.2026 lähtien 27.12.2026 asti",
    "poissa 20.12.2026 alk. 27.12.2026 asti",
])
def test_finnish_away_lines_give_the_whole_days(line):
    away = read_away(line, "UTC")
    assert (away.start, away.end) == (dt.datetime(2026, 12, 20, tzinfo=UTC), dt.datetime(2026, 12, 28, tzinfo=UTC))


def test_klo_before_a_time_is_read_as_the_time():
    away = read_away("poissa 20.12.2026 klo 18.00 – 27.12.2026 kello 9.30", "UTC")
    assert (away.start, away.end) == (dt.datetime(2026, 12, 20, 18, tzinfo=UTC),
                                      dt.datetime(2026, 12, 27, 9, 30, tzinfo=UTC))


def test_a_new_command_word_still_refuses_a_word_it_does_not_know():
    assert is_away_line("matkalla 20.12.2026 jossain 27.12.2026")
    with pytest.raises(AwayLineError) as err:
        read_away("matkalla 20.12.2026 jossain 27.12.2026", "UTC")
    assert (err.value.code, err.value.word) == ("word", "jossain")


@pytest.mark.parametrize("value", ["kaikki", "Kaikille", "kaikki pelaajat", "kaikille pelaajille", "koko pöytä",
                                   "Koko pöydälle"])
def test_finnish_words_for_everyone_in_a_to_line(value):
    got = split(["kenelle: " + value, "Hei!"])
    assert got is not None and got.everyone and got.message == "Hei!"


def test_a_name_is_not_everyone():
    got = split(["kenelle: Bruno ja Carla", "Hei!"])
    assert got is not None and not got.everyone and got.names == ["Bruno", "Carla"]
