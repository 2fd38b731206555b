"""The per-process cache of drawn board pictures (pbem.service.post.pictures.draw):
one drawing per distinct board, whichever mail asks for it."""
from __future__ import annotations

import pytest

import pbem.boards
from pbem.engine import get_game
from pbem.service.post import pictures


@pytest.fixture
def drawings(monkeypatch):
    """Counts board drawings (each returns a PNG stand-in with a serial)."""
    drawn: list[tuple] = []

    def fake_render_png(game: str, view: dict, *, highlight=(), **_kw) -> bytes:
        drawn.append((game, view, tuple(highlight)))
        return b"\x89PNG fake %d" % len(drawn)

    monkeypatch.setattr(pbem.boards, "render_png", fake_render_png)
    monkeypatch.setattr(pictures, "_cache", type(pictures._cache)())
    return drawn


def _view(seat=0, moves=0):
    state = get_game("lacitta").new_state(3, 5)
    for _ in range(moves):
        s = state.current_seats()[0]
        state.apply(s, next(a for a in state.legal_actions(s) if a.site))  # a building: the board changes
    return state.view(seat)


def test_the_same_placeholder_is_drawn_once(drawings):
    data = pictures.placeholder("lacitta", _view(), ["F7"])
    first = pictures.draw(data)
    assert first.startswith(b"\x89PNG")
    assert pictures.draw(data) == first
    assert len(drawings) == 1


def test_placeholders_that_draw_the_same_svg_share_one_picture(drawings):
    view = _view()
    other = dict(view, private={"note": "never drawn"})  # not on the board: same SVG
    a = pictures.draw(pictures.placeholder("lacitta", view))
    b = pictures.draw(pictures.placeholder("lacitta", other))
    assert a == b and len(drawings) == 1


def test_different_boards_are_different_pictures(drawings):
    a = pictures.draw(pictures.placeholder("lacitta", _view(0)))
    site = next(a.site for a in get_game("lacitta").new_state(3, 5).legal_actions(0) if a.site)
    b = pictures.draw(pictures.placeholder("lacitta", _view(0), [site]))  # a legal site highlighted
    c = pictures.draw(pictures.placeholder("lacitta", _view(1)))  # "(you)" marks another seat
    d = pictures.draw(pictures.placeholder("lacitta", _view(0, moves=2)))
    assert len({a, b, c, d}) == 4 and len(drawings) == 4


def test_the_cache_is_bounded_and_forgets_the_least_recently_used(drawings, monkeypatch):
    monkeypatch.setattr(pictures, "CACHE_SIZE", 2)
    views = [_view(0, moves=n) for n in range(3)]
    datas = [pictures.placeholder("lacitta", v) for v in views]
    pictures.draw(datas[0]); pictures.draw(datas[1])
    pictures.draw(datas[0])  # used again: now the most recent
    pictures.draw(datas[2])  # evicts datas[1]
    assert len(pictures._cache) == 2
    n = len(drawings)
    pictures.draw(datas[0])
    assert len(drawings) == n
    pictures.draw(datas[1])
    assert len(drawings) == n + 1
