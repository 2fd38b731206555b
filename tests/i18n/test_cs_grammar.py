"""Czech grammar of the catalog (issue 22, "Other language defects").

The outside testers' Czech defects, each rendered the way a player reads
it (through :func:`pbem.i18n.translate` or the composed mail), and checks
over the whole catalog so the same kind of defect does not come back in
another entry:

- a count filled in before a noun whose form fits only some numbers
  ("pro 3 míst"; Czech has 1 / 2-4 / 5+);
- a past tense after a player's name or for "you" ("Carla obsadil",
  "zmeškal jsi"): players' genders are unknown;
- a date after a preposition that needs another case ("do sobota"):
  dates are filled in as formatted text in the nominative;
- the seat named twice in the invitation ("na místo místo 3");
- terms of la-citta.cs.txt ("společná zásoba", not "bank").
"""
from __future__ import annotations

import re
from datetime import datetime, timezone

import pytest

from pbem.engine.messages import Msg, Msgn
from pbem.engine.phrases import seat
from pbem.i18n import translate, translations
from pbem.mail import compose as c
from tests.i18n.catalog import entries
from tests.mail.test_compose import envelope, parts

SATURDAY = datetime(2026, 11, 28, 19, 0, tzinfo=timezone.utc)   # sobota 28. listopadu 2026
GAME = c.GameRef("La Città", 12, "http://localhost:5000/games/12")


def _entries():
    return entries("cs")


def cs(msg) -> str:
    return translate(msg, "cs")


# --- counts -------------------------------------------------------------

@pytest.mark.parametrize("count", [2, 3, 4, 5])
def test_the_game_created_line_reads_right_for_any_seat_count(count):
    line = cs(Msg("{name} created the game for {count} seats.", name="Carla", count=count))
    assert "míst." not in line and f"pro {count} míst" not in line, line
    assert line == f"Carla zakládá hru (počet míst: {count}).", line


@pytest.mark.parametrize("n, word", [(1, "hráč"), (2, "hráči"), (3, "hráči"), (4, "hráči"),
                                     (5, "hráčů"), (12, "hráčů")])
def test_plural_players_take_the_czech_form_of_their_number(n, word):
    assert translations("cs").ngettext("%(count)s player", "%(count)s players", n) % {"count": n} == f"{n} {word}"


@pytest.mark.parametrize("n, word", [(1, "pole"), (3, "pole"), (5, "polí")])
def test_plural_spaces_are_board_squares_not_seats(n, word):
    # Die Stadt's spaces are "pole" as La Città's sites: "místo" is a seat
    assert cs(Msgn("{n} space", "{n} spaces", n)) == f"{n} {word}"


@pytest.mark.parametrize("n, word", [(1, "budova"), (3, "budovy"), (5, "budov")])
def test_plural_buildings(n, word):
    assert cs(Msgn("{n} building", "{n} buildings", n)) == f"{n} {word}"


def test_seat_and_player_ranges_are_labels():
    assert cs(Msg("{game} is for {span} seats, not {seats}.", game="Medina", span="2-4",
                  seats="5")) == "Medina: počet míst musí být 2-4, ne 5."
    assert cs(Msg("{title} is for {min} to {max} players.", title="Medina", min=2, max=4)) \
        == "Medina: počet hráčů musí být 2 až 4."
    assert cs(Msg("{site} is not used in a {n}-player game.", site="A1", n=5)) \
        == "A1 se při počtu hráčů 5 nepoužívá."


@pytest.mark.parametrize("cost, gold", [(1, 0), (2, 1), (5, 3)])
def test_gold_after_a_number(cost, gold):
    line = cs(Msg("{card} costs {cost} gold; you have {gold}.", card="Zlaté časy", cost=cost, gold=gold))
    assert f"{cost} zlata" not in line, line
    assert line == f"Zlaté časy stojí {cost}, ale tolik zlata nemáš (máš {gold}).", line


# a count filled in straight before a noun form that fits only some numbers
COUNT_NOUN = re.compile(
    r"(?:\{(?:count|n|span|min|max|cost|income|gold|food|hours|pieces|guards|towers|imagined)\}"
    r"|%\((?:count|num|hours|min|max)\)[sd])"
    r"\s+(?:míst|místa|hráčů|hráče|hráči|zlata|zlat|potravin|obyvatel|obyvatelé|dílů|díly|"
    r"strážných|věží|hodin|hodiny|pomyslnými)\b")


def test_no_single_form_entry_puts_a_count_before_a_counted_noun():
    bad = [(mid, s) for mid, plural, s in _entries() if not plural and COUNT_NOUN.search(s)]
    assert not bad, bad


# --- gender -------------------------------------------------------------

@pytest.mark.parametrize("name", ["Carla", "Petr"])
def test_event_lines_read_right_for_any_name(name):
    assert cs(Msg("{name} took seat {number}.", name=name, number=2)) == f"{name} obsazuje místo 2."
    assert cs(Msg("{name} took over seat {number} from {before}.", name=name, number=2,
                  before="Jana")) == f"{name} přebírá místo 2 (dříve: Jana)."
    missed = cs(Msg("{name} (seat {n}) missed the deadline; the default order {orders} was applied.",
                    name=name, n=2, orders="pas"))
    assert "zmeškal " not in missed and missed.startswith(f"{name} (místo 2): termín zmeškán"), missed
    assert cs(Msg("{name} created the game for {count} seats.", name=name, count=3)).startswith(
        f"{name} zakládá hru")


# a past tense (or passive participle) agreeing with a name filled in, or
# with "you" ("jsi"/"ses"/"sis"): both of unknown gender
PAST_AFTER_NAME = re.compile(r"^(?:\{(?:name|host|who|seat|names|before)\}|%\((?:name|host|names)\)s)"
                             r"(?: \([^)]*\))?\s+\w+l[aoiy]?\b")
PAST_YOU = re.compile(r"\b\w+l (?:jsi|ses|sis)\b|\b(?:jsi|ses|sis) \w+l\b|\bbys\b|\babys\b", re.I)
PARTICIPLE = re.compile(r"\b(?:přihlášen|odhlášen|pozván|připojen|nepřipojen|zmeškali|zmeškal|vyhrál)\b", re.I)


def test_no_entry_makes_a_player_or_you_masculine():
    bad = [(mid, s) for mid, _, s in _entries()
           if PAST_AFTER_NAME.search(s) or PAST_YOU.search(s) or PARTICIPLE.search(s)]
    assert not bad, bad


def test_labels_of_a_seat_and_a_winner():
    t = translations("cs")
    assert t.gettext("won by %(name)s") % {"name": "Carla"} == "vítěz: Carla"
    assert t.ngettext("missed %(count)s", "missed %(count)s", 3) % {"count": 3} == "zmeškáno: 3"
    assert t.gettext("joined") == "připojeno"


# --- dates and "next year" after a preposition ---------------------------

def test_an_extended_deadline_is_not_put_after_do():
    m, text, html = parts(c.host_action(envelope(locale="cs", timezone="Europe/Prague"), GAME,
                                        action="extended", phase="Rok 2, politické kolo 3",
                                        deadline=SATURDAY))
    subject = str(m["Subject"])
    assert "do sobota" not in subject and "do sobota" not in text, subject
    assert "nový termín: sobota 28. listopadu 2026" in subject, subject
    assert "Nový termín: sobota 28. listopadu 2026" in text, text


def test_the_invitation_link_expiry_is_not_put_after_do():
    m, text, html = parts(c.invitation(envelope(locale="cs", timezone="Europe/Prague", reply_to=None), GAME,
                                       host_name="Carla", seat=3, other_players=[],
                                       signin_url="http://localhost:5000/signin/T0K", deadline_hours=48,
                                       link_expires_at=SATURDAY))
    assert "do sobota" not in text, text
    assert "platí do: sobota 28. listopadu 2026" in text, text


def test_no_entry_puts_a_date_after_do():
    assert not [(mid, s) for mid, _, s in _entries() if re.search(r"\bdo (?:\{deadline\}|%\((?:deadline|expires)\)s)", s)]


@pytest.mark.parametrize("when, word", [("next year", "příští rok"), ("this year", "letos")])
def test_the_famine_round_names_its_year_in_brackets(when, word):
    assert cs(Msg(", famine: loses round 1 of {when}", when=Msg(when))) == f", hladomor: přichází o 1. kolo ({word})"
    assert cs(Msg("Famine: you lose the first political round of {when}.", when=Msg(when))) \
        == f"Hladomor: přicházíš o první politické kolo ({word})."


# --- the invitation ------------------------------------------------------

@pytest.mark.parametrize("others", [[], ["Bo", "Cy"]])
def test_the_invitation_names_the_seat_once(others):
    m, text, html = parts(c.invitation(envelope(locale="cs", reply_to=None), GAME, host_name="Carla", seat=3,
                                       other_players=others, signin_url="http://localhost:5000/signin/T0K",
                                       deadline_hours=48))
    first = text.split("\n\n")[1]
    assert "místo místo" not in first and "na místo 3" in first, first
    assert first.startswith("Carla tě zve ke hře La Città #12 e-mailem na místo 3"), first


# a name filled in straight after a word that puts it in another case than the nominative
NAME_AFTER_CASE_WORD = re.compile(
    r"\b(?:od|do|k|ke|pro|s|se|u|za|při|v|ve|z|ze|vedle|podle|místu|místa|na)\s+"
    r"(?:\{(?:name|who|names|host|waiting|seats|source|before|from_seat)\}|%\((?:name|who|host|names|seats)\)s)")


def test_no_entry_declines_a_name_it_cannot_decline():
    assert cs(Msg("{name} took over seat {number} from {before}.", name="Carla", number=2, before="Jana")) \
        == "Carla přebírá místo 2 (dříve: Jana)."
    assert translations("cs").gettext("You play %(who)s.") % {"who": "Carla"} == "Hraješ jako Carla."
    bad = [(mid, s) for mid, _, s in _entries() if NAME_AFTER_CASE_WORD.search(s)]
    assert not bad, bad


def test_a_medina_seat_is_not_named_twice():
    only = cs(Msg("Only {seat} has pieces left: each of their turns must now include a dome.", seat=seat(1)))
    assert "místu místo" not in only and "(místo 2)" in only, only
    assert cs(Msg("claimed by {seat}", seat=seat(1))) == "vlastník: místo 2"


# --- terms of la-citta.cs.txt -------------------------------------------

def test_a_citizen_goes_back_to_the_common_supply():
    line = cs(Msg(", but the city at {castle} is full: the citizen goes back to the bank.", castle="E3"))
    assert line == ", ale město u E3 je plné: obyvatel se vrací do společné zásoby."
    assert not [s for _, _, s in _entries() if re.search(r"\bbank", s)]


def test_deck_and_discards_are_the_rule_texts_piles():
    line = cs(Msg("Political display: {cards} (deck {deck}, discards {discards}).", cards="Palác", deck=20,
                  discards=3))
    assert line == "Nabídka politických karet: Palác (balík 20, odkládací balík 3)."
