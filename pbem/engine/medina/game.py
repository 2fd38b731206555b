"""The registered Medina game (first edition, 3-4 players)."""
from __future__ import annotations

import json
import random
from typing import Any, Callable

from pbem.engine.api import Game
from pbem.engine.medina import evaluate as _evaluate
from pbem.engine.fold import vocabulary
from pbem.engine.medina.orders import HELP, parse_order
from pbem.engine.medina.pieces import starting_supply
from pbem.engine.medina.position import dump_position, load_position
from pbem.engine.medina.state import MedinaState
from pbem.engine.medina.text import view_text
from pbem.engine.medina import words as _words


class MedinaGame(Game):
    """Medina: what never changes, and the command language
    (:mod:`pbem.engine.medina.orders`)."""

    name = "medina"
    title = "Medina"
    min_seats = 3
    max_seats = 4
    options: dict[str, tuple[str, ...]] = {}
    board = "pbem.boards.medina"
    previewable = True   # no chance and nothing hidden that a seat's own piece reveals

    def new_state(self, seats: int, seed: int, **options: Any) -> MedinaState:
        """A new game: seat 1 owes the start merchant. ``ValueError`` for a
        seat count other than 3 or 4 or any option (Medina has none;
        :meth:`~pbem.engine.api.Game.check_settings`)."""
        self.check_settings(seats, options)
        return MedinaState(self, seats, int(seed))

    def redeal_hidden(self, state: MedinaState, seat: int | None, rng: random.Random) -> MedinaState:
        """Medina has no chance; it hides only what lies behind the other
        seats' screens: their pieces, except the domes, which are public
        (rules, setup: behind the screen "lukuun ottamatta kupoleita";
        RULINGS.md, Medina). The variant gives every seat other than
        ``seat`` a random count of each piece."""
        variant = state.copy()            # copies each seat's supply
        full = starting_supply(state.seats)
        for other, supply in enumerate(variant.supply):
            if other != seat:
                for key, value in supply.items():
                    if key != "domes":
                        supply[key] = rng.randint(0, max(value, full[key]))
        variant._legal_cache = None
        return variant

    evaluation_scale = _evaluate.SCALE

    def evaluate(self, state: MedinaState) -> list[float]:
        """:func:`pbem.engine.medina.evaluate.evaluate` (for the bots)."""
        return _evaluate.evaluate(state)

    def load_position(self, text: str) -> MedinaState:
        """:func:`pbem.engine.medina.position.load_position`."""
        return load_position(text, self)

    def dump_position(self, state: MedinaState) -> str:
        """:func:`pbem.engine.medina.position.dump_position`."""
        return dump_position(state)

    def parse_action(self, state: MedinaState, seat: int, text: str):
        return parse_order(state, seat, text)

    def state_from_json(self, text: str) -> MedinaState:
        return MedinaState.from_dict(self, json.loads(text))

    def view_text(self, view: dict[str, Any], tr: Callable[[Any], str] = str) -> str:
        return view_text(view, tr)

    def order_help(self) -> str:
        return HELP

    def order_words(self) -> frozenset[str]:
        """:meth:`Game.order_words` from :mod:`pbem.engine.medina.words`."""
        return vocabulary(p for w in _words.WORDS.values() for t in (w.kinds, w.colours) for p in t)

    def order_text(self, action, lang: str = "en") -> str:
        """:func:`pbem.engine.medina.words.order_text` (English for a language it has no words for)."""
        return _words.order_text(action, lang) if lang in _words.WORDS else action.to_text()


GAME = MedinaGame()
