"""Setup ("Alkutoimet") and the turn ("Pelin kulku": two pieces a turn)."""
import pytest

from pbem.engine import IllegalOrderError, NotYourTurnError

from .helpers import GAME, board, legal_texts, play, pos


@pytest.mark.parametrize("seats,palace,stables,merchants,walls", [
    (3, 6, 4, 8, 10),   # "3 pelaajan pelissä ... 6 palatsipalaa per väri, 4 tallia, 8 asukasta ja 10 muuripalaa"
    (4, 5, 3, 6, 8),    # "4 pelaajan pelissä ... 5 palatsipalaa per väri, 3 tallia, 6 asukasta ja 8 muuripalaa"
])
def test_each_seat_gets_the_pieces_for_the_player_count(seats, palace, stables, merchants, walls):
    st = GAME.new_state(seats, 1)
    for s in range(seats):
        sup = st.view(s)["players"][s]["supply"]
        assert sup == {"grey": palace, "black": palace, "brown": palace, "orange": palace,
                       "domes": 4, "stables": stables, "merchants": merchants, "walls": walls}


@pytest.mark.parametrize("seats", [1, 2, 5])
def test_medina_is_for_three_or_four_players(seats):
    with pytest.raises(ValueError, match="3-4 seats"):
        GAME.new_state(seats, 1)


def test_medina_has_no_options():
    with pytest.raises(ValueError):
        GAME.new_state(3, 1, setup="beginner")


def test_start_merchant_is_a_setup_decision_of_seat_1():
    st = GAME.new_state(4, 7)
    assert st.current_seats() == [0]
    assert st.phase().startswith("Setup")
    legal = st.legal_actions(0)
    assert legal and all(a.kind == "merchant" for a in legal)
    assert st.legal_actions(1) == []
    with pytest.raises(NotYourTurnError):
        GAME.parse_action(st, 1, "merchant H6")


def test_start_merchant_goes_at_least_one_square_from_the_wall():
    # "vähintään yhden ruudun etäisyydellä kaupungin muureista": not on an edge square
    st = GAME.new_state(3, 1)
    legal = legal_texts(st)
    assert len(legal) == 14 * 9
    assert "merchant B2" in legal and "merchant O10" in legal
    for edge in ("A5", "P5", "H1", "H11"):
        assert f"merchant {edge}" not in legal
        with pytest.raises(IllegalOrderError, match="city wall"):
            GAME.parse_action(st, 0, f"merchant {edge}")


def test_start_merchant_is_extra_and_seat_1_then_plays_the_first_turn():
    st = GAME.new_state(4, 1)
    play(st, "merchant H6")
    assert st.supply[0]["merchants"] == 6  # the start merchant is not from the screen
    assert st.current_seats() == [0]
    assert st.phase() == "Turn 1: seat 1, piece 1 of 2"
    assert st.merchants == [5 * 16 + 7]


def test_a_turn_is_two_pieces_then_the_next_seat_clockwise():
    st = GAME.new_state(3, 1)
    play(st, "merchant H6", "palace grey C3")
    assert st.current_seats() == [0] and st.phase() == "Turn 1: seat 1, piece 2 of 2"
    play(st, "merchant H7")
    assert st.current_seats() == [1]
    play(st, "wall W1", "wall W2")
    assert st.current_seats() == [2]
    play(st, "wall W54", "stable D3")
    assert st.current_seats() == [0] and st.turn_no == 4


def test_a_player_who_cannot_place_two_places_what_they_can():
    # seat 1 has a single piece left: the turn ends after it
    st = pos(f"""seats 3
turn seat 1 piece 1
{board()}
supply seat 1 grey 0 black 0 brown 0 orange 0 domes 0 stables 0 merchants 0 walls 1
""")
    events = play(st, "wall W1")
    assert st.current_seats() == [1]
    assert st.supply[0]["walls"] == 0


def test_second_piece_turn_ends_when_nothing_more_is_legal():
    # seat 1 holds a dome and a wall, but every wall space left would close a gate
    gates = {16, 27, 43, 54}
    walls = " ".join(f"W{n}" for n in range(1, 55) if n not in gates)
    st = pos(f"""seats 3
turn seat 1 piece 1
{board(". . g . . . . . . . . . . . . .", first_row=6)}
walls {walls}
supply seat 1 grey 0 black 0 brown 0 orange 0 domes 1 stables 0 merchants 0 walls 1
""")
    assert legal_texts(st) == {"dome C6"}
    events = play(st, "dome C6")
    assert any("no legal place for a second piece" in e for e in events)
    assert st.current_seats() == [1]


def test_a_seat_with_no_legal_placement_misses_the_turn():
    # seat 2 only has a dome and no palace is under construction
    st = pos(f"""seats 3
turn seat 1 piece 2
{board()}
supply seat 2 grey 0 black 0 brown 0 orange 0 domes 1 stables 0 merchants 0 walls 0
""")
    events = play(st, "palace grey E5")
    assert st.current_seats() == [1]  # seat 2 could dome the new grey palace
    st = pos(f"""seats 3
turn seat 1 piece 2
{board()}
supply seat 2 grey 0 black 0 brown 0 orange 0 domes 1 stables 0 merchants 0 walls 0
""")
    events = play(st, "wall W1")
    assert any("seat 2 can place none of their pieces" in e.lower() for e in events)
    assert st.current_seats() == [2]


def test_illegal_order_leaves_the_state_untouched():
    st = GAME.new_state(3, 1)
    play(st, "merchant H6", "palace grey C3")
    before = st.to_json()
    with pytest.raises(IllegalOrderError):
        play(st, "palace grey E5")  # grey is under construction at C3
    assert st.to_json() == before
