"""The wall round's orders are listed and refused from one test each
(pbem/engine/diestadt/wall_orders.py; DS-70 to DS-80, A-13 to A-22): in
random legal games, at every gate, wall and tower decision, an order of
that kind is in the legal list exactly when its rule has no reason to
refuse it, and a refused one gets a sentence of its own rule."""
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st_

from pbem.engine.diestadt import wall_orders as W
from pbem.engine.diestadt.actions import BuildGate, PlaceTower
from pbem.engine.diestadt.explain import why_illegal
from pbem.engine.diestadt.grid import edge_name

from .helpers import GAME


def _candidates(st):
    """Every order of the kind owed now, legal or not, with its rule's reason."""
    seat = st.current_seats()[0]
    if st.decision == "gate":
        edges = W.gate_edges(st)
        inside = [(sp, side) for _, sp, _ in st.placed for side in range(4)][:8]
        for e in edges + [e for e in inside if e not in edges]:
            for guard in (False, True):
                a = BuildGate(edge_name(e), guard)
                yield a, W.why_gate(st, seat, a)
    elif st.decision == "wall":
        for end, e in W.wall_ends(st):
            for guard in (False, True):
                a = W.wall_order(end, guard, e)
                yield a, W.why_wall(st, seat, a)
    elif st.decision == "tower":
        for end in ("cw", "ccw"):
            a = PlaceTower(end, st.wall.end_corner(end))
            yield a, W.why_tower(st, seat, a)
        yield PlaceTower(None), W.why_tower(st, seat, PlaceTower(None))


@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seats=st_.integers(2, 4), seed=st_.integers(0, 2 ** 32))
def test_listed_exactly_when_the_rule_does_not_refuse(seats, seed):
    rng = random.Random(seed)
    st = GAME.new_state(seats, seed)
    asked = 0
    while not st.is_terminal():
        seat = st.current_seats()[0]
        legal = st.legal_actions(seat)
        for a, why in _candidates(st):
            asked += 1
            assert (a in legal) == (why is None), (a, why)
            if why is not None:
                assert why_illegal(st, seat, a) == why
        st.apply(seat, legal[rng.randrange(len(legal))])
    assert asked > 0          # a whole game has wall rounds (DS-68, DS-69)
