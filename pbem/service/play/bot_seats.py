"""The host gives a seat to a bot (issue 27; docs/service.md, "Host tools").

:func:`give_to_bot` is the replace-player tool with a bot as the newcomer:
the seat's player becomes the bot's reserved row
(:func:`pbem.service.accounts.bot_players.bot_player`), the seat is joined
at once, and when it owes a decision the bot makes it
(:mod:`pbem.service.play.bot_turns`). The player who leaves gets the same
one mail as when a person takes their seat. A game keeps at least one person.
"""
from __future__ import annotations

import datetime as dt

from pbem.engine.messages import Msg
from pbem.i18n.bot_names import BOT_WORDS
from pbem.service.accounts.bot_players import bot_player
from pbem.service.core import queue
from pbem.service.core.bots import BOT_NAMES
from pbem.service.core.db import db
from pbem.service.core.errors import ServiceError
from pbem.service.core.models import ACTIVE, INVITED, PAUSED, Game, GameEvent, utcnow
from pbem.service.play import held
from pbem.service.play.lifecycle import _host_game, _said, start_game
from pbem.service.play.replacement import seat_given_notice


def give_to_bot(game_id: int, seat_index: int, bot: str, *, by_player_id: int | None = None,
                now: dt.datetime | None = None) -> Game:
    """Seat ``seat_index`` (0-based) of game ``game_id`` is played by bot
    ``bot`` (``"standard"``, ``"greedy"``, ``"random"``) from now on. The
    missed-turn count starts again, orders held for the seat are dropped,
    the log says so, the leaving person gets one mail. A game waiting for
    players starts when every seat has joined. Raises :class:`NotAllowed`
    (not the host), :class:`WrongStatus` (the game is over) and
    :class:`ServiceError` (an unknown bot, the seat is that bot's already,
    or no person would be left at the table)."""
    now = now or utcnow()
    game = _host_game(game_id, by_player_id, (INVITED, ACTIVE, PAUSED), "a {status} game keeps its players")
    seat = game.seat(seat_index)
    try:
        if bot not in BOT_NAMES:
            raise ServiceError(f"unknown bot {bot!r}; known: {', '.join(BOT_NAMES)}")
        if seat.bot == bot:
            raise ServiceError(Msg("Seat {number} is played by that bot already.", number=seat.number))
        if all(s.bot for s in game.seats if s.index != seat_index):
            raise ServiceError(Msg("A game needs at least one person."))
    except ServiceError:
        db.session.rollback()
        raise
    before, was_person = seat.player, seat.bot is None
    newcomer = bot_player(bot)
    seat.player, seat.bot, seat.bot_standin = newcomer, bot, False
    seat.missed_turns, seat.last_web_order_at, seat.joined, seat.joined_at = 0, None, True, now
    held.drop_all(game.id, seat.index)
    db.session.add(GameEvent(game_id=game.id, step=game.step, seat_index=None, kind="replaced",
                             **_said(Msg("{name} took over seat {number} from {before}.", name=BOT_WORDS[bot],
                                         number=seat.number, before=before.name))))
    db.session.flush()
    if was_person:
        seat_given_notice(game, seat, before, now=now)
    everyone = all(s.joined for s in game.seats)
    status = game.status
    db.session.commit()
    queue.enqueue(queue.DELIVER)
    if status == INVITED and everyone:
        return start_game(game_id, now=now)
    if status == ACTIVE:
        queue.enqueue(queue.BOTS, game_id)
    return game


def set_takeover(game_id: int, on: bool, *, by_player_id: int | None = None) -> Game:
    """The host's take-over option (``games.bot_takeover``): a bot stands in
    for a seat that missed two deadlines in a row. Turning it off stops no
    stand-in already playing. Raises :class:`NotAllowed` (not the host) and
    :class:`WrongStatus` (the game is over)."""
    game = _host_game(game_id, by_player_id, (INVITED, ACTIVE, PAUSED), "a {status} game keeps its settings")
    game.bot_takeover = bool(on)
    db.session.commit()
    return game
