"""The object of the game, setup and the start of play ("Pelin tavoite",
"Valmistelut", "Pelin aloitus"): DS-7 to DS-9, DS-15 to DS-18, DS-22,
A-30, and what the service does where secondary sources say otherwise
(A-35)."""
import pytest

from pbem.engine import IllegalOrderError
from pbem.engine.api import NotYourTurnError, OrderParseError
from pbem.engine.diestadt.grid import top_edge

from .helpers import GAME, TRIGGER, detail, legal, play, points, pos, random_play


def _finished(seats: int, seed: int):
    """A random legal game played to its end."""
    for st in random_play(seats, seed, 3000):
        pass
    assert st.is_terminal()
    return st


@pytest.mark.parametrize("seats,seed", [(2, 0), (3, 1), (4, 2)])
def test_ds7_the_city_is_built_of_quarters_and_walled_round(seats, seed):
    """DS-7: the players build the city from residential areas, markets,
    streets and walls: after a whole game its features are exactly those three
    kinds of quarter, and gate, built pieces and closing wall run round it."""
    st = _finished(seats, seed)
    v = st.view(None)
    assert {f["type"] for f in v["features"]} == {"street", "market", "residential"}
    assert v["wall"]["gate"] is not None and v["wall"]["pieces"]          # built in play
    walled = set(st.wall.edges()) | set(st.closing)
    assert walled == set(st.outline.loop(top_edge(st.board)))


@pytest.mark.parametrize("citizen,expected", [("", [0, 0, 0]), (" citizen S seat 1", [2, 0, 0])])
def test_ds8_points_come_from_followers(citizen, expected):
    """DS-8: points are collected through followers: the same completed
    2-tile street scores 2 for the seat with a citizen on it, nothing when
    nobody stands there (and placing the tile scores nothing by itself)."""
    # helpers.TRIGGER, with the citizen (if any) on T21's street
    st = pos("seats 3\ntile T20 1 0\ntile T21 19 180" + citizen + "\nturn seat 2 drawn 20")
    texts = play(st, "tile T22 0")
    assert any("completes the street" in t for t in texts)
    assert points(st) == expected


def test_ds9_followers_score_during_the_game_and_at_its_end():
    """DS-9: a citizen scores when its street is completed, mid-game; an
    overseer scores only in the final scoring (2 for the one market, U20)."""
    st = pos("""seats 2
tile T20 1 0 overseer N seat 1
tile U20 6 270
tile T21 19 180 citizen S seat 1
piles 1 0 0
pile 1
next 2
turn seat 1 drawn 20""")
    play(st, "tile T22 0")
    assert not st.is_terminal()
    assert detail(st, 0) == {"streets": 2, "markets": 0, "towers": 0, "overseers": 0, "guards": 0}
    play(st, "tile S20 0")                       # the last tile: the game ends
    assert st.is_terminal()
    assert detail(st, 0)["overseers"] == 2 and points(st) == [4, 0]


def test_ds15_piles_2_and_3_walls_and_gate_wait_until_pile_1_is_used_up():
    """DS-15: piles 2 and 3, the walls and the gate are set aside: the first
    30 tiles all come from pile 1 and no gate or wall is asked for or built
    meanwhile; only then is pile 2 opened."""
    st = GAME.new_state(3, 11)
    assert [len(p) for p in st.piles] == [29, 25, 20] and st.pile == 1
    v = st.view(None)
    assert v["wall"]["gate"] is None and v["wall"]["pieces"] == [] and v["wall"]["supply"] == 70
    for st in random_play(3, 11, 3000):
        used = st.placed_count + len(st.discarded) + (st.drawn is not None)
        if st.pile == 1:
            assert used <= 30 and st.decision == "tile" and not st.wall.built
        else:
            assert used > 30
            break
    else:
        pytest.fail("pile 2 was never reached")


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_ds16_a30_seat_1_starts(seats):
    """DS-16, A-30: "the players agree who starts": on the service seat 1
    always does; another seat's order is refused as not their turn."""
    for seed in range(3):
        st = GAME.new_state(seats, seed)
        assert st.current_seats() == [0] and st.view(None)["turn"]["seat"] == 0
        with pytest.raises(NotYourTurnError):
            GAME.parse_action(st, 1, "tile T20 0")


def test_ds17_first_player_draws_the_top_tile_and_lays_it_down():
    """DS-17: the first player draws the top tile of the (first) pile and
    puts it on the table: it is the first tile of the city."""
    st = pos("seats 3\nnext 47 12")
    assert st.drawn == 47 and st.pile == 1 and len(st.piles[0]) == 29
    assert {a.site for a in st.legal_actions(0)} == {"T20"}
    play(st, "tile T20 90")
    tiles = st.view(None)["tiles"]
    assert [(t["tile"], t["space"], t["rotation"]) for t in tiles] == [(47, "T20", 90)]


def test_ds18_first_tile_may_take_one_follower_on_any_of_its_quarters():
    """DS-18: on the first tile the player may, if they wish, put one
    follower on a street, a market or a residential area of it; or none."""
    st = pos("seats 3\nnext 68")                    # P19: crossing, market, houses
    first = {t.split()[3] for t in legal(st) if t.startswith("tile T20 0 ")}
    assert first == {"citizen", "merchant", "overseer"}
    assert "tile T20 0" in legal(st)                # the follower is optional
    play(st, "tile T20 0 merchant SW")
    assert st.supply[0] == 6
    assert [(f["role"], f["space"]) for f in st.view(None)["followers"]] == [("merchant", "T20")]


def test_ds22_every_turn_starts_by_drawing_the_top_tile_to_place():
    """DS-22: at the start of each turn the player draws the top tile of the
    pile and must place it: the tiles come in pile order, one per seat in turn,
    and nothing but a tile placement is accepted."""
    st = pos("seats 3\ntile T20 1 0\nnext 47 12 62\nturn seat 1 drawn 2")
    assert legal(st) and all(t.startswith("tile ") for t in legal(st))
    with pytest.raises(OrderParseError):
        GAME.parse_action(st, 0, "pass")
    with pytest.raises(IllegalOrderError, match="now you place the drawn tile"):
        GAME.parse_action(st, 0, "no tower")
    for seat, tile in ((1, 47), (2, 12), (0, 62)):
        texts = play(st, sorted(legal(st))[0])
        assert st.current_seats() == [seat] and st.drawn == tile
        assert texts[-1].startswith(f"Seat {seat + 1} draws tile {tile} ") and "from pile 1" in texts[-1]


# ----------------------------------------------------------------
def test_a35_unoccupied_completion_still_starts_a_wall_round():
    """A-35: unlike the English Wikipedia summary, a completed street with no
    follower on it starts the wall round in pile 2 (DS-69)."""
    st = pos("seats 3\n" + TRIGGER + "piles 0 20 20\nturn seat 1 drawn 20")
    texts = play(st, "tile T22 0")
    assert any("no follower, no points" in t for t in texts) and points(st) == [0, 0, 0]
    assert st.decision == "gate" and st.current_seats() == [0]


def test_a35_no_farmers_only_citizens_merchants_and_overseers():
    """A-35: this game has no farmers (other Carcassonne games do): a
    follower on a tile is a citizen, merchant or overseer only."""
    st = pos("seats 2\ntile T20 1 0\nturn seat 1 drawn 68")
    roles = {a.role for a in st.legal_actions(0)}
    assert roles == {None, "citizen", "merchant", "overseer"}
    with pytest.raises(OrderParseError, match="farmer"):
        GAME.parse_action(st, 0, "tile T21 0 farmer W")


def test_a35_residential_area_scores_per_bordering_market_not_per_tile():
    """A-35: review sites give residential areas 2 points per tile; the text
    gives 2 per bordering market (DS-105): a 3-tile area bordering one market
    scores 2, not 6."""
    st = pos("""seats 2
tile T20 1 0
tile U20 2 0 overseer N seat 1
tile V20 6 270
piles 0 0 0
pile 1
turn seat 2 drawn 19""")
    play(st, "tile T21 180")                     # joins the area; the last tile
    area = [f for f in st.view(None)["features"] if f["type"] == "residential" and f["followers"]]
    assert [a["tiles"] for a in area] == [3]
    assert detail(st, 0)["overseers"] == 2
