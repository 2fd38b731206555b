"""Final scoring ("Loppupisteytys") and the gold tie-break."""
from tests.engine.lacitta.fixtures import position

BASE = """
seats 3
phase political year 6 round 1 seat 1
voice culture culture culture health
"""


def scores(cities, gold="0 0 0", extra=""):
    s = position(BASE + cities + f"gold {gold}\n" + extra)
    return {x.seat: x for x in s.scores()}


def test_one_point_per_citizen():
    sc = scores("city 1 J6 4\ncity 1 Q13 3\ncity 2 D14 2\n")
    assert sc[0].points == 7 and sc[1].points == 2 and sc[2].points == 0


def test_three_points_for_a_city_with_every_arch_colour():
    sc = scores("city 1 J6 4: statue K6, school L6, fountain I6\ncity 2 D14 2\n")
    assert sc[0].points == 4 + 3 and sc[0].detail["complete_cities"] == 1


def test_hospital_and_a_culture_building_complete_a_city():
    sc = scores("city 1 J6 3: hospital K6, palazzo L6\n")
    assert sc[0].detail["complete_cities"] == 1


def test_notables_do_not_complete_a_city():
    sc = scores("city 1 J6 3: statue K6, school L6\n", extra="notable K6 1 culture\n")
    assert sc[0].detail["complete_cities"] == 0
    s = position(BASE + "city 1 J6 3: school K6, statue L6\nnotable K6 1 education\n")
    assert not s.complete(s.cities["J6"])


def test_famine_in_year_six_minus_five():
    sc = scores("city 1 J6 4\n", extra="famine6 1\n")
    assert sc[0].points == -1


def test_tie_broken_by_gold_then_shared():
    sc = scores("city 1 J6 4\ncity 2 D14 4\ncity 3 Q13 4\n", gold="2 5 2")
    assert sc[1].rank == 1 and sc[0].rank == 2 and sc[2].rank == 2
    assert sc[0].tiebreak == 2
