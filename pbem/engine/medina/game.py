"""The registered Medina game (first edition, 3-4 players)."""
from __future__ import annotations

import json
from typing import Any

from pbem.engine.api import Game
from pbem.engine.medina.orders import HELP, parse_order
from pbem.engine.medina.state import MedinaState
from pbem.engine.medina.text import view_text


class MedinaGame(Game):
    """Medina: what never changes, and the command language
    (:mod:`pbem.engine.medina.orders`)."""

    name = "medina"
    title = "Medina"
    min_seats = 3
    max_seats = 4
    options: dict[str, tuple[str, ...]] = {}
    previewable = True   # no chance and nothing hidden that a seat's own piece reveals

    def new_state(self, seats: int, seed: int, **options: Any) -> MedinaState:
        """A new game: seat 1 owes the start merchant. ``ValueError`` for a
        seat count other than 3 or 4 or any option (Medina has none)."""
        if options:
            raise ValueError(f"Medina has no options: {', '.join(sorted(options))}")
        if not isinstance(seats, int) or not self.min_seats <= seats <= self.max_seats:
            raise ValueError(f"Medina is for 3 or 4 players, not {seats}")
        return MedinaState(self, seats, int(seed))

    def parse_action(self, state: MedinaState, seat: int, text: str):
        return parse_order(state, seat, text)

    def state_from_json(self, text: str) -> MedinaState:
        return MedinaState.from_dict(self, json.loads(text))

    def view_text(self, view: dict[str, Any]) -> str:
        return view_text(view)

    def order_help(self) -> str:
        return HELP


GAME = MedinaGame()
