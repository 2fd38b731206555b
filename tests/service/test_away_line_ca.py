"""Away lines and to: lines as a Catalan speaker writes them (issues 25,
26): the words a native speaker types are read, pure (no database)."""
from __future__ import annotations

import datetime as dt

import pytest

from pbem.i18n import translations
from pbem.mail.talk_reply import split
from pbem.service.play.away_line import AwayLineError, is_away_line, read_away

UTC = dt.timezone.utc
WHOLE_DAYS = (dt.datetime(2026, 12, 20, tzinfo=UTC), dt.datetime(2026, 12, 28, tzinfo=UTC))


@pytest.mark.parametrize("line", [
    "fora del 20/12/2026 al 27/12/2026",
    "Fora des del 20/12/2026 fins al 27/12/2026",
    "fora del dia 20/12/2026 al dia 27/12/2026, ambdós inclosos",
    "Vacances del 20/12/2026 al 27/12/2026",
    "absència entre el 20/12/2026 i el 27/12/2026",
    "absent els dies 20/12/2026 a 27/12/2026",
    "Absenta: 20.12.2026 - 27.12.2026",
])
def test_catalan_away_lines_give_the_whole_days(line):
    away = read_away(line, "UTC")
    assert (away.start, away.end) == WHOLE_DAYS


def test_a_les_before_a_time_is_read_as_the_time():
    away = read_away("fora del 20/12/2026 a les 18:00 fins al 27/12/2026 a les 9:30", "UTC")
    assert (away.start, away.end) == (dt.datetime(2026, 12, 20, 18, tzinfo=UTC),
                                      dt.datetime(2026, 12, 27, 9, 30, tzinfo=UTC))


def test_the_catalan_example_of_the_pages_and_mails_is_read_back():
    line = translations("ca").gettext("away 2026-12-20 to 2026-12-27")
    assert line.startswith("fora ") and (read_away(line, "UTC").start, read_away(line, "UTC").end) == WHOLE_DAYS


def test_a_new_command_word_still_refuses_a_word_it_does_not_know():
    assert is_away_line("vacances del 20/12/2026 al 27/12/2026 a Menorca")
    with pytest.raises(AwayLineError) as err:
        read_away("vacances del 20/12/2026 al 27/12/2026 a Menorca", "UTC")
    assert (err.value.code, err.value.word) == ("word", "menorca")


@pytest.mark.parametrize("head", ["per a", "Per a", "Destinataris", "destinatari"])
@pytest.mark.parametrize("value", ["tots", "Tothom", "totes", "tots els jugadors", "tota la taula", "a tothom"])
def test_catalan_words_for_everyone_in_a_to_line(head, value):
    got = split([f"{head}: {value}", "Hola a tothom!"])
    assert got is not None and got.everyone and got.message == "Hola a tothom!"


def test_names_joined_by_i_are_two_names_not_everyone():
    got = split(["destinataris: Bruno i Carla", "Hola!"])
    assert got is not None and not got.everyone and got.names == ["Bruno", "Carla"]
