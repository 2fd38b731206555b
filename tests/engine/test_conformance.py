"""Every registered game keeps the engine contract (pbem/engine/api.py).

Hypothesis picks the seat count, the options, the seed and the random
policy; the game is played to the end and, after every order, checked for:

- the API's types and shapes (current_seats, legal_actions, events, scores);
- legal orders read back from their text (``parse_action(a.to_text()) == a``);
- out-of-turn and illegal orders refused with the state untouched;
- ``default_action`` accepted; the service's missed-deadline loop (defaults
  while the seat owes a decision of the same ``turn_key``) ends;
- ``to_json`` round trips, and replay from seed and order log is
  byte-identical;
- no hidden information in any view: a variant from ``Game.redeal_hidden``
  (what the game itself declares hidden, dealt again) looks the same to the
  viewer and leaves the viewer's legal orders alone;
- the position text: ``dump_position`` -> ``load_position`` writes back the
  same text with the same legal orders, scores and phase.

A second test plays whole games by default orders alone. A game joins these
tests by being registered (``ENGINES`` in pbem/engine/registry.py, or
``pbem.engine.register``, as the toy game tests/toygame is); nothing here
names one.
"""
from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, given, settings, strategies as st

from pbem.engine import (
    GAMES, Action, Event, Game, IllegalOrderError, NotYourTurnError, OrderError, OrderParseError,
    Score, State,
)

NAMES = sorted(GAMES)
MAX_STEPS = 20_000        # no game of ours comes near; a runaway loop fails here
PARSE_SAMPLE = 15         # legal orders read back per step (all when fewer)
ILLEGAL_SAMPLE = 5        # stale orders tried per step
ALL_VIEWS_EVERY = 4       # steps between checks of every seat's view (else: spectator, deciding seat)
# whole games: shrinking a policy seed teaches nothing and takes minutes
SLOW = settings(max_examples=5, deadline=None, suppress_health_check=[HealthCheck.too_slow],
                phases=[Phase.explicit, Phase.reuse, Phase.generate])


@st.composite
def new_games(draw, name: str) -> tuple[Game, int, int, dict[str, str]]:
    """(game, seats, seed, options): any seat count and option values."""
    game = GAMES[name]
    seats = draw(st.integers(game.min_seats, game.max_seats))
    options = {opt: draw(st.sampled_from(allowed)) for opt, allowed in game.options.items()}
    return game, seats, draw(st.integers(0, 2**48)), options


def _texts(state: State, seat: int) -> list[str]:
    return [a.to_text() for a in state.legal_actions(seat)]


# ------------------------------------------------------------------ checks
def check_turn(state: State) -> list[int]:
    cur = state.current_seats()
    assert isinstance(cur, list) and cur == sorted(set(cur))
    assert all(isinstance(s, int) and 0 <= s < state.seats for s in cur)
    assert bool(cur) != state.is_terminal(), f"{state.phase()}: seats owing {cur}"
    key = state.turn_key()
    hash(key)
    assert json.loads(json.dumps(key)) == json.loads(json.dumps(state.copy().turn_key()))
    assert isinstance(state.phase(), str) and state.phase()
    return cur


def check_legal(game: Game, state: State, seat: int, rng: random.Random) -> list[Action]:
    acts = state.legal_actions(seat)
    assert acts, f"{state.phase()}: seat {seat} owes a decision but has no legal order"
    assert all(isinstance(a, Action) for a in acts)
    assert len(set(acts)) == len(acts) and len(set(map(str, acts))) == len(acts)
    for n, a in enumerate(rng.sample(acts, min(len(acts), PARSE_SAMPLE))):
        hash(a)
        assert game.parse_action(state, seat, a.to_text()) == a
        if n < 3:   # case and spacing do not matter
            assert game.parse_action(state, seat, f"  {a.to_text().upper()} ") == a
        assert isinstance(a.label, str) and a.label
        if a.site:
            assert isinstance(a.site, str) and a.site.upper() not in a.label.upper().split()
    return acts


def _applies(state: State, seat: int, action: Action) -> bool:
    try:
        state.copy().apply(seat, action)
    except OrderError:
        return False
    return True


def check_refusals(game: Game, state: State, cur: list[int], acts: list[Action],
                   seen: dict[str, Action], rng: random.Random) -> None:
    """Orders of the wrong seat, and orders legal earlier but not now, are
    refused by ``parse_action`` and ``apply`` and change nothing."""
    before = state.to_json()
    for other in (s for s in range(state.seats) if s not in cur):
        assert state.legal_actions(other) == []
        with pytest.raises(NotYourTurnError):
            state.apply(other, acts[0])
        with pytest.raises(OrderError):
            game.parse_action(state, other, acts[0].to_text())
    seat = cur[0]
    legal, default = set(state.legal_actions(seat)), state.default_action(seat)
    stale = [t for t, a in seen.items() if a not in legal and a != default]
    for text in rng.sample(stale, min(len(stale), ILLEGAL_SAMPLE)):
        try:   # the text may still name a legal order in another form
            again = game.parse_action(state, seat, text)
        except (OrderParseError, IllegalOrderError) as err:
            assert str(err)
        else:
            # a game may read an old text in a looser sense that ``apply``
            # still takes (Die Stadt: ``wall cw guard`` means "a guard if
            # still legal", design 6.4); it must never read one it refuses
            assert again in legal or again == default or _applies(state, seat, again), \
                f"{text!r} read as {again}, not legal now"
        if not _applies(state, seat, seen[text]):  # (the looser sense above, or refused:)
            with pytest.raises(IllegalOrderError):
                state.apply(seat, seen[text])
    assert state.to_json() == before


def check_default(state: State, seat: int) -> None:
    """The default is accepted, and the missed-deadline loop ends."""
    trial = state.copy()
    key = trial.turn_key()
    for _ in range(200):
        trial.apply(seat, trial.default_action(seat))
        if seat not in trial.current_seats() or trial.turn_key() != key:
            return
    pytest.fail(f"{state.phase()}: 200 default orders of seat {seat} without ending its turn")


def check_json(game: Game, state: State, cur: list[int]) -> None:
    text = state.to_json()
    back = game.state_from_json(text)
    assert type(back) is type(state) and back.to_json() == text
    assert back.step == state.step and back.current_seats() == cur
    assert all(back.legal_actions(s) == state.legal_actions(s) for s in cur)
    assert state.copy().to_json() == text


def check_views(game: Game, state: State, cur: list[int], rng: random.Random,
                viewers: list[int | None]) -> bool:
    """The ``viewers``' views are JSON and text, and hide what the game
    declares hidden. True when the spectator's variant differs from ``state``."""
    before = state.to_json()
    differs = False
    for viewer in viewers:
        view = state.view(viewer)
        assert json.loads(json.dumps(view)) == view
        text = game.view_text(view)
        assert isinstance(text, str) and text.strip()
        variant = game.redeal_hidden(state, viewer, rng)
        assert isinstance(variant, State) and variant is not state
        assert variant.view(viewer) == view, f"view of {viewer} shows something declared hidden"
        if viewer is None:
            assert game.state_from_json(variant.to_json()).to_json() == variant.to_json()
        if viewer in cur:
            assert _texts(variant, viewer) == _texts(state, viewer)
        differs |= viewer is None and variant.to_json() != before
    assert state.to_json() == before, "redeal_hidden changed the state it was given"
    return differs


def check_position(game: Game, state: State) -> None:
    text = game.dump_position(state)
    assert isinstance(text, str) and text.endswith("\n")
    back = game.load_position(text)
    assert game.dump_position(back) == text
    assert back.phase() == state.phase() and back.current_seats() == state.current_seats()
    for seat in range(state.seats):
        assert sorted(_texts(back, seat)) == sorted(_texts(state, seat))
    assert [(s.seat, s.points, s.tiebreak, s.rank) for s in back.scores()] == \
        [(s.seat, s.points, s.tiebreak, s.rank) for s in state.scores()]


def check_events(events: Any, seats: int) -> None:
    assert isinstance(events, list)
    for e in events:
        assert isinstance(e, Event) and isinstance(e.text, str) and e.text
        assert e.seat is None or (isinstance(e.seat, int) and 0 <= e.seat < seats)
        assert Event.from_dict(json.loads(json.dumps(e.to_dict()))) == e


def check_scores(state: State) -> None:
    scores = state.scores()
    assert all(isinstance(s, Score) for s in scores)
    assert sorted(s.seat for s in scores) == list(range(state.seats))
    assert min(s.rank for s in scores) == 1
    for a in scores:
        for b in scores:
            if a.rank < b.rank:
                assert (a.points, a.tiebreak) > (b.points, b.tiebreak), (a, b)
            if (a.points, a.tiebreak) == (b.points, b.tiebreak):
                assert a.rank == b.rank, (a, b)


# ------------------------------------------------------------------- tests
@pytest.mark.parametrize("name", NAMES)
@SLOW
@given(data=st.data())
def test_random_games_keep_the_contract(name, data):
    game, seats, seed, options = data.draw(new_games(name))
    rng = random.Random(data.draw(st.integers(0, 2**32), label="policy"))
    state = game.new_state(seats, seed, **options)
    assert isinstance(state, State) and state.game is game
    assert state.seats == seats and state.step == 0
    log: list[tuple[int, str]] = []
    seen: dict[str, Action] = {}
    keys, hidden_somewhere = set(), False
    while not state.is_terminal():
        assert len(log) < MAX_STEPS
        cur = check_turn(state)
        keys.add(json.dumps(state.turn_key()))
        seat = rng.choice(cur)
        acts = check_legal(game, state, seat, rng)
        check_refusals(game, state, cur, acts, seen, rng)
        check_default(state, seat)
        check_json(game, state, cur)
        # every viewer now and then; the spectator and the seat deciding always
        viewers = [None, *range(seats)] if state.step % ALL_VIEWS_EVERY == 0 else [None, seat]
        hidden_somewhere |= check_views(game, state, cur, rng, viewers)
        check_position(game, state)
        seen.update((a.to_text(), a) for a in acts)
        action = rng.choice(acts)
        before = state.step
        check_events(state.apply(seat, action), seats)
        assert state.step == before + 1
        log.append((seat, action.to_text()))
    assert check_turn(state) == []
    assert all(state.legal_actions(s) == [] for s in range(seats))
    check_views(game, state, [], rng, [None, *range(seats)])
    check_position(game, state)
    check_scores(state)
    assert len(keys) > 1, "turn_key() never changed"
    assert hidden_somewhere, "redeal_hidden never dealt anything hidden from a spectator"
    replay = game.new_state(seats, seed, **options)
    for seat, text in log:
        replay.apply(seat, game.parse_action(replay, seat, text))
    assert replay.to_json() == state.to_json()


@pytest.mark.parametrize("name", NAMES)
@SLOW
@given(data=st.data())
def test_default_orders_alone_finish_the_game(name, data):
    game, seats, seed, options = data.draw(new_games(name))
    state = game.new_state(seats, seed, **options)
    for _ in range(MAX_STEPS):
        if state.is_terminal():
            break
        seat = state.current_seats()[0]
        check_events(state.apply(seat, state.default_action(seat)), seats)
    assert state.is_terminal(), f"{MAX_STEPS} default orders and still {state.phase()}"
    check_scores(state)


@pytest.mark.parametrize("name", NAMES)
def test_bad_input_is_refused_and_state_untouched(name):
    game = GAMES[name]
    state = game.new_state(game.min_seats, 7)
    seat = state.current_seats()[0]
    before = state.to_json()
    for text in ["", "   ", "xyzzy plugh", "Z99 Z99 Z99", "\x00", "build " * 200]:
        with pytest.raises((OrderParseError, IllegalOrderError)) as err:
            game.parse_action(state, seat, text)
        assert str(err.value)
    assert state.to_json() == before
    assert game.order_help().strip()
