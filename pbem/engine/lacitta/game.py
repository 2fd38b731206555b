"""The La Città :class:`~pbem.engine.api.Game` (registered as ``"lacitta"``)."""
from __future__ import annotations

import json
import random
from typing import Any, Callable

from pbem.engine.messages import Msg
from pbem.engine.api import Game
from pbem.engine.lacitta import evaluate as _evaluate
from pbem.engine.fold import vocabulary
from pbem.engine.lacitta import parse as _parse
from pbem.engine.lacitta import position as _position
from pbem.engine.lacitta import rng as rngs
from pbem.engine.lacitta import text as _text
from pbem.engine.lacitta.actions import Order
from pbem.engine.lacitta.state import LaCittaState
from pbem.engine.lacitta import words as _words


class LaCitta(Game):
    name = "lacitta"
    title = "La Città"
    min_seats = 2
    max_seats = 5
    options = {"setup": ("beginner", "experienced")}
    #: the rule text's two set-ups ("alkuasetus aloittelijoille" / "alkuasetus kokeneille pelaajille")
    option_words = {"setup": Msg("set-up"), "beginner": Msg("for beginners"),
                    "experienced": Msg("for experienced players")}
    board = "pbem.boards.lacitta"

    def new_state(self, seats: int, seed: int, **options: Any) -> LaCittaState:
        """A new game after setup (beginner: fixed layout, year 1 under way;
        experienced: castle placement to do). Raises ``ValueError`` for a
        seat count outside 2..5 or an unknown option/value
        (:meth:`~pbem.engine.api.Game.check_settings`)."""
        settings = self.check_settings(seats, options)
        return LaCittaState.new(self, seats, int(seed), settings["setup"])

    def redeal_hidden(self, state: LaCittaState, seat: int | None, rng: random.Random) -> LaCittaState:
        """Deal again what ``seat`` cannot see: the political deck's order,
        the Voice of the People cards face down that ``seat`` has not looked
        at (with Bürgernähe) together with the Voice deck, and the random
        generator (:mod:`pbem.engine.lacitta.view` says what is public)."""
        v = state.copy()
        v.deck.sort()                     # canonical order first: the variant reads nothing hidden
        rng.shuffle(v.deck)
        peeked = set(v.peeked[seat]) if seat is not None else set()
        unseen = [] if v.revealed else [i for i in range(1, len(v.voice)) if i not in peeked]
        pool = sorted([v.voice[i] for i in unseen] + v.voice_deck)
        rng.shuffle(pool)
        for i in unseen:
            v.voice[i] = pool.pop()
        v.voice_deck = pool
        v.rng = rngs.from_text(f"{rng.getrandbits(64):016x}")
        v._legal_cache = None             # orders do not depend on the decks, but keep none of the original
        return v

    evaluation_scale = _evaluate.SCALE

    def evaluate(self, state: LaCittaState) -> list[float]:
        """:func:`pbem.engine.lacitta.evaluate.evaluate` (for the bots)."""
        return _evaluate.evaluate(state)

    def load_position(self, text: str) -> LaCittaState:
        """:func:`pbem.engine.lacitta.position.load_position`."""
        return _position.load_position(text, self)

    def dump_position(self, state: LaCittaState) -> str:
        """:func:`pbem.engine.lacitta.position.dump_position`."""
        return _position.dump_position(state)

    def parse_action(self, state: LaCittaState, seat: int, text: str) -> Order:
        return _parse.parse(state, seat, text)

    def state_from_json(self, text: str) -> LaCittaState:
        return LaCittaState.from_dict(self, json.loads(text))

    def view_text(self, view: dict[str, Any], tr: Callable[[Any], str] = str) -> str:
        return _text.view_text(view, tr)

    def order_help(self) -> str:
        return _text.order_help()

    def order_words(self) -> frozenset[str]:
        """:meth:`Game.order_words` from :mod:`pbem.engine.lacitta.words`."""
        tables = _words.WORDS.values()
        return vocabulary((p for w in tables for t in (w.verbs, w.buildings, w.cards, w.wishes,
                                                       getattr(w, "objects", {})) for p in t),
                          skip=[f for w in tables for f in (*w.fillers, *w.joins)])

    def order_text(self, action: Order, lang: str = "en") -> str:
        """:func:`pbem.engine.lacitta.words.order_text` (English for a language it has no words for)."""
        return _words.order_text(action, lang) if lang in _words.WORDS else action.to_text()


GAME = LaCitta()
