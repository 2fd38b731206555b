"""The order page's banner and rules link for Die Stadt
(pbem/engine/diestadt/decision.py): what the deciding seat owes, why, the
rule in one sentence, and the rules summary section, per decision kind."""
from .helpers import GAME, play, pos
from .test_orders import wall_round
from .test_walls import RING

KEYS = {"kind", "owes", "why", "rule", "rules"}


def banner(st, seat):
    return st.view(seat)["decision"]


def test_tile_banner_names_the_drawn_tile_and_its_pile():
    st = pos("seats 3\ntile T20 1 0\npiles 20 25 20\nturn seat 2 drawn 2")
    d = banner(st, 1)
    assert set(d) == KEYS and d["kind"] == "tile" and d["rules"] == "tiles"
    assert "tile 2" in d["owes"] and "pile 1" in d["owes"]
    assert "7 followers" in d["why"] and "Walls begin with pile 2" in d["why"]
    assert st.view(1)["rules_section"]["id"] == "tiles"
    # no banner for the others, a spectator, or anyone once the game is over
    assert banner(st, 0) is None and banner(st, 2) is None and banner(st, None) is None


def test_gate_then_wall_banners_in_a_wall_round():
    st = wall_round()
    d = banner(st, 0)
    assert d["kind"] == "gate" and d["rules"] == "wall" and "2 pieces follow" in d["why"]
    assert st.view(None)["rules_section"] == {"id": "wall", "question": "How is the wall built?"}
    play(st, "gate T20 N")
    d = banner(st, 1)
    assert d["kind"] == "wall" and "1 piece of yours left" in d["owes"]
    assert "turn 1" in d["why"] and "may guard it" in d["why"]


def test_tower_banner_offers_the_points_at_each_end():
    text = RING.format(fill="", guard="").replace("wall cw\n" * 6, "wall cw\n" * 3)
    st = pos(text.replace("turn seat 2", "turn seat 1"))
    play(st, "tile T22 0", "wall cw", "wall ccw", "wall ccw")
    d = banner(st, 0)
    assert d["kind"] == "tower" and d["rules"] == "towers"
    cw, ccw = st.wall.tower_points("cw"), st.wall.tower_points("ccw")
    assert f"cw: {cw} points" in d["why"] and f"ccw: {ccw} points" in d["why"]
    assert st.view(0)["rules_section"]["id"] == "towers"


def test_the_end_links_to_scoring_and_owes_nothing():
    st = pos("seats 2\ntile T20 1 0\npiles 0 0 0\npile 1\nturn seat 1 drawn 2")
    play(st, "tile T21 0")
    assert st.is_terminal()
    assert all(banner(st, s) is None for s in (None, 0, 1))
    assert st.view(None)["rules_section"]["id"] == "scoring"


def test_every_decision_of_a_random_game_has_a_banner_for_the_deciding_seat():
    import random
    rng = random.Random(4)
    st = GAME.new_state(3, 11)
    kinds = set()
    while not st.is_terminal():
        seat = st.current_seats()[0]
        d = banner(st, seat)
        assert set(d) == KEYS and d["kind"] == st.decision and all(d[k] for k in KEYS)
        assert d["rules"] == st.view(seat)["rules_section"]["id"]
        kinds.add(d["kind"])
        st.apply(seat, rng.choice(st.legal_actions(seat)))
    assert kinds == {"tile", "gate", "wall", "tower"}
