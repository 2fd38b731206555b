"""Further rule sentences of la-citta.fi.txt, one test each."""
import pytest

from pbem.engine import IllegalOrderError
from tests.engine.lacitta.fixtures import play, position

END = """
seats 2
landscape T4=F3 T11=F1 T10=M T3=L T12=F2
phase political year 1 round 5 seat 2
start 1
gold 0 0
voice culture culture culture health
voice_deck education education health health health culture culture culture
"""


def test_notables_are_not_fed():
    # "Väritetyt asukkaat eivät ole normaaleja asukkaita ... älä laske heitä"
    s = position(END + "city 1 I6 4: statue J6\ncity 2 Q13 1\nfood 4 9\n"
                 "notable J6 1 culture\nnotable J6 1 culture\n")
    ev = play(s, "2: gold")
    assert not any(e.kind == "famine" for e in ev)


def test_hospital_does_not_lift_the_population_limit():
    s = position(END + "city 1 I6 8: market H6, hospital J6\ncity 2 Q13 1\nfood 30 30\n")
    play(s, "2: gold")
    assert s.cities["I6"].citizens == 8


def test_farm_without_field_may_be_built_but_gives_no_food():
    # "Ei ole hyötyä rakentaa maatilaa, jos se ei ole viljelysalueen vieressä"
    s = position(END.replace("round 5 seat 2", "round 1 seat 1") + "landscape T4=M T11=M\n"
                 "city 1 J6 4\ncity 2 Q13 1\n")
    assert s.terrain.food["K6"] == 0
    food = s.food[0]
    ev = play(s, "1: build farm K6")
    assert s.kind["K6"] == "farm" and s.food[0] == food and "no food" in ev[0].text


def test_no_voluntary_demolition():
    s = position(END.replace("round 5 seat 2", "round 1 seat 1") + "city 1 I6 4: farm J6\ncity 2 Q13 1\n")
    with pytest.raises(IllegalOrderError, match="end of the year"):
        play(s, "1: demolish J6")


def test_demolished_buildings_return_to_the_supply():
    s = position(END + "city 1 J6 3: statue K6\ncity 2 M6 2: school M7\nfood 30 30\n"
                 "supply school/university 0\n")
    play(s, "2: gold")                # seat 2's city loses a citizen: the school goes
    assert "M7" not in s.occ and s.supply_left("school") == 1 and s.supply_left("university") == 1


def test_peeked_cards_stay_visible_until_the_reveal_then_cleared():
    s = position(END + "city 1 I6 4\ncity 2 Q13 2\nfood 30 30\npeeked 1 2 3\n")
    assert s.view(0)["voice"][1]["wish"] == "culture"
    play(s, "2: gold")
    assert s.peeked == [[], []]
    assert [c["wish"] for c in s.view(0)["voice"]] == ["education", None, None, None]


def test_growth_and_quarry_events_are_logged():
    s = position(END + "city 1 I6 4: quarry I7\ncity 2 Q13 2\nfood 30 30\n")
    ev = play(s, "2: gold")
    texts = [e.text for e in ev]
    assert any("receives 1 gold from quarries" in t for t in texts)
    assert any(t.startswith("Growth: seat 1 gains a citizen in the city at I6") for t in texts)


def test_new_city_gets_food_at_once():
    s = position(END.replace("round 5 seat 2", "round 1 seat 1") + "city 1 I6 4\ncity 2 Q13 1\n")
    before = s.food[0]
    play(s, "1: found N7")
    assert s.food[0] == before + s.terrain.food["N7"]


def test_migrated_citizen_goes_to_the_castle_and_can_build_next_year():
    s = position(END + "city 1 J6 3: statue K6\ncity 2 M7 3\nfood 30 30\n")
    play(s, "2: gold")
    c = s.cities["J6"]
    assert c.spare() == 3           # 3 + migrant + growth in 2 buildings
