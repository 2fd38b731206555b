"""Conformance of every registered game to the engine API (pbem/engine/api.py).

For each game and seat count: random legal play to the end, checking after
every order that the state survives ``to_json`` → ``state_from_json``, that
``parse_action(to_text())`` gives the same action back, that views are JSON
and render as text, that ``default_action`` is accepted, that the same seed
and orders replay to the same state, and that views hide what they must
(per-game probes below; every game gets the generic ones).
"""
from __future__ import annotations

import json
import random

import pytest

from pbem.engine import GAMES, Action, IllegalOrderError, NotYourTurnError, OrderParseError


def _lacitta_secrets(state, seat):
    """Values that ``view(seat)`` must not contain: hidden Voice cards not
    peeked by ``seat``, and the deck order."""
    d = json.loads(state.to_json())
    hidden = []
    if d["voice"] and not d["revealed"]:
        peeked = set(d["peeked"][seat]) if seat is not None else set()
        hidden = [(i, d["voice"][i]) for i in range(1, len(d["voice"])) if i not in peeked]
    return hidden


def _lacitta_check(state, seat, view):
    for i, _wish in _lacitta_secrets(state, seat):
        assert view["voice"][i]["wish"] is None
    text = json.dumps(view)
    assert '"deck"' not in text and '"voice_deck"' not in text


def _medina_check(state, seat, view):
    """Pieces behind a screen (``supply``) are shown only to their owner."""
    for p in view["players"]:
        if p["seat"] != seat:
            assert p.get("supply") is None


PROBES = {"lacitta": _lacitta_check, "medina": _medina_check}

CASES = [(name, seats) for name, g in sorted(GAMES.items())
         for seats in range(g.min_seats, g.max_seats + 1)]


@pytest.mark.parametrize(("name", "seats"), CASES)
def test_random_play_conforms(name, seats):
    game = GAMES[name]
    seed = 1000 + seats
    state = game.new_state(seats, seed)
    assert state.step == 0
    rng = random.Random(seed)
    log = []
    probe = PROBES.get(name)
    steps = 0
    while not state.is_terminal():
        cur = state.current_seats()
        assert cur and cur == sorted(cur)
        seat = rng.choice(cur)
        acts = state.legal_actions(seat)
        assert acts, f"{state.phase()}: seat {seat} owes a decision but has no legal action"
        assert len(set(acts)) == len(acts)
        for a in acts[:50]:
            assert isinstance(a, Action)
            assert game.parse_action(state, seat, a.to_text()) == a
            assert game.parse_action(state, seat, a.to_text().upper()) == a
            if a.site:
                assert a.site.upper() not in a.label.upper().split()
        others = [s for s in range(seats) if s not in cur]
        if others:
            assert state.legal_actions(others[0]) == []
            with pytest.raises(NotYourTurnError):
                state.apply(others[0], acts[0])
        # default action always accepted
        trial = state.copy()
        trial.apply(seat, state.default_action(seat))
        # JSON round trip
        j = state.to_json()
        back = game.state_from_json(j)
        assert back.to_json() == j
        assert back.legal_actions(seat) == acts
        for viewer in [None, *range(seats)]:
            view = state.view(viewer)
            json.dumps(view)
            assert isinstance(game.view_text(view), str)
            if probe:
                probe(state, viewer, view)
        a = acts[rng.randrange(len(acts))]
        before = state.step
        events = state.apply(seat, a)
        assert state.step == before + 1
        for e in events:
            assert e.text and (e.seat is None or 0 <= e.seat < seats)
            json.dumps(e.to_dict())
        log.append((seat, a.to_text()))
        steps += 1
        assert steps < 5000
    assert state.current_seats() == []
    scores = state.scores()
    assert sorted(s.seat for s in scores) == list(range(seats))
    assert min(s.rank for s in scores) == 1
    # same seed + same orders = same game, byte for byte
    replay = game.new_state(seats, seed)
    for seat, text in log:
        replay.apply(seat, game.parse_action(replay, seat, text))
    assert replay.to_json() == state.to_json()


@pytest.mark.parametrize("name", sorted(GAMES))
def test_bad_input_is_refused_and_state_untouched(name):
    game = GAMES[name]
    state = game.new_state(game.min_seats, 7)
    seat = state.current_seats()[0]
    j = state.to_json()
    for text in ["", "   ", "xyzzy plugh", "Z99 Z99 Z99"]:
        with pytest.raises((OrderParseError, IllegalOrderError)) as err:
            game.parse_action(state, seat, text)
        assert str(err.value)
    assert state.to_json() == j
    with pytest.raises(ValueError):
        game.new_state(game.max_seats + 1, 1)
    assert game.order_help().strip()
