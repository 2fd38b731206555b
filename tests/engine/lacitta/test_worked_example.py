"""The rulebook's worked example of the first year (la-citta.fi.txt,
"Esimerkki (Sääntökirjan sivu 7)"): a castle next to two fields giving 4
food, a farm giving 4 more, a quarry, a market, a bathhouse and the fifth
round's forced pass; in year 2 the quarry pays 1 gold and the city grows."""
from tests.engine.lacitta.fixtures import play, position

EXAMPLE = """
seats 2
landscape T4=F3 T11=F1 T10=M T3=L
phase political year 1 round 1 seat 1
city 1 I6 4                      # 3 citizens + growth (phase 4): "one of four must stay"
city 2 L13 4
gold 1 1
display palazzo, hospital, bathhouse, dom, university, master builder, citizens
deck hospital, dom, university, palazzo, hospital, dom, university, palazzo
voice health culture education culture
"""


def test_castle_next_to_two_fields_gives_four_food():
    s = position(EXAMPLE)
    assert s.terrain.food["I6"] == 4
    assert s.food[0] == 4


def test_worked_first_year():
    s = position(EXAMPLE)
    ev = play(s, "1: build farm J6")
    assert "+4 food" in ev[0].text
    assert s.food[0] == 8                      # "enough food for 8 citizens"
    play(s, "2: gold", "1: build quarry I7", "2: gold")
    assert s.terrain.mountains["I7"] == 1
    play(s, "1: build market H6", "2: gold")
    c = s.cities["I6"]
    assert c.citizens == 5 and s.capacity(c) == 8   # "now up to 8; there are 5"
    ev = play(s, "1: bathhouse I5")
    assert s.gold[0] == 0 and s.capacity(c) > 100   # no population limit any more
    top = s.deck[1]          # the display takes deck[0] when seat 2 plays Bürgernähe
    ev = play(s, "2: citizens 2")
    # fifth round: no spare citizen, no action card, no gold -> only pass,
    # which the engine takes without asking
    assert any(e.text.startswith("Seat 1 has no other order and passes") for e in ev)
    assert s.played[0][-1] == top and s.current_seats() == [1] and s.round == 5
    s.apply(1, s.legal_actions(1)[0])
    # year 2: quarry pays 1 gold, a new citizen arrives
    assert s.year == 2
    assert s.gold[0] == 1
    assert s.cities["I6"].citizens == 6
