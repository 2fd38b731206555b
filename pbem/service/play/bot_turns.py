"""Bots make the decisions their seats owe (issue 27; docs/bots.md, "In the service").

A seat is played by a bot when the host seated one there (``seats.bot``)
or while a bot stands in for its person (``seats.bot_standin``):
:attr:`pbem.service.core.models.Seat.bot_name`. The ``pbem.bot_turns`` task
(:func:`play_bots`) reads the game, asks the bot for each decision a bot
seat owes now, with :data:`BOT_SECONDS` of CPU (``PBEM_BOT_SECONDS``), and
submits the order through :func:`pbem.service.play.orders.submit_orders`
with ``source="bot"`` and the step it read, like a person's order. So a
bot's move is exactly once: a second run for the same step is refused by
the step check; a run that dies between choosing and submitting wrote
nothing, and the next run (the next resolution's trigger, or the deadline
scan's safety net, :func:`stalled_games`) makes the move once.

The bot's random numbers are drawn from a seed derived from the game's
seed, the step and the seat (:func:`bot_seed`), so a replay of a game played
with an iteration budget chooses the same orders.
"""
from __future__ import annotations

import datetime as dt
import hashlib
import logging
import random
from dataclasses import dataclass, field

from flask import current_app
from sqlalchemy import or_, select

from pbem.bots import Budget, get_bot
from pbem.service.core.db import db
from pbem.service.core.errors import GameNotFound
from pbem.service.core.models import ACTIVE, Game, Seat, utcnow
from pbem.service.core.snapshot import engine_state, load_game
from pbem.service.play.orders import pending_seats, submit_orders

log = logging.getLogger(__name__)

#: default CPU seconds a bot spends on one decision (``PBEM_BOT_SECONDS``)
BOT_SECONDS = 2.0
#: most decisions one run makes (a guard; a game always waits for its person in the end)
MAX_DECISIONS = 500
#: a game with a bot seat whose row has not changed for this long is looked
#: at by the deadline scan (:func:`stalled_games`)
STALLED_SECONDS = 60


@dataclass
class BotRun:
    """What one :func:`play_bots` run did: ``moves`` ``(step, seat, text)``
    submitted and accepted; ``refused`` submissions the step check (or
    another check) refused."""

    game_id: int
    moves: list[tuple[int, int, str]] = field(default_factory=list)
    refused: int = 0


def bot_seed(game_seed: int, step: int, seat: int) -> int:
    """The seed of a bot's random numbers for ``seat``'s decision at
    ``step`` of a game seeded ``game_seed`` (a 64-bit int; the same inputs
    give the same seed in every process)."""
    digest = hashlib.sha256(f"pbem-bot:{game_seed}:{step}:{seat}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def bot_budget() -> Budget:
    """The CPU budget of one decision: ``BOT_SECONDS`` of the app's config."""
    return Budget(seconds=float(current_app.config.get("BOT_SECONDS", BOT_SECONDS)))


def owed(game: Game, state) -> list[tuple[int, str]]:
    """``(seat, bot name)`` of each bot seat that owes a decision in
    ``state`` and has no orders stored for this step (read only when a bot
    seat is current)."""
    due = [(s, game.seat(s).bot_name) for s in state.current_seats() if game.seat(s).bot_name]
    if not due:
        return []
    stored = set(pending_seats(game.id, game.step)) if len(state.current_seats()) > 1 else set()
    return [(s, name) for s, name in due if s not in stored]


def _next_decision(game_id: int):
    """``(step, seat, bot name, state)`` of the next decision a bot owes in
    game ``game_id``, or None; the read transaction is ended before the
    bot thinks (no lock or snapshot held for seconds)."""
    try:
        game = load_game(game_id)
    except GameNotFound:
        db.session.rollback()
        return None
    found = None
    if game.status == ACTIVE and game.state is not None:
        state = engine_state(game)
        due = owed(game, state)
        if due:
            found = (game.step, due[0][0], due[0][1], state, game.seed)
    db.session.rollback()
    return found


def play_bots(game_id: int, *, budget: Budget | None = None, now: dt.datetime | None = None) -> BotRun:
    """Make every decision the bots of game ``game_id`` owe now, one at a
    time, each submitted with ``source="bot"`` and the step it was chosen
    on; stops when a person (or nobody) is to move. Idempotent: a run that
    finds nothing owed does nothing. Commits (through ``submit_orders``)."""
    run = BotRun(game_id)
    budget = budget or bot_budget()
    for _ in range(MAX_DECISIONS):
        found = _next_decision(game_id)
        if found is None:
            break
        step, seat, name, state, seed = found
        action = get_bot(name, budget).choose(state, seat, random.Random(bot_seed(seed, step, seat)))
        text = action.to_text()
        result = submit_orders(game_id, seat, text, expected_step=step, source="bot", now=now)
        if result.status != "stored":
            run.refused += 1
            log.info("game %s seat %s: the bot's order %r at step %s was refused (%s)",
                     game_id, seat, text, step, result.status)
            if result.status != "stale":
                break
            continue
        run.moves.append((step, seat, text))
    return run


def stalled_games(now: dt.datetime) -> list[int]:
    """Running games with a seat a bot plays whose row has not changed for
    :data:`STALLED_SECONDS`: the deadline scan starts a run for each, in
    case a run was lost (a worker that died, a broker that was down)."""
    quiet = now - dt.timedelta(seconds=STALLED_SECONDS)
    return list(db.session.execute(
        select(Game.id).join(Seat, Seat.game_id == Game.id)
        .where(Game.status == ACTIVE, Game.updated_at <= quiet,
               or_(Seat.bot.is_not(None), Seat.bot_standin.is_(True))).distinct()).scalars())
