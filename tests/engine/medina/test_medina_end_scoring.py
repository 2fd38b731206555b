"""The end ("Pelin loppuminen") and scoring ("Pisteytys")."""
import pytest

from pbem.engine import IllegalOrderError
from pbem.engine.medina.scoring import palace_points

from .helpers import board, legal_texts, play, pos

EMPTY_SUPPLY = "grey 0 black 0 brown 0 orange 0 domes 0 stables 0 merchants 0 walls 0"


def lone(rows=(), first_row=1, extra="", me="walls 3 domes 1"):
    """Seat 1 is the only seat with pieces left."""
    return pos(f"""seats 3
turn seat 1 piece 1
{board(*rows, first_row=first_row)}
supply seat 1 {EMPTY_SUPPLY} {me}
supply seat 2 {EMPTY_SUPPLY}
supply seat 3 {EMPTY_SUPPLY}
{extra}""")


# ---------------------------------------------------------------------- end
def test_the_lone_seat_must_place_a_dome_every_turn():
    st = lone([". . . . g . . . . . . . . . . ."], first_row=5)
    assert st.lone and "must place a dome" in st.phase()
    legal = legal_texts(st)
    assert "dome E5" in legal and "wall W1" in legal   # a wall first, the dome second
    play(st, "wall W1")
    assert legal_texts(st) == {"dome E5"}
    with pytest.raises(IllegalOrderError, match="must include a dome"):
        play(st, "wall W2")


def test_the_lone_seat_may_not_first_place_a_piece_that_rules_the_dome_out():
    # the only way to a dome: start a palace and claim it; a wall first would leave none
    st = lone(me="grey 2 walls 3 domes 1")
    legal = legal_texts(st)
    assert "wall W1" not in legal and "palace grey H6" in legal
    with pytest.raises(IllegalOrderError, match="no dome could be placed"):
        play(st, "wall W1")
    play(st, "palace grey H6")
    assert legal_texts(st) == {"dome H6"}
    play(st, "dome H6")
    assert st.palaces[0].owner == 0


def test_the_lone_rule_is_announced_when_the_others_run_out():
    st = pos(f"""seats 3
turn seat 2 piece 2
{board(". . . . g . . . . . . . . . . .", first_row=5)}
supply seat 1 {EMPTY_SUPPLY} walls 2 domes 1
supply seat 2 {EMPTY_SUPPLY} walls 1
supply seat 3 {EMPTY_SUPPLY}
""")
    events = play(st, "wall W1")
    assert any("Only seat 1 has pieces left" in e for e in events)
    assert st.current_seats() == [0] and st.lone


def test_the_game_ends_when_the_lone_seat_cannot_place_a_dome():
    # "hänen täytyy laittaa vähintään yksi kupoli jokaisella pelivuorollaan, kunnes peli loppuu"
    st = pos(f"""seats 3
turn seat 2 piece 2
{board()}
supply seat 1 {EMPTY_SUPPLY} walls 2
supply seat 2 {EMPTY_SUPPLY} walls 1
supply seat 3 {EMPTY_SUPPLY}
""")
    events = play(st, "wall W1")
    assert st.is_terminal() and st.current_seats() == []
    assert any("cannot place a dome" in e for e in events)
    assert events[-1].startswith("Game over")
    assert st.supply[0]["walls"] == 2   # left behind the screen


def test_the_game_ends_when_no_seat_can_place_a_piece():
    # "Peli loppuu, kun yhdelläkään pelaajalla ei ole enää pelattavia rakennuspaloja":
    # two seats hold only domes, with no palace under construction
    st = pos(f"""seats 3
turn seat 1 piece 2
{board()}
supply seat 1 {EMPTY_SUPPLY} walls 1
supply seat 2 {EMPTY_SUPPLY} domes 1
supply seat 3 {EMPTY_SUPPLY} domes 1
""")
    events = play(st, "wall W1")
    assert st.is_terminal()
    assert events[-2:] == ["No seat can place any of its remaining pieces.",
                           "Game over. Final scores: seat 1 0, seat 2 0, seat 3 0."]
    assert st.legal_actions(0) == [] and st.phase() == "Game over"


def test_the_game_ends_when_every_piece_is_placed():
    st = pos(f"""seats 3
turn seat 1 piece 2 domed
{board()}
supply seat 1 {EMPTY_SUPPLY} walls 1
supply seat 2 {EMPTY_SUPPLY}
supply seat 3 {EMPTY_SUPPLY}
""")
    play(st, "wall W1")
    assert st.is_terminal()


# ------------------------------------------------------------------ scoring
RULEBOOK_EXAMPLE = f"""seats 3
turn seat 1 piece 1
   A B C D E F G H I J K L M N O P
 1 . . g g g g s . . . . . . . . .
 2 . m m m m . . . . . . . . . . .
 3 k k k k k . . . . . . . . . . .
 4 . . . . . . . . . . . . m m m .
 5 . . . . . . . . . . . . m s o o
 6 . . . . . . . . . . . . . s o o
 7 . . . . . . . . . . . . . . . .
 8 . . . . . . . . . . . . . . . .
 9 . . . . . . . . . . . . . . . .
10 . . . . . . . . . . . . . . . .
11 . . . . . . . . . . . . . . . .
walls W1 W2 W3 W4 W5 W6 W7 W54 W53 W52 W17 W18 W19 W20 W21 W22
dome O5 seat 1
dome A3 seat 2
dome C1 seat 3
"""


def test_rulebook_scoring_example():
    """Page 7: orange 4 pieces + 2 stables + 2 walls + 3 merchants = 11;
    black 5 pieces + 1 wall + 4 merchants = 10; grey 4 pieces + 1 stable +
    5 walls + 3 merchants = 13; the merchants between black and grey (C2 D2 E2)
    count for both."""
    st = pos(RULEBOOK_EXAMPLE)
    by_colour = {p.colour: p for p in st.palaces}
    assert palace_points(st, by_colour["orange"]) == {"pieces": 4, "stables": 2, "walls": 2, "merchants": 3}
    assert palace_points(st, by_colour["black"]) == {"pieces": 5, "stables": 0, "walls": 1, "merchants": 4}
    assert palace_points(st, by_colour["grey"]) == {"pieces": 4, "stables": 1, "walls": 5, "merchants": 3}
    assert [s.points for s in st.scores()] == [11, 10, 13]
    assert [s.rank for s in st.scores()] == [2, 3, 1]


def test_palace_and_tower_tiles_add_their_points():
    st = pos(RULEBOOK_EXAMPLE + "palace tile orange seat 1\npalace tile black seat 2\n"
             "palace tile grey seat 3\ntower tile 1 seat 2\ntower tile 2 seat 1\n")
    scores = st.scores()
    assert [s.points for s in scores] == [11 + 4 + 2, 10 + 2 + 1, 13 + 1]
    assert scores[0].detail == {"palaces": 4, "stables": 2, "merchants": 3, "walls": 2,
                                "palace_tiles": 4, "tower_tiles": 2}


def test_palaces_nobody_owns_score_nothing_and_ties_share_the_win():
    st = pos(RULEBOOK_EXAMPLE.replace("dome O5 seat 1\n", "complete O5\n")
             .replace("dome A3 seat 2", "dome A3 seat 1"))
    scores = st.scores()
    assert [s.points for s in scores] == [10, 0, 13]
    st = pos(RULEBOOK_EXAMPLE + "tower tile 3 seat 2\n")   # 11, 13, 13
    assert [s.rank for s in st.scores()] == [3, 1, 1]
    assert all(s.tiebreak == 0 for s in st.scores())
