"""A player sees the command language in their own language only (issue 22):
the orders an engine writes (``Game.order_text``), its order help and its
"unknown word" refusal hold no English order word where the player's
language has its own, and every order written reads back as the same order.

"English order word": a word of a game's English words table (verbs, pieces,
cards, wishes, compass words; not the glue words) that is not also a word of
the language's own table (German ``Gold``, Czech ``cw``); words of one or two
letters (compass letters, sites) are the board's marks in every language.
"""
from __future__ import annotations

import dataclasses
import random
import re

import pytest

from pbem.engine import GAMES, get_game
from pbem.engine.api import OrderParseError
from pbem.engine.diestadt import words as diestadt_words
from pbem.engine.fold import LANGUAGES, fold
from pbem.engine.lacitta import words as lacitta_words
from pbem.engine.medina import words as medina_words
from pbem.i18n import translate

WORDS = {"lacitta": lacitta_words.WORDS, "medina": medina_words.WORDS, "diestadt": diestadt_words.WORDS}
OTHER = [lang for lang in LANGUAGES if lang != "en"]


def table_words(w) -> set[str]:
    """Every folded word of a words table's phrases (not its glue words)."""
    out: set[str] = set()
    for f in dataclasses.fields(w):
        if f.name in ("lang", "fillers"):
            continue
        v = getattr(w, f.name)
        for phrase in (v.keys() if isinstance(v, dict) else v):
            out |= set(re.split(r"[\s-]+", fold(phrase)))
    return out


def english_words(game: str, lang: str) -> set[str]:
    tables = WORDS[game]
    return {x for x in table_words(tables["en"]) - table_words(tables[lang])
            if len(x) > 2 and not x.isdigit()}


def english_in(text: str, game: str, lang: str) -> list[str]:
    """The English order words in ``text`` (as written: Czech ``paláce`` is no ``palace``)."""
    low = text.lower()
    return sorted(x for x in english_words(game, lang)
                  if re.search(rf"(?<![\w'-]){re.escape(x)}(?![\w'-])", low))


def test_the_check_finds_english_words():
    assert english_in("tile F7 90 merchant E", "diestadt", "fi") == ["merchant", "tile"]
    assert english_in("(värit: grey, black, brown, orange)", "medina", "fi") == \
        ["black", "brown", "grey", "orange"]
    assert english_in("Palast orange E5", "medina", "de") == []          # German orange is German


@pytest.mark.parametrize("lang", OTHER)
@pytest.mark.parametrize("name", sorted(GAMES))
def test_orders_are_written_in_the_players_words_and_read_back(name, lang):
    game = get_game(name)
    for seed in (1, 2):
        rng = random.Random(seed)
        state = game.new_state(game.min_seats + seed % 2, seed)
        for _ in range(60):
            if state.is_terminal():
                break
            seat = state.current_seats()[0]
            legal = state.legal_actions(seat)
            for a in rng.sample(legal, min(3, len(legal))):
                text = game.order_text(a, lang)
                assert not english_in(text, name, lang), (text, english_in(text, name, lang))
                assert game.parse_action(state, seat, text).to_text() == a.to_text(), text
            state.apply(seat, rng.choice(legal))


@pytest.mark.parametrize("lang", OTHER)
@pytest.mark.parametrize("name", sorted(GAMES))
def test_order_help_has_no_english_order_word(name, lang):
    text = translate(get_game(name).order_help(), lang)
    assert not english_in(text, name, lang), english_in(text, name, lang)


UNKNOWN = {"lacitta": "hop F6", "medina": "hop E5", "diestadt": "hop T21"}


@pytest.mark.parametrize("lang", OTHER)
@pytest.mark.parametrize("name", sorted(GAMES))
def test_unknown_word_refusal_lists_the_players_words(name, lang):
    game = get_game(name)
    state = game.new_state(game.min_seats, 1)
    with pytest.raises(OrderParseError) as err:
        game.parse_action(state, state.current_seats()[0], UNKNOWN[name])
    text = translate(err.value.message, lang)
    assert not english_in(text, name, lang), (text, english_in(text, name, lang))
    own = table_words(WORDS[name][lang]) - table_words(WORDS[name]["en"])
    assert sum(re.search(rf"(?<!\w){re.escape(x)}(?!\w)", fold(text)) is not None for x in own) >= 3, text
