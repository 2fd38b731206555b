"""Action cards ("A. Toimintakorttien pelaaminen", "Tärkeitä rakennussääntöjä")."""
import pytest

from pbem.engine import IllegalOrderError
from tests.engine.lacitta.fixtures import legal, play, position

BASE = """
seats 2
landscape T3=L T4=F3 T11=F1 T10=M
phase political year 1 round 1 seat 1
city 1 I6 4
city 2 Q13 4
gold 1 1
display palazzo, hospital, bathhouse, dom, university, master builder, golden age
voice health culture education culture
"""


def pos(extra=""):
    return position(BASE + extra)


def refused(s, order, match, seat=1):
    with pytest.raises(IllegalOrderError, match=match):
        play(s, f"{seat}: {order}")


def test_gold_takes_two_gold_and_uses_an_action_card():
    s = pos()
    play(s, "1: gold")
    assert s.gold[0] == 3 and s.actions[0] == 2


def test_three_action_cards_a_year():
    s = pos("actions 0 3\n")
    assert "gold" not in legal(s, 1)
    refused(s, "gold", "no action card left")
    refused(s, "build farm J6", "no action card left")


def test_small_building_is_free_and_takes_a_castle_citizen():
    s = pos()
    play(s, "1: build statue J6")
    c = s.cities["I6"]
    assert s.gold[0] == 1 and c.citizens == 4 and c.sites == ["I6", "J6"] and c.spare() == 2
    assert s.kind["J6"] == "statue" and s.actions[0] == 2


def test_build_with_medium_name_is_the_political_card():
    s = pos()
    ev = play(s, "1: build palazzo J6")
    assert s.kind["J6"] == "palazzo" and s.gold[0] == 0 and "Palazzo" in ev[0].text
    assert s.actions[0] == 3                      # no action card used


def test_building_must_be_next_to_the_city():
    s = pos()
    refused(s, "build farm M6", "M6 is not next to your city at I6")


def test_cities_never_touch_other_players_city():
    s = pos("city 2 M7 3: statue L6\n")
    play(s, "1: build farm J6", "2: gold")
    refused(s, "build farm K6", "next to seat 2's city at M7")


def test_cities_never_touch_own_other_city():
    s = pos("city 1 M7 3: statue L6\n")
    play(s, "1: build farm J6", "2: gold")
    refused(s, "build statue K6", "next to your city at M7")


def test_building_needs_a_spare_citizen_in_the_castle():
    s = position(BASE.replace("city 1 I6 4", "city 1 I6 2: farm J6"))
    refused(s, "build statue I5", "no spare citizen")
    assert not any(o.startswith("build statue") for o in legal(s, 1))


def test_market_citizen_comes_from_the_bank():
    s = position(BASE.replace("city 1 I6 4", "city 1 I6 2: farm J6"))
    bank = s.bank
    play(s, "1: build market I5")
    assert s.cities["I6"].citizens == 3 and s.bank == bank - 1


def test_only_one_market_per_city():
    s = position(BASE.replace("city 1 I6 4", "city 1 I6 5: market J6"))
    refused(s, "build market I5", "already has a market")


def test_fountain_needs_water():
    s = pos()
    refused(s, "build fountain I7", "next to water")
    play(s, "1: build fountain I5")             # I5 touches the lake T3
    assert s.kind["I5"] == "fountain"


def test_bathhouse_needs_water_hospital_does_not():
    s = pos()
    refused(s, "bathhouse I7", "next to water")
    play(s, "1: hospital I7")
    assert s.kind["I7"] == "hospital"


def test_supply_pile_runs_out():
    s = pos("supply farm/quarry 0\n")
    refused(s, "build farm J6", "No farm/quarry tiles are left")
    refused(s, "build quarry J6", "No farm/quarry tiles are left")


def test_double_sided_pile_gives_either_face_while_any_left():
    s = pos("supply statue/dom 1\ngold 5 1\n")
    assert "build statue J6" in legal(s, 1) and "dom J6" in legal(s, 1)
    play(s, "1: dom J6")
    assert not any("statue" in o for o in legal(s, 2))


def test_sites_outside_the_player_count_area_unused():
    s = position(BASE.replace("city 1 I6 4", "city 1 H6 4"))
    assert "build farm G6" not in legal(s, 1)
    refused(s, "build farm G6", "not used in a 2-player game")


def test_found_a_city():
    s = pos()
    bank = s.bank
    play(s, "1: found N6")
    assert s.cities["N6"].citizens == 3 and s.cities["I6"].citizens == 3
    assert s.bank == bank - 2
    assert s.food[0] == s.terrain.food["I6"] + s.terrain.food["N6"]
    assert s.actions[0] == 2


def test_found_needs_three_free_sites_to_every_building():
    s = pos()
    refused(s, "found L6", "too close")          # J6, K6 between: 2 free sites
    assert "found M6" in legal(s, 1)             # J6, K6, L6 between: 3 free sites
    assert "found L6" not in legal(s, 1)


def test_one_new_city_a_year():
    s = pos("founded 1\n")
    refused(s, "found N6", "already founded a city this year")


def test_at_most_four_cities():
    s = pos("city 1 D14 3\ncity 1 T3 3\ncity 1 A11 3\n")
    refused(s, "found N6", "no castle left")


def test_found_names_the_castle_giving_the_citizen_when_several_could():
    s = pos("city 1 D14 3\n")
    refused(s, "found N6", "found N6 from I6 or found N6 from D14")
    play(s, "1: found N6 from D14")
    assert s.cities["D14"].citizens == 2 and s.cities["I6"].citizens == 4


def test_found_needs_a_spare_citizen():
    s = position(BASE.replace("city 1 I6 4", "city 1 I6 2: farm J6"))
    assert not any(o.startswith("found") for o in legal(s, 1))
    refused(s, "found N6", "spare citizen")
