"""Finnish reads right whatever is inserted (issue 22, "Other language
defects"): a date never stands in the nominative where Finnish needs a case
ending, a seat is named once, the games' own terms (la-citta.fi.txt,
medina.fi.txt, carcassonne-die-stadt.fi.txt) and Finnish order words, and
inserted phrases that fit the sentence around them. Rendered through the
mail composer or :func:`pbem.i18n.translate`, as a player reads them."""
from __future__ import annotations

import re
from datetime import datetime, timezone

import pytest
from babel.messages.pofile import read_po

from pbem.engine.messages import Msg, Msgn
from pbem.i18n import translate, translations
from pbem.mail import compose as c
from tests.mail.test_compose import envelope, parts

EXPIRES = datetime(2026, 11, 28, 16, 46, tzinfo=timezone.utc)   # a Saturday
CATALOG = "pbem/translations/fi/LC_MESSAGES/messages.po"


def _fi_strings() -> list[str]:
    with open(CATALOG, "rb") as f:
        cat = read_po(f)
    out = []
    for m in cat:
        if m.id:
            out += [s for s in (m.string if isinstance(m.string, tuple) else (m.string,)) if s]
    return out


def _date_then_case_word(text: str) -> list[str]:
    """A formatted date followed by a word that needs it in another case
    ("lauantai 28. marraskuuta 2026, 18.46 (Europe/Helsinki) asti")."""
    return re.findall(r"\(Europe/Helsinki\)\s+(asti|saakka|mennessä|lähtien)", text)


@pytest.mark.parametrize("new_player", [False, True])
def test_signin_link_expiry_is_not_a_nominative_date_before_asti(new_player):
    m, text, html = parts(c.signin(envelope(locale="fi", reply_to=None), signin_url="https://x/s",
                                   expires_at=EXPIRES, new_player=new_player))
    date = c.format_deadline(EXPIRES, "Europe/Helsinki", "fi")
    assert date.startswith("lauantai 28. marraskuuta 2026")
    for body in (text, html):
        assert not _date_then_case_word(body), body
        assert f"Viimeinen käyttöaika: {date}." in body


def test_invitation_names_the_seat_once_and_its_link_expiry_reads_right():
    m, text, html = parts(c.invitation(envelope(locale="fi", reply_to=None), c.GameRef("Torre Vecchia", 2),
                                       host_name="Anna", seat=3, other_players=["Bo"],
                                       signin_url="http://localhost:5000/signin/T0K", deadline_hours=48,
                                       link_expires_at=EXPIRES))
    for body in (text, html):
        assert "pelaajapaikalla 3" in body
        assert not re.search(r"pelaajapaikalla\W+pelaajapaik", body, re.I), body
        assert not _date_then_case_word(body), body
        assert "Viimeinen käyttöaika: lauantai 28. marraskuuta 2026" in body


def test_no_catalog_entry_puts_a_date_or_deadline_before_a_case_word():
    bad = [s for s in _fi_strings()
           if re.search(r"(%\((expires|deadline|when)\)s|\{(deadline|when)\})\s+(asti|saakka|mennessä|lähtien)", s)]
    assert not bad, bad


def test_a_paused_game_has_no_deadline_not_nobody():
    assert c.format_deadline(None, "Europe/Helsinki", "fi") == "ei ole (peli on keskeytetty)"


def test_wait_time_is_an_object_of_odota_not_before_kuluttua():
    text = translations("fi").gettext("Too many requests of this kind in a short time. Try again in "
                                      "%(wait)s; nothing you sent was stored.") % {"wait": "3 minuuttia"}
    assert "Odota 3 minuuttia" in text and "kuluttua" not in text


@pytest.mark.parametrize("card,name", [("Universität", "Korkeakoulu"), ("Badhaus", "Kylpylä"),
                                       ("Dom", "Katedraali"), ("Großer Baumeister", "Mestari Rakentaja"),
                                       ("Bürgernähe", "Ihmisläheisyys"), ("Voice of the People", "Kansan ääni")])
def test_la_citta_cards_use_the_rule_texts_names(card, name):
    assert translate(Msg(card), "fi") == name


def test_la_citta_citizens_go_back_to_the_common_supply_not_a_bank():
    """LC "Asukkaiden muuttoliike": "palautetaan takaisin yleiseen asukasvarastoon"."""
    text = translate(Msg(", but the city at {castle} is full: the citizen goes back to the bank.",
                         castle="E3"), "fi")
    assert "yleiseen varastoon" in text and "pankki" not in text
    assert not any("pankkiin" in s for s in _fi_strings())


@pytest.mark.parametrize("english,finnish", [
    ("Now buildings without citizens must be demolished: demolish F6.", "pura F6"),
    ("Now each city's wish is chosen: wish E3 culture.", "toive E3 kulttuuri"),
    ("Castles are placed only during setup; now: {phase}. To start a new city: found F6.", "perusta F6"),
    ("{n} citizens must leave for lack of food first (starve E3 1).", "nälkä E3 1"),
])
def test_la_citta_examples_are_finnish_orders(english, finnish):
    assert finnish in translate(Msg(english, phase="Pelivuosi 1", n=2), "fi")


def test_help_texts_write_orders_in_finnish():
    english = re.compile(r"<code>(tile|wall|gate|tower|no tower|cw|ccw)\b|'merchant H6'|demolish F6|"
                         r"wish E3|starve E3|found F6")
    bad = [s for s in _fi_strings() if english.search(s)]
    assert not bad, bad


def test_medina_palace_is_named_once_and_in_the_right_case():
    palace = Msg("the {colour} palace at {squares}", colour=Msg("orange"), squares="E5 E6")
    dome = translate(Msg("{seat} places a dome on {site} and claims {palace} (size {size}).",
                         seat=Msg("Seat {n}", n=2), site="E5", palace=palace, size=2), "fi")
    assert "oranssi palatsi ruuduissa E5 E6" in dome and "palatsin palatsi" not in dome
    stable = translate(Msg("{seat} places a stable on {site} at {palace}.", seat=Msg("Seat {n}", n=2),
                           site="E7", palace=palace), "fi")
    assert "palatsin palatsi" not in stable and "palatsin oranssi" not in stable
    tile = translate(Msgn("{seat} takes the {colour} palace tile ({n} point) from {source} with {palace} (size {size}).",
                          "{seat} takes the {colour} palace tile ({n} points) from {source} with {palace} (size {size}).",
                          4, seat=Msg("Seat {n}", n=2), colour=Msg("orange"), source=Msg("the table"),
                          palace=palace, size=2), "fi")
    assert "pelaajalta pelipöytä" not in tile and "palatsilla oranssi" not in tile
    own = translate(Msg("you already own {a_palace}; each player claims only one palace of each colour",
                        a_palace=Msg("an {colour} palace", colour=Msg("orange"))), "fi")
    assert "(oranssi palatsi)" in own and "palatsin (palatsi" not in own


def test_medina_merchants_are_asukkaat_as_in_medina_fi():
    assert translate(Msg("merchants"), "fi") == "asukkaat"
    assert translate(Msg("a merchant"), "fi") == "asukas"
    chain = translate(Msg("the merchant chain can still grow, so the merchant goes next to an end of the chain; "
                          "a new chain may start only when no chain can grow"), "fi")
    assert "kauppias" not in chain and "asukasketju" in chain


def test_die_stadt_gate_and_wall_piece_are_not_objects_in_the_nominative():
    for what in (Msg("the city gate"), Msg("a wall piece at the {end} end", end="cw")):
        text = translate(Msg("Seat {seat} builds {what} on {edge}.", seat=2, what=what, edge="H3N"), "fi")
        assert "rakentaa kaupungin portti" not in text and "rakentaa muuripala" not in text, text
        assert "reunalle H3N" in text


def test_die_stadt_markets_counted_in_the_nominative_after_a_colon():
    text = translate(Msgn("Overseers: {what} borders {markets}: {names} scores {points}.",
                          "Overseers: {what} borders {markets}: {names} score {points}.", 1,
                          what=Msg("the residential area at {space}", space="T20"),
                          markets=Msgn("{n} market", "{n} markets", 2), names="Anna", points=4), "fi")
    assert "toreihin 2 toria" not in text and "(2 toria)" in text


@pytest.mark.parametrize("english,wrong", [
    ("{site} is not one of your farms.", "ei ole yksi"),
    ("{castle} is not one of your cities.", "ei ole yksi"),
])
def test_not_one_of_your_is_not_calqued(english, wrong):
    assert wrong not in translate(Msg(english, site="F6", castle="E3"), "fi")


def test_notables_are_not_counted_reads_as_a_passive():
    text = translations("fi").gettext(
        "After year six: one point per citizen, three per city with printed arches of all three colours "
        "(notables do not count), minus five for a famine in year six. Ties go to the richer player.")
    assert "väritettyjä asukkaita ei lasketa" in text and "eivät lasketa" not in text


def test_a_seat_is_pelaajapaikka_never_paikka_which_is_la_cittas_site():
    text = translations("fi").gettext(
        "Seat %(number)s is offered to %(name)s: an invitation is on its way, and the seat is theirs once they "
        "accept it. %(before)s has been told.") % {"number": 3, "name": "Bo", "before": "Anna"}
    assert "pelaajapaikka siirtyy hänelle" in text and "paikka on hänen" not in text
