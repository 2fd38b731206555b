"""The rule modules list, check and explain the same orders
(pbem/engine/lacitta/political.py and the modules it asks): an order is
legal by the quick one-verb check exactly when the full listing holds it,
and every refused order gets the sentence of the rule that refuses it.
Also "6. Kansan ääni valitaan" (voice.wishes_of)."""
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from pbem.engine import get_game
from pbem.engine.lacitta import political, voice
from pbem.engine.lacitta.actions import Order
from pbem.engine.lacitta.explain import explain, not_legal

G = get_game("lacitta")


def _near_misses(s, seat, legal):
    """Orders like the legal ones, on the seat's other sites and cards."""
    sites = sorted({o.site for o in legal if o.site} | set(s.occ))[:12]
    out = set(legal)
    for o in legal:
        for x in sites:
            out.add(Order(o.verb, x, o.what, o.n, o.extra))
    for card in ("palazzo", "dom", "hospital", "university", "bathhouse"):
        out.add(Order("card", sites[0] if sites else "F6", card))
    out |= {Order("gold"), Order("citizens", n=3), Order("golden", sites[0] if sites else "F6", n=3)}
    return out


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow],
          phases=(Phase.explicit, Phase.reuse, Phase.generate))
@given(seats=st.integers(2, 5), seed=st.integers(0, 2 ** 32), rnd=st.randoms(use_true_random=False))
def test_quick_check_listing_and_refusal_agree(seats, seed, rnd):
    s = G.new_state(seats, seed, setup="beginner")
    checked = 0
    while not s.is_terminal() and checked < 40:
        seat = rnd.choice(s.current_seats())
        legal = s.legal_actions(seat)
        if s.phase_name == "political":
            checked += 1
            listed = set(political.orders(s, seat))
            for o in _near_misses(s, seat, legal):
                if o.verb == "pass":
                    continue
                assert political.is_legal(s, seat, o) == (o in listed), o
                if o not in listed:
                    why = explain(s, seat, o)
                    assert why, o
                    if o.verb in ("build", "card", "master", "found", "bread", "golden", "harvest"):
                        assert why != not_legal(o), o      # a rule's own sentence
        s.apply(seat, rnd.choice(legal))


def test_voice_three_alike_is_the_one_wish():
    assert voice.wishes_of(["health", "culture", "health", "health"]) == ["health"]


def test_voice_two_pairs_are_two_wishes_in_colour_order():
    assert voice.wishes_of(["health", "culture", "health", "culture"]) == ["culture", "health"]


def test_voice_one_pair_is_the_wish():
    assert voice.wishes_of(["education", "culture", "health", "education"]) == ["education"]
