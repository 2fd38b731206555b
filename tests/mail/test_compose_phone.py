"""A text board in the HTML part survives a 375 px phone (issue 29): its
grid lines are never wrapped (a wrapped grid row reads as garbage); they
keep their columns in a small monospace block that scrolls sideways if it
must, while the prose around them wraps as usual."""
from __future__ import annotations

import re

from pbem.mail import compose as c

from .test_compose import GAME, envelope, parts, turn

GRID = "\n".join(["      A B C D E F G H I J K L M N O P",
                  "    1 - - - - - - - - - - - - - - - - 2"]
                 + [f" {n:>2} - . . . . g . . . . . . . . . . . -" for n in range(1, 12)]
                 + ["    4 - - - - - - - - - - - - - - - - 3"])
VIEW = ("Medina, Turn 7: seat 1, piece 2 of 2\nYou are seat 1 (domes: red).\n\n" + GRID +
        "\n(g grey, k black, b brown, o orange, capital = finished, * dome, s stable, m merchant; "
        "# wall, - empty wall place, 1-4 towers)\nPlatná místa: T15: 0 180 · S16: 0 180 · U16: 0 180 · S17: 90 270")


def _blocks(html: str) -> list[tuple[str, str]]:
    """(style, text) of every <pre> in the HTML."""
    return [(m.group(1), m.group(2)) for m in re.finditer(r'<pre style="([^"]*)">(.*?)</pre>', html, re.S)]


def test_the_grid_of_a_text_board_never_wraps_and_the_prose_does():
    _, text, html = parts(c.turn_notice(envelope(), GAME, turn(private_info=VIEW)))
    assert GRID in text  # the text part keeps the view as the game wrote it
    blocks = _blocks(html)
    grid = [style for style, body in blocks if "A B C D E F G H I J K L M N O P" in body]
    assert len(grid) == 1 and "white-space:pre;" in grid[0] and "pre-wrap" not in grid[0]
    size = int(re.search(r"font-size:(\d+)px", grid[0]).group(1))
    assert size * 0.6 * max(len(line) for line in GRID.splitlines()) <= 300  # fits a 375 px phone
    prose = [style for style, body in blocks if "You are seat 1" in body or "Platná místa" in body]
    assert prose and all("pre-wrap" in style for style in prose)
    wrapped = [body for style, body in blocks if "pre-wrap" in style]
    assert not any(" - . . . ." in body for body in wrapped)


def test_every_kind_with_a_position_uses_the_same_layout():
    for msg in (c.turn_result(envelope(), GAME, c.Result(phase="x", position_text=VIEW)),
                c.game_over(envelope(), GAME, scores=[c.ScoreLine(1, "A", 3)], final_view=VIEW),
                c.host_action(envelope(), GAME, action="paused", phase="x", deadline=None, position_text=VIEW)):
        _, _, html = parts(msg)
        grid = [style for style, body in _blocks(html) if "A B C D E F G H" in body]
        assert len(grid) == 1 and "white-space:pre;" in grid[0]
