"""The drawn tile's legal orders as rows (:class:`TileOrders`): the same
orders, in the same order, as listing every placement and follower one by
one through the rule's explanation side (:func:`followers.follower_options`,
DS-31, DS-35 to DS-40), and a sequence that behaves like the list it
stands for (hypothesis over random legal games)."""
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st_

from pbem.engine.diestadt import followers, placement
from pbem.engine.diestadt.actions import PlaceTile
from pbem.engine.diestadt.grid import space_name
from pbem.engine.diestadt.tile_orders import TileOrders
from pbem.engine.diestadt.tiles import TURNED

from .helpers import GAME, random_play


def listed_one_by_one(st) -> list[PlaceTile]:
    """The legal tile orders built slowly from the rules' own functions."""
    out = []
    for space, q in placement.placements(st, st.drawn):
        turned = TURNED[st.drawn][q]
        out.append(PlaceTile(space_name(space), 90 * q))
        if st.supply[st.active] > 0:
            for role, point, _region in followers.follower_options(st, space, turned):
                out.append(PlaceTile(space_name(space), 90 * q, role, point))
    return out


def tile_decisions(seed: int, seats: int, stop: int):
    """The positions of a random legal game at each tile decision."""
    return (st for st in random_play(seats, seed, stop) if st.decision == "tile")


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st_.integers(0, 10**6), seats=st_.integers(2, 4))
def test_rows_list_what_the_rules_allow_in_order(seed, seats):
    for st in tile_decisions(seed, seats, 400):
        orders = st.legal_actions(st.current_seats()[0])
        assert isinstance(orders, TileOrders)
        slow = listed_one_by_one(st)
        assert list(orders) == slow
        assert orders == slow and len(orders) == len(slow)


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st_.integers(0, 10**6), seats=st_.integers(2, 4), pick=st_.randoms(use_true_random=False))
def test_index_slice_and_membership_match_the_list(seed, seats, pick):
    for st in tile_decisions(seed, seats, 200):
        orders = st.legal_actions(st.current_seats()[0])
        full = list(orders)
        n = len(full)
        i = pick.randrange(n)
        assert orders[i] is full[i] and orders[i - n] is full[i]
        assert orders[i:i + 5] == full[i:i + 5]
        assert full[i] in orders
        # an equal order written by a player is legal too; a changed one is not
        a = full[i]
        assert PlaceTile(a.site, a.rotation, a.role, a.point) in orders
        assert PlaceTile(a.site.lower(), a.rotation, a.role, a.point) not in orders
        assert PlaceTile(a.site, a.rotation + 360, a.role, a.point) not in orders
        with pytest.raises(IndexError):
            orders[n]


def test_an_order_on_a_space_the_tile_may_not_take_is_not_in_the_rows():
    st = GAME.new_state(3, 11)
    orders = st.legal_actions(0)
    assert [a.site for a in orders] == ["T20"] * len(orders)       # the first tile on T20
    assert PlaceTile("T21", 0) not in orders
    assert PlaceTile("T20", 45) not in orders
    assert "tile T20 0" not in orders


def test_a_pickle_or_copy_of_the_rows_is_the_plain_list():
    import copy
    import pickle
    st = GAME.new_state(2, 5)
    orders = st.legal_actions(0)
    assert pickle.loads(pickle.dumps(orders)) == list(orders)
    assert type(pickle.loads(pickle.dumps(orders))) is list
    assert type(copy.deepcopy(orders)) is list
