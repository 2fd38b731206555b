"""The order page's words about a La Città position (decision.py): the
banner for each year-end and migration decision, the rules section of the
phase, and the sites the latest order changed (view["last_sites"])."""
import json
import random

from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from pbem.engine import get_game
from pbem.engine.lacitta.geometry import ORDER

G = get_game("lacitta")


def _to(kind: str):
    """A state (and seat) where a seat owes a decision of ``kind``, from
    seeded random games."""
    for seed in range(60):
        s = G.new_state(3, seed, setup="beginner")
        rng = random.Random(seed)
        while not s.is_terminal():
            for seat in s.current_seats():
                d = s.view(seat)["decision"]
                if d and d["kind"] == kind:
                    return s, seat
            seat = s.current_seats()[0]
            s.apply(seat, rng.choice(s.legal_actions(seat)))
    raise AssertionError(f"no random game reached a {kind} decision")


def test_famine_banner_names_the_excess_and_the_food():
    s, seat = _to("starve")
    v = s.view(seat)
    d = v["decision"]
    excess = int(v["pending"][str(seat)].split()[1])
    me = v["players"][seat]
    assert d["owes"] == f"Famine: choose the cities that lose {excess} citizen{'s' if excess != 1 else ''}."
    assert f"{me['food'] + me['harvest_food']} food" in d["why"] and f"{me['citizens']} citizen" in d["why"]
    assert d["rules"] == "yearend" and v["rules_section"]["id"] == "yearend"
    # the banner is the viewer's own: a spectator and a seat that owes nothing get none
    assert s.view(None)["decision"] is None
    assert all(s.view(o)["decision"] is None for o in range(3) if o not in s.current_seats())


def test_demolition_banner_names_each_city_and_what_it_must_lose():
    s, seat = _to("demolish")
    d = s.view(seat)["decision"]
    for c in s.cities_of(seat):
        over = len(c.sites) - c.citizens
        if over > 0:
            assert f"{over} building{'s' if over != 1 else ''} from the city at {c.castle}" in d["owes"]
            assert f"the city at {c.castle} has {len(c.sites)} buildings".lower() in d["why"].lower()
    assert "castle" in d["rule"]


def test_two_wish_banner_names_the_open_cities_and_both_wishes():
    s, seat = _to("wish")
    d = s.view(seat)["decision"]
    open_ = [c for c, w in s.wish_choice.items() if w is None]
    assert all(c in d["owes"] for c in open_) and " and ".join(s.wishes) in d["why"]
    assert d["rules"] == "migration"


def test_political_round_has_no_banner_and_links_its_section():
    s = G.new_state(3, 1, setup="beginner")
    v = s.view(s.current_seats()[0])
    assert v["decision"] is None
    assert v["rules_section"] == {"id": "political", "question": "How does a political round work?"}


def test_a_build_marks_its_site_and_the_mark_survives_json():
    s = G.new_state(3, 1, setup="beginner")
    seat = s.current_seats()[0]
    build = next(a for a in s.legal_actions(seat) if a.to_text().startswith("build farm"))
    s.apply(seat, build)
    assert build.site in s.view(None)["last_sites"]
    again = G.state_from_json(s.to_json())
    assert again.view(None)["last_sites"] == s.view(None)["last_sites"]
    # a state saved before last_sites existed still loads (nothing marked)
    d = json.loads(s.to_json())
    del d["last_sites"]
    assert G.state_from_json(json.dumps(d)).view(None)["last_sites"] == []


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow],
          phases=(Phase.explicit, Phase.reuse, Phase.generate))
@given(seed=st.integers(0, 2 ** 32), rnd=st.randoms(use_true_random=False))
def test_last_sites_are_board_sites_named_by_the_latest_events(seed, rnd):
    s = G.new_state(4, seed, setup="experienced")
    while not s.is_terminal():
        seat = rnd.choice(s.current_seats())
        events = s.apply(seat, rnd.choice(s.legal_actions(seat)))
        last = s.view(None)["last_sites"]
        assert last == sorted(set(last), key=ORDER.__getitem__)
        named = {v for e in events for k in ("site", "city", "from", "to") if isinstance(v := e.data.get(k), str)}
        named |= {c for e in events for c in e.data.get("cities") or ()}
        assert set(last) == {x for x in named if x in ORDER}
