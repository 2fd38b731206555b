"""The registered Carcassonne: Die Stadt game (2-4 players)."""
from __future__ import annotations

import json
import random
from typing import Any, Callable

from pbem.engine.api import Game
from pbem.engine.diestadt import evaluate as _evaluate
from pbem.engine.fold import vocabulary
from pbem.engine.diestadt import flow, hold, words
from pbem.engine.diestadt.orders import HELP, parse_order
from pbem.engine.diestadt.position import dump_position, load_position
from pbem.engine.diestadt.state import DieStadtState
from pbem.engine.diestadt.text import view_text


class DieStadtGame(Game):
    """Carcassonne: Die Stadt: what never changes, and the command language
    (:mod:`pbem.engine.diestadt.orders`)."""

    name = "diestadt"
    title = "Carcassonne: Die Stadt"
    min_seats = 2
    max_seats = 4
    options: dict[str, tuple[str, ...]] = {}
    board = "pbem.boards.diestadt"
    #: applying a placement draws the next tile, so a dry run would peek at it
    previewable = False
    #: what the views hide, from everyone: the order of the unplayed tiles
    hidden = ("piles",)

    def new_state(self, seats: int, seed: int, **options: Any) -> DieStadtState:
        """A new game: the 75 tiles shuffled with ``seed`` into piles of
        30/25/20 (DS-13), seat 1 has drawn the first tile (DS-17, A-30).
        ``ValueError`` for a seat count other than 2-4 or any option."""
        self.check_settings(seats, options)
        st = DieStadtState(self, seats, int(seed))
        flow.draw(st, [])
        return st

    def redeal_hidden(self, state: DieStadtState, seat: int | None, rng: random.Random) -> DieStadtState:
        """Die Stadt hides one thing, from everyone alike: the order of the
        unplayed tiles (design 6.3). The variant shuffles each pile's
        unplayed tiles again; the drawn tile lies face up and stays."""
        variant = state.copy()
        for pile in variant.piles:
            pile.sort()                   # canonical order first: the variant reads nothing hidden
            rng.shuffle(pile)
        return variant

    evaluation_scale = _evaluate.SCALE

    def evaluate(self, state: DieStadtState) -> list[float]:
        """:func:`pbem.engine.diestadt.evaluate.evaluate` (for the bots)."""
        return _evaluate.evaluate(state)

    def load_position(self, text: str) -> DieStadtState:
        """:func:`pbem.engine.diestadt.position.load_position`."""
        return load_position(text, self)

    def dump_position(self, state: DieStadtState) -> str:
        """:func:`pbem.engine.diestadt.position.dump_position`."""
        return dump_position(state)

    def hold_order(self, text: str) -> str | None:
        """Early wall orders (:func:`pbem.engine.diestadt.hold.hold_order`)."""
        return hold.hold_order(text)

    def held_text(self, text: str, lang: str = "en") -> str:
        """:func:`pbem.engine.diestadt.hold.held_text`."""
        return hold.held_text(text, lang)

    def held_order_due(self, state: DieStadtState, seat: int, text: str) -> bool:
        """:func:`pbem.engine.diestadt.hold.held_order_due`."""
        return hold.held_order_due(state, seat, text)

    def parse_action(self, state: DieStadtState, seat: int, text: str):
        return parse_order(state, seat, text)

    def parse_held_action(self, state: DieStadtState, seat: int, text: str):
        """A held wall line's guard is "if still legal" (docs/rules/diestadt.md
        "Guards"): :func:`~pbem.engine.diestadt.orders.parse_order` with ``held``."""
        return parse_order(state, seat, text, held=True)

    def state_from_json(self, text: str) -> DieStadtState:
        return DieStadtState.from_dict(self, json.loads(text))

    def view_text(self, view: dict[str, Any], tr: Callable[[Any], str] = str) -> str:
        """:func:`pbem.engine.diestadt.text.view_text`: each sentence through ``tr``."""
        return view_text(view, tr)

    def order_help(self) -> str:
        """The order help, one :class:`~pbem.engine.messages.Msg`."""
        return HELP

    def order_words(self) -> frozenset[str]:
        """:meth:`Game.order_words` from :mod:`pbem.engine.diestadt.words`."""
        return vocabulary(p for w in words.WORDS.values()
                          for t in (w.kinds, w.roles, w.points, w.ends, w.guard, w.no) for p in t)

    def order_text(self, action, lang: str = "en") -> str:
        """:func:`pbem.engine.diestadt.words.order_text` (English for a language it has no words for)."""
        return words.order_text(action, lang) if lang in words.WORDS else action.to_text()


GAME = DieStadtGame()
