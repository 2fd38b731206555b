"""End of the game, the closing wall and final scoring, one sentence or
ruling per test ("Pelin päättyminen", "Loppupisteitys", "Yhteenveto
pisteytyksestä"): DS-92 to DS-113, DS-121, A-19 to A-21, A-26, A-27.
The worked examples EX-20 to EX-25 are in test_end.py.

Most positions end with the last tile (``piles 0 0 0``): the numbers are
then read off the final scoring."""
from itertools import groupby

from .helpers import END, GAME, detail, play, points, pos

#: the last tile of the game: seat 1 places ``drawn`` (DS-92 b)
LAST = "piles 0 0 0\npile 1\nturn seat 1 drawn {drawn}\n"


def last_tile(text: str, drawn: int, order: str):
    """Load ``text``, let seat 1 place the game's last tile ``drawn`` by
    ``order``; return the state (now over) and the events' kinds."""
    st = pos(text + LAST.format(drawn=drawn))
    action = GAME.parse_action(st, 0, order)
    kinds = [e.kind for e in st.apply(0, action)]
    assert st.is_terminal()
    return st, kinds


def walled(st) -> set[str]:
    """Every edge the view shows walled at the end: gate, pieces, closing."""
    w = st.view(None)["wall"]
    return {w["gate"], *w["pieces"], *w["closing"]} - {None}


# ------------------------------------------------------------ end (DS-92)
def test_ds92_last_wall_piece_ends_the_game():
    """DS-92 (a): when the last of the 70 wall pieces is built, the game ends
    (at the end of that turn, A-25), though tiles are left."""
    st = pos(END)
    st.wall.supply = 1
    play(st, "tile V20 90", "wall ccw")
    assert st.wall.supply == 0 and st.tiles_left() == 40
    assert st.decision == "tower"                       # the turn is played out
    texts = play(st, "no tower")
    assert st.is_terminal()
    assert any("last wall piece" in t for t in texts)


# --------------------------------------------------- the closing wall
# three tiles in a row T20-U20-V20 (V20 the last tile): an outline of eight
# edges, T20N U20N V20N V20E V20S U20S T20S T20W.
ROW_OUTLINE = {"T20N", "U20N", "V20N", "V20E", "V20S", "U20S", "T20S", "T20W"}
ROW = "seats 2\ntile T20 1 0\ntile U20 2 0\n"


def test_ds94_the_wall_is_always_completed():
    """DS-94: whatever ended the game, the city wall is completed: with the
    gate and one piece built, the six other outline edges are closed."""
    st, _ = last_tile(ROW + "gate T20 W\nwall cw\n", 3, "tile V20 0")
    assert st.view(None)["wall"]["pieces"] == ["T20N"]
    assert walled(st) == ROW_OUTLINE and len(st.closing) == 6


def test_ds94_wall_completed_even_without_a_gate():
    """DS-94: a game that ends before any wall was built gets its whole
    outline closed too."""
    st, _ = last_tile(ROW, 3, "tile V20 0")
    assert st.wall.gate is None
    assert walled(st) == ROW_OUTLINE and len(st.closing) == 8


def test_ds95_gap_filled_with_unused_wall_pieces():
    """DS-95: the gap in the wall is filled with the unused pieces from the
    supply (enough here: none imagined)."""
    st, kinds = last_tile(ROW + "gate T20 W\nwall cw\n", 3, "tile V20 0")
    assert st.wall.supply == 70 - 1 - 6
    assert st.imaginary == 0 and st.view(None)["wall"]["imagined"] == 0
    assert "closing" in kinds


def test_ds97_closing_wall_scores_a_market():
    """DS-97: then the markets (and streets) the closing wall closes are
    scored: a grain and a cattle market tile joined, 2 kinds x 2 tiles = 4,
    and the merchant goes back."""
    st, kinds = last_tile("seats 2\ntile T20 17 0 merchant N seat 2\n", 18, "tile U20 0")
    assert detail(st, 1)["markets"] == 4 and points(st) == [0, 4]
    assert st.supply[1] == 7
    assert kinds.index("closing") < kinds.index("complete")


# a city round a gap at U21: the overseer's homes on T20 border the fish
# market on T19 (one tile, complete) and the market U20-V20-V21 (grain,
# cattle, grain: three tiles), which faces the gap and stays unfinished.
# T22, U22 are dead ends and V22 a curve, their streets pointing out.
HOLE = """seats 2
tile T19 6 180
tile T20 1 0 {overseer}
tile U20 17 0 {merchant}
tile V20 18 0
tile T21 2 0
tile V21 7 0
tile T22 19 180 {citizen}
tile U22 20 180
"""


def hole(overseer="", merchant="", citizen="", extra=""):
    return last_tile(HOLE.format(overseer=overseer, merchant=merchant, citizen=citizen) + extra,
                     48, "tile V22 90")


def test_ds101_market_beside_a_gap_stays_unfinished():
    """DS-101 (with DS-99, DS-100): a gap left in the middle of the city is
    not walled, so the market beside it stays unfinished: its merchant goes
    back and scores nothing."""
    st, kinds = hole(merchant="merchant N seat 2")
    assert not {"U20S", "T21E", "V21W", "U22N"} & walled(st)    # round the gap U21
    assert detail(st, 1)["markets"] == 0 and st.supply[1] == 7
    assert "unfinished" in kinds


def test_ds102_a_single_overseer_owns_the_area():
    """DS-102: one seat alone has an overseer in the area: it owns the area
    and scores it (2 markets x 2); no one else does."""
    st, _ = hole(overseer="overseer N seat 2")
    assert [detail(st, s)["overseers"] for s in (0, 1)] == [0, 4]


def test_ds105_ds106_market_size_and_completion_do_not_matter():
    """DS-105, DS-106: each bordering market yields 2, the complete one-tile
    fish market as much as the unfinished three-tile market by the gap."""
    st, _ = hole(overseer="overseer N seat 1", merchant="merchant N seat 2")
    assert st.supply[1] == 7                     # the big market was unfinished
    assert detail(st, 0)["overseers"] == 2 + 2


def test_a27_final_scoring_order():
    """A-27: first the wall is closed and what it closes is scored, then the
    followers on unfinished streets and markets go back, then overseers,
    then guards, then the result."""
    st, kinds = hole(overseer="overseer N seat 1", merchant="merchant N seat 2",
                     citizen="citizen S seat 2", extra="gate T20 W guard seat 1\n")
    wanted = {"closing", "complete", "unfinished", "overseers", "guards", "end"}
    steps = [k for k, _ in groupby(kinds) if k in wanted]
    assert steps == ["closing", "complete", "unfinished", "overseers", "guards", "end"]
    # the dead end on T22 closed by the wall: 1; overseer 2 x 2; guard on the
    # row T20-U20-V20: the historic building on T20 only
    assert detail(st, 1)["streets"] == 1
    assert (detail(st, 0)["overseers"], detail(st, 0)["guards"]) == (4, 3)


def test_a26_closing_wall_scores_by_majority_and_takes_no_guards_or_towers():
    """A-26: the closing pieces carry no guards and no tower is offered; a
    street they close is scored by majority (two citizens of seat 1 against
    one of seat 2: 3 tiles for seat 1 only) and all followers go back."""
    st, _ = last_tile("""seats 2
tile T20 31 0 citizen N seat 1
tile T21 32 0 citizen N seat 1
tile T22 33 0 citizen N seat 2
gate T20 W guard seat 2
""", 1, "tile U20 0")
    assert {"T20N", "T22S"} <= set(st.view(None)["wall"]["closing"])
    assert [detail(st, s)["streets"] for s in (0, 1)] == [3, 0]
    assert st.supply == [7, 6]                            # seat 2's guard stays out
    assert list(st.wall.guards.values()) == [1] and st.wall.towers == []
    assert st.legal_actions(0) == [] and st.legal_actions(1) == []


# ------------------------------------------------------------------ guards
def guards(text: str, drawn: int, order: str) -> list[int]:
    """Guard points per seat after the last tile."""
    st, _ = last_tile(text, drawn, order)
    return [detail(st, s)["guards"] for s in range(st.seats)]


def test_ds110_two_points_per_public_building():
    """DS-110: 2 points for each public building in the watch row: T20 and
    U20 have one each, V20 none: 4."""
    text = "seats 2\ntile T20 4 0\ntile U20 5 0\ngate T20 W guard seat 1\n"
    assert guards(text, 6, "tile V20 0") == [4, 0]


def test_ds111_three_points_per_historic_building():
    """DS-111: 3 points for a historic building (not 2 + 3): U20 has one."""
    text = "seats 2\ntile T20 6 0\ntile U20 3 0\ngate T20 W guard seat 2\n"
    assert guards(text, 7, "tile V20 0") == [0, 3]


def test_ds108_watch_row_is_the_row_directly_in_front():
    """DS-108: the guard on T20 W watches the row T20-U20 (two public
    buildings: 4), not the historic building on T21 beside it."""
    text = "seats 2\ntile T20 4 0\ntile U20 5 0\ngate T20 W guard seat 1\n"
    assert guards(text, 1, "tile T21 0") == [4, 0]


def test_a19_watch_row_runs_inward_from_the_piece():
    """A-19: a guard on a north edge watches the column going south from its
    piece (T20, T21 public, T22 historic: 7), not the row of T20 (U20's
    historic building)."""
    text = """seats 2
tile T20 4 0
tile T21 5 0
tile T22 3 0
gate T20 W
wall cw T20 N guard seat 2
"""
    assert guards(text, 1, "tile U20 0") == [0, 7]


def test_a20_row_open_to_the_outside_ends_at_the_closing_wall():
    """A-20: a guard placed while its row still ran to unwalled open country
    scores the row up to the closing wall, including tiles added later
    (T20, U20 public, the last tile V20 historic: 7)."""
    text = "seats 2\ntile T20 4 0\ntile U20 5 0\ngate T20 W guard seat 1\n"
    st, _ = last_tile(text, 3, "tile V20 0")
    assert "V20E" in st.view(None)["wall"]["closing"]
    assert detail(st, 0)["guards"] == 7


def test_a21_row_and_column_guards_both_score_a_tile():
    """A-21: the historic building on T20 lies in the row of the gate's
    guard and the column of the guard on T20 N: both score its 3."""
    text = """seats 2
tile T20 1 0
tile U20 6 0
gate T20 W guard seat 1
wall cw T20 N guard seat 2
"""
    assert guards(text, 7, "tile T21 0") == [3, 3]


def test_ds121_final_summary_overseer_and_guard():
    """DS-121: at the end an overseer scores 2 per bordering market (T20's
    fish and U20's grain market: 4) and a guard 2 per public and 3 per
    historic building in its row (T20 historic, U20 public: 5)."""
    st, _ = last_tile("""seats 2
tile T20 3 0 overseer S seat 1
tile U20 4 0
gate T20 W guard seat 1
""", 2, "tile T21 0")
    assert (detail(st, 0)["overseers"], detail(st, 0)["guards"]) == (4, 5)
    assert points(st) == [9, 0]
