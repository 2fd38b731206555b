"""The Pebbles game and its position (rules: the package docstring)."""
from __future__ import annotations

import json
import random
import re
from dataclasses import dataclass
from typing import Any

from pbem.engine.api import (
    Action, Event, Game, IllegalOrderError, NotYourTurnError, OrderParseError, Score, State,
)
from pbem.engine.messages import Msg, Msgn

HEAP = {"small": 12, "large": 20}
WORTH = {"w": 1, "b": 2}


@dataclass(frozen=True)
class Take(Action):
    """Take ``n`` pebbles (1..3) from the top of the heap."""

    n: int

    def to_text(self) -> str:
        return f"take {self.n}"


class PebblesState(State):
    """``d``: ``heap`` (top first, ``w``/``b``), ``points`` and ``black`` per
    seat, ``turn`` (the seat to take), ``step``."""

    def __init__(self, game: "PebblesGame", d: dict[str, Any]):
        self.game = game
        self.d = d

    @property
    def seats(self) -> int:
        return len(self.d["points"])

    @property
    def step(self) -> int:
        return self.d["step"]

    def current_seats(self) -> list[int]:
        return [] if self.is_terminal() else [self.d["turn"]]

    def legal_actions(self, seat: int) -> list[Action]:
        if seat not in self.current_seats():
            return []
        return [Take(n) for n in range(1, min(3, len(self.d["heap"])) + 1)]

    def apply(self, seat: int, action: Action) -> list[Event]:
        if seat not in self.current_seats():
            raise NotYourTurnError(Msg("Seat {seat} owes no decision now.", seat=seat + 1))
        if action not in self.legal_actions(seat):
            raise IllegalOrderError(Msg("{order} is not legal now.", order=str(action)),
                                    legal=[a.to_text() for a in self.legal_actions(seat)])
        d = self.d
        taken, d["heap"] = d["heap"][:action.n], d["heap"][action.n:]
        black = taken.count("b")
        d["points"][seat] += sum(WORTH[p] for p in taken)
        d["black"][seat] += black
        d["turn"], d["step"] = (seat + 1) % self.seats, d["step"] + 1
        events = [Event(Msgn("Seat {seat} takes {n} pebble, {black} black.",
                             "Seat {seat} takes {n} pebbles, {black} black.", action.n,
                             seat=seat + 1, black=black),
                        kind="take", data={"seat": seat, "taken": taken})]
        if self.is_terminal():
            events.append(Event(Msg("The heap is empty: the game is over."), kind="end"))
        return events

    def default_action(self, seat: int) -> Action:
        return Take(1)

    def view(self, seat: int | None) -> dict[str, Any]:
        d = self.d
        return {"left": len(d["heap"]), "points": list(d["points"]), "black": list(d["black"]),
                "turn": None if self.is_terminal() else d["turn"], "seat": seat}

    def is_terminal(self) -> bool:
        return not self.d["heap"]

    def scores(self) -> list[Score]:
        keys = [(p, b) for p, b in zip(self.d["points"], self.d["black"])]
        return [Score(s, p, b, 1 + sum(k > (p, b) for k in keys)) for s, (p, b) in enumerate(keys)]

    def phase(self) -> str:
        if self.is_terminal():
            return Msg("Game over")
        return Msg("Seat {seat} to take", seat=self.d["turn"] + 1)

    def turn_key(self) -> Any:
        return self.step

    def to_json(self) -> str:
        return json.dumps(self.d, sort_keys=True)


class PebblesGame(Game):
    name = "pebbles"
    title = "Pebbles"
    min_seats = 2
    max_seats = 2
    options = {"heap": ("small", "large")}

    def new_state(self, seats: int, seed: int, **options: Any) -> State:
        size = HEAP[self.check_settings(seats, options)["heap"]]
        heap = ["b" if i % 3 == 0 else "w" for i in range(size)]
        random.Random(seed).shuffle(heap)
        return PebblesState(self, {"heap": "".join(heap), "points": [0] * seats, "black": [0] * seats,
                                   "turn": 0, "step": 0})

    def redeal_hidden(self, state: State, seat: int | None, rng: random.Random) -> State:
        """Hidden from everyone: the order of the heap."""
        d = json.loads(state.to_json())
        heap = list(d["heap"])
        rng.shuffle(heap)
        d["heap"] = "".join(heap)
        return PebblesState(self, d)

    def parse_action(self, state: State, seat: int, text: str) -> Action:
        m = re.fullmatch(r"\s*take\s+([1-9])\s*", text.lower())
        legal = [a.to_text() for a in state.legal_actions(seat)]
        if not m:
            raise OrderParseError(Msg("This is not an order: write take 1, take 2 or take 3."),
                                  text=text, legal=legal)
        if seat not in state.current_seats():
            raise NotYourTurnError(Msg("Seat {seat} owes no decision now.", seat=seat + 1), text=text)
        action = Take(int(m[1]))
        if action not in state.legal_actions(seat):
            raise IllegalOrderError(Msg("{order} is not legal now.", order=action.to_text()),
                                    text=text, legal=legal)
        return action

    def state_from_json(self, text: str) -> State:
        return PebblesState(self, json.loads(text))

    def view_text(self, view: dict[str, Any], tr=str) -> str:
        lines = [tr(Msgn("{n} pebble left in the heap.", "{n} pebbles left in the heap.",
                         view["left"]))]
        for seat, (points, black) in enumerate(zip(view["points"], view["black"])):
            lines.append(tr(Msg("Seat {seat}: {points} points, {black} black.",
                                seat=seat + 1, points=points, black=black)))
        return "\n".join(lines)

    def order_help(self) -> str:
        return Msg("Take pebbles from the top of the heap, one order a turn:\n"
                   "  take 1    the top pebble\n"
                   "  take 2    the top two pebbles\n"
                   "  take 3    the top three pebbles")

    def load_position(self, text: str) -> State:
        from tests.toygame.position import load
        return load(self, text)

    def dump_position(self, state: State) -> str:
        from tests.toygame.position import dump
        return dump(state)


GAME = PebblesGame()
