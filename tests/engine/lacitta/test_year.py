"""Phases 1–5 of a year: start player, Voice of the People deal, quarry
income, growth and population limits, the five political rounds."""
from pbem.engine import get_game
from tests.engine.lacitta.fixtures import play, position

G = get_game("lacitta")

# Seat 2 plays the last turn of round 5; everyone is fed; the year then ends.
END_OF_YEAR = """
seats 2
landscape T4=F3 T11=F1 T10=M T3=L T5=F3
phase political year 1 round 5 seat 2
city 1 I6 {c1}: {b1}
city 2 P6 3
gold 0 0
food 20 20
voice culture culture culture health
voice_deck education education health health health culture culture culture
"""


def end_year(c1=4, b1="farm J6", extra=""):
    s = position(END_OF_YEAR.format(c1=c1, b1=b1) + extra)
    ev = play(s, "2: gold")
    return s, ev


def test_start_player_moves_left_each_year():
    s, _ = end_year()
    assert s.year == 2 and s.start == 1 and s.current_seats() == [1]


def test_voice_deal_first_card_face_up_rest_hidden():
    s, ev = end_year()
    assert s.voice == ["education", "education", "health", "health"]
    v = s.view(0)
    assert [c["wish"] for c in v["voice"]] == ["education", None, None, None]
    assert any("face-up card is education" in e.text for e in ev)


def test_quarry_income_one_gold_per_mountain():
    s, _ = end_year(b1="quarry I7")            # I7 touches T10 (mountain) and T11
    assert s.gold[0] == 1


def test_quarry_next_to_two_mountains_gives_two():
    s, _ = end_year(b1="quarry J6", extra="landscape T4=M T11=M\n")
    assert s.gold[0] == 2


def test_growth_adds_one_citizen_to_castle():
    s, ev = end_year(c1=4)
    assert s.cities["I6"].citizens == 5
    assert s.cities["P6"].citizens == 4


def test_growth_stops_at_five_without_market():
    s, _ = end_year(c1=5, b1="farm J6")
    assert s.cities["I6"].citizens == 5


def test_growth_stops_at_eight_with_market_but_no_fountain():
    s, _ = end_year(c1=8, b1="farm J6, market H6")
    assert s.cities["I6"].citizens == 8


def test_growth_beyond_eight_with_market_and_fountain_or_bathhouse():
    s, _ = end_year(c1=8, b1="farm J6, market H6, fountain I5")
    assert s.cities["I6"].citizens == 9
    s, _ = end_year(c1=8, b1="farm J6, market H6, bathhouse I5")
    assert s.cities["I6"].citizens == 9


def test_fountain_without_market_still_limit_five():
    s, _ = end_year(c1=5, b1="fountain I5")
    assert s.cities["I6"].citizens == 5


def test_five_political_rounds_clockwise_from_start_player():
    s = G.new_state(3, 11)
    seen = []
    while s.year == 1 and s.phase_name == "political":
        seat = s.current_seats()[0]
        seen.append((s.round, seat))
        s.apply(seat, s.default_action(seat))
    assert seen == [(r, p) for r in range(1, 6) for p in (0, 1, 2)]
    while s.year == 1:                       # year-end choices (famine), automatic
        seat = s.current_seats()[0]
        s.apply(seat, s.default_action(seat))
    seen = []
    assert s.start == 1
    assert [(s.start + i) % 3 for i in range(3)] == s.order() == [1, 2, 0]


def test_played_political_cards_discarded_at_year_end():
    s = position(END_OF_YEAR.format(c1=4, b1="farm J6") + "played 1: dom, palazzo\ndiscard hospital\n")
    play(s, "2: gold")
    assert sorted(s.discard) == ["dom", "hospital", "palazzo"]
    assert s.played == [[], []]
    assert s.actions == [3, 3]


def test_game_ends_after_year_six_with_three_voice_cards_left():
    s = G.new_state(2, 4)
    while not s.is_terminal():
        seat = s.current_seats()[0]
        s.apply(seat, s.default_action(seat))
    assert s.year == 6 and len(s.voice_deck) == 3
    assert s.phase() == "Game over"
