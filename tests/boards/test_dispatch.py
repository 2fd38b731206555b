"""pbem.boards.render_svg finds the board module the game declares
(``Game.board``), never by the game's name."""
from __future__ import annotations

import sys
import types

import pytest

import pbem.boards as boards
import pbem.engine as engine


class _Fake:
    """Stands in for a registered Game: only ``board`` is read."""

    def __init__(self, board):
        self.board = board


@pytest.fixture
def fake_game(monkeypatch):
    calls = []
    module = types.ModuleType("tests.fake_board_module")

    def render_svg(view, highlight=(), *, lang="en"):
        calls.append((view, highlight, lang))
        return "<svg/>"

    module.render_svg = render_svg
    monkeypatch.setitem(sys.modules, "tests.fake_board_module", module)
    monkeypatch.setitem(engine.GAMES, "fakegame", _Fake("tests.fake_board_module"))
    return calls


def test_dispatches_to_the_declared_module_with_highlight_as_a_tuple(fake_game):
    view = {"x": 1}
    assert boards.render_svg("fakegame", view, highlight=iter(["F7", "G7", "F7", ""])) == "<svg/>"
    assert fake_game == [(view, ("F7", "G7"), "en")]
    boards.render_svg("fakegame", view, lang="cs")
    assert fake_game[-1] == (view, (), "cs")


@pytest.mark.parametrize("name", ["nosuchgame", "png", "../etc", "os.path", "Lacitta", "", None])
def test_unknown_or_unsafe_names_raise_key_error(name):
    with pytest.raises(KeyError):
        boards.render_svg(name, {})


def test_a_game_without_a_board_picture_raises_key_error(monkeypatch):
    monkeypatch.setitem(engine.GAMES, "textonly", _Fake(None))
    with pytest.raises(KeyError, match="no board picture"):
        boards.board_module("textonly")


def test_a_misspelt_board_module_fails_loudly(monkeypatch):
    """A declared module that is missing is a broken install, not a game
    without a picture: ImportError, which callers do not catch."""
    monkeypatch.setitem(engine.GAMES, "broken", _Fake("pbem.boards.lacittaa"))
    with pytest.raises(ImportError) as err:
        boards.board_module("broken")
    assert not isinstance(err.value, KeyError)
    monkeypatch.setitem(engine.GAMES, "broken", _Fake("pbem.boards.png"))   # no render_svg
    with pytest.raises(ImportError, match="render_svg"):
        boards.board_module("broken")


def test_every_registered_game_declares_a_board_that_loads():
    for name, game in engine.GAMES.items():
        if game.board is not None:
            assert callable(boards.board_module(name).render_svg)


def test_lacitta_is_registered():
    assert callable(boards.board_module("lacitta").render_svg)


def test_picker_orders_lists_label_site_and_text():
    from dataclasses import dataclass

    from pbem.engine.api import Action

    @dataclass(frozen=True)
    class Build(Action):
        kind: str
        site: str | None = None

        def to_text(self) -> str:
            return f"build {self.kind} {self.site}" if self.site else self.kind

    orders = boards.picker_orders([Build("farm", "F7"), Build("gold"), Build("farm", "F7")])
    assert orders == [{"label": "build farm", "site": "F7", "text": "build farm F7"},
                      {"label": "gold", "site": None, "text": "gold"}]
