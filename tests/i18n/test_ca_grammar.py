"""Catalan grammar of the catalog (issue 22, "Other language defects").

The outside testers' Catalan defects, each rendered the way a player reads
it (through :func:`pbem.i18n.translate` or the composed mail), and checks
over the whole catalog so the same kind of defect does not come back:

- "de" before a site whose letter's name starts with a vowel ("de E9": it
  is "d'E9", "d'F6", "d'O2"; but "de B3", "de W12"), and "de el palau"
  where a phrase with an article is filled in ("del palau"): the sites and
  phrases are filled in, so :mod:`pbem.i18n.catalan` elides and contracts
  where the text meets a value (never inside one: an order is quoted as
  written); the catalog's own text is written right;
- the seat named twice in the invitation ("al seient seient 3");
- terms of la-citta.ca.txt (castell, ciutadà, Desig del Poble, la banca ...);
- plural entries: Catalan has one / many / other, and "many" (a million)
  reads as "other".
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from pbem.engine.messages import Msg, Msgn
from pbem.i18n import translate, translations
from pbem.i18n.catalan import fill
from pbem.mail import compose as c
from tests.i18n.catalog import entries
from tests.mail.test_compose import envelope, parts

PO = Path(__file__).resolve().parents[2] / "pbem/translations/ca/LC_MESSAGES/messages.po"
GAME = c.GameRef("La Città", 12, "http://localhost:5000/games/12")


def _entries():
    return entries("ca")


def ca(msg) -> str:
    return translate(msg, "ca")


# --- elision before a site ------------------------------------------------

# letters whose Catalan names start with a vowel sound: a, e, efa, hac, i,
# ela, ema, ena, o, erra, essa, u, ics
VOWEL_SITES = ["A1", "E9", "F6", "H3", "I2", "L4", "M5", "N6", "O2", "R3", "S4", "U5", "X7", "AA12"]
CONSONANT_SITES = ["B3", "C4", "D5", "G6", "J7", "K8", "P9", "T20", "W12"]


@pytest.mark.parametrize("site", VOWEL_SITES)
def test_de_is_elided_before_a_site_read_with_a_vowel(site):
    assert ca(Msg("The city at {castle} already has a market (one per city).", castle=site)) \
        == f"La ciutat d'{site} ja té un mercat (un per ciutat)."


@pytest.mark.parametrize("site", CONSONANT_SITES)
def test_de_stays_before_a_site_read_with_a_consonant(site):
    assert ca(Msg("The city at {castle} already has a market (one per city).", castle=site)) \
        == f"La ciutat de {site} ja té un mercat (un per ciutat)."


def test_the_testers_lines():
    assert ca(Msg("The farm at {site} already has a Reiche Ernte this year.", site="O2")) \
        == "La granja d'O2 ja té una Collita Miraculosa aquest any."
    assert ca(Msg("Demolishing {site} would cut the city at {castle} in two; demolish from the edge: {sites}.",
                  site="E5", castle="E9", sites="E6")) \
        == "Enderrocar E5 partiria en dos la ciutat d'E9; enderroca des de la vora: E6."
    assert ca(Msg("{site} is too close to the {building} at {near}: a castle needs at least 3 free sites "
                  "between it and every other city.", site="H5", building=Msg("farm"), near="I7")).startswith(
        "H5 és massa a prop de la construcció d'I7 (granja)")
    assert ca(Msg("The market at {space}", space="AA12")) == "El mercat d'AA12"


def test_a_phrase_with_an_article_contracts_after_de_and_a():
    palace = Msg("the {colour} palace at {squares}", colour=Msg("orange"), squares="E5 E6")
    assert ca(Msg("a piece of {palace}", palace=palace)) == "una peça del palau taronja d'E5 E6"
    assert ca(Msg("a stable of {palace} (at {square})", palace=palace, square="A1")) \
        == "un estable del palau taronja d'E5 E6 (a A1)"
    assert ca(Msg("{seat} places a stable on {site} at {palace}.", seat=Msg("Seat {n}", n=1), site="E7",
                  palace=palace)) == "Seient 1 col·loca un estable a E7 al palau taronja d'E5 E6."


def test_a_seat_after_de_takes_its_article():
    assert ca(Msg("it is {seat}'s turn, not yours", seat=Msg("seat {n}", n=2))) == "és el torn del seient 2, no el teu"
    line = ca(Msg("Migration ({wish} {arches} against {other}): {seat}'s city at {castle} draws a citizen "
                  "from {from_seat}'s city at {from_castle}{tail}", wish=Msg("culture"), arches=3, other=1,
                  seat=Msg("seat {n}", n=1), castle="E3", from_seat=Msg("seat {n}", n=2), from_castle="A4", tail="."))
    assert line == ("Migració (cultura 3 contra 1): la ciutat del seient 1 a E3 agafa un ciutadà "
                    "de la ciutat del seient 2 a A4."), line


@pytest.mark.parametrize("template, value, out", [
    ("de {v}", "iode", "de iode"), ("de {v}", "Ian", "de Ian"), ("de {v}", "hospital", "d'hospital"),
    ("la ciutat de {v}", "Anna", "la ciutat d'Anna"), ("De {v}", "E3", "D'E3"), ("des de {v}", "A", "des d'A"),
    ("de {v} a 100", 1, "d'1 a 100"), ("de {v}", 11, "d'11"), ("de {v}", 12, "de 12"), ("de {v}", "Marta", "de Marta"),
    ("per {v}", "el camí", "pel camí"), ("de {v}", "els palaus", "dels palaus"), ("a {v}", "el palau", "al palau"),
    ("una {v}", "E9", "una E9"), ("pode {v}", "E9", "pode E9"), ("{v:<4}|", "E9", "E9  |"), ("de {{v}}", "E9", "de {v}"),
])
def test_fill(template, value, out):
    assert fill(template, {"v": value}) == out


def test_an_order_filled_in_is_quoted_as_written():
    # "funda N6 de I6" is an order a player may write: never "d'I6" inside it
    assert ca(Msg("Say which castle gives the spare citizen: {orders}.", orders="funda N6 de I6")) \
        == "Indica quin castell dona el ciutadà de sobres: funda N6 de I6."


@pytest.mark.parametrize("when, word", [("next year", "l'any següent"), ("this year", "aquest any")])
def test_the_famine_round_names_its_year_in_brackets(when, word):
    assert ca(Msg(", famine: loses round 1 of {when}", when=Msg(when))) == f", fam: perd la ronda 1 ({word})"
    assert ca(Msg("Famine: you lose the first political round of {when}.", when=Msg(when))) \
        == f"Fam: perds la primera ronda política ({word})."


def test_the_catalog_itself_writes_no_de_before_a_vowel_site():
    bad = [(mid, s) for mid, _, s in _entries()
           if re.search(r"\b[Dd]e (?:[AEFHILMNORSUX]\d|[AEIOU]\b|1\b|11\b)", s) or re.search(r"\bde \{when\}", s)]
    assert not bad, bad


def test_an_hours_count_is_not_put_after_de():
    # web text is not tidied: "de 1 hora" would need "d'1 hora"
    t = translations("ca")
    for n in (1, 11, 24):
        line = t.ngettext("Each turn has a deadline of %(hours)s hour; times are kept in %(zone)s.",
                          "Each turn has a deadline of %(hours)s hours; times are kept in %(zone)s.", n) \
            % {"hours": n, "zone": "UTC"}
        assert f"de {n}" not in line and line.startswith(f"Cada torn té {n} hor"), line
    assert not [(mid, s) for mid, _, s in _entries() if re.search(r"\bde %\((?:hours|count)\)s", s)]


# --- gender and agreement ------------------------------------------------

def test_an_order_is_feminine():
    assert ca(Msg("Picked “{order}”.", order="granja F6")) == "Has triat “granja F6”."
    t = translations("ca")
    assert t.gettext("Picked. Review it below.") == "Ordre triada. Revisa-la a sota."


def test_a_seat_colour_agrees_with_domes():
    assert ca(Msg("You are {seat} ({colour} domes).", seat=Msg("seat {n}", n=1), colour=Msg("red"))) \
        == "Ets seient 1 (cúpules de color vermell)."


def test_the_told_player_is_of_no_gender():
    line = translations("ca").gettext(
        "Seat %(number)s is offered to %(name)s: an invitation is on its way, and the seat is theirs once they "
        "accept it. %(before)s has been told.") % {"number": 2, "name": "Bo", "before": "Carla"}
    assert "avisat" not in line and line.endswith("Carla ja n'ha rebut l'avís."), line


# --- the invitation ------------------------------------------------------

@pytest.mark.parametrize("others", [[], ["Bo", "Cy"]])
def test_the_invitation_names_the_seat_once(others):
    m, text, html = parts(c.invitation(envelope(locale="ca", reply_to=None), GAME, host_name="Carla", seat=3,
                                       other_players=others, signin_url="http://localhost:5000/signin/T0K",
                                       deadline_hours=48))
    first = text.split("\n\n")[1]
    assert "seient seient" not in text and "seient seient" not in html, first
    assert first.startswith("Carla et convida a jugar a La Città #12 per correu al seient 3"), first


# --- terms of la-citta.ca.txt -------------------------------------------

def test_rule_text_terms():
    t = translations("ca")
    assert t.gettext("Voice of the People") == "Desig del Poble"          # "27 cartes Desig del Poble"
    assert t.gettext("castle") == "castell" and t.gettext("quarry") == "pedrera"
    assert t.ngettext("citizen", "citizens", 1) == "ciutadà"
    assert ca(Msg(", but the city at {castle} is full: the citizen goes back to the bank.", castle="E3")) \
        == ", però la ciutat d'E3 és plena: el ciutadà torna a la banca."   # "pertanyen a “la banca”"
    assert not [s for _, _, s in _entries() if re.search(r"Veu del Poble|\bcantera", s)]


# --- plural forms ---------------------------------------------------------

def test_every_plural_entry_has_many_equal_to_other():
    with PO.open("rb") as f:
        plurals = [m for m in read_po(f) if m.id and isinstance(m.id, tuple)]
    assert plurals
    bad = [m.id[0] for m in plurals if len(m.string) != 3 or not all(m.string) or m.string[1] != m.string[2]]
    assert not bad, bad


@pytest.mark.parametrize("n, text", [(1, "1 ciutadà"), (2, "2 ciutadans"), (1_000_000, "1000000 ciutadans")])
def test_plural_citizens(n, text):
    assert ca(Msgn("{n} citizen", "{n} citizens", n)) == text
