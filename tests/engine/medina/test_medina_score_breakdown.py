"""Where the points come from ("Pisteytys"), for the game-over mail and
page: State.score_breakdown() gives one row per scoring rule, each seat's
points, summing to the seat's total."""
from pbem.engine import get_game
from pbem.engine.api import State
from pbem.i18n import translate

from .helpers import pos
from .test_medina_end_scoring import RULEBOOK_EXAMPLE


def test_the_rulebook_example_broken_down_by_scoring_rule():
    st = pos(RULEBOOK_EXAMPLE + "palace tile orange seat 1\ntower tile 2 seat 1\n")
    rows = st.score_breakdown()
    labels = [translate(label, "en") for label, _ in rows]
    assert labels == ["palace pieces", "stables", "merchants", "wall pieces", "palace tiles", "tower tiles"]
    by_label = dict(zip(labels, (points for _, points in rows)))
    # orange (seat 1): 4 pieces + 2 stables + 3 merchants + 2 walls; the orange tile 4, tower tile 2
    assert {k: v[0] for k, v in by_label.items()} == {
        "palace pieces": 4, "stables": 2, "merchants": 3, "wall pieces": 2, "palace tiles": 4, "tower tiles": 2}
    for s in st.scores():
        assert sum(points[s.seat] for _, points in rows) == s.points
    assert translate(rows[0][0], "fi") == "palatsipalat" and translate(rows[4][0], "cs") == "destičky paláců"


def test_a_game_without_a_breakdown_says_none():
    from tests.service.tinygame import GAME as TALLY   # a game that keeps the default

    assert type(TALLY.new_state(2, 1)).score_breakdown is State.score_breakdown
    assert TALLY.new_state(2, 1).score_breakdown() is None
    assert get_game("medina").new_state(3, 1).score_breakdown() is not None
