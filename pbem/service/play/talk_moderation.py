"""What can be done about table talk besides writing (issue 26): the host's
setting (:func:`set_talk`: full talk, public messages only, none), the
host hiding a message (:func:`hide_message`), and a player muting
another seat (:func:`mute`, :func:`unmute`). Each commits; refusals are
``ServiceError`` with a ``Msg`` text.
"""
from __future__ import annotations

import datetime as dt

from sqlalchemy import delete

from pbem.engine.messages import Msg
from pbem.service.core.db import begin_write, db
from pbem.service.core.errors import NotAllowed, ServiceError
from pbem.service.core.models import utcnow
from pbem.service.core.snapshot import load_game
from pbem.service.core.talk_models import TALK_MODES, TalkMessage, TalkMute
from pbem.service.play.talk_read import holder


def _host_game(game_id: int, by_player_id: int | None):
    begin_write()
    game = load_game(game_id, for_update=True)
    if by_player_id is None or game.host_id != by_player_id:
        db.session.rollback()
        raise NotAllowed(Msg("Only the host of this game can do that."))
    return game


def set_talk(game_id: int, mode: str, *, by_player_id: int | None) -> None:
    """The host sets the game's table talk: ``full``, ``public`` or
    ``none`` (:data:`~pbem.service.core.talk_models.TALK_MODES`). Messages
    already written stay as they are. Raises ``NotAllowed`` (not the host),
    ``ServiceError`` (another mode)."""
    if mode not in TALK_MODES:
        raise ServiceError(Msg("Choose full talk, public messages only, or no talk."))
    game = _host_game(game_id, by_player_id)
    game.talk = mode
    db.session.commit()


def hide_message(game_id: int, message_id: int, *, by_player_id: int | None, hidden: bool = True,
                 now: dt.datetime | None = None) -> None:
    """The host hides message ``message_id`` of the game (``hidden=False``
    shows it again): its text is shown to nobody and mailed to nobody not
    mailed yet. The host hides without reading: a private message the host
    may not read stays unread by them. Raises ``NotAllowed`` (not the host)
    and ``ServiceError`` (no such message in this game)."""
    _host_game(game_id, by_player_id)
    message = db.session.get(TalkMessage, message_id)
    if message is None or message.game_id != game_id:
        db.session.rollback()
        raise ServiceError(Msg("This game has no such message."))
    message.hidden_at = (now or utcnow()) if hidden else None
    db.session.commit()


def mute(game_id: int, seat_index: int, player_id: int, muted_seat: int, *, on: bool = True) -> None:
    """The player at ``seat_index`` mutes seat ``muted_seat`` (``on=False``
    unmutes): they no longer see its messages on the page or in mail.
    Raises ``NotAllowed`` (not this seat's player) and ``ServiceError``
    (their own seat, or none of the game)."""
    begin_write()
    game = load_game(game_id)
    if not holder(game, seat_index, player_id):
        db.session.rollback()
        raise NotAllowed(Msg("You do not hold this seat."))
    if muted_seat == seat_index or all(s.index != muted_seat for s in game.seats):
        db.session.rollback()
        raise ServiceError(Msg("This game has no such seat."))
    db.session.execute(delete(TalkMute).where(TalkMute.game_id == game_id, TalkMute.player_id == player_id,
                                              TalkMute.muted_seat == muted_seat))
    if on:
        db.session.add(TalkMute(game_id=game_id, player_id=player_id, muted_seat=muted_seat))
    db.session.commit()

