"""Who may read which message of a game's table talk (issue 26), and the
thread a seat's player sees.

A message is readable by player ``P`` at seat ``S`` only while ``P``
holds ``S`` (so a player replaced at a seat loses its talk at once), and
only when:

- it is to the whole table (``to_all``): whoever sits at the table reads
  every public message, those written before they came too;
- or ``P`` wrote it from ``S``;
- or ``S`` is among its recipients *and* ``P`` held ``S`` when it was
  written: a newcomer reads the seat's private messages from the moment
  of the replacement on, never those written to the player before them.

Nobody else reads a message: not the other seats, not spectators, not the
game's public page, record or replay, not the host as host. A player who
muted a seat (:mod:`pbem.service.play.talk_moderation`) does not see its
messages; a message the host hid shows as hidden, without its text, to
everyone. Reads only (except :func:`mark_seen`, which commits).
"""
from __future__ import annotations

from dataclasses import dataclass, field

from sqlalchemy import and_, exists, or_, select

from pbem.service.core.db import begin_write, db
from pbem.service.core.models import Game
from pbem.service.core.talk_models import TalkMessage, TalkMute, TalkRead, TalkRecipient

#: messages a thread shows at most (the newest)
THREAD_LIMIT = 200


@dataclass(frozen=True)
class Line:
    """One message as a reader sees it: ``id``, the author's ``seat``,
    ``to_all`` or the recipient ``to`` seats, ``body`` (``""`` when
    ``hidden``), ``created_at`` (UTC), ``mine`` (written by the reader)."""

    id: int
    seat: int
    to_all: bool
    to: tuple[int, ...]
    body: str
    hidden: bool
    created_at: object
    mine: bool = False
    source: str = "web"
    extra: dict = field(default_factory=dict)


def holder(game: Game, seat_index: int, player_id: int | None) -> bool:
    """Whether ``player_id`` holds seat ``seat_index`` of ``game`` now."""
    return player_id is not None and any(s.index == seat_index and s.player_id == player_id for s in game.seats)


def muted_seats(game_id: int, player_id: int) -> set[int]:
    """The seats whose messages ``player_id`` muted in the game."""
    return set(db.session.scalars(select(TalkMute.muted_seat).where(
        TalkMute.game_id == game_id, TalkMute.player_id == player_id)))


def readable(game_id: int, seat_index: int, player_id: int):
    """SQL condition on :class:`TalkMessage`: readable by ``player_id`` at
    ``seat_index`` (the caller has checked that they hold it now)."""
    addressed = exists().where(TalkRecipient.message_id == TalkMessage.id, TalkRecipient.seat_index == seat_index,
                               TalkRecipient.player_id == player_id)
    return and_(TalkMessage.game_id == game_id,
                or_(TalkMessage.to_all.is_(True),
                    and_(TalkMessage.seat_index == seat_index, TalkMessage.author_id == player_id),
                    addressed))


def messages_for(game: Game, seat_index: int, player_id: int | None, *, after_id: int = 0,
                 limit: int = THREAD_LIMIT, with_muted: bool = False) -> list[Line]:
    """The messages player ``player_id`` may read at seat ``seat_index`` of
    ``game``, oldest first (the newest ``limit``; only ids above
    ``after_id``); none when they do not hold the seat. Muted seats'
    messages are left out unless ``with_muted``."""
    if not holder(game, seat_index, player_id):
        return []
    muted = set() if with_muted else muted_seats(game.id, player_id)
    rows = db.session.scalars(
        select(TalkMessage).where(readable(game.id, seat_index, player_id), TalkMessage.id > after_id)
        .order_by(TalkMessage.id.desc()).limit(limit)).all()
    return [_line(m, seat_index, player_id) for m in reversed(rows)
            if m.seat_index not in muted or m.seat_index == seat_index]


def _line(m: TalkMessage, seat_index: int, player_id: int) -> Line:
    hidden = m.hidden_at is not None
    return Line(id=m.id, seat=m.seat_index, to_all=m.to_all, to=tuple(r.seat_index for r in m.recipients),
                body="" if hidden else m.body, hidden=hidden, created_at=m.created_at,
                mine=m.seat_index == seat_index and m.author_id == player_id, source=m.source)


def mark_seen(game: Game, seat_index: int, player_id: int, upto_id: int) -> None:
    """Record that the seat's player was shown the messages up to
    ``upto_id`` on the page (no message mail is sent for them). Commits;
    does nothing for a player not holding the seat or nothing new."""
    if not holder(game, seat_index, player_id) or upto_id <= 0:
        return
    begin_write()
    read = db.session.get(TalkRead, (game.id, seat_index, player_id))
    if read is None:
        read = TalkRead(game_id=game.id, seat_index=seat_index, player_id=player_id, seen_id=0, mailed_id=0)
        db.session.add(read)
    if upto_id > (read.seen_id or 0):
        read.seen_id = upto_id
    db.session.commit()
