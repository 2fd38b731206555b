"""Random legal games for 2–5 seats keep every invariant after every order
(tests/engine/lacitta/invariants.py)."""
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from pbem.engine import get_game
from tests.engine.lacitta.invariants import check

G = get_game("lacitta")


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow],
          phases=(Phase.explicit, Phase.reuse, Phase.generate))   # full games: no slow shrinking
@given(seats=st.integers(2, 5), seed=st.integers(0, 2 ** 32), setup=st.sampled_from(["beginner", "experienced"]),
       rnd=st.randoms(use_true_random=False), defaults=st.booleans())
def test_random_games_keep_invariants(seats, seed, setup, rnd, defaults):
    s = G.new_state(seats, seed, setup=setup)
    check(s)
    while not s.is_terminal():
        seat = rnd.choice(s.current_seats())
        if defaults and rnd.random() < 0.2:
            a = s.default_action(seat)
        else:
            a = rnd.choice(s.legal_actions(seat))
        s.apply(seat, a)
        check(s)
    assert s.year == 6


@settings(max_examples=8, deadline=None, phases=(Phase.explicit, Phase.reuse, Phase.generate))
@given(seats=st.integers(2, 5), seed=st.integers(0, 2 ** 32))
def test_population_limits_hold_outside_migration(seats, seed):
    """Growth and Goldene Zeiten never push a city over its limit."""
    import random
    rnd = random.Random(seed)
    s = G.new_state(seats, seed)
    while not s.is_terminal():
        seat = rnd.choice(s.current_seats())
        a = rnd.choice(s.legal_actions(seat))
        before = {c.castle: c.citizens for c in s.cities.values()}
        year, rnd_ = s.year, s.round
        s.apply(seat, a)
        if a.verb == "golden" and (s.year, s.round, s.phase_name) in ((year, rnd_, "political"),
                                                                     (year, rnd_ + 1, "political")):
            c = s.cities[a.site]
            assert c.citizens == before[a.site] + a.n <= s.capacity(c)
