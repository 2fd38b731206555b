"""Replay the stored golden playthroughs (2, 3 and 4 seats) and diff them
line by line: any change of rules, events or views shows up here."""
import pytest

from .golden import CASES, HERE, orders_of, transcript


@pytest.mark.parametrize("name", sorted(CASES))
def test_golden_playthrough_replays_exactly(name):
    stored = (HERE / name).read_text()
    seats, seed = CASES[name]
    orders = orders_of(stored)
    assert len(orders) > 100
    assert transcript(seats, seed, orders).splitlines() == stored.splitlines()
