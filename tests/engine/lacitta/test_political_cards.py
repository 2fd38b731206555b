"""Political cards ("B. Poliittikkakorttien pelaaminen") and RULINGS.md
"Political rounds"."""
import pytest

from pbem.engine import IllegalOrderError
from tests.engine.lacitta.fixtures import legal, play, position, texts

BASE = """
seats 2
landscape T3=L T4=F3 T11=F1 T10=M
phase political year 1 round 1 seat 1
city 1 I6 6: market H6
city 2 Q13 4
gold {gold} 1
display {display}
deck golden age, rich harvest, citizens, palazzo
voice health culture education culture
"""
ALL = "palazzo, hospital, bathhouse, dom, university, master builder, citizens"


def pos(gold=10, display=ALL, extra=""):
    return position(BASE.format(gold=gold, display=display) + extra)


def refused(s, order, match, seat=1):
    with pytest.raises(IllegalOrderError, match=match):
        play(s, f"{seat}: {order}")


@pytest.mark.parametrize(("card", "cost", "site"), [
    ("palazzo", 1, "J6"), ("hospital", 1, "J6"), ("bathhouse", 1, "I5"),
    ("dom", 3, "J6"), ("university", 3, "J6")])
def test_building_card_costs(card, cost, site):
    s = pos(gold=cost)
    play(s, f"1: {card} {site}")
    assert s.kind[site] == card and s.gold[0] == 0 and s.actions[0] == 3
    assert card in s.played[0]


def test_card_not_affordable_is_refused_and_not_offered():
    s = pos(gold=2)
    refused(s, "dom J6", "Dom costs 3 gold; you have 2")
    assert not any(o.startswith("dom ") for o in legal(s, 1))


@pytest.mark.parametrize(("kind", "cost", "site"), [
    ("farm", 1, "J6"), ("statue", 1, "J6"), ("palazzo", 2, "J6"), ("bathhouse", 2, "I5"),
    ("dom", 4, "J6"), ("university", 4, "J6")])
def test_master_builder_costs(kind, cost, site):
    s = pos(gold=cost)
    play(s, f"1: master builder {kind} {site}")
    assert s.kind[site] == kind and s.gold[0] == 0
    s = pos(gold=cost - 1)
    refused(s, f"master builder {kind} {site}", f"costs {cost} gold")


def test_master_builder_market_from_the_bank():
    s = position(BASE.format(gold=1, display=ALL).replace("city 1 I6 6: market H6", "city 1 I6 2: farm J6"))
    play(s, "1: master builder market I5")
    assert s.cities["I6"].citizens == 3


def test_display_refilled_at_once_from_the_deck():
    s = pos()
    play(s, "1: dom J6")
    assert len(s.display) == 7 and s.display[3] == "golden age"
    assert s.deck == ["rich harvest", "citizens", "palazzo"]


def test_empty_deck_replaced_by_shuffled_discards():
    s = pos(extra="deck\ndiscard golden age, golden age\n")
    play(s, "1: dom J6")
    assert s.display[3] == "golden age" and s.deck == ["golden age"] and s.discard == []


def test_display_shrinks_when_deck_and_discards_are_empty():
    s = pos(extra="deck\n")
    play(s, "1: dom J6")
    assert len(s.display) == 6


def test_pass_only_when_nothing_else_is_legal():
    s = pos()
    refused(s, "pass", "only when no other order is legal")


def test_pass_takes_top_card_face_down():
    s = position(BASE.format(gold=0, display="palazzo, dom").replace(
        "city 1 I6 6: market H6", "city 1 I6 2: farm J6, market H6") + "actions 0 3\n")
    assert legal(s, 1) == {"pass"}
    ev = play(s, "1: pass")
    assert s.played[0] == ["golden age"] and s.deck[0] == "rich harvest"
    assert "passes" in ev[0].text


def test_bread_and_games_costs_and_arches():
    for n, cost in ((1, 0), (2, 2), (3, 5)):
        s = pos(gold=cost, display="bread and games", extra="city 1 I6 6: market H6, statue J6\n")
        play(s, f"1: bread and games J6 x{n}")
        c = s.cities["I6"]
        assert s.gold[0] == 0 and s.arches(c, "culture") == 1 + n
        assert s.arches(c, "culture", notables=False) == 1
        assert s.notables_free(0) == 4 - n


def test_bread_and_games_only_on_a_building_with_arches():
    s = pos(display="bread and games", extra="city 1 I6 6: market H6, farm J6\n")
    refused(s, "bread and games J6", "has none")


def test_bread_and_games_hospital_needs_each_notables_colour():
    s = pos(display="bread and games", extra="city 1 I6 6: market H6, hospital J6\n")
    refused(s, "bread and games J6 x2", "Say the colour of each notable")
    play(s, "1: bread and games J6 x2 health education")
    c = s.cities["I6"]
    assert s.arches(c, "health") == 2 and s.arches(c, "education") == 2


def test_bread_and_games_adds_to_earlier_notables_and_limit_of_four():
    s = pos(display="bread and games, bread and games", extra="city 1 I6 6: market H6, statue J6\n"
            "notable J6 1 culture\nnotable J6 1 culture\nnotable J6 1 culture\n")
    assert s.notables_free(0) == 1
    assert "bread and games J6 x1" in legal(s, 1)
    refused(s, "bread and games J6 x2", "1 notables left")
    play(s, "1: bread and games J6")
    assert s.arches(s.cities["I6"], "culture") == 5


def test_golden_age_costs_and_population_limit():
    for n, cost in ((1, 0), (2, 2), (3, 5)):
        s = pos(gold=cost, display="golden age", extra="city 1 I6 4: market H6\n")
        play(s, f"1: golden age I6 x{n}")
        assert s.cities["I6"].citizens == 4 + n and s.gold[0] == 0
    s = pos(display="golden age", extra="city 1 I6 4\n")
    refused(s, "golden age I6 x2", "exceed its limit of 5")


def test_golden_age_city_named_by_any_site():
    s = pos(display="golden age")
    play(s, "1: golden age H6 x1")
    assert s.cities["I6"].citizens == 7


def test_rich_harvest_doubles_a_farm_at_feeding():
    s = pos(display="rich harvest", extra="city 1 I6 6: market H6, farm J6\n")
    play(s, "1: rich harvest J6")
    assert s.harvest == ["J6"] and s.harvest_bonus(0) == 4 and s.notables_free(0) == 3


def test_rich_harvest_not_twice_on_the_same_farm():
    s = pos(display="rich harvest", extra="city 1 I6 6: market H6, farm J6\nharvest J6\n")
    refused(s, "rich harvest J6", "already has a Reiche Ernte")


def test_rich_harvest_not_in_year_six():
    s = pos(display="rich harvest", extra="city 1 I6 6: market H6, farm J6\nphase political year 6 round 1 seat 1\n")
    refused(s, "rich harvest J6", "last year")
    assert not any("harvest" in o for o in legal(s, 1))


def test_citizens_two_free_private_look():
    s = pos(gold=0, display="citizens")
    ev = play(s, "1: citizens 2")
    private = [e for e in ev if e.seat == 0]
    assert private and "card 2: culture, card 3: education" in private[0].text
    assert s.view(0)["voice"][1]["wish"] == "culture" and s.view(0)["voice"][3]["wish"] is None
    assert s.view(1)["voice"][1]["wish"] is None and s.view(None)["voice"][2]["wish"] is None


def test_citizens_three_costs_two_gold():
    s = pos(gold=1, display="citizens")
    refused(s, "citizens 3", "costs 2 gold; you have 1")
    s = pos(gold=2, display="citizens")
    play(s, "1: bürgernähe 3")
    assert s.gold[0] == 0 and [c["wish"] for c in s.view(0)["voice"]] == [
        "health", "culture", "education", "culture"]


def test_political_card_only_when_effect_possible():
    # no spare citizen and no market site: building cards are not offered
    s = position(BASE.format(gold=9, display=ALL).replace(
        "city 1 I6 6: market H6", "city 1 I6 2: farm J6, market H6"))
    assert not any(o.split()[0] in ("palazzo", "dom", "hospital", "university", "bathhouse")
                   for o in legal(s, 1))
    assert texts([]) == []


def test_a_single_legal_order_is_played_without_asking():
    s = position("""
        seats 2
        phase political year 1 round 2 seat 2
        start 1
        city 1 I6 1
        city 2 Q13 4
        gold 0 1
        actions 0 3
        display citizens, dom, dom
        deck palazzo, palazzo, palazzo
        voice health culture education culture
        """)
    ev = play(s, "2: gold")
    assert any(e.text == "Seat 1 has only one legal order: citizens 2." for e in ev)
    assert any(e.kind == "peek" and e.seat == 0 for e in ev)
    assert s.current_seats() == [1] and s.round == 3


def test_second_citizens_card_shows_the_unseen_card():
    s = pos(gold=0, display="citizens, citizens", extra="peeked 1 2 3\n")
    ev = play(s, "1: citizens 2")
    private = next(e for e in ev if e.seat == 0)
    assert "card 4: culture" in private.text
    assert [c["wish"] for c in s.view(0)["voice"]] == ["health", "culture", "education", "culture"]
