"""Tables of table talk and of the group's channel (issue 26; migration
0015). Written only by :mod:`pbem.service.play.talk` and its siblings
(``talk_*``, ``channel``); read by the pages through them.

Who may read a message is decided from what is stored, never from who
holds a seat now alone: each recipient row keeps the *player* who held
the seat when it was written (:class:`TalkRecipient` ``player_id``), so a
player replaced at a seat loses the seat's messages at once and the
newcomer reads the seat's private messages from the moment of the
replacement on (public messages, to the whole table, stay readable by
whoever sits at the table). docs/long-games.md, "Table talk".
"""
from __future__ import annotations

import datetime as dt

from sqlalchemy import Boolean, ForeignKey, Index, Integer, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column, relationship

from pbem.service.core.db import db
from pbem.service.core.columns import UTCDateTime, utcnow

#: Game.talk values: every kind of message / only messages to the whole table / none
TALK_FULL, TALK_PUBLIC, TALK_NONE = "full", "public", "none"
TALK_MODES = (TALK_FULL, TALK_PUBLIC, TALK_NONE)
#: Player.talk_mail values: a mail per quiet spell / in the daily digest / no message mail
TALK_MAIL_MODES = ("every", "digest", "none")
#: the longest message, characters
MAX_BODY = 4000


class TalkMessage(db.Model):
    """One message of a game's table talk, written by seat ``seat_index``
    (``author_id``: the player holding it then). ``to_all``: to the whole
    table (public); otherwise to the seats of its :class:`TalkRecipient`
    rows. ``hidden_at``: when the host hid it (its text is shown to nobody
    and mailed to nobody after that)."""

    __tablename__ = "talk_messages"
    __table_args__ = (Index("ix_talk_messages_game_id", "game_id", "id"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    seat_index: Mapped[int] = mapped_column(Integer)
    author_id: Mapped[int] = mapped_column(ForeignKey("players.id"))
    to_all: Mapped[bool] = mapped_column(Boolean, default=False)
    body: Mapped[str] = mapped_column(Text)
    #: "web" or "email"
    source: Mapped[str] = mapped_column(String(16), default="web")
    hidden_at: Mapped[dt.datetime | None] = mapped_column(UTCDateTime, nullable=True)
    created_at: Mapped[dt.datetime] = mapped_column(UTCDateTime, default=utcnow)

    recipients: Mapped[list["TalkRecipient"]] = relationship(
        order_by="TalkRecipient.seat_index", cascade="all, delete-orphan", lazy="selectin")


class TalkRecipient(db.Model):
    """Seat ``seat_index`` is a recipient of message ``message_id``, held by
    ``player_id`` when it was written (every seat of the table but the
    author's for a public message)."""

    __tablename__ = "talk_recipients"
    __table_args__ = (UniqueConstraint("message_id", "seat_index"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    message_id: Mapped[int] = mapped_column(ForeignKey("talk_messages.id", ondelete="CASCADE"))
    seat_index: Mapped[int] = mapped_column(Integer)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"), index=True)


class TalkMute(db.Model):
    """Player ``player_id`` no longer sees the messages of seat
    ``muted_seat`` in game ``game_id`` (on the page or by mail)."""

    __tablename__ = "talk_mutes"
    __table_args__ = (UniqueConstraint("game_id", "player_id", "muted_seat"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"))
    muted_seat: Mapped[int] = mapped_column(Integer)


class TalkRead(db.Model):
    """How far player ``player_id`` at seat ``seat_index`` has read and been
    mailed the talk of game ``game_id``: ``seen_id`` the newest message id
    shown to them on the page, ``mailed_id`` the newest put in a message
    mail (or the digest), ``mailed_at`` when that mail was written."""

    __tablename__ = "talk_reads"
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    seat_index: Mapped[int] = mapped_column(Integer, primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"), primary_key=True)
    seen_id: Mapped[int] = mapped_column(Integer, default=0)
    mailed_id: Mapped[int] = mapped_column(Integer, default=0)
    mailed_at: Mapped[dt.datetime | None] = mapped_column(UTCDateTime, nullable=True)


class GameChannel(db.Model):
    """The group chat a game posts its public events to, through Apprise:
    ``url`` (an Apprise URL: never shown back after it is saved),
    ``service`` (what the pages show instead: "Discord"), ``lang`` (the
    language of the posts)."""

    __tablename__ = "game_channels"
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    url: Mapped[str] = mapped_column(Text)
    service: Mapped[str] = mapped_column(String(60), default="")
    lang: Mapped[str] = mapped_column(String(8), default="en")
    created_at: Mapped[dt.datetime] = mapped_column(UTCDateTime, default=utcnow)
