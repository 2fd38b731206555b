"""An engine's English Msg comes out in the reader's language (pbem.i18n.translate).

The catalogs are built in memory (Babel), so the tests do not depend on
what the shipped .po files hold yet.
"""
from __future__ import annotations

import io

import pytest
from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.support import NullTranslations, Translations

import pbem.i18n
from pbem.engine import GAMES
from pbem.engine.messages import Msg, Msgn
from pbem.i18n import translate

WALL = "{seat} builds a wall on {site} (from tower {tower})."
FI = {
    WALL: "{seat} rakentaa muurin kohtaan {site} (tornista {tower}).",
    "Seat {n}": "Pelaaja {n}",
    "seat {n}": "pelaaja {n}",
    "You are {seat}.": "Olet {seat}.",
    "Medina, {phase}": "Medina, {phase}",
    "Setup: seat 1 places the start merchant": "Alkuvalmistelu: pelaaja 1 asettaa aloituskauppiaan",
    ("{n} citizen", "{n} citizens"): ("{n} občan", "{n} občané", "{n} občanů"),
}


def catalog(locale: str, entries: dict) -> Translations:
    cat = Catalog(locale=locale)
    for msgid, text in entries.items():
        cat.add(msgid, text)
    buf = io.BytesIO()
    write_mo(buf, cat)
    buf.seek(0)
    return Translations(fp=buf)


@pytest.fixture
def fake_catalogs(monkeypatch):
    """fi and cs served from in-memory catalogs (each with a part of FI)."""
    books = {"fi": catalog("fi", {k: v for k, v in FI.items() if isinstance(k, str)}),
             "cs": catalog("cs", {k: v for k, v in FI.items() if isinstance(k, tuple)})}
    monkeypatch.setattr(pbem.i18n, "translations", lambda lang: books.get(lang, NullTranslations()))
    return books


def medina_wall_event():
    """A real engine event: the first wall a Medina game builds."""
    game = GAMES["medina"]
    state = game.new_state(3, 7)
    state.apply(0, state.legal_actions(0)[0])            # the start merchant
    seat = state.current_seats()[0]
    wall = next(a for a in state.legal_actions(seat) if a.kind == "wall")
    (event,) = [e for e in state.apply(seat, wall) if e.kind == "wall"]
    return seat, wall.site, event


def test_an_engine_event_is_translated_with_its_parameters_filled(fake_catalogs):
    seat, site, event = medina_wall_event()
    tower = event.data["tower"]
    assert event.text == WALL.format(seat=f"Seat {seat + 1}", site=site, tower=tower)
    assert translate(event.text, "fi") == f"Pelaaja {seat + 1} rakentaa muurin kohtaan {site} (tornista {tower})."


def test_an_untranslated_template_falls_back_to_english_with_translated_parts(fake_catalogs):
    m = Msg("{seat} passes.", seat=Msg("Seat {n}", n=2))
    assert translate(m, "fi") == "Pelaaja 2 passes."


@pytest.mark.parametrize("n, czech", [(1, "1 občan"), (3, "3 občané"), (7, "7 občanů")])
def test_plurals_take_the_languages_own_forms(fake_catalogs, n, czech):
    assert translate(Msgn("{n} citizen", "{n} citizens", n), "cs") == czech


def test_the_text_view_reads_in_the_players_language(fake_catalogs):
    game = GAMES["medina"]
    view = game.new_state(3, 2).view(0)
    english = game.view_text(view)
    finnish = game.view_text(view, lambda m: translate(m, "fi"))
    assert english.splitlines()[:2] == ["Medina, Setup: seat 1 places the start merchant",
                                        "You are seat 1 (red domes)."]
    assert finnish.splitlines()[0] == "Medina, Alkuvalmistelu: pelaaja 1 asettaa aloituskauppiaan"
    assert "Olet pelaaja 1" not in english and "You are pelaaja 1 (red domes)." in finnish
    assert len(finnish.splitlines()) == len(english.splitlines())
