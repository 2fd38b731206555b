"""A tiny real game for testing the service machinery without La Città.

"Tally": seats take turns to ``add 1``..``add 3`` to a shared counter (points
for the seat); after each full round every seat bids secretly and at once
(``bid 0`` .. ``bid <secret>``, the secret number dealt from the seed and
visible only to its seat); the highest single bid scores 2. The game ends
when the counter reaches the target (options: length short=8, long=16).
"""
from __future__ import annotations

import json
import random
import re
from dataclasses import dataclass
from typing import Any

from pbem.engine.api import (
    Action, Event, Game, IllegalOrderError, NotYourTurnError, OrderParseError, Score, State,
)


@dataclass(frozen=True)
class Add(Action):
    k: int

    def to_text(self) -> str:
        return f"add {self.k}"


@dataclass(frozen=True)
class Bid(Action):
    k: int

    def to_text(self) -> str:
        return f"bid {self.k}"


class TallyState(State):
    def __init__(self, game: "TallyGame", d: dict[str, Any]):
        self.game = game
        self.d = d

    @property
    def seats(self) -> int:
        return self.d["n"]

    @property
    def step(self) -> int:
        return self.d["step"]

    def current_seats(self) -> list[int]:
        if self.is_terminal():
            return []
        if self.d["phase"] == "bid":
            return [s for s in range(self.seats) if str(s) not in self.d["bids"]]
        return [self.d["turn"]]

    def legal_actions(self, seat: int) -> list[Action]:
        if seat not in self.current_seats():
            return []
        if self.d["phase"] == "bid":
            return [Bid(k) for k in range(self.d["secret"][seat] + 1)]
        return [Add(k) for k in (1, 2, 3)]

    def apply(self, seat: int, action: Action) -> list[Event]:
        if seat not in self.current_seats():
            raise NotYourTurnError(f"seat {seat + 1} owes no decision now")
        if action not in self.legal_actions(seat) and action != self.default_action(seat):
            raise IllegalOrderError(f"{action.to_text()} is not legal now",
                                    legal=[a.to_text() for a in self.legal_actions(seat)])
        d = self.d
        d["step"] += 1
        if isinstance(action, Add):
            d["counter"] += action.k
            d["points"][seat] += action.k
            events = [Event(f"Seat {seat + 1} adds {action.k}; the tally is {d['counter']}.", kind="add")]
            d["turn"] = (d["turn"] + 1) % self.seats
            if d["counter"] >= d["target"]:
                events.append(Event("The tally reached the target: game over.", kind="end"))
            elif d["turn"] == 0:
                d["phase"] = "bid"
                events.append(Event("Everyone bids now.", kind="bidding"))
            return events
        d["bids"][str(seat)] = action.k
        events = [Event(f"You bid {action.k}.", seat=seat, kind="bid")]
        if len(d["bids"]) == self.seats:
            bids = {int(s): k for s, k in d["bids"].items()}
            top = max(bids.values())
            winners = [s for s, k in bids.items() if k == top]
            text = "Bids: " + ", ".join(f"seat {s + 1} {k}" for s, k in sorted(bids.items()))
            if len(winners) == 1 and top > 0:
                d["points"][winners[0]] += 2
                text += f"; seat {winners[0] + 1} scores 2."
            events.append(Event(text, kind="reveal"))
            d["bids"] = {}
            d["phase"] = "play"
            # a fresh secret each bidding round, from the seeded generator
            rng = random.Random(d["rng"])
            d["secret"] = [rng.randint(1, 5) for _ in range(self.seats)]
            d["rng"] = rng.randint(0, 2**31)
        return events

    def default_action(self, seat: int) -> Action:
        return Bid(0) if self.d["phase"] == "bid" else Add(1)

    def view(self, seat: int | None) -> dict[str, Any]:
        d = self.d
        v = {"counter": d["counter"], "target": d["target"], "points": list(d["points"]),
             "phase": d["phase"], "turn": d["turn"], "have_bid": sorted(int(s) for s in d["bids"])}
        if seat is not None:
            v["secret"] = d["secret"][seat]
            v["seat"] = seat
        return v

    def is_terminal(self) -> bool:
        return self.d["counter"] >= self.d["target"]

    def scores(self) -> list[Score]:
        pts = self.d["points"]
        ranked = sorted(set(pts), reverse=True)
        return [Score(s, p, 0, ranked.index(p) + 1) for s, p in enumerate(pts)]

    def phase(self) -> str:
        if self.is_terminal():
            return "Game over"
        return "Bidding" if self.d["phase"] == "bid" else f"Seat {self.d['turn'] + 1} to add"

    def to_json(self) -> str:
        return json.dumps(self.d, sort_keys=True)


class TallyGame(Game):
    name = "tally"
    title = "Tally"
    min_seats = 2
    max_seats = 4
    options = {"length": ("short", "long")}

    def new_state(self, seats: int, seed: int, **options: Any) -> State:
        length = self.check_settings(seats, options)["length"]
        rng = random.Random(seed)
        return TallyState(self, {
            "n": seats, "step": 0, "counter": 0, "target": 8 if length == "short" else 16,
            "points": [0] * seats, "phase": "play", "turn": 0, "bids": {},
            "secret": [rng.randint(1, 5) for _ in range(seats)], "rng": rng.randint(0, 2**31)})

    def redeal_hidden(self, state: State, seat: int | None, rng: random.Random) -> State:
        """Hidden: the other seats' secret numbers and bids, and the generator."""
        d = json.loads(state.to_json())
        for other in range(d["n"]):
            if other != seat:
                d["secret"][other] = rng.randint(1, 5)
                if str(other) in d["bids"]:
                    d["bids"][str(other)] = rng.randint(0, d["secret"][other])
        d["rng"] = rng.randint(0, 2**31)
        return TallyState(self, d)

    def parse_action(self, state: State, seat: int, text: str) -> Action:
        m = re.fullmatch(r"\s*(add|bid)\s+(\d+)\s*", text.lower())
        if not m:
            raise OrderParseError(f"\u201c{text}\u201d is not an order: write 'add 2' or 'bid 1'",
                                  text=text, legal=[a.to_text() for a in state.legal_actions(seat)])
        action = Add(int(m[2])) if m[1] == "add" else Bid(int(m[2]))
        if seat not in state.current_seats():
            raise NotYourTurnError("it is not your turn", text=text)
        if action not in state.legal_actions(seat):
            raise IllegalOrderError(f"{action.to_text()} is not legal now", text=text,
                                    legal=[a.to_text() for a in state.legal_actions(seat)])
        return action

    def state_from_json(self, text: str) -> State:
        return TallyState(self, json.loads(text))

    def view_text(self, view: dict[str, Any], tr=str) -> str:
        lines = []
        if "secret" in view:
            lines.append(f"Your secret number: {view['secret']}")
        lines.append(f"Tally: {view['counter']} of {view['target']}; points: {view['points']}")
        return "\n".join(lines)

    def order_help(self) -> str:
        return "add 1 / add 2 / add 3    add to the tally\nbid 0 .. bid <secret>    secret bid"


GAME = TallyGame()
