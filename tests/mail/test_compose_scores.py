"""The game-over mail shows where each seat's points come from when the
game gives a breakdown (issue 29: Medina's totals alone told nothing)."""
from __future__ import annotations

from pbem.mail import compose as c

from .test_compose import GAME, envelope, parts

ROWS = (("palace pieces", 17), ("stables", 6), ("merchants", 6), ("wall pieces", 4), ("palace tiles", 9),
        ("tower tiles", 2))


def test_game_over_shows_each_seats_breakdown():
    scores = [c.ScoreLine(1, "Ann", 44, parts=ROWS), c.ScoreLine(2, "Bo", 12, parts=(("stables", 12),))]
    _, text, html = parts(c.game_over(envelope(), GAME, scores=scores))
    ann = text[text.index("1. Ann: 44 points"):text.index("2. Bo")]
    assert "palace pieces 17, stables 6, merchants 6, wall pieces 4, palace tiles 9, tower tiles 2" in ann
    assert "stables 12" in text[text.index("2. Bo"):]
    assert "palace pieces 17 · stables 6 · merchants 6" in html


def test_no_breakdown_no_extra_line():
    _, text, html = parts(c.game_over(envelope(), GAME, scores=[c.ScoreLine(1, "Ann", 44)]))
    assert " · " not in html and "palace" not in text
