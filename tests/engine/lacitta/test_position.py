"""The La Città position text (pbem/engine/lacitta/position.py): read by
hand-written fixtures, written back in full, and refused with the line named."""
import random

import pytest

from pbem.engine import get_game
from pbem.engine.lacitta import data as D
from pbem.engine.lacitta.position import dump_position, load_position

G = get_game("lacitta")

TEXT = """
seats 3
phase political year 2 round 3 seat 2     # seat 2 is on turn
start 3
city 1 I6 5: farm J6, market H6
city 2 Q13 3: quarry Q14
city 3 D14 2
gold 4 0 7
display palazzo, dom, golden age
deck hospital, dom
voice health culture education culture
peeked 2 3
notable J6 2 culture
famine_next 3
supply farm/quarry 10
"""


def test_a_hand_written_position_reads_as_written():
    s = load_position(TEXT, G)
    assert s.phase() == "Year 2, political round 3" and s.current_seats() == [1]
    assert s.start == 2 and s.gold == [4, 0, 7]
    assert s.cities["I6"].owner == 0 and s.cities["I6"].citizens == 5
    assert sorted(s.cities["I6"].sites) == ["H6", "I6", "J6"] and s.kind["H6"] == "market"
    assert s.display == ["palazzo", "dom", "golden age"] and s.deck == ["hospital", "dom"]
    assert s.peeked == [[], [2], []] and s.notables == [["J6", 1, "culture"]]
    assert s.famine_next == [False, False, True]
    assert D.SUPPLY["farm/quarry"] - s.used["farm/quarry"] == 10
    assert s.bank == 130 - 10                        # default: 130 minus the citizens placed
    view = s.view(1)
    assert view["voice"][2]["wish"] == "education"   # seat 2 looked at card 3
    assert s.view(0)["voice"][2]["wish"] is None


def test_dump_writes_every_fact_and_reads_back_the_same_position():
    s = load_position(TEXT, G)
    text = dump_position(s)
    assert "city 1 I6 5: farm J6, market H6" in text and "peeked 2 3" in text
    back = load_position(text, G)
    assert dump_position(back) == text
    assert back.to_json() == s.to_json()


@pytest.mark.parametrize(("seats", "setup"), [(2, "beginner"), (4, "experienced"), (5, "beginner")])
def test_every_position_of_a_random_game_round_trips_with_the_same_views(seats, setup):
    """Stronger than the conformance test asks: every view and the random
    generator survive, so the game plays on identically."""
    s = G.new_state(seats, 40 + seats, setup=setup)
    rng = random.Random(seats)
    while not s.is_terminal():
        back = load_position(dump_position(s), G)
        assert all(back.view(v) == s.view(v) for v in [None, *range(seats)]), s.phase()
        seat = rng.choice(s.current_seats())
        action = rng.choice(s.legal_actions(seat))
        assert [e.text for e in back.apply(seat, action)] == [e.text for e in s.apply(seat, action)]


def test_experienced_setup_names_the_placement_not_the_seat():
    """In snake order a seat places twice; the text says which placement is next."""
    s = G.new_state(3, 5, setup="experienced")
    for _ in range(4):
        seat = s.current_seats()[0]
        s.apply(seat, s.legal_actions(seat)[0])
    text = dump_position(s)
    assert "phase setup year 0 round 0 placement 5" in text and "setup_order 1 3 2 2 3 1" in text
    assert load_position(text, G).current_seats() == s.current_seats() == [2]


@pytest.mark.parametrize(("line", "words"), [
    ("city 1 Z99 3", "Z99 is not a site"),
    ("gold 1", "one number per seat"),
    ("phase lunch", "phase must be one of"),
    ("start 7", "seat 7 is not one of 1..2"),
    ("supply gold 3", "no pile 'gold'"),
    ("colour blue", "unknown line 'colour'"),
])
def test_a_bad_line_is_refused_naming_it(line, words):
    base = "voice health culture education culture\n"
    with pytest.raises(ValueError, match=words):
        load_position(base + line, G)
