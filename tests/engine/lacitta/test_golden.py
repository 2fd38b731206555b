"""Golden playthroughs: replay the stored orders and diff the transcript
(events and every seat's view) against the stored text. Never regenerates."""
import difflib

import pytest

from tests.engine.lacitta.golden.playthrough import GAMES, HERE, read_orders, render


@pytest.mark.slow
@pytest.mark.parametrize(("name", "seats", "seed", "setup"), GAMES)
def test_golden_playthrough(name, seats, seed, setup):
    stored = (HERE / f"{name}.txt").read_text(encoding="utf-8")
    orders = read_orders(stored)
    assert orders, "no orders in the golden file"
    now = render(seats, seed, setup, orders)
    if now != stored:
        diff = "".join(difflib.unified_diff(stored.splitlines(True), now.splitlines(True),
                                            "stored", "replayed", n=2))
        pytest.fail(f"{name} differs from the stored playthrough:\n{diff[:6000]}")
