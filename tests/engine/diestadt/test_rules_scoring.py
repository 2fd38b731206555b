"""Residential areas ("Asuinalueet": DS-61 to DS-64, A-8) and what a turn's
completions start (A-12): scenario tests beside test_streets_markets.py."""
import pytest

from pbem.engine import IllegalOrderError

from .helpers import GAME, WALLED_COLUMN, legal, play, points, pos

# T20 gets a P13 curve N-E turned 0; the houses inside the curve (point NE)
# face T19's market (P11, S1) and U20's market (P11 turned 270, W3): placing
# the curve closes that little residential area and nothing else.
POCKET = """tile T19 35 0
tile U19 1 0
tile U20 36 270
"""


def residential(st) -> list[tuple[list[str], int, bool, list[int]]]:
    """Every residential area in the view: spaces, open slots, complete, followers."""
    return [(f["spaces"], f["open"], f["complete"], f["followers"])
            for f in st.view(None)["features"] if f["type"] == "residential"]


def overseer_spaces(st) -> set[str]:
    """The spaces where the drawn tile may go with an overseer."""
    return {a.site for a in st.legal_actions(st.current_seats()[0]) if a.role == "overseer"}


def test_a8_placement_closing_a_residential_area_takes_no_overseer_there():
    """A-8: a residential area is complete, like a market, when no part of it
    faces an open space; DS-39 then bars an overseer on it. The curve's inner
    houses are closed by the placement, its outer houses are not."""
    st = pos("seats 2\n" + POCKET + "turn seat 1 drawn 45")
    assert "tile T20 0 overseer SE" in legal(st)              # the outer houses
    assert not any(t.startswith("tile T20 0 overseer N") for t in legal(st))
    with pytest.raises(IllegalOrderError, match="completes that residential area, which had no follower.*DS-39"):
        GAME.parse_action(st, 0, "tile T20 0 overseer NE")
    play(st, "tile T20 0")
    assert (["T20"], 0, True, []) in residential(st)


def test_ds63_overseer_lies_and_stays_in_a_completed_area():
    """DS-63: overseers lie on their tiles to show that they stay (DS-62): the
    overseer in the curve's inner houses is still there, lying, after U20
    closes the area, and nothing is scored for it (DS-44)."""
    st = pos("""seats 2
tile T19 35 0
tile T20 45 0 overseer NE seat 1
tile U19 1 0
tile T21 3 180 merchant S seat 2
turn seat 2 drawn 36""")
    play(st, "tile U20 270")
    assert (["T20"], 0, True, [0]) in residential(st)
    postures = {f["role"]: f["posture"] for f in st.view(None)["followers"]}
    assert postures == {"overseer": "lying", "merchant": "standing"}
    assert st.supply == [6, 6] and points(st) == [0, 0]


def test_ds61_wall_closes_a_residential_area():
    """DS-61: walls bound residential areas too. Walled on every side but at
    T22, the houses of T20-T22 are open only there; the wall round's three
    pieces round T22 close the area (no points: DS-44)."""
    st = pos("seats 2\n" + WALLED_COLUMN + """piles 0 20 20
turn seat 1 drawn 20""")
    play(st, "tile T22 0")                       # completes the street T21-T22: a wall round
    assert residential(st) == [(["T20", "T21", "T22"], 9, False, [])]
    play(st, "wall cw", "wall cw")
    assert residential(st) == [(["T20", "T21", "T22"], 3, False, [])]
    play(st, "wall cw")
    assert residential(st) == [(["T20", "T21", "T22"], 0, True, [])]
    assert points(st) == [0, 0]


def test_ds61_ds64_ex12_a_street_separates_residential_areas():
    """DS-61, DS-64: a street bounds residential areas. With an overseer north
    of T20's street, houses added north join that area (no overseer), houses
    added south are another area (an overseer may go there)."""
    st = pos("seats 2\ntile T20 31 90 overseer N seat 1\nturn seat 2 drawn 1")
    assert {"T19", "T21"} <= {a.site for a in st.legal_actions(1)}
    assert overseer_spaces(st) == {"T21"}
    with pytest.raises(IllegalOrderError, match="already has a follower"):
        GAME.parse_action(st, 1, "tile T19 0 overseer N")


def test_ds61_ds64_a_market_separates_residential_areas():
    """DS-61, DS-64: a market bounds residential areas. Houses beyond the
    market tile T20 are apart from S20's occupied houses; houses next to S20
    join them."""
    st = pos("seats 2\ntile S20 1 0 overseer N seat 1\ntile T20 17 0\nturn seat 2 drawn 2")
    sites = {a.site for a in st.legal_actions(1)}
    assert {"S19", "S21", "R20", "U20"} <= sites
    assert "U20" in overseer_spaces(st)
    assert not overseer_spaces(st) & {"S19", "S21", "R20"}


def test_a12_one_wall_round_for_two_streets_completed_by_one_tile():
    """A-12: one wall round per turn, however many streets or markets the tile
    completes. The crossing on T22 closes two streets: one round of three."""
    st = pos("""seats 3
tile T20 1 0
tile T21 19 180
tile U21 2 0
tile U22 20 270
piles 0 20 20
turn seat 2 drawn 66""")
    texts = play(st, "tile T22 0")
    assert sum("completes the street" in t for t in texts) == 2
    assert sum("wall round" in t for t in texts) == 1
    assert [list(q) for q in st.queue] == [[1, "gate"], [2, "wall"], [0, "wall"]]


def test_a12_completed_residential_area_starts_no_wall_round():
    """A-12: a completed residential area does not start a wall round (DS-68
    names streets and markets only), even in pile 2."""
    st = pos("seats 3\n" + POCKET + "piles 0 20 20\nturn seat 2 drawn 45")
    texts = play(st, "tile T20 0")
    assert (["T20"], 0, True, []) in residential(st)
    assert not any("wall round" in t for t in texts)
    assert not st.wall.built and st.decision == "tile" and st.current_seats() == [2]
