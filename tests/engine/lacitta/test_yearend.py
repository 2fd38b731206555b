"""Demolition (end of phase 7), feeding (phase 8), the famine penalty and
the end-of-year cleanup."""
import pytest

from pbem.engine import IllegalOrderError, get_game
from tests.engine.lacitta.fixtures import legal, play, position

G = get_game("lacitta")

BASE = """
seats 2
landscape T11=F1 T12=F2 T4=F3 T6=F1 T13=F1
phase political year {year} round 5 seat 2
start 1
gold 0 0
voice culture culture culture health
voice_deck culture culture culture health health health education education
"""


def pos(cities, year=1, extra=""):
    return position(BASE.format(year=year) + cities + extra)


def finish(s):
    return play(s, "2: gold")


# Seat 1's statue city takes a citizen from seat 2's city (culture wished).
RICH = "city 1 J6 3: statue K6\n"


def test_demolition_owner_chooses_which_building():
    s = pos(RICH + "city 2 M6 3: farm N6, school M7\n", extra="food 30 30\n")
    finish(s)
    assert s.phase_name == "yearend" and s.current_seats() == [1]
    assert legal(s, 2) == {"demolish M7", "demolish N6"}
    food = s.food[1]
    ev = play(s, "2: demolish N6")
    assert "N6" not in s.occ and s.food[1] == food - s.terrain.food["N6"]
    assert any("demolishes the farm at N6" in e.text for e in ev)
    assert s.year == 2


def test_demolition_keeps_the_city_connected_to_its_castle():
    s = pos(RICH + "city 2 M6 4: farm N6, school M7, school L8\n", extra="food 30 30\n")
    # 4 citizens, 4 buildings; loses one citizen; M7 holds L8 to the castle
    finish(s)
    assert legal(s, 2) == {"demolish L8", "demolish N6"}
    with pytest.raises(IllegalOrderError, match="cut the city"):
        play(s, "2: demolish M7")


def test_forced_demolition_is_not_asked():
    s = pos(RICH + "city 2 M6 2: school M7\n", extra="food 30 30\n")
    ev = finish(s)
    assert any("demolishes the school at M7" in e.text for e in ev)
    assert s.year == 2


def test_castle_goes_only_with_the_last_citizen():
    s = pos(RICH + "city 2 M6 2: farm N6, school M7\n", extra="food 30 30\n")
    ev = finish(s)           # 1 citizen left: both buildings go, the castle stays
    assert s.cities["M6"].sites == ["M6"] and s.year == 2
    assert [e.data["site"] for e in ev if e.kind == "demolish"] == ["N6", "M7"]


def test_city_losing_its_last_citizen_is_lost_and_castle_returns():
    s = pos(RICH + "city 2 M6 1\n", extra="food 30 30\n")
    food = s.food[1]
    ev = finish(s)
    assert "M6" not in s.cities and s.castles_left(1) == 4
    assert s.food[1] == food - s.terrain.food["M6"]
    assert any(e.kind == "lose_city" for e in ev)


def test_feeding_excess_citizens_leave_chosen_city():
    s = pos("city 1 J6 4\ncity 1 Q13 4\ncity 2 D14 1\n", extra="food 6 30\n")
    ev = finish(s)
    fam = [e for e in ev if e.kind == "famine"]
    assert fam and fam[0].data["excess"] == 2
    assert s.current_seats() == [0]
    assert legal(s, 1) == {"starve J6 1", "starve J6 2", "starve Q13 1", "starve Q13 2"}
    play(s, "1: starve J6 1")
    assert legal(s, 1) == {"starve J6 1", "starve Q13 1"}
    play(s, "1: starve q13 1")
    assert s.year == 2
    assert s.cities["J6"].citizens == 3 + 1 and s.cities["Q13"].citizens == 3 + 1   # + growth


def test_starve_several_cities_in_one_order():
    s = pos("city 1 J6 4\ncity 1 Q13 4\ncity 2 D14 1\n", extra="food 5 30\n")
    finish(s)
    with pytest.raises(IllegalOrderError, match="Exactly 3"):
        play(s, "1: starve J6 1, Q13 1")
    play(s, "1: starve J6 2, Q13 1")
    assert s.year == 2


def test_famine_with_one_city_is_automatic_then_demolition():
    s = pos("city 1 J6 3: statue K6, school L6\ncity 2 D14 1\n", extra="food 1 30\n")
    ev = finish(s)
    assert any(e.kind == "starve" for e in ev)
    # 1 citizen left: statue and school demolished on their own
    assert s.cities["J6"].sites == ["J6"]


def test_famine_penalty_loses_first_political_round_next_year():
    s = pos("city 1 J6 4\ncity 2 D14 1\n", extra="food 3 30\n")
    ev = finish(s)
    assert s.year == 2 and s.start == 1
    # seat 2 starts year 2; seat 1's first turn is skipped automatically
    ev = play(s, "2: gold")
    assert any(e.kind == "famine_round" and e.data["seat"] == 0 for e in ev)
    assert s.actions[0] == 2 and s.round == 2 and s.current_seats() == [1]


def test_famine_in_year_six_costs_five_points():
    s = pos("city 1 J6 4\ncity 2 D14 1\n", year=6, extra="food 3 30\n")
    finish(s)
    assert s.is_terminal()
    sc = {x.seat: x for x in s.scores()}
    assert sc[0].points == 3 - 5 and sc[0].detail["famine_penalty"] == -5


def test_rich_harvest_food_counts_at_feeding():
    s = pos("city 1 J6 5: farm K6\ncity 2 D14 1\n", extra="food 4 30\nharvest K6\n")
    food_k6 = s.terrain.food["K6"]
    assert food_k6 == 4
    ev = finish(s)
    assert not any(e.kind == "famine" for e in ev)


def test_cleanup_returns_notables_and_harvest_and_cards():
    s = pos("city 1 J6 3: statue K6, farm L6\ncity 2 D14 1\n",
            extra="food 30 30\nnotable K6 1 culture\nharvest L6\nactions 0 1\n")
    finish(s)
    assert s.notables == [] and s.harvest == [] and s.actions == [3, 3]
    assert s.notables_free(0) == 4


def test_demolish_several_in_one_order():
    s = pos(RICH + "city 2 M6 4: farm N6, school M7, school L8, market M5\n",
            extra="food 30 30\nvoice culture culture culture culture\n")
    # 4 citizens -1 = 3 for 5 buildings: two must go
    finish(s)
    with pytest.raises(IllegalOrderError, match="cut the city"):
        play(s, "2: demolish M7 N6")
    with pytest.raises(IllegalOrderError, match="must lose 2 buildings, not 3"):
        play(s, "2: demolish L8 N6 M5")
    play(s, "2: demolish L8 N6")
    assert s.year == 2 and sorted(s.cities["M6"].sites) == ["M5", "M6", "M7"]


def test_default_demolition_keeps_food_first():
    s = pos(RICH + "city 2 M6 3: farm N6, school M7\n", extra="food 30 30\n")
    finish(s)
    assert s.default_action(1).to_text() == "demolish M7"


def test_default_famine_takes_spare_citizens_first():
    s = pos("city 1 J6 5: statue K6\ncity 1 Q13 3\ncity 2 D14 1\n", extra="food 6 30\n")
    finish(s)
    assert s.default_action(0).to_text() == "starve J6 2"


def test_city_over_its_limit_after_losing_its_fountain_keeps_its_citizens():
    # 9 citizens, 10 buildings: the owner gives up the fountain; the city keeps
    # 9 citizens over its new limit of 8, it just cannot grow
    s = position("""
        seats 2
        landscape T3=L T2=F1 T4=F3 T11=F1 T10=F1
        phase political year 1 round 5 seat 2
        start 1
        gold 0 0
        food 30 30
        voice culture culture culture health
        voice_deck culture culture culture health health health education education
        city 1 I6 9: farm J6, farm K6, farm L6, statue I5, market H6, farm I7, fountain H5, farm H7, school I4
        city 2 Q13 1
        """)
    play(s, "2: gold")
    assert "demolish H5" in legal(s, 1)
    play(s, "1: demolish H5")
    c = s.cities["I6"]
    assert s.year == 2 and c.citizens == 9 and s.capacity(c) == 8


def test_famine_taking_every_citizen_is_not_asked():
    s = pos("city 1 J6 2\ncity 1 Q13 2\ncity 2 D14 1\n", extra="food 0 30\n")
    ev = finish(s)
    assert [e.data["n"] for e in ev if e.kind == "starve"] == [2, 2]
    assert s.cities_of(0) == [] and s.year == 2
