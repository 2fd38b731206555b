"""The absence rule (pbem.service.play.absence_rule), pure: named scenarios
and hypothesis properties over random absences and deadlines (issue 25)."""
from __future__ import annotations

import datetime as dt

from hypothesis import given, settings, strategies as st

from pbem.service.play.absence_rule import Span, covering_end, moved_deadline

T0 = dt.datetime(2026, 12, 1, tzinfo=dt.timezone.utc)
H = dt.timedelta(hours=1)
DAY = dt.timedelta(days=1)


def at(hours: float) -> dt.datetime:
    return T0 + dt.timedelta(hours=hours)


def test_deadline_inside_an_absence_moves_to_its_end_plus_grace():
    spans = [Span(at(0), at(48))]
    assert moved_deadline(at(10), spans, grace=24 * H, cap_left=14 * DAY, budget_left=28 * DAY) == at(72)


def test_deadline_outside_every_absence_does_not_move():
    spans = [Span(at(0), at(48))]
    assert moved_deadline(at(48), spans, grace=24 * H, cap_left=14 * DAY, budget_left=28 * DAY) == at(48)
    assert moved_deadline(at(-1), spans, grace=24 * H, cap_left=14 * DAY, budget_left=28 * DAY) == at(-1)


def test_overlapping_absences_move_a_deadline_once():
    spans = [Span(at(0), at(48)), Span(at(24), at(96))]
    # one move, to the end of the joined span plus grace (not 48+24, then again)
    assert moved_deadline(at(10), spans, grace=24 * H, cap_left=14 * DAY, budget_left=28 * DAY) == at(120)


def test_the_cap_and_the_budget_bound_the_move():
    spans = [Span(at(0), at(24 * 30))]
    assert moved_deadline(at(10), spans, grace=ZERO_H, cap_left=5 * DAY, budget_left=28 * DAY) == at(10) + 5 * DAY
    assert moved_deadline(at(10), spans, grace=ZERO_H, cap_left=14 * DAY, budget_left=2 * DAY) == at(10) + 2 * DAY
    assert moved_deadline(at(10), spans, grace=ZERO_H, cap_left=dt.timedelta(0), budget_left=2 * DAY) == at(10)


ZERO_H = dt.timedelta(0)

hours = st.integers(min_value=-500, max_value=1500)
spans_st = st.lists(st.tuples(hours, st.integers(min_value=1, max_value=400)).map(
    lambda p: Span(at(p[0]), at(p[0] + p[1]))), max_size=6)
limits = st.integers(min_value=0, max_value=40 * 24).map(lambda h: h * H)


@settings(max_examples=300, deadline=None)
@given(spans=spans_st, deadline=hours, grace=st.integers(0, 72).map(lambda h: h * H), cap=limits, budget=limits)
def test_no_deadline_moves_more_than_the_cap_or_the_budget(spans, deadline, grace, cap, budget):
    moved = moved_deadline(at(deadline), spans, grace=grace, cap_left=cap, budget_left=budget)
    assert at(deadline) <= moved <= at(deadline) + min(cap, budget)


@settings(max_examples=300, deadline=None)
@given(spans=spans_st, deadline=hours, grace=st.integers(0, 72).map(lambda h: h * H), cap=limits, budget=limits)
def test_no_deadline_moves_without_an_absence_covering_it(spans, deadline, grace, cap, budget):
    moved = moved_deadline(at(deadline), spans, grace=grace, cap_left=cap, budget_left=budget)
    if moved != at(deadline):
        assert any(s.start <= at(deadline) < s.end for s in spans)
        # and never past the covering span's end plus the grace
        assert moved <= covering_end(at(deadline), spans) + grace


def play(deadlines: list[int], spans: list[Span], cap: dt.timedelta, budget: dt.timedelta) -> list[dt.datetime]:
    """A game's deadlines one after another, each moved by the rule, the cap
    and budget spent as they move (as the service does)."""
    out = []
    for d in deadlines:
        moved = moved_deadline(at(d), spans, grace=24 * H, cap_left=cap, budget_left=budget)
        cap, budget = cap - (moved - at(d)), budget - (moved - at(d))
        out.append(moved)
    return out


@settings(max_examples=200, deadline=None)
@given(spans=spans_st, deadlines=st.lists(hours, max_size=8), cap=limits, budget=limits, seed=st.randoms())
def test_replaying_the_same_absences_gives_the_same_deadlines(spans, deadlines, cap, budget, seed):
    first = play(deadlines, spans, cap, budget)
    shuffled = list(spans)
    seed.shuffle(shuffled)
    assert play(deadlines, shuffled, cap, budget) == first
    assert play(deadlines, spans, cap, budget) == first
    # the whole game's moves together stay within the cap
    assert sum(((m - at(d)) for m, d in zip(first, deadlines)), dt.timedelta(0)) <= min(cap, budget)
