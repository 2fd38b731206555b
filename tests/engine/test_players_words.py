"""A player sees the command language in their own language only (issue 22):
the orders an engine writes (``Game.order_text``), its order help and its
"unknown word" refusal hold no English order word where the player's
language has its own, and every order written reads back as the same order.

pbem's own games (:data:`pbem.engine.ENGINES`) are held to it; a game
registered from outside without words tables writes English orders
(``Game.order_text``'s default), which tests/engine/test_order_text.py checks.

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

from pbem.engine import ENGINES, get_game
from pbem.engine.api import OrderError, OrderParseError
from pbem.engine.diestadt import words as diestadt_words
from pbem.engine.fold import LANGUAGES, fold
from pbem.engine.lacitta import parse as lacitta_parse
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


def positions(game, seeds=(1, 2), moves=60):
    """``(state, seat, legal orders, rng)`` along random games of ``game``
    (seat counts alternating with the seed); the caller may draw from
    ``rng``, and the next position follows a random legal order."""
    for seed in seeds:
        rng = random.Random(seed)
        state = game.new_state(game.min_seats + seed % 2, seed)
        for _ in range(moves):
            if state.is_terminal():
                break
            seat = state.current_seats()[0]
            legal = state.legal_actions(seat)
            yield state, seat, legal, rng
            state.apply(seat, rng.choice(legal))


@pytest.mark.parametrize("lang", OTHER)
@pytest.mark.parametrize("name", sorted(ENGINES))
def test_orders_are_written_in_the_players_words_and_read_back(name, lang):
    game = get_game(name)
    for state, seat, legal, rng in positions(game):
        for a in rng.sample(legal, min(3, len(legal))):
            text = game.order_text(a, lang)
            assert not english_in(text, name, lang), (text, english_in(text, name, lang))
            assert game.parse_action(state, seat, text).to_text() == a.to_text(), text


@pytest.mark.parametrize("lang", OTHER)
@pytest.mark.parametrize("name", sorted(ENGINES))
def test_order_help_has_no_english_order_word(name, lang):
    text = translate(get_game(name).order_help(), lang)
    assert not english_in(text, name, lang), english_in(text, name, lang)


UNKNOWN = {"lacitta": "hop F6", "medina": "hop E5", "diestadt": "hop T21"}


@pytest.mark.parametrize("lang", OTHER)
@pytest.mark.parametrize("name", sorted(ENGINES))
def test_unknown_word_refusal_lists_the_players_words(name, lang):
    game = get_game(name)
    state = game.new_state(game.min_seats, 1)
    with pytest.raises(OrderParseError) as err:
        game.parse_action(state, state.current_seats()[0], UNKNOWN[name])
    text = translate(err.value.message, lang)
    assert not english_in(text, name, lang), (text, english_in(text, name, lang))
    own = table_words(WORDS[name][lang]) - table_words(WORDS[name]["en"])
    assert sum(re.search(rf"(?<!\w){re.escape(x)}(?!\w)", fold(text)) is not None for x in own) >= 3, text


def _broken(text: str) -> list[str]:
    """Lines a player may write around a good order: a word short or too
    many, the first word alone, a bad word inside, the order twice."""
    toks = text.split()
    return [" ".join(toks[:-1]), " ".join(toks[1:]), text + " x9", toks[0],
            " ".join(toks[:1] + ["ZZ99"] + toks[2:]), f"{text} {text}"]


@pytest.mark.parametrize("name", sorted(ENGINES))
def test_refusals_show_orders_in_the_players_words(name):
    """A refusal's examples and echoes ("Write: wish E3 culture", "'wall cw'
    is not legal: ... ('tower cw', ...)") are in the player's words."""
    game, seen = get_game(name), set()
    for state, seat, legal, rng in positions(game):
        for lang in OTHER:
            for a in rng.sample(legal, min(2, len(legal))):
                for line in _broken(game.order_text(a, lang)):
                    try:
                        game.parse_action(state, seat, line)
                    except OrderError as err:
                        seen.add(err.message.template)
                        text = translate(err.message, lang)
                        assert not english_in(text, name, lang), (line, text, english_in(text, name, lang))
    assert len(seen) >= 5, seen           # the check met several kinds of refusal


HELP_EXAMPLES = {"lacitta": "pbem.engine.lacitta.help", "medina": "pbem.engine.medina.help",
                 "diestadt": "pbem.engine.diestadt.help"}


@pytest.mark.parametrize("lang", OTHER)
@pytest.mark.parametrize("name", sorted(ENGINES))
def test_order_help_shows_its_examples_in_the_players_words_in_two_columns(name, lang):
    """Every example order of the help is there as ``order_text`` writes it
    in ``lang``, and the help keeps the English help's rows, each order with
    its meaning (the mail lays the rows out: pbem.mail.help_rows)."""
    import importlib

    from pbem.mail.help_rows import blocks

    game = get_game(name)
    text = translate(game.order_help(), lang)
    for action in importlib.import_module(HELP_EXAMPLES[name]).EXAMPLES.values():
        assert game.order_text(action, lang) in text, (action, lang)

    def rows(t: str) -> list[bool]:
        return [bool(r.meaning) for b in blocks(t) if b.kind == "rows" for r in b.rows]
    assert rows(text) == rows(str(game.order_help()))


def test_la_citta_help_examples_read_back():
    from pbem.engine.lacitta.help import EXAMPLES
    from pbem.engine.lacitta.parse import read
    from pbem.engine.lacitta.words import order_text

    for lang in LANGUAGES:
        for action in EXAMPLES.values():
            assert read(order_text(action, lang)) == action, (lang, action)


@pytest.mark.parametrize("lang", OTHER)
def test_a_forced_order_in_the_game_log_is_written_in_the_readers_words(lang):
    """La Città's log line "{seat} has only one legal order: {order}." quoted
    the order in English in every language ("citizens 2" in a German log)."""
    game = get_game("lacitta")
    seen = 0
    for seed in range(40):
        st = game.new_state(3, seed)
        rng = random.Random(seed)
        while not st.is_terminal() and seen < 3:
            seat = st.current_seats()[0]
            action = rng.choice(list(st.legal_actions(seat)))
            for ev in st.apply(seat, action):
                if ev.kind == "forced":
                    text = translate(ev.text, lang)
                    order = lacitta_parse.read(ev.data["order"])
                    assert game.order_text(order, lang) in text, text
                    assert english_in(text, "lacitta", lang) == [], text
                    seen += 1
        if seen >= 3:
            break
    assert seen, "no forced order came up in 40 random games"
