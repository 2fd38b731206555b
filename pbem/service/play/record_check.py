"""Replaying a game record (issue 25): ``pbem replay FILE`` and the tests.

Engine only, no database: a record (:mod:`pbem.service.play.record`, JSON)
names the game, seats, seed, options and every order; replaying the orders
from the seed must give the record's ``final_state`` byte for byte.
"""
from __future__ import annotations

import json
from dataclasses import dataclass

from pbem.engine import GAMES, State, get_game

FORMAT = "pbem-game-record"
VERSION = 1


class RecordError(ValueError):
    """A record that cannot be replayed, or that ends elsewhere; ``str()``
    says why in a sentence for the person at the command line."""


@dataclass(frozen=True)
class Replayed:
    """A record that replays: the game, how many orders, the final step."""

    game: str
    orders: int
    step: int


def parse(text: str | bytes) -> dict:
    """The record in ``text`` (JSON). Raises :class:`RecordError` for
    anything that is not a pbem game record."""
    try:
        data = json.loads(text)
    except (ValueError, UnicodeDecodeError) as err:
        raise RecordError(f"this is not JSON: {err}") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise RecordError("this is not a pbem game record (no \"format\": \"pbem-game-record\")")
    if data.get("version") != VERSION:
        raise RecordError(f"record version {data.get('version')!r} is not one this pbem reads ({VERSION})")
    return data


def replay_state(data: dict) -> State:
    """The state the record's orders reach from its seed. Raises
    :class:`RecordError` for a seat's record of a running game (no seed),
    an unknown game, or an order that does not apply."""
    if "seed" in data and "final_state" not in data:
        raise RecordError("this game ended before it started: there is no position to replay")
    if "seed" not in data:
        raise RecordError("this is one seat's record of a running game: it has no seed and no final position, "
                          "so it cannot be replayed (the whole record comes once the game is over)")
    if data.get("game") not in GAMES:
        raise RecordError(f"this pbem has no game {data.get('game')!r}")
    engine = get_game(data["game"])
    try:
        state = engine.new_state(len(data["seats"]), int(data["seed"]), **(data.get("options") or {}))
    except Exception as err:  # bad settings in a hand-edited record
        raise RecordError(f"the game cannot be set up from the record: {err}") from None
    for move in data.get("moves", []):
        seat, text = int(move["seat"]) - 1, str(move["order"])
        if int(move["step"]) != state.step:
            raise RecordError(f"the orders have a gap: the next order is for step {move['step']}, "
                              f"the game is at step {state.step}")
        try:
            default = state.default_action(seat) if move.get("source") == "deadline" else None
            action = default if default is not None and default.to_text() == text \
                else engine.parse_action(state, seat, text)
            state.apply(seat, action)
        except Exception as err:
            raise RecordError(f"step {move['step']}: seat {seat + 1}'s order {text!r} does not apply: {err}") from None
    return state


def check(text: str | bytes) -> Replayed:
    """Replay the record in ``text`` and insist that it ends in its
    ``final_state``, byte for byte. Raises :class:`RecordError` saying
    where it went wrong."""
    data = parse(text)
    state = replay_state(data)
    got, want = state.to_json(), data["final_state"]
    if got != want:
        at = next((i for i, (a, b) in enumerate(zip(got, want)) if a != b), min(len(got), len(want)))
        raise RecordError(f"the replay ends in a different position than the record (step {state.step}, "
                          f"record step {data.get('step')}): first difference at character {at}: "
                          f"replayed {got[at:at + 40]!r}, recorded {want[at:at + 40]!r}")
    return Replayed(data["game"], len(data.get("moves", [])), state.step)
