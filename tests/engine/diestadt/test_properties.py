"""Invariants over random legal games for 2, 3 and 4 seats (hypothesis):
after every order the features agree with the tiles, every seat's
followers on the board plus its supply are 7, the wall is one run of the
city's outer outline with tiles only inside and none across it, no score
ever decreases, and every seat sees the same view."""
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st_

from pbem.engine.diestadt import placement
from pbem.engine.diestadt.grid import NEIGHBOURS, OPP, RING, top_edge
from pbem.engine.diestadt.state import FOLLOWERS
from pbem.engine.diestadt.tiles import MAX_REGIONS

from .helpers import GAME


def check_features(st):
    """Each feature's open-slot count equals the slots of its regions that
    face an empty space with no wall on that edge (computed afresh from the
    board), and its spaces are the spaces of its regions."""
    walled = set(st.wall.edges()) | set(st.closing)
    want_open: dict[int, int] = {}
    want_tiles: dict[int, set] = {}
    for p, (tile, space, q) in enumerate(st.placed):
        t = st.turned_at[p]
        for r in range(len(t.types)):
            root = st.feats.find(p * MAX_REGIONS + r)
            want_tiles.setdefault(root, set()).add(space)
            want_open.setdefault(root, 0)
            assert st.feats.ftype[root] == t.types[r]
        for side in range(4):
            nb = NEIGHBOURS[space][side]
            if (nb < 0 or st.board[nb] < 0) and (space, side) not in walled:
                for k in range(3):
                    want_open[st.feats.find(p * MAX_REGIONS + t.slots[3 * side + k])] += 1
            elif nb >= 0 and st.board[nb] >= 0:
                other = st.turned_at[st.board[nb]]
                # streets continue across every tile border (DS-26, DS-28)
                assert (t.edges[side] == "S") == (other.edges[OPP[side]] == "S")
    for sp in st.frontier:
        assert st.fmask[sp] == placement._masks(st, sp)
        ring = sum(1 << k for k, nb in enumerate(RING[sp]) if nb >= 0 and st.board[nb] >= 0)
        assert st.rmask.get(sp, 0) == ring
    for root, n in want_open.items():
        assert st.feats.open[root] == n
        assert st.feats.tiles[root] == want_tiles[root]


def check_followers(st):
    for seat in range(st.seats):
        on_tiles = sum(1 for s in st.node_seat.values() if s == seat)
        guards = sum(1 for s in st.wall.guards.values() if s == seat)
        assert on_tiles + guards + st.supply[seat] == FOLLOWERS


def check_wall(st):
    if not st.wall.built:
        return
    for sp, side in st.wall.edges():
        assert st.board[sp] >= 0                      # a tile inside
        nb = NEIGHBOURS[sp][side]
        assert nb < 0 or st.board[nb] < 0             # nothing across the wall
    assert st.wall.stays_outer(st.outline, top_edge(st.board))


def check_views(st):
    views = []
    for viewer in [None, *range(st.seats)]:
        v = st.view(viewer)
        v.pop("viewer")
        # the banner is addressed to the deciding seat only; it is made from
        # public facts (decision.py), so it hides nothing from the others
        owed = v.pop("decision")
        assert (owed is not None) == (viewer in st.current_seats() and viewer is not None)
        views.append(v)
    assert all(v == views[0] for v in views)
    assert "piles" in views[0] and all(isinstance(n, int) for n in views[0]["piles"])


def play_checked(seats: int, seed: int, choice_seed: int) -> None:
    state = GAME.new_state(seats, seed)
    rng = random.Random(choice_seed)
    last = [dict(p) for p in state.points]
    steps = 0
    while not state.is_terminal():
        seat = state.current_seats()[0]
        acts = state.legal_actions(seat)
        state.apply(seat, acts[rng.randrange(len(acts))])
        check_features(state)
        check_followers(state)
        check_wall(state)
        for s in range(seats):
            for k, v in state.points[s].items():
                assert v >= last[s][k]
        last = [dict(p) for p in state.points]
        if steps % 10 == 0:
            check_views(state)
        steps += 1
    check_views(state)
    assert state.current_seats() == []


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seats=st_.integers(2, 4), seed=st_.integers(0, 2 ** 32), choice=st_.integers(0, 2 ** 16))
def test_random_games_keep_the_invariants(seats, seed, choice):
    play_checked(seats, seed, choice)


def test_same_seed_and_log_give_the_same_game():
    a = GAME.new_state(3, 99)
    rng = random.Random(5)
    log = []
    while not a.is_terminal():
        seat = a.current_seats()[0]
        acts = a.legal_actions(seat)
        act = acts[rng.randrange(len(acts))]
        log.append((seat, act.to_text()))
        a.apply(seat, act)
    b = GAME.new_state(3, 99)
    for seat, text in log:
        b.apply(seat, GAME.parse_action(b, seat, text))
    assert a.to_json() == b.to_json()
