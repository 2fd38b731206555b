"""The Die Stadt order words of every language (issue 16,
pbem/engine/diestadt/words.py): every meaning has a word in every language,
no word means two things, and every legal order written in a language
(``Game.order_text``) reads back as itself, and a wall or tower order
written so is held as the same early order."""
from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st_

from pbem.engine.diestadt import words
from pbem.engine.diestadt.actions import BuildGate, BuildWall, PlaceTile, PlaceTower
from pbem.engine.fold import LANGUAGES

from .helpers import GAME, TRIGGER, play, pos

MEANINGS = {"kinds": {"tile", "gate", "wall", "tower"}, "roles": {"citizen", "merchant", "overseer"},
            "points": {"N", "NE", "E", "SE", "S", "SW", "W", "NW"}, "ends": {"cw", "ccw"}}


def test_the_tables_are_the_languages_orders_may_be_written_in():
    assert sorted(words.WORDS) == sorted(LANGUAGES)


@pytest.mark.parametrize("lang", sorted(words.WORDS))
def test_every_language_has_a_word_for_every_meaning(lang):
    w = words.WORDS[lang]
    for part, meanings in MEANINGS.items():
        assert set(getattr(w, part).values()) == meanings, (lang, part)
    assert w.guard and w.no


def test_no_word_means_two_things_in_any_language():
    """Within a part (``tori`` a merchant in one table, a tower in another)
    and across parts (a word both an order kind and a follower): a clash is
    resolved by choosing another word, never by the parser's order."""
    meaning: dict[str, tuple[str, str]] = {}
    for w in words.WORDS.values():
        for part in (*MEANINGS, "guard", "no"):
            table = getattr(w, part)
            pairs = table.items() if isinstance(table, dict) else ((x, part) for x in table)
            for word, what in pairs:
                for form in words.forms(word):
                    assert meaning.setdefault(form, (part, what)) == (part, what), (w.lang, word, form)


def wall_round():
    """Seat 1 completed a street in pile 2: seat 1 builds the gate next."""
    st = pos("seats 3\n" + TRIGGER + "piles 0 20 20\nturn seat 1 drawn 20")
    play(st, "tile T22 0")
    return st


@pytest.mark.parametrize("lang, gate, wall, tower, none", [
    ("en", "gate T20 N guard", "wall ccw guard", "tower cw", "no tower"),
    ("fi", "portti T20 pohjoinen vartija", "muuri vasta vartija", "torni myötä", "ei torni"),
    ("cs", "brána T20 sever strážný", "hradba ccw strážný", "věž cw", "žádná věž"),
    ("ca", "portal T20 nord guàrdia", "muralla ccw guàrdia", "torre cw", "cap torre"),
    ("de", "Tor T20 Nord Wächter", "Mauer Gegenuhrzeigersinn Wächter", "Turm Uhrzeigersinn", "kein Turm"),
])
def test_wall_round_orders_are_written_with_the_first_listed_words(lang, gate, wall, tower, none):
    st = wall_round()
    assert GAME.order_text(BuildGate("T20N", True), lang) == gate
    assert GAME.parse_action(st, 0, gate) == BuildGate("T20N", True)
    play(st, "gate T20 N")
    assert GAME.order_text(BuildWall("ccw", True, "T20W"), lang) == wall
    assert GAME.parse_action(st, 1, wall) == BuildWall("ccw", True, "T20W")
    assert GAME.order_text(PlaceTower("cw"), lang) == tower
    assert GAME.order_text(PlaceTower(None), lang) == none
    assert GAME.hold_order(wall) == "wall ccw guard" and GAME.hold_order(none) == "no tower"


@pytest.mark.parametrize("lang, text", [
    ("en", "tile T21 180 merchant SE"), ("fi", "laatta T21 180 kauppias kaakko"),
    ("cs", "dílek T21 180 trhovkyně jihovýchod"), ("ca", "peça T21 180 marxant sud-est"),
    ("de", "Karte T21 180 Marktfrau Südost"),
])
def test_a_tile_order_names_the_follower_and_its_point_in_the_language(lang, text):
    st = pos("seats 2\ntile T20 1 0\nturn seat 1 drawn 6")          # P02: market N
    action = PlaceTile("T21", 180, "merchant", "SE")
    assert action in st.legal_actions(0)
    assert GAME.order_text(action, lang) == text
    assert GAME.parse_action(st, 0, text) == action
    assert GAME.order_text(PlaceTile("T21", 180), lang).split()[1:] == ["T21", "180"]


def check_every_legal_order(state, seen: dict[str, int]) -> None:
    """Every legal order of the seat deciding now, written in every
    language, reads back as itself; a wall or tower order is held as it."""
    seat = state.current_seats()[0]
    for a in state.legal_actions(seat):
        seen[type(a).__name__] = seen.get(type(a).__name__, 0) + 1
        for lang in LANGUAGES:
            text = GAME.order_text(a, lang)
            assert GAME.parse_action(state, seat, text).to_text() == a.to_text(), (lang, text)
            if isinstance(a, (BuildWall, PlaceTower)):
                assert GAME.hold_order(text) == a.to_text(), (lang, text)


def play_checking(seats: int, seed: int, policy: int, tile_share: float = 0.1) -> dict[str, int]:
    """A random game: every gate, wall and tower decision checked, and a
    share of the tile decisions (a drawn tile has hundreds of orders)."""
    rng = random.Random(policy)
    state = GAME.new_state(seats, seed)
    seen: dict[str, int] = {}
    while not state.is_terminal():
        if state.decision != "tile" or rng.random() < tile_share:
            check_every_legal_order(state, seen)
        seat = state.current_seats()[0]
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    return seen


@settings(max_examples=5, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seats=st_.integers(2, 4), seed=st_.integers(0, 2**32 - 1), policy=st_.integers(0, 2**32 - 1))
def test_every_legal_order_in_every_language_reads_back_as_itself(seats, seed, policy):
    assert play_checking(seats, seed, policy)


def test_random_games_reach_every_kind_of_decision():
    """The property above is not vacuous: its games do hold gate, wall
    and tower decisions as well as tiles."""
    seen: dict[str, int] = {}
    for seats, seed in ((2, 1), (3, 2), (4, 3)):
        for kind, n in play_checking(seats, seed, seed, tile_share=0.02).items():
            seen[kind] = seen.get(kind, 0) + n
    assert set(seen) == {"PlaceTile", "BuildGate", "BuildWall", "PlaceTower"}, seen
