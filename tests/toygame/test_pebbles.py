"""Pebbles, the toy fourth game (tests/toygame), joins pbem with its folder
and one registry line (tests/conftest.py), and nothing else: the suite's
game-wide tests take it in by registration (the conformance test, the
option and order-text tests, every page of every language), and what it
lacks falls back (docs/adding-a-game.md)."""
from __future__ import annotations

from pathlib import Path

import pytest

from pbem.engine import ENGINES, GAMES, get_game
from pbem.i18n import translate
from tests.engine import test_conformance
from tests.engine.playthroughs import diff, main, read
from tests.toygame import GAME

GOLDEN = sorted((Path(__file__).parent / "golden").glob("*.txt"))


def test_it_is_registered_from_outside_pbem_and_the_contract_tests_take_it_in():
    assert get_game("pebbles") is GAME and GAMES["pebbles"] is GAME
    assert "pebbles" not in ENGINES
    assert "pebbles" in test_conformance.NAMES


def test_it_has_no_third_seat_and_says_so():
    assert GAME.check_settings(2) == {"heap": "small"}
    with pytest.raises(ValueError, match="Pebbles is for 2 seats, not 3"):
        GAME.check_settings(3)


@pytest.mark.parametrize("path", GOLDEN, ids=lambda p: p.stem)
def test_its_golden_game_replays_exactly_with_the_golden_tool(path, capsys):
    assert read(path.read_text(encoding="utf-8")).game == "pebbles"
    assert not diff(path)
    assert main(["check", str(path)]) == 0
    assert "1 of 1 playthroughs replay exactly" in capsys.readouterr().out


def test_the_golden_tool_records_it_in_a_folder_of_its_own(tmp_path):
    assert main(["new", "pebbles", "--seats", "2", "--seed", "9", "--option", "heap=large",
                 "--dir", str(tmp_path)]) == 0
    (path,) = tmp_path.glob("*.txt")
    assert path.name == "pebbles-2p-seed9-large.txt" and not diff(path)


def test_without_translations_its_messages_are_english_in_every_language():
    state = GAME.new_state(2, 1)
    (event,) = state.apply(0, GAME.parse_action(state, 0, "take 2"))
    for lang in ("en", "fi", "cs", "ca", "de"):
        assert translate(event.text, lang) == str(event.text)
        assert translate(GAME.order_help(), lang) == str(GAME.order_help())
    assert GAME.order_text(GAME.parse_action(state, 1, "take 3"), "fi") == "take 3"
    assert GAME.option_word("large") == "large"
