"""Spectators (issue 25): only the host switches the link, a revoked link
opens nothing, and "one turn behind" shows the board where the previous
turn began (turns as the engine's ``turn_key()`` marks them)."""
from __future__ import annotations

import pytest

from pbem.service.core.errors import NotAllowed, ServiceError
from pbem.service.core.snapshot import engine_state
from pbem.service.play.orders import submit_orders
from pbem.service.play.replay import state_at
from pbem.service.play.spectators import set_watchable, shown_step, spectator_path, watched_game

from .helpers import game, new_tally


def _secret(gid: int) -> str:
    return spectator_path(game(gid)).rsplit("/", 1)[1]     # "<game id>.<secret>"


def test_only_the_host_switches_and_a_revoked_link_opens_nothing(app, t0):
    gid = new_tally(t0)
    g = game(gid)
    bo = g.seat(1).player_id
    with pytest.raises(NotAllowed):
        set_watchable(gid, "on", by_player_id=bo)
    assert spectator_path(game(gid)) is None
    with pytest.raises(ServiceError):
        set_watchable(gid, "publish", by_player_id=g.host_id)
    set_watchable(gid, "on", by_player_id=g.host_id)
    first = _secret(gid)
    assert watched_game(first).id == gid and watched_game(f"{gid + 1}.{first.split('.')[1]}") is None
    set_watchable(gid, "on", by_player_id=g.host_id)
    assert _secret(gid) == first                       # on again keeps the link
    set_watchable(gid, "renew", by_player_id=g.host_id)
    assert watched_game(first) is None and watched_game(_secret(gid)) is not None
    set_watchable(gid, "off", by_player_id=g.host_id)
    assert spectator_path(game(gid)) is None and watched_game(first) is None


def test_one_turn_behind_shows_where_the_previous_turn_began(app, t0):
    gid = new_tally(t0)
    set_watchable(gid, "on", delay=True)
    start = game(gid).step
    assert shown_step(game(gid)) == start              # the first turn: nothing earlier to show
    keys = [engine_state(game(gid)).turn_key()]
    for seat in range(3):                              # three adds: three turns
        submit_orders(gid, seat, "add 1", expected_step=game(gid).step, source="web", now=t0)
        keys.append(engine_state(game(gid)).turn_key())
    assert len(set(keys)) == 4
    g = game(gid)
    assert shown_step(g) == start + 2                  # the board when seat 3 was asked to add
    for seat in range(3):                              # the bids, all at once: one turn
        submit_orders(gid, seat, "bid 0", expected_step=g.step, source="web", now=t0)
    g = game(gid)
    assert g.step == start + 6 and engine_state(g).turn_key() != keys[3]
    assert shown_step(g) == start + 3                  # where the bidding began
    assert state_at(gid, shown_step(g)).turn_key() == keys[3]
    set_watchable(gid, "on", delay=False)
    assert shown_step(game(gid)) == game(gid).step
