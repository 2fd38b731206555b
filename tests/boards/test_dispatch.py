"""pbem.boards.render_svg finds the game's module by name."""
from __future__ import annotations

import sys
import types

import pytest

import pbem.boards as boards


@pytest.fixture
def fake_game(monkeypatch):
    calls = []
    module = types.ModuleType("pbem.boards.fakegame")

    def render_svg(view, highlight=()):
        calls.append((view, highlight))
        return "<svg/>"

    module.render_svg = render_svg
    monkeypatch.setitem(sys.modules, "pbem.boards.fakegame", module)
    return calls


def test_dispatches_by_game_name_with_highlight_as_a_tuple(fake_game):
    view = {"x": 1}
    assert boards.render_svg("fakegame", view, highlight=iter(["F7", "G7", "F7", ""])) == "<svg/>"
    assert fake_game == [(view, ("F7", "G7"))]


@pytest.mark.parametrize("name", ["nosuchgame", "png", "../etc", "os.path", "Lacitta", "", None])
def test_unknown_or_unsafe_names_raise_key_error(name):
    with pytest.raises(KeyError):
        boards.render_svg(name, {})


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
