"""The command language, default orders and what each seat may see."""
import json

import pytest

from pbem.engine import IllegalOrderError, NotYourTurnError, OrderParseError
from pbem.engine.medina import Place

from .helpers import GAME, board, legal_texts, play, pos


def midgame():
    st = GAME.new_state(4, 3)
    play(st, "merchant H6", "palace grey C3", "wall W1", "stable D3")
    return st   # seat 2, piece 2


@pytest.mark.parametrize("text,expected", [
    ("palace orange E5", Place("palace", "E5", "orange")),
    ("  PALACE Orange e5 ", Place("palace", "E5", "orange")),
    ("e5 orange palace", Place("palace", "E5", "orange")),
    ("palatsi oranssi E5", Place("palace", "E5", "orange")),
    ("orange E5", Place("palace", "E5", "orange")),
    ("palace gray C4", Place("palace", "C4", "grey")),
    ("wall W16", Place("wall", "W16")),
    ("wall 16", Place("wall", "W16")),
    ("W16", Place("wall", "W16")),
    ("muuri w16.", Place("wall", "W16")),
    ("merchant H5", Place("merchant", "H5")),
    ("asukas h7", Place("merchant", "H7")),
    ("stable D3", Place("stable", "D3")),
    ("dome C3", Place("dome", "C3")),
    ("kupoli c3", Place("dome", "C3")),
])
def test_orders_are_read_case_insensitively_in_any_word_order(text, expected):
    st = GAME.new_state(4, 3)
    play(st, "merchant H6", "palace grey C3")
    assert GAME.parse_action(st, 0, text) == expected


def test_palace_without_colour_is_read_when_only_one_colour_fits():
    st = pos(f"seats 3\nturn seat 1 piece 1\n{board('. . . . o . . . . . . . . . . .', first_row=5)}\n"
             "supply seat 1 grey 0 black 0 brown 0")
    assert GAME.parse_action(st, 0, "palace E4") == Place("palace", "E4", "orange")
    st = GAME.new_state(3, 1)
    play(st, "merchant H6")
    with pytest.raises(OrderParseError, match="say which colour"):
        GAME.parse_action(st, 0, "palace E4")


@pytest.mark.parametrize("text,match", [
    ("", "empty"),
    ("build castle F7", "not a Medina order"),
    ("palace purple E5", "could not read 'purple'"),
    ("merchant Q5", "could not read 'q5'.*A1-P11"),
    ("merchant E12", "could not read 'e12'"),
    ("wall E5", "walls go on wall spaces"),
    ("wall W55", "could not read 'w55'"),
    ("stable", "names no site"),
    ("dome orange E5", "only palace pieces have a colour"),
    ("merchant W3", "not on wall space"),
    ("palace grey C4, stable D4", "one order per line"),
    ("wall \u00b2", "could not read '\u00b2'"),   # a digit int() cannot read (found by fuzzing)
])
def test_text_that_is_no_order_is_a_parse_error_with_legal_examples(text, match):
    st = midgame()
    with pytest.raises(OrderParseError, match=match) as err:
        GAME.parse_action(st, 1, text)
    assert err.value.text == text.strip()
    assert err.value.legal and set(err.value.legal) <= legal_texts(st)


def test_an_illegal_order_says_why_and_lists_legal_ones_of_the_same_kind():
    st = midgame()
    with pytest.raises(IllegalOrderError) as err:
        GAME.parse_action(st, 1, "palace grey K3")
    assert not isinstance(err.value, OrderParseError)
    assert "still under construction" in str(err.value)
    assert err.value.legal[0].startswith("palace grey")
    assert set(err.value.legal) <= legal_texts(st)


def test_orders_from_a_seat_whose_turn_it_is_not():
    st = midgame()
    with pytest.raises(NotYourTurnError, match="seat 2's turn"):
        GAME.parse_action(st, 2, "wall W54")
    with pytest.raises(NotYourTurnError):
        st.apply(0, Place("wall", "W54"))


def test_every_legal_order_round_trips_and_names_its_site():
    st = midgame()
    for a in st.legal_actions(1):
        assert GAME.parse_action(st, 1, a.to_text()) == a
        assert a.site and a.site in a.to_text()
        assert a.site not in a.label.upper()
        assert a.label in {"merchant", "wall", "stable", "dome", "palace grey",
                           "palace black", "palace brown", "palace orange"}


def test_default_order_is_the_first_legal_in_the_documented_order():
    st = midgame()
    legal = st.legal_actions(1)
    kinds = [a.kind for a in legal]
    assert kinds == sorted(kinds, key=["merchant", "wall", "stable", "palace", "dome"].index)
    d = st.default_action(1)
    assert d == legal[0] and d.kind == "merchant"
    st.apply(1, d)
    assert st.current_seats() == [2]


def test_default_order_in_setup_is_the_first_start_square():
    st = GAME.new_state(3, 1)
    assert st.default_action(0) == Place("merchant", "B2")


def test_the_view_hides_other_screens_but_shows_domes():
    st = midgame()
    for seat in (None, 0, 1, 2, 3):
        v = st.view(seat)
        json.dumps(v)
        for p in v["players"]:
            assert p["domes"] == st.supply[p["seat"]]["domes"]
            if p["seat"] == seat:
                assert p["supply"] == st.supply[seat]
            else:
                assert p["supply"] is None
    text = GAME.view_text(st.view(1))
    assert "You are seat 2" in text and "Behind your screen" in text
    assert "Behind your screen" not in GAME.view_text(st.view(None))


def test_view_text_shows_board_and_public_state():
    st = midgame()
    text = GAME.view_text(st.view(0))
    assert "grey C3, stables D3 (size 2, under construction)" in text
    assert "Walls: tower 1: W1" in text
    assert "1 # - -" in text   # tower 1, then W1 built, W2 empty


def test_order_help_lists_every_order():
    h = GAME.order_help()
    for word in ("palace orange E5", "dome E5", "stable F6", "merchant G2", "wall W12", "W1-W54"):
        assert word in h


def test_phase_labels():
    st = GAME.new_state(3, 1)
    assert st.phase() == "Setup: seat 1 places the start merchant"
    play(st, "merchant H6")
    assert st.phase() == "Turn 1: seat 1, piece 1 of 2"
