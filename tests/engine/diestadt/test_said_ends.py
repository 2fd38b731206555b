"""Die Stadt's wall ends and held lines in the reader's language (issue 22):
an early wall order held for later is written in each language's order
words (Game.held_text), and the log, the text view, the decision banner
and refusals name a wall end with the language's word (``myötä`` /
``vasta``, ``Uhrzeigersinn``), never the English ``cw``/``ccw`` (Czech and
Catalan keep the board's marks ``cw``/``ccw``: docs/i18n/cs.md, ca.md)."""
from __future__ import annotations

import re

import pytest

from pbem.engine import OrderError
from pbem.engine.diestadt.decision import decision
from pbem.i18n import translate

from .helpers import GAME, play, pos

TRIGGER = "seats 3\ntile T20 1 0\ntile T21 19 180\npiles 0 20 20\nturn seat 2 drawn 20\n"
#: the words each language writes for cw, ccw
ENDS = {"en": ("cw", "ccw"), "fi": ("myötä", "vasta"), "de": ("Uhrzeigersinn", "Gegenuhrzeigersinn"),
        "cs": ("cw", "ccw"), "ca": ("cw", "ccw")}
ENGLISH = re.compile(r"\b(cw|ccw)\b")


@pytest.mark.parametrize("line, lang, text", [
    ("wall cw guard", "fi", "muuri myötä vartija"), ("wall ccw", "de", "Mauer Gegenuhrzeigersinn"),
    ("tower ccw", "fi", "torni vasta"), ("no tower", "cs", "žádná věž"), ("no tower", "de", "kein Turm"),
    ("wall ccw guard", "ca", "muralla ccw guàrdia"), ("tower cw", "en", "tower cw"),
    ("wall cw guard", "xx", "wall cw guard"), ("tile T22 0", "fi", "tile T22 0"),
])
def test_a_held_line_is_written_in_the_readers_words(line, lang, text):
    assert GAME.held_text(line, lang) == text


@pytest.mark.parametrize("line", ["wall cw guard", "wall ccw", "tower cw", "tower ccw", "no tower"])
@pytest.mark.parametrize("lang", ["en", "fi", "cs", "ca", "de"])
def test_a_held_line_in_any_language_is_held_as_the_same_line(line, lang):
    assert GAME.hold_order(GAME.held_text(line, lang)) == line


def wall_round():
    """A wall round under way: the gate built, seat 3 to build a piece."""
    st = pos(TRIGGER)
    play(st, "tile T22 0", "gate T20 N")
    return st


def _in(lang: str, texts) -> str:
    return "\n".join(translate(t, lang) for t in texts)


@pytest.mark.parametrize("lang", ["fi", "de"])
def test_the_log_names_a_wall_end_in_the_readers_word(lang):
    st = wall_round()
    events = play(st, "wall cw", "wall ccw", "tower ccw")
    text = _in(lang, events)
    cw, ccw = ENDS[lang]
    assert cw in text and ccw in text and not ENGLISH.search(text), text


def test_english_log_lines_keep_cw_and_ccw():
    st = wall_round()
    events = play(st, "wall cw", "wall ccw", "tower ccw")
    assert [str(e) for e in events][:2] == [
        translate(e, "en") for e in events][:2]
    assert "at the cw end" in "\n".join(map(str, events)) and "at the ccw end" in "\n".join(map(str, events))


@pytest.mark.parametrize("lang", ["fi", "de"])
def test_the_text_view_and_the_tower_banner_name_ends_in_the_readers_word(lang):
    st = wall_round()
    play(st, "wall cw", "wall ccw")
    view = GAME.view_text(st.view(1), tr=lambda m: translate(m, lang))
    banner = decision(st, 1)
    why = translate(banner["why"], lang)
    assert ENDS[lang][0] in view and not ENGLISH.search(view), view
    assert ENDS[lang][1] in why and not ENGLISH.search(why), why


def test_a_refused_guard_names_the_ends_in_the_readers_word():
    """seat 3's guard on T20E faces across the one-tile row: seat 1's guard
    on T20W is barred, and the refusal names the end and the choices."""
    st = wall_round()
    play(st, "wall cw guard")
    with pytest.raises(OrderError) as err:
        GAME.parse_action(st, 0, "wall ccw guard")
    said = translate(err.value.message, "fi")
    assert "vasta" in said and "myötä" in said and not ENGLISH.search(said), said
    assert ENGLISH.search(str(err.value.message))


def test_a_refused_tower_names_the_end_in_the_readers_word():
    st = wall_round()
    play(st, "wall cw", "wall cw")
    with pytest.raises(OrderError) as err:
        GAME.parse_action(st, 1, "tower ccw")
    said = translate(err.value.message, "de")
    assert "Gegenuhrzeigersinn" in said and not ENGLISH.search(said), said
