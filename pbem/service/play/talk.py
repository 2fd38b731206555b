"""Table talk: a seat writes a message to the whole table, to one seat or
to several (issue 26; docs/long-games.md, "Table talk").

:func:`post_message` is the one way a message is written (pages and mail
alike). It checks, in this order: the game is running (invited, active or
paused), the writer holds the seat now, the host allows talk
(``Game.talk``: ``full``; ``public`` allows only messages to the whole
table; ``none`` none), the recipients are other seats of the game, the text
is 1 to :data:`~pbem.service.core.talk_models.MAX_BODY` characters of
plain text, and the writer is within ``TALK_RATE_LIMIT`` (messages per
player and game, the service's rate counts). Each refusal is a
:class:`~pbem.service.core.errors.ServiceError` whose text is a ``Msg``
(the pages and answers say it in the reader's language); nothing is
stored then.

Each recipient row keeps the player holding the seat when the message was
written: who may read it is decided by :mod:`pbem.service.play.talk_read`.
"""
from __future__ import annotations

import datetime as dt
import re
from typing import Iterable

from flask import current_app

from pbem.engine.messages import Msg
from pbem.service.core import ratelimit
from pbem.service.core.db import begin_write, db
from pbem.service.core.errors import NotAllowed, ServiceError, WrongStatus
from pbem.service.core.models import ACTIVE, INVITED, PAUSED, Game, utcnow
from pbem.service.core.snapshot import load_game
from pbem.service.core.talk_models import MAX_BODY, TALK_NONE, TALK_PUBLIC, TalkMessage, TalkRecipient

#: default of ``TALK_RATE_LIMIT``: messages one player may write in one game
DEFAULT_RATE_LIMIT = "8 per minute; 120 per hour"
#: the statuses of a game whose table may talk
TALK_STATUSES = (INVITED, ACTIVE, PAUSED)
#: control characters a message may not carry (tab and newline stay)
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f\u200b-\u200f\u202a-\u202e\u2066-\u2069]")
#: "to all": every other seat of the table
ALL = "all"


def clean_body(body: str) -> str:
    """``body`` as stored: line ends made ``\\n``, control and bidirectional
    override characters dropped, blank lines at either end trimmed.
    Raises :class:`ServiceError` for an empty text or one over
    :data:`MAX_BODY` characters (counted after cleaning)."""
    text = _CONTROL.sub("", (body or "").replace("\r\n", "\n").replace("\r", "\n"))
    text = "\n".join(line.rstrip() for line in text.split("\n")).strip("\n")
    if not text.strip():
        raise ServiceError(Msg("The message is empty."))
    if len(text) > MAX_BODY:
        raise ServiceError(Msg("A message is at most {most} characters; this one has {n}.", most=MAX_BODY, n=len(text)))
    return text


def recipients_of(game: Game, author_seat: int, to: str | Iterable[int]) -> tuple[bool, list[int]]:
    """``(to_all, seats)`` for a message from ``author_seat``: ``to`` is
    :data:`ALL` or seat indices (the author's own is left out; every other
    seat named counts as to all). Raises :class:`ServiceError` for no
    recipient or a seat the game does not have."""
    others = sorted(s.index for s in game.seats if s.index != author_seat)
    if to == ALL:
        return True, others
    chosen = sorted({int(i) for i in to} - {author_seat})
    if any(i not in others for i in chosen):
        raise ServiceError(Msg("This game has no such seat."))
    if not chosen:
        raise ServiceError(Msg("Choose who the message is for."))
    return chosen == others, chosen


def check_allowed(game: Game, to_all: bool) -> None:
    """Refuse a message the host's setting does not allow (``ServiceError``)."""
    if game.talk == TALK_NONE:
        raise ServiceError(Msg("The host has turned table talk off in this game."))
    if game.talk == TALK_PUBLIC and not to_all:
        raise ServiceError(Msg("In this game messages go to the whole table only."))


def post_message(game_id: int, seat_index: int, player_id: int, body: str, *, to: str | Iterable[int] = ALL,
                 source: str = "web", now: dt.datetime | None = None) -> TalkMessage:
    """Write a message from seat ``seat_index`` (held by ``player_id``) of
    game ``game_id`` to ``to`` (:data:`ALL` or seat indices), from
    ``source`` ("web" or "email"). Commits; returns the message. Raises
    :class:`~pbem.service.core.errors.GameNotFound`, :class:`NotAllowed`
    (not this seat's player), :class:`WrongStatus` (the game is over) and
    :class:`ServiceError` (the host's setting, the recipients, the text,
    too many messages)."""
    now = now or utcnow()
    text = clean_body(body)
    begin_write()
    try:
        game = load_game(game_id, for_update=True)
        seat = next((s for s in game.seats if s.index == seat_index), None)
        if seat is None or seat.player_id != player_id:
            raise NotAllowed(Msg("You do not hold this seat."))
        if game.status not in TALK_STATUSES:
            raise WrongStatus(Msg("This game is over; its table talk is closed."))
        to_all, seats = recipients_of(game, seat_index, to)
        check_allowed(game, to_all)
        spec = current_app.config.get("TALK_RATE_LIMIT", DEFAULT_RATE_LIMIT)
        if not ratelimit.allow("pbem-talk", f"{game.id}:{player_id}", spec, now=now):
            raise ServiceError(Msg("You are writing faster than the table can read; try again in a minute."))
    except ServiceError:
        db.session.rollback()
        raise
    holders = {s.index: s.player_id for s in game.seats}
    message = TalkMessage(game_id=game.id, seat_index=seat_index, author_id=player_id, to_all=to_all,
                          body=text, source=source, created_at=now,
                          recipients=[TalkRecipient(seat_index=i, player_id=holders[i]) for i in seats])
    db.session.add(message)
    db.session.commit()
    return message
