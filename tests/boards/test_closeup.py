"""The close-up picture for a phone (pbem.boards.closeup)."""
from __future__ import annotations

import io

import pytest

PIL = pytest.importorskip("PIL")
from PIL import Image  # noqa: E402

from pbem.boards import closeup, render_svg  # noqa: E402

from .test_raster import position  # noqa: E402

CASES = [("lacitta", 3, 30, 7), ("lacitta", 5, 60, 3), ("medina", 3, 12, 7), ("medina", 4, 80, 7)]


def smallest_label(svg: str) -> float:
    return min(f for _, f in closeup.sites(svg).values() if f)


@pytest.mark.parametrize("game,seats,moves,seed", CASES)
def test_full_board_is_illegible_on_a_phone_and_the_closeup_is_legible(game, seats, moves, seed):
    view, hl = position(game, seats, moves, seed)
    svg = render_svg(game, view, highlight=hl)
    width, height = closeup.board_size(svg)
    label = smallest_label(svg)
    # the mailed picture at 375 px: labels far below the legible size
    assert closeup.label_px(label, width) < 5
    box, shown = closeup.window(svg, hl)
    x0, y0, x1, y1 = box
    assert 0 <= x0 < x1 <= width + 1e-6 and 0 <= y0 < y1 <= height + 1e-6
    # the close-up shown at the phone's width: labels at least LABEL_PX
    assert closeup.label_px(label, x1 - x0) >= closeup.LABEL_PX - 1e-6
    # it names only legal sites, all of them inside the window, and at least one
    boxes = closeup.sites(svg)
    assert shown and set(shown) <= set(hl)
    for s in shown:
        b = boxes[s][0]
        assert x0 - 0.01 <= b[0] and b[2] <= x1 + 0.01 and y0 - 0.01 <= b[1] and b[3] <= y1 + 0.01
    # legal sites left out are really outside (the list is complete)
    for s in set(hl) - set(shown):
        b = boxes[s][0]
        assert not (x0 - 0.01 <= b[0] and b[2] <= x1 + 0.01 and y0 - 0.01 <= b[1] and b[3] <= y1 + 0.01)


@pytest.mark.parametrize("game,seats,moves,seed", CASES[::2])
def test_closeup_png_is_the_window_at_phone_density(game, seats, moves, seed):
    view, hl = position(game, seats, moves, seed)
    svg = render_svg(game, view, highlight=hl)
    box, _ = closeup.window(svg, hl)
    img = Image.open(io.BytesIO(closeup.render_png(game, view, box, highlight=hl)))
    want_w = closeup.PHONE_WIDTH * closeup.DENSITY
    assert abs(img.width - want_w) <= 2
    assert abs(img.height - want_w * (box[3] - box[1]) / (box[2] - box[0])) <= 3
    # a picture, not a blank: many colours (landscape, sites, legal marks)
    assert len(img.convert("RGB").getcolors(1 << 16) or ()) > 20


def test_no_closeup_without_legal_sites_or_when_labels_are_large():
    view, hl = position("medina", 3, 12, 7)
    svg = render_svg("medina", view, highlight=hl)
    assert closeup.window(svg, []) is None
    assert closeup.window(svg, ["NOT-A-SITE"]) is None
    big = ('<svg viewBox="0 0 200 100"><g class="site" data-site="A1"><rect class="ring" x="10" y="10" '
           'width="40" height="40"/><text x="1" y="1" font-size="12">A1</text></g></svg>')
    assert closeup.label_px(12, 200) > closeup.LABEL_PX
    assert closeup.window(big, ["A1"]) is None


def test_sites_read_polygon_rect_and_circle_rings():
    svg = ('<svg viewBox="0 0 100 100">'
           '<g class="site legal" data-site="A1"><polygon class="ring" points="1,2 5,2 5,8 1,8"/>'
           '<text x="0" y="0" font-size="7.5">A1</text></g>'
           '<g class="site" data-site="W3"><rect class="ring" x="10" y="20" width="4" height="6"/></g>'
           '<g class="site" data-site="T1"><circle class="ring" cx="50" cy="50" r="3"/></g></svg>')
    assert closeup.sites(svg) == {"A1": ((1, 2, 5, 8), 7.5), "W3": ((10, 20, 14, 26), None),
                                  "T1": ((47, 47, 53, 53), None)}


def test_shown_sites_in_natural_order():
    svg = '<svg viewBox="0 0 2000 100">' + "".join(
        f'<g class="site" data-site="{n}"><rect class="ring" x="{i * 12}" y="0" width="10" height="10"/>'
        f'<text x="0" y="0" font-size="7.5">{n}</text></g>'
        for i, n in enumerate(["A10", "A2", "B1"])) + "</svg>"
    _, shown = closeup.window(svg, ["A10", "B1", "A2"])
    assert shown == ["A2", "A10", "B1"]


def test_render_png_refuses_an_empty_box():
    view, hl = position("medina", 3, 12, 7)
    with pytest.raises(ValueError):
        closeup.render_png("medina", view, (10, 10, 10, 20), highlight=hl)


@pytest.mark.parametrize("seats,moves,seed", [(4, 60, 1), (3, 150, 2)])
def test_a_grown_city_still_gets_a_closeup_that_can_be_drawn(seats, moves, seed):
    """Die Stadt's board grows with the city: late in the game the legible
    window would need a board wider than MAX_WIDTH px. The window is then
    widened to what can be drawn, and the close-up is drawn."""
    from pbem.boards.png import MAX_WIDTH

    view, hl = position("diestadt", seats, moves, seed)
    svg = render_svg("diestadt", view, highlight=hl)
    box, shown = closeup.window(svg, hl)
    width = closeup.board_size(svg)[0]
    assert round(closeup.PHONE_WIDTH * closeup.DENSITY * width / (box[2] - box[0])) <= MAX_WIDTH
    img = Image.open(io.BytesIO(closeup.render_png("diestadt", view, box, highlight=hl)))
    assert abs(img.width - closeup.PHONE_WIDTH * closeup.DENSITY) <= 2


def test_a_closeup_drawn_from_the_svg_leaves_out_only_sites_outside_its_box():
    """Die Stadt (a static layer of each game's own) draws its close-up from
    the SVG with the box as viewBox: sites wholly outside are left out,
    those inside kept, and the result is still one well-formed SVG."""
    import random
    import xml.etree.ElementTree as ET

    from pbem.boards import closeup, render_svg
    from pbem.engine import get_game

    game = get_game("diestadt")
    state, rng = game.new_state(3, 7), random.Random(1)
    for _ in range(40):
        seat = state.current_seats()[0]
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    seat = state.current_seats()[0]
    legal = [a.site for a in state.legal_actions(seat) if a.site]
    svg = render_svg("diestadt", state.view(seat), highlight=legal)
    box, inside = closeup.window(svg, legal)
    boxed = closeup._boxed(svg, box)
    ET.fromstring(boxed)   # well-formed
    kept, everywhere = closeup.sites(boxed), closeup.sites(svg)
    assert set(inside) <= set(kept) and len(kept) < len(everywhere)
    for name, (b, _font) in everywhere.items():
        outside = b[2] < box[0] or b[0] > box[2] or b[3] < box[1] or b[1] > box[3]
        assert (name in kept) != outside, name


@pytest.mark.parametrize("kind", ["lacitta", "medina", "diestadt"])
def test_window_of_finds_the_window_the_whole_svg_gives(kind):
    """window_of reads a shared static layer's sites (La Città, Medina)
    instead of drawing the whole SVG: the same window, in every language."""
    import random

    from pbem.boards import closeup, render_svg
    from pbem.engine import get_game

    state, rng = get_game(kind).new_state(3, 11), random.Random(11)
    compared = 0
    for i in range(80):
        if state.is_terminal():
            break
        seat = state.current_seats()[0]
        actions = state.legal_actions(seat)
        if i % 9 == 0:
            view, legal = state.view(seat), [a.site for a in actions if a.site]
            for lang in ("en", "cs"):
                assert closeup.window_of(kind, view, legal, lang) == closeup.window(
                    render_svg(kind, view, highlight=legal, lang=lang), legal)
                compared += 1
        state.apply(seat, rng.choice(actions))
    assert compared >= 4
