"""A bot stands in for a person who stopped answering, until they come back
(issue 27; docs/bots.md, "In the service").

With the game's ``bot_takeover`` on (the host's option, default on), a seat
that misses its second deadline in a row (its previous decision was a
default order too) gets a stand-in: the deadline's default orders are
applied this once, ``seats.bot_standin`` is set and the standard bot makes
the seat's decisions from then on (:mod:`pbem.service.play.bot_turns`), so
the game no longer waits for a deadline every turn. A player away past the
game's absence cap who chose so gets the stand-in at their first missed
deadline (``absences.bot_after_cap``). The person comes back
with a click: the signed link in the mail that told them
(:func:`pbem.service.core.bots.back_path`), the button on the game page, or
any order of their own (:func:`come_back`).
"""
from __future__ import annotations

import datetime as dt

from sqlalchemy import or_, select

from pbem.engine.messages import Msg
from pbem.i18n import stored_event_data
from pbem.service.core.absence_rows import Absence
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


def takes_over(game, seat: Seat, step: int, now: dt.datetime) -> str:
    """Why a bot stands in for ``seat``, which missed the deadline of
    ``step`` (before its default orders are applied), or ``""``: a person
    holds the seat, no bot stands in yet, and either the host allows
    take-over and the seat missed the deadline before this one too
    (``"missed"``), or its player is away now and chose that a bot plays
    once the absence moves no deadline (``"away"``, :func:`away_with_bot`)."""
    if seat.bot or seat.bot_standin:
        return ""
    if game.bot_takeover and missed_before(game.id, seat.index, step):
        return "missed"
    return "away" if away_with_bot(game.id, seat.player_id, now) else ""


def away_with_bot(game_id: int, player_id: int, now: dt.datetime) -> bool:
    """Whether the player is in an absence (of this game or every game)
    for which they chose a bot once the cap is used up (a deadline that
    passed while they are away was not moved: the cap or their budget is
    spent). One query, made only at a missed deadline."""
    return db.session.execute(select(Absence.id).where(
        Absence.player_id == player_id, Absence.bot_after_cap.is_(True), Absence.starts_at <= now,
        Absence.ends_at > now, or_(Absence.game_id.is_(None), Absence.game_id == game_id)).limit(1)).first() is not None


def standin_line(name: str, number: int, why: str) -> Msg:
    """The game log's line when a bot starts standing in (``why``: :func:`takes_over`'s reason)."""
    if why == "away":
        return Msg("{name} is away past the game's absence limit: a bot plays seat {number} until they come back.",
                   name=name, number=number)
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
