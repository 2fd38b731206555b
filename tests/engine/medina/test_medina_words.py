"""Medina orders in the player's language: every order kind written in
Finnish, Czech, Catalan and German is the English order; every legal order
written by :func:`order_text` in any language reads back as itself; no word
has two meanings (pbem/engine/medina/words.py, docs/i18n/)."""
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as S

from pbem.engine import OrderParseError
from pbem.engine.fold import LANGUAGES, spellings
from pbem.engine.medina import board as B
from pbem.engine.medina.pieces import KINDS, PALACE_COLOURS
from pbem.engine.medina.words import EN, WORDS, order_text

from .helpers import GAME, play

ORDERS = {
    "palace orange E6": {"fi": "palatsi oranssi E6", "cs": "palác oranžový E6",
                         "ca": "palau taronja E6", "de": "Palast orange E6"},
    "palace grey B2": {"fi": "harmaa palatsi B2", "cs": "Palác šedý B2", "ca": "palau gris B2",
                       "de": "Palast grau B2"},
    "dome E5": {"fi": "kupoli E5", "cs": "kopule E5", "ca": "cúpula E5", "de": "Kuppel E5"},
    "stable F5": {"fi": "talli F5", "cs": "stáj F5", "ca": "estable F5", "de": "Stall F5"},
    "merchant G6": {"fi": "asukas G6", "cs": "obchodník G6", "ca": "mercader G6", "de": "Händler G6"},
    "wall W1": {"fi": "muuri W1", "cs": "hradba W1", "ca": "muralla W1", "de": "Mauer W1"},
}
CASES = [(en, lang, text) for en, by in ORDERS.items() for lang, text in by.items()]


@pytest.fixture
def state():
    """Seat 1 to play, an orange palace under construction at E5."""
    s = GAME.new_state(3, 7)
    play(s, "merchant H6", "palace orange E5")
    return s


@pytest.mark.parametrize(("english", "lang", "text"), CASES)
def test_each_order_kind_is_the_english_order_in_every_language(state, english, lang, text):
    seat = state.current_seats()[0]
    assert GAME.parse_action(state, seat, text) == GAME.parse_action(state, seat, english)


@pytest.mark.parametrize(("typed", "english"), [
    ("palac oranzovy E6", "palace orange E6"),      # Czech without diacritics
    ("PALÁC ČERNÁ B2", "palace black B2"),          # feminine colour, upper case
    ("hnedou palac B2", "palace brown B2"),
    ("palac sedy B2", "palace grey B2"),
    ("obchodnik G6", "merchant G6"),
    ("staj F5", "stable F5"),
    ("cupula E5", "dome E5"),
    ("marro palau B2", "palace brown B2"),
    ("Haendler G6", "merchant G6"),
    ("Handler G6", "merchant G6"),
    ("oranžová E6", "palace orange E6"),           # a colour alone is a palace piece
])
def test_diacritics_and_case_may_be_dropped(state, typed, english):
    seat = state.current_seats()[0]
    assert GAME.parse_action(state, seat, typed) == GAME.parse_action(state, seat, english)


def test_two_pieces_in_two_languages_on_one_line_are_refused(state):
    with pytest.raises(OrderParseError, match="one order per line"):
        GAME.parse_action(state, 0, "talli F5 stáj F6")


def test_an_unknown_word_names_the_readers_own_words(state):
    """Issue 22: the refusal lists the piece words of the player's language only."""
    from pbem.i18n import translate

    with pytest.raises(OrderParseError) as err:
        GAME.parse_action(state, 0, "tanssi E6")
    assert "palace, dome, stable, merchant, wall" in str(err.value.message)
    fi = translate(err.value.message, "fi")
    assert "palatsi, kupoli, talli, asukas, muuri" in fi and "palace" not in fi and "palác" not in fi


def test_no_word_has_two_meanings_across_languages():
    seen: dict[str, set] = {}
    for w in WORDS.values():
        for part in ("kinds", "colours"):
            for word, meaning in getattr(w, part).items():
                for form in spellings(word):
                    seen.setdefault(form, set()).add((part, meaning))
    assert not {f: m for f, m in seen.items() if len(m) > 1}
    for form in seen:   # no keyword reads as a square, a wall space or a number
        assert B.parse_square(form) is None and B.parse_wall(form) is None, form
        assert " " not in form and not form.isdecimal(), form


def test_every_language_has_a_word_for_every_piece_and_colour():
    assert tuple(WORDS) == LANGUAGES
    assert set(EN.kinds.values()) == set(KINDS) and set(EN.colours.values()) == set(PALACE_COLOURS)
    for w in WORDS.values():
        assert set(w.kinds.values()) == set(KINDS), w.lang
        assert set(w.colours.values()) == set(PALACE_COLOURS), w.lang


@settings(max_examples=5, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seats=S.integers(3, 4), seed=S.integers(0, 2 ** 32))
def test_every_legal_order_in_every_language_reads_back(seats, seed):
    rnd = random.Random(seed)
    s = GAME.new_state(seats, seed)
    while not s.is_terminal():
        seat = s.current_seats()[0]
        legal = s.legal_actions(seat)
        for a in rnd.sample(legal, min(3, len(legal))):
            for lang in LANGUAGES:
                assert GAME.parse_action(s, seat, order_text(a, lang)) == a, (lang, order_text(a, lang))
        s.apply(seat, rnd.choice(legal))


def test_the_text_board_draws_the_readers_letters():
    """Issue 22: the text board's letters for the palace colours, stables
    and merchants are the reader's (Finnish h harmaa, m musta, r ruskea,
    o oranssi, t talli, a asukas), and its key says so."""
    from pbem.i18n import translate

    state, rng = GAME.new_state(3, 5), random.Random(5)
    for _ in range(30):
        seat = state.current_seats()[0]
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    view = state.view(0)
    grids = {}
    for lang in ("en", "fi"):
        lines = GAME.view_text(view, lambda m, lang=lang: translate(m, lang)).splitlines()
        top = next(i for i, line in enumerate(lines) if line.strip().startswith("A B C"))
        grids[lang] = {ch for line in lines[top + 2:top + 13] for ch in line[6:-2] if ch.isalpha()}
        key = lines[top + 14]
        assert key.startswith({"en": "(g grey, k black, b brown, o orange",
                               "fi": "(h harmaa, m musta, r ruskea, o oranssi"}[lang]), key
    assert grids["en"] and grids["en"] <= set("gkbosmGKBO")
    assert grids["fi"] and grids["fi"] <= set("hmrotaHMRO")
    assert grids["en"] != grids["fi"]
