"""The position text is input (issue 22): ``load_position`` refuses a
position no game could reach with a ``ValueError`` that names the line, and
the wall supply has a line of its own that round-trips
(pbem/engine/diestadt/position.py lists every line)."""
import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st_

from pbem.engine.diestadt.grid import NEIGHBOURS, OPP, parse_edge
from pbem.engine.diestadt.position import dump_position

from .helpers import TRIGGER, pos, random_play


@pytest.mark.parametrize("text, names", [
    # a street against a residential edge (DS-26, DS-28), either way round
    ("seats 2\ntile T20 1 0\ntile T21 19 0\n", "tile T21 19 0"),
    ("seats 2\ntile T20 19 180\ntile T21 1 0\n", "tile T21 1 0"),
    ("seats 2\ntile T20 1 0\ntile T21 1 0\n", "tile T21 1 0"),              # tile 1 twice
    ("seats 2\ntile T20 1 0\ntile T20 2 0\n", "tile T20 2 0"),              # space taken
    ("seats 2\ntile T20 1 0\ntile T21 99 0\n", "tile T21 99 0"),            # no such tile
    ("seats 2\ntile T20 1 45\n", "tile T20 1 45"),
    ("seats 2\ntile T20 1 0 knight N seat 1\n", "knight"),                  # no such follower
    ("seats 2\ntile T20 1 0 overseer N seat 3\n", "seat 3"),                # no such seat
    ("seats 5\ntile T20 1 0\n", "seats 5"),
    ("seats 2\ntile T20 1 0 overseer N seat 1\ntile U20 2 0 overseer N seat 1\nsupply seat 1 6\n",
     "supply seat 1 6"),                                                   # 2 out + 6: 8 (DS-10)
    ("seats 2\ntile T20 1 0\nturn seat 1 drawn 1\n", "turn seat 1 drawn 1"),   # drawn is on the board
    ("seats 2\ntile T20 1 0\nnext 1 2\n", "next 1 2"),
    ("seats 2\ntile T20 1 0\npiles 0 0 0\n", "piles 0 0 0"),                # nothing left to draw
    ("seats 2\ntile T20 1 0\nsupply seat 1 9\n", "supply seat 1 9"),
    ("seats 2\n" + TRIGGER + "wall supply 80\n", "wall supply 80"),
])
def test_a_position_no_game_could_reach_is_refused_naming_the_line(text, names):
    with pytest.raises(ValueError) as err:
        pos(text)
    assert names in str(err.value)


def test_an_occupied_street_completed_by_a_listed_tile_is_refused():
    """A street with a citizen that the listed tiles complete would have
    been scored and the citizen returned (DS-45, DS-47)."""
    with pytest.raises(ValueError, match="complete"):
        pos("seats 2\ntile T20 1 0\ntile T21 19 180 citizen S seat 1\ntile T22 20 0\n")


def test_the_last_tile_drawn_by_the_loader_is_fine():
    """The loader's own draw may take the very last tile: that tile is then
    the drawn one, and seat 1 has orders."""
    st = pos("seats 2\ntile T20 1 0\npiles 0 0 1\n")
    assert st.drawn is not None and st.tiles_left() == 0 and st.legal_actions(0)


def test_the_wall_supply_line_round_trips():
    st = pos("seats 3\n" + TRIGGER + "gate T20 W\nwall supply 2\npiles 0 20 20\nturn seat 1 drawn 20")
    assert st.wall.supply == 2
    text = dump_position(st)
    assert "wall supply 2\n" in text
    back = pos(text)
    assert back.wall.supply == 2 and dump_position(back) == text
    plain = dump_position(pos("seats 3\n" + TRIGGER + "gate T20 W\nwall cw\n"))
    assert "wall supply" not in plain                     # the default (70 minus built) is not written


def _streets_continue(st) -> bool:
    for p, (tile, space, q) in enumerate(st.placed):
        for side, nb in enumerate(NEIGHBOURS[space]):
            if nb >= 0 and st.board[nb] >= 0:
                mine = st.turned_at[p].edges[side] == "S"
                theirs = st.turned_at[st.board[nb]].edges[OPP[side]] == "S"
                if mine != theirs:
                    return False
    return True


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seats=st_.integers(2, 4), seed=st_.integers(0, 2**32), moves=st_.integers(1, 60),
       pick=st_.integers(0, 2**32))
def test_a_turned_tile_line_is_refused_or_still_a_legal_position(seats, seed, moves, pick):
    """Any position of a random game, with one tile line turned to another
    rotation: either refused with a ValueError quoting a line of the text
    (the turned one, or a later one it no longer fits), or a position where
    every street goes on and the deciding seat has orders."""
    *_, st = random_play(seats, seed, moves)
    lines = dump_position(st).splitlines()
    tiles = [k for k, ln in enumerate(lines) if ln.startswith("tile ")]
    rng = random.Random(pick)
    k = rng.choice(tiles)
    words = lines[k].split()
    words[3] = str((int(words[3]) + 90 * rng.randint(1, 3)) % 360)
    lines[k] = " ".join(words)
    try:
        back = pos("\n".join(lines) + "\n")
    except ValueError as err:
        assert any(repr(ln) in str(err) for ln in lines[k:])
        return
    assert _streets_continue(back)
    assert back.is_terminal() or back.legal_actions(back.current_seats()[0])


_GUARDS = Path(__file__).parent / "positions" / "guard_row_filled_later.txt"


def test_ds77_a19_a_guard_whose_row_was_filled_later_loads():
    """A position reached in play (the conformance test's game): seat 3's
    guard on P16 W faces seat 2's on T16 E across P16-T16, unbroken now but
    with S16 still empty when the later of the two was built (S16 is the
    last tile listed; DS-77, A-19). It loads and writes back the same text."""
    text = _GUARDS.read_text()
    st = pos(text)
    assert dump_position(st) == text
    assert st.wall.guards[parse_edge("P16W")] == 2 and st.wall.guards[parse_edge("T16E")] == 1


def test_ds77_a19_guards_facing_across_a_row_complete_when_both_were_built_are_refused():
    """The same position with S16 laid before P16: every tile between the
    two guards lay there when the later one was built, so it could not
    stand there (DS-77, EX-15)."""
    lines = _GUARDS.read_text().splitlines()
    s16 = next(ln for ln in lines if ln.startswith("tile S16 "))
    lines.remove(s16)
    lines.insert(lines.index(next(ln for ln in lines if ln.startswith("tile P16 "))), s16)
    with pytest.raises(ValueError, match="DS-77") as err:
        pos("\n".join(lines) + "\n")
    assert "'wall ccw P16 W guard seat 3'" in str(err.value)
