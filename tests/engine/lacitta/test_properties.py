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


_WORDS = ["build", "farm", "dom", "found", "from", "golden", "age", "x2", "x9", "bread", "and", "games",
          "education", "health", "culture", "citizens", "3", "starve", "demolish", "wish", ",", "I6",
          "J6", "K6", "Z99", "H6", "pass", "gold", "master", "builder", "castle", "rich", "harvest", "a"]


@settings(max_examples=300, deadline=None)
@given(st.one_of(st.text(max_size=40), st.lists(st.sampled_from(_WORDS), max_size=7).map(" ".join)))
def test_any_text_is_read_or_refused_with_an_order_error(text):
    from pbem.engine import OrderError
    from tests.engine.lacitta.fixtures import position
    s = position("""
        seats 2
        phase political year 1 round 1 seat 1
        city 1 I6 6: market H6, hospital J6
        city 2 Q13 4
        gold 9 1
        display palazzo, dom, master builder, bread and games, golden age, rich harvest, citizens
        voice health culture education culture
        """)
    before = s.to_json()
    try:
        a = G.parse_action(s, 0, text)
    except OrderError as err:
        assert str(err)
    else:
        assert a in s.legal_actions(0)
    assert s.to_json() == before


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(_WORDS + ["M6", "N6", "M7", "L8", "2", "1", "0", "x1"]), max_size=7).map(" ".join))
def test_year_end_orders_read_or_refused_with_an_order_error(text):
    from pbem.engine import OrderError
    from tests.engine.lacitta.fixtures import play, position
    s = position("""
        seats 2
        phase political year 1 round 5 seat 2
        gold 0 0
        food 30 2
        voice culture culture culture health
        city 1 J6 3: statue K6
        city 2 M6 4: farm N6, school M7, school L8
        city 2 Q13 3
        """)
    play(s, "2: gold")
    assert s.current_seats() == [1]
    before = s.to_json()
    try:
        a = G.parse_action(s, 1, text)
    except OrderError as err:
        assert str(err)
    else:
        assert a in s.legal_actions(1) or len(a.extra) > 1
        s.apply(1, a)
        return
    assert s.to_json() == before
