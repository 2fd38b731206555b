"""Die Stadt's tile-edge letters in the reader's language (issue 22): the
text view's grid and the drawn tile's rotations write a tile's edges with
the language's letters (``KTKA`` for ``SMSR`` in Finnish: katu, tori,
asuinalue), the help's example and key use them, and the parser reads each
language's letters as well as the English ``S M R``. English text is
unchanged (the golden playthroughs)."""
from __future__ import annotations

import re

import pytest

from pbem.engine import OrderParseError
from pbem.engine.diestadt.words import WORDS, edge_letters, read_edges
from pbem.i18n import translate

from .helpers import GAME, pos

TRIGGER = "seats 3\ntile T20 1 0\ntile T21 19 180\npiles 0 20 20\nturn seat 2 drawn 20\n"
LANGS = ["en", "fi", "cs", "ca", "de"]


def test_a_letter_means_one_kind_of_edge_in_every_language():
    meaning: dict[str, str] = {}
    for w in WORDS.values():
        assert len(set(w.edges)) == 3, w.lang
        for letter, kind in zip(w.edges, "SMR"):
            assert meaning.setdefault(letter, kind) == kind, (w.lang, letter)


@pytest.mark.parametrize("lang", LANGS)
def test_the_text_view_writes_edges_in_the_readers_letters(lang):
    st = pos(TRIGGER)
    view = st.view(1)
    text = GAME.view_text(view, tr=lambda m: translate(m, lang))
    for tile in view["tiles"]:
        assert edge_letters(tile["edges"], lang) in text
    for r in view["drawn"]["rotations"]:
        assert f"{r['rotation']}: {edge_letters(r['edges'], lang)}" in text
    grid = text[text.rindex("\n\n"):]
    others = set("SMR") - set(WORDS[lang].edges)
    rows = [row for row in grid.splitlines() if row[:3].strip().isdigit()]     # not the column header
    assert rows and not any(c in others for row in rows for c in row[5:]), grid


@pytest.mark.parametrize("lang", LANGS)
def test_a_tile_by_its_edges_in_any_languages_letters(lang):
    st = pos(TRIGGER)
    [seat] = st.current_seats()
    shown = {r["edges"]: r["rotation"] for r in st.view(seat)["drawn"]["rotations"]}
    edges, rotation = next(iter(shown.items()))
    tile = GAME.order_text(GAME.parse_action(st, seat, "tile T22 0"), lang).split()[0]
    a = GAME.parse_action(st, seat, f"{tile} T22 {edge_letters(edges, lang).lower()}")
    assert a.rotation == rotation or len([e for e in shown if e == edges]) > 1


def test_mixed_letters_are_no_edges():
    assert read_edges("SMSR") == read_edges("ktka") == read_edges("smsw") == "SMSR"
    assert read_edges("turm") is None and read_edges("SMKA") is None
    st = pos(TRIGGER)
    with pytest.raises(OrderParseError):
        GAME.parse_action(st, 1, "tile T22 SMKA")


@pytest.mark.parametrize("lang", ["fi", "cs", "ca", "de"])
def test_the_help_writes_the_edge_example_and_key_in_the_readers_letters(lang):
    text = translate(GAME.order_help(), lang)
    example = edge_letters("SMSR", lang)
    assert f" F7 {example} " in text
    s, m, r = WORDS[lang].edges
    assert re.search(rf"{s} \w+, {m} \w+, {r} \w+", text), text


def test_a_refusal_names_the_shown_edges_in_the_readers_letters():
    st = pos(TRIGGER)
    with pytest.raises(OrderParseError) as err:
        GAME.parse_action(st, 1, "tile T22 MMMM")
    fi = translate(err.value.message, "fi")
    assert "TTTT" in fi and not re.search(r"\b[SMR]{4}\b", fi), fi
