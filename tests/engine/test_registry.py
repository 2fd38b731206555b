"""Registration of games (pbem/engine/__init__.py) fails loudly, and the
settings a game declares are checked by one method (Game.check_settings)."""
from __future__ import annotations

import sys
import types

import pytest

import pbem.engine as engine
from pbem.engine import GAMES, RegistrationError, check_declaration, get_game, load_games, register


def test_every_registered_game_is_found_by_name():
    assert set(engine.ENGINES) <= set(GAMES)
    for name, game in GAMES.items():
        assert get_game(name) is game and game.name == name


def test_a_misspelt_engine_module_is_an_error_not_a_skip():
    with pytest.raises(RegistrationError, match="no module 'pbem.engine.lacittaa'"):
        load_games({"lacitta": "pbem.engine.lacittaa"})
    with pytest.raises(RegistrationError, match="no module 'pbem.engin.medina'"):
        load_games({"medina": "pbem.engin.medina"})


def test_an_import_error_inside_an_engine_propagates(monkeypatch, tmp_path):
    """A missing dependency inside an engine is the engine's error, shown as
    it is (not disguised as a missing game, nor skipped)."""
    (tmp_path / "fake_engine_needs_more.py").write_text("import nosuchdependency_xyz\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    with pytest.raises(ModuleNotFoundError, match="nosuchdependency_xyz") as err:
        load_games({"fake": "fake_engine_needs_more"})
    assert not isinstance(err.value, RegistrationError)


def test_a_module_without_game_or_with_a_wrong_name_is_an_error(monkeypatch):
    empty = types.ModuleType("tests.fake_engine_empty")
    monkeypatch.setitem(sys.modules, "tests.fake_engine_empty", empty)
    with pytest.raises(RegistrationError, match="defines no GAME"):
        load_games({"fake": "tests.fake_engine_empty"})
    with pytest.raises(RegistrationError, match="is named 'lacitta'"):
        load_games({"citta": "pbem.engine.lacitta"})


def _game_with(**facts):
    cls = type(GAMES["lacitta"])
    return type("Bad", (cls,), facts)()


@pytest.mark.parametrize(("facts", "words"), [
    ({"name": "La Citta"}, "name must be"),
    ({"title": " "}, "title"),
    ({"min_seats": 0}, "min_seats"),
    ({"min_seats": 6}, "min_seats"),
    ({"options": {"setup": ()}}, "option 'setup'"),
    ({"options": {"setup": ("a", "a")}}, "option 'setup'"),
    ({"options": {"setup": "beginner"}}, "option 'setup'"),
    ({"board": "pbem/boards/lacitta.py"}, "board must be"),
    ({"previewable": "yes"}, "previewable"),
])
def test_a_bad_declaration_is_refused_at_registration(facts, words):
    with pytest.raises(RegistrationError, match=words):
        check_declaration(_game_with(**facts))


@pytest.mark.parametrize("name", sorted(GAMES))
def test_check_settings_fills_defaults_and_refuses_bad_settings(name):
    game = GAMES[name]
    defaults = {option: allowed[0] for option, allowed in game.options.items()}
    for seats in range(game.min_seats, game.max_seats + 1):
        assert game.check_settings(seats) == defaults
        assert game.check_settings(seats, {}) == defaults
    for seats in (game.min_seats - 1, game.max_seats + 1, "3", 3.0, True, None):
        with pytest.raises(ValueError, match=f"{game.title} is for .* seats, not"):
            game.check_settings(seats)
        with pytest.raises(ValueError):
            game.new_state(seats, 1)
    with pytest.raises(ValueError, match="no option 'colour'"):
        game.check_settings(game.min_seats, {"colour": "red"})
    with pytest.raises(ValueError):
        game.new_state(game.min_seats, 1, colour="red")
    for option, allowed in game.options.items():
        for value in allowed:
            assert game.check_settings(game.min_seats, {option: value})[option] == value
        with pytest.raises(ValueError, match=f"option {option} must be one of {', '.join(allowed)}"):
            game.check_settings(game.min_seats, {option: "no such value"})
        with pytest.raises(ValueError):
            game.new_state(game.min_seats, 1, **{option: "no such value"})


@pytest.fixture
def games_kept():
    """GAMES as it was before the test, put back after it."""
    before = dict(GAMES)
    yield
    GAMES.clear()
    GAMES.update(before)


def _toy(name="trial"):
    from tests.toygame.game import PebblesGame

    return type("Trial", (PebblesGame,), {"name": name, "title": "Trial"})()


def test_register_adds_a_game_by_object_or_by_module(games_kept, monkeypatch):
    game = _toy()
    assert register(game) is game and get_game("trial") is game
    assert register(game) is game                       # again: nothing changes
    module = types.ModuleType("tests.fake_engine_plugin")
    module.GAME = _toy("plugin")
    monkeypatch.setitem(sys.modules, "tests.fake_engine_plugin", module)
    assert register("tests.fake_engine_plugin") is module.GAME and GAMES["plugin"] is module.GAME
    assert "trial" not in engine.ENGINES and "plugin" not in engine.ENGINES


def test_register_refuses_a_taken_name_a_bad_game_or_a_missing_module(games_kept):
    with pytest.raises(RegistrationError, match="'lacitta' is already registered"):
        register(_toy("lacitta"))
    with pytest.raises(RegistrationError, match="seats must be"):
        register(type("Bad", (type(_toy()),), {"min_seats": 3, "max_seats": 2})())
    with pytest.raises(RegistrationError, match="no module 'tests.no_such_game'"):
        register("tests.no_such_game")
    with pytest.raises(RegistrationError, match="not a pbem.engine.api.Game"):
        register(object())
    assert "trial" not in GAMES and get_game("lacitta") is not None
