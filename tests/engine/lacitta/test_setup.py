"""Setup: "Pelin valmistelu", "Alkuasetus aloittelijoille / kokeneille"."""
from collections import Counter

import pytest

from pbem.engine import IllegalOrderError, get_game
from pbem.engine.lacitta import board as B
from pbem.engine.lacitta import castles

G = get_game("lacitta")


@pytest.mark.parametrize("seats", [2, 3, 4, 5])
def test_beginner_castles_touch_grain_with_equal_food(seats):
    s = G.new_state(seats, 3)
    for pair in B.BEGINNER[seats]["castles"]:
        assert all(s.terrain.food[c] > 0 for c in pair)
    assert len(set(s.food)) == 1 and s.food[0] > 0


@pytest.mark.parametrize("seats", [2, 5])
def test_start_gold_citizens_cards(seats):
    s = G.new_state(seats, 3)
    assert s.gold == [1] * seats
    # 3 citizens per castle, +1 growth in year 1
    assert all(c.citizens == 4 for c in s.cities.values())
    assert s.actions == [3] * seats
    assert len(s.display) == 7 and len(s.deck) == 25
    assert len(s.voice) == 4 and len(s.voice_deck) == 23
    assert s.year == 1 and s.round == 1 and s.current_seats() == [0]


def test_experienced_landscape_is_all_tiles_shuffled():
    a = G.new_state(3, 1, setup="experienced")
    b = G.new_state(3, 2, setup="experienced")
    assert Counter(a.landscape.values()) == Counter(B.TILES)
    assert a.landscape != b.landscape
    assert a.phase_name == "setup" and not a.cities


def test_experienced_snake_order_and_start_player():
    s = G.new_state(4, 1, setup="experienced")
    # first castles counter-clockwise from seat 1, second clockwise from the last placer
    assert s.setup_order == [0, 3, 2, 1, 1, 2, 3, 0]
    order = []
    while s.phase_name == "setup":
        seat = s.current_seats()[0]
        order.append(seat)
        s.apply(seat, s.legal_actions(seat)[0])
    assert order == [0, 3, 2, 1, 1, 2, 3, 0]
    assert s.start == 1                # left of the last placer (seat 1)
    assert s.current_seats() == [1]
    assert all(len(s.cities_of(p)) == 2 for p in range(4))


def _four_seat_order() -> str:
    """The engine's castle order for four seats, as the texts write it."""
    from pbem.engine.lacitta.data import castle_order

    return ", ".join(str(p + 1) for p in castle_order(4))


def test_the_rules_doc_gives_the_engines_castle_order():
    """Issue 29: the rules said "snake order from seat 1", read as 1 2 3 4;
    the engine (and la-citta.fi.txt) has seat 4 right after seat 1."""
    from pathlib import Path

    assert _four_seat_order() == "1, 4, 3, 2, 2, 3, 4, 1"
    assert G.new_state(4, 1, setup="experienced").setup_order == [0, 3, 2, 1, 1, 2, 3, 0]
    doc = (Path(__file__).parents[3] / "docs" / "rules" / "lacitta.md").read_text(encoding="utf-8")
    assert f"with four seats\n  the order is {_four_seat_order()}" in doc


@pytest.mark.parametrize("lang", ["en", "fi", "cs", "ca", "de"])
def test_the_rules_page_gives_the_engines_castle_order(tmp_path, service_database_url, lang):
    from tests.webapp import app_with_schema, make_app

    for app in app_with_schema(make_app(tmp_path, service_database_url)):
        html = app.test_client().get("/rules/lacitta", headers={"Accept-Language": lang}).get_data(as_text=True)
        setup = html[html.index('<section id="setup">'):html.index('<section id="political">')]
        assert _four_seat_order() in setup
        assert "snake" not in setup and "1, 2, 3, 4" not in setup
        assert ("First castles go counter-clockwise" in setup) == (lang == "en")   # translated


def test_the_setup_line_names_the_order_the_engine_uses():
    s = G.new_state(3, 1, setup="experienced")
    text = next(str(e["text"]) for e in s.setup_events if e["kind"] == "setup")
    assert "castles are placed by seats 1, 3, 2, 2, 3, 1" in text


def test_setup_castle_gets_three_citizens_and_food():
    s = G.new_state(2, 5, setup="experienced")
    site = next(x for x in s.castle_sites() if s.terrain.food[x] > 0)
    s.apply(0, G.parse_action(s, 0, f"castle {site}"))
    assert s.cities[site].citizens == 3
    assert s.food[0] == s.terrain.food[site]


def test_setup_castles_three_free_sites_apart():
    s = G.new_state(2, 5, setup="experienced")
    s.apply(0, G.parse_action(s, 0, "castle J6"))
    with pytest.raises(IllegalOrderError, match="too close"):
        G.parse_action(s, 1, "castle M7")           # 2 sites between
    assert "castle M5" not in {a.to_text() for a in s.legal_actions(1)}   # distance 3
    s.apply(1, G.parse_action(s, 1, "castle N6"))   # L6, M6... 3 sites between (K6 L6 M6)


def test_crowded_setup_falls_back_to_the_roomiest_sites():
    from pbem.engine.lacitta.geometry import DIST
    s = G.new_state(2, 5, setup="experienced")
    while s.castle_sites():          # crowd the board with seat 2's castles
        castles.place_castle(s, 1, s.castle_sites()[0], 3, setup=True)
    s._legal_cache = None
    sites = {a.site for a in s.legal_actions(0)}
    assert sites
    best = {x: min(DIST[x][b] for b in s.occ) for x in sites}
    assert len(set(best.values())) == 1 and min(best.values()) >= 2
    s.apply(0, s.legal_actions(0)[0])


def test_missed_setup_deadline_places_the_castle_with_most_food():
    s = G.new_state(3, 8, setup="experienced")
    a = s.default_action(0)
    best = max(s.terrain.food[x.site] for x in s.legal_actions(0))
    assert a.verb == "castle" and s.terrain.food[a.site] == best
