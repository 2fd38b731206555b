"""Setup: "Pelin valmistelu", "Alkuasetus aloittelijoille / kokeneille"."""
from collections import Counter

import pytest

from pbem.engine import IllegalOrderError, get_game
from pbem.engine.lacitta import board as B

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
        s._place_castle(1, s.castle_sites()[0], 3, setup=True)
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
