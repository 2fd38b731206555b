"""A tour of every page: games of every registered kind brought to each
kind of decision their players meet, plus the other pages a player sees.
The browser tests (tests/web/test_pages_browser.py), ``pbem dev
screenshots`` and ``pbem bench page`` walk it.

Run inside an app context on a database with its tables. Games are played
through the service (:func:`pbem.service.play.orders.submit_orders`) with
seeded random legal orders, so every position is one real players could
reach, and the log and replay are whole. No game is named here: a stop's
``phase`` is the engine's own word for the decision (``view["decision"]
["kind"]``) or for the phase (``view["rules_section"]["id"]``).
"""
from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from pbem.engine import GAMES, get_game
from pbem.service.core.requests import discard
from pbem.service.core.snapshot import engine_state, load_game
from pbem.service.play.lifecycle import cancel_game, create_game, join_game
from pbem.service.play.orders import pending_seats, submit_orders

#: the tour's players (fictional; example.org never receives mail)
PLAYERS = [("Ada", "ada@example.org"), ("Bo", "bo@example.org"), ("Cy", "cy@example.org")]


@dataclass(frozen=True)
class Stop:
    """One order page on the tour: game ``kind`` at a ``phase`` kind, seen
    by seat ``number`` (held by ``email``) of game ``game_id``."""

    kind: str
    phase: str
    game_id: int
    number: int
    email: str

    @property
    def path(self) -> str:
        return f"/games/{self.game_id}/seat/{self.number}"

    @property
    def name(self) -> str:
        return f"{self.kind}-{self.phase}"


def phase_kind(view: dict[str, Any]) -> str:
    """The kind of decision a seat's view shows: the engine's decision kind
    (``starve``, ``piece2``), else the phase's rules section (``political``)."""
    decision = view.get("decision") or {}
    section = view.get("rules_section") or {}
    return str(decision.get("kind") or section.get("id") or "play")


def _state(game_id: int):
    """The engine state of game ``game_id`` as committed now (the session's
    transaction ended first, so nothing read before is reused)."""
    discard()
    return engine_state(load_game(game_id))


def new_game(kind: str, seed: int, *, seats: int = 3, start: bool = True) -> int:
    """A game of ``kind`` hosted by the first tour player, options at their
    defaults; every seat joined (so it starts) when ``start``."""
    engine = get_game(kind)
    seats = max(engine.min_seats, min(seats, engine.max_seats))
    options = {name: allowed[0] for name, allowed in engine.options.items()}
    game_id = create_game(kind, PLAYERS[0][1], PLAYERS[:seats], options=options, seed=seed,
                          title=f"{engine.title} tour").id
    if start:
        for i in range(1, seats):
            join_game(game_id, i)
    return game_id


def _owing(game_id: int, state) -> list[int]:
    sent = set(pending_seats(game_id, state.step))
    return [s for s in state.current_seats() if s not in sent]


def play(game_id: int, seed: int, moves: int) -> None:
    """Play ``moves`` random legal orders (seeded) in game ``game_id``, one
    seat at a time (the lowest seat that still owes orders)."""
    rng = random.Random(seed)
    for _ in range(moves):
        state = _state(game_id)
        seat = _owing(game_id, state)[0]
        order = rng.choice(state.legal_actions(seat)).to_text()
        result = submit_orders(game_id, seat, order, expected_step=state.step, source="web")
        if not result.accepted:
            raise RuntimeError(f"tour: {order!r} refused: {result.message}")


def discover(kind: str, seed: int, *, max_moves: int = 400) -> dict[str, tuple[int, int]]:
    """Play one game of ``kind`` with seeded random orders and note, for each
    phase kind met, the first point where a seat owes it: ``{phase: (moves
    played before, seat)}``."""
    game_id = new_game(kind, seed)
    rng = random.Random(seed)
    found: dict[str, tuple[int, int]] = {}
    for moves in range(max_moves):
        state = _state(game_id)
        if state.is_terminal():
            found.setdefault("over", (moves, 0))
            break
        owing = _owing(game_id, state)
        for seat in owing:
            found.setdefault(phase_kind(state.view(seat)), (moves, seat))
        order = rng.choice(state.legal_actions(owing[0])).to_text()
        submit_orders(game_id, owing[0], order, expected_step=state.step, source="web")
    return found


def stage(kinds: list[str] | None = None, seeds: tuple[int, ...] = (1, 2, 3), *,
          max_moves: int = 400) -> list[Stop]:
    """One game per (kind, phase kind) met in seeded random games of each
    kind in ``kinds`` (default: every registered game; one game per seed,
    the first seed meeting a phase kind is used), each stopped where a seat
    owes that decision. Returns the stops, in kind then move order."""
    stops = []
    for kind in kinds or sorted(GAMES):
        first: dict[str, tuple[int, int, int]] = {}
        for seed in seeds:
            for phase, (moves, seat) in discover(kind, seed, max_moves=max_moves).items():
                first.setdefault(phase, (moves, seed, seat))
        for phase, (moves, seed, seat) in sorted(first.items(), key=lambda kv: kv[1]):
            game_id = new_game(kind, seed)
            play(game_id, seed, moves)
            stops.append(Stop(kind, phase, game_id, seat + 1, PLAYERS[seat][1]))
    return stops


def other_pages(stops: list[Stop]) -> dict[str, tuple[str | None, str]]:
    """The tour's other pages: ``{name: (email of the player signed in, or
    None; path)}`` — sign-in, dashboard, new game, account, the game page of
    a running and of a waiting game, the game and order page of a cancelled
    game, a finished replay step, the rules of every game, and the error
    pages (not found, another player's seat)."""
    ada = PLAYERS[0][1]
    waiting = new_game(sorted(GAMES)[0], 7, start=False)
    cancelled = new_game(sorted(GAMES)[-1], 8)
    cancel_game(cancelled)
    pages: dict[str, tuple[str | None, str]] = {
        "signin": (None, "/signin"),
        "home": (None, "/"),
        "dashboard": (ada, "/"),
        "new-game": (ada, "/games/new"),
        "account": (ada, "/account"),
        "game-waiting": (ada, f"/games/{waiting}"),
        "game-cancelled": (ada, f"/games/{cancelled}"),
        "order-cancelled": (ada, f"/games/{cancelled}/seat/1"),
        "error-404": (ada, "/games/999999"),
    }
    for stop in stops:        # the game pages of each kind's last stop: the longest game
        pages[f"game-{stop.kind}"] = (None, f"/games/{stop.game_id}")
        pages[f"game-{stop.kind}-replay"] = (ada, f"/games/{stop.game_id}?step=5")
        pages.setdefault(f"rules-{stop.kind}", (None, f"/rules/{stop.kind}"))
        if stop.number != 1:
            pages.setdefault("error-403", (ada, stop.path))
    return pages
