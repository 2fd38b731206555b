"""The La Città :class:`~pbem.engine.api.Game` (registered as ``"lacitta"``)."""
from __future__ import annotations

import json
from typing import Any

from pbem.engine.api import Game
from pbem.engine.lacitta import parse as _parse
from pbem.engine.lacitta import text as _text
from pbem.engine.lacitta.actions import Order
from pbem.engine.lacitta.state import LaCittaState


class LaCitta(Game):
    name = "lacitta"
    title = "La Città"
    min_seats = 2
    max_seats = 5
    options = {"setup": ("beginner", "experienced")}

    def new_state(self, seats: int, seed: int, **options: Any) -> LaCittaState:
        """A new game after setup (beginner: fixed layout, year 1 under way;
        experienced: castle placement to do). Raises ``ValueError`` for a
        seat count outside 2..5 or an unknown option/value."""
        if not isinstance(seats, int) or not self.min_seats <= seats <= self.max_seats:
            raise ValueError(f"La Città is for 2 to 5 players, not {seats!r}")
        for k, val in options.items():
            if k not in self.options:
                raise ValueError(f"unknown La Città option {k!r}; known: {', '.join(self.options)}")
            if val not in self.options[k]:
                raise ValueError(f"option {k} must be one of {', '.join(self.options[k])}, not {val!r}")
        setup = options.get("setup", self.options["setup"][0])
        return LaCittaState.new(self, seats, int(seed), setup)

    def parse_action(self, state: LaCittaState, seat: int, text: str) -> Order:
        return _parse.parse(state, seat, text)

    def state_from_json(self, text: str) -> LaCittaState:
        return LaCittaState.from_dict(self, json.loads(text))

    def view_text(self, view: dict[str, Any]) -> str:
        return _text.view_text(view)

    def order_help(self) -> str:
        return _text.order_help()


GAME = LaCitta()
