"""A bot stands in for a person who stopped answering, until they come back
(issue 27; docs/bots.md, "In the service").

With the game's ``bot_takeover`` on (the host's option, default on), a seat
that misses its second deadline in a row (its previous decision was a
default order too) gets a stand-in: the deadline's default orders are
applied this once, ``seats.bot_standin`` is set and the standard bot makes
the seat's decisions from then on (:mod:`pbem.service.play.bot_turns`), so
the game no longer waits for a deadline every turn. The person comes back
with a click: the signed link in the mail that told them
(:func:`pbem.service.core.bots.back_path`), the button on the game page, or
any order of their own (:func:`come_back`).
"""
from __future__ import annotations

import datetime as dt

from sqlalchemy import select

from pbem.engine.messages import Msg
from pbem.i18n import stored_event_data
from pbem.service.core.bots import BACK, back_nonce
from pbem.service.core.db import db
from pbem.service.core.errors import NotAllowed
from pbem.service.core.models import GameEvent, Move, Seat, utcnow
from pbem.service.core.secret_links import matches, split_token
from pbem.service.core.snapshot import load_game


def missed_before(game_id: int, seat_index: int, step: int) -> bool:
    """Whether the seat's last decision before ``step`` was a default order
    at a missed deadline (one query, made only at a missed deadline)."""
    last = db.session.execute(
        select(Move.source).where(Move.game_id == game_id, Move.seat_index == seat_index, Move.step < step)
        .order_by(Move.step.desc()).limit(1)).scalar_one_or_none()
    return last == "deadline"


def takes_over(game, seat: Seat, step: int) -> bool:
    """Whether a bot stands in for ``seat``, which missed the deadline of
    ``step`` (before its default orders are applied): the host allows it,
    a person holds the seat and no bot stands in yet, and the seat missed
    the deadline before this one too."""
    return bool(game.bot_takeover and not seat.bot and not seat.bot_standin
                and missed_before(game.id, seat.index, step))


def standin_line(name: str, number: int) -> Msg:
    """The game log's line when a bot starts standing in."""
    return Msg("{name} missed two deadlines in a row: a bot plays seat {number} until they come back.",
               name=name, number=number)


def come_back(game_id: int, seat_index: int, *, player_id: int, now: dt.datetime | None = None) -> bool:
    """The seat's person is back: the bot standing in stops (the log says
    so; commits). ``NotAllowed`` when ``player_id`` does not hold the seat.
    Returns whether a bot was standing in (False: nothing to do)."""
    now = now or utcnow()
    game = load_game(game_id, for_update=True)
    seat = game.seat(seat_index)
    if seat.player_id != player_id:
        db.session.rollback()
        raise NotAllowed("this seat belongs to someone else")
    if not seat.bot_standin:
        db.session.rollback()
        return False
    seat.bot_standin = False
    text = Msg("{name} is back and plays seat {number} again.", name=seat.player.name, number=seat.number)
    db.session.add(GameEvent(game_id=game.id, step=game.step, seat_index=None, kind="back", created_at=now,
                             text=str(text), data=stored_event_data(text, None)))
    db.session.commit()
    return True


def seat_of_back_token(token: str) -> Seat | None:
    """The seat whose "I'm back" link carries ``token`` (``<seat id>.<secret>``),
    or None for a token that is malformed, forged, or of a player who no
    longer holds the seat."""
    parts = split_token(token)
    if parts is None:
        return None
    seat = db.session.get(Seat, parts[0])
    if seat is None or not matches(BACK, seat.id, back_nonce(seat), parts[1]):
        return None
    return seat
