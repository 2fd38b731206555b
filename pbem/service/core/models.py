"""Database models: every table of the service.

Times are stored as UTC and come back as timezone-aware ``datetime`` in UTC
(:class:`UTCDateTime`), on SQLite and PostgreSQL alike. Seats are 0-based
indices as in the engine; players see "seat 1" for index 0.
"""
from __future__ import annotations

import datetime as dt
from typing import Any

from sqlalchemy import (
    JSON, BigInteger, Boolean, DateTime, ForeignKey, Index, Integer, LargeBinary,
    String, Text, TypeDecorator, UniqueConstraint, func, select,
)
from sqlalchemy import false as sa_false
from sqlalchemy import true as sa_true
from sqlalchemy.orm import Mapped, column_property, mapped_column, relationship

from pbem.service.core.db import db


# utcnow and UTCDateTime live in columns.py, which the tables of other modules
# (talk_models, ...) import without importing this module (no import cycle)
from pbem.service.core.columns import UTCDateTime, utcnow  # noqa: E402


class BigSeed(TypeDecorator):
    """A game seed of any size (128 bits and more): an ``int`` in Python,
    decimal digits in the database (SQLite's integers stop at 64 bits).
    Seeds of games created before migration 0005 (48 bits) read back as the
    same ``int``, so their games replay unchanged."""

    impl = String(80)
    cache_ok = True

    def process_bind_param(self, value: int | None, dialect) -> str | None:
        return None if value is None else str(int(value))

    def process_result_value(self, value: str | int | None, dialect) -> int | None:
        return None if value is None else int(value)


# Game.status values
INVITED, ACTIVE, PAUSED, FINISHED = "invited", "active", "paused", "finished"
#: ended by its host without scores (lifecycle.cancel_game)
CANCELLED = "cancelled"
GAME_STATUSES = (INVITED, ACTIVE, PAUSED, FINISHED, CANCELLED)
# Move.source / PendingOrder.source values ("bot": a bot's order, issue 27)
SOURCES = ("web", "email", "deadline", "api", "bot")
# OutboxMessage.status values
OUT_PENDING, OUT_SENDING, OUT_SENT, OUT_FAILED = "pending", "sending", "sent", "failed"
#: a turn notice not sent because its seat had moved (or the game had) before delivery
OUT_SUPERSEDED = "superseded"
#: a notification kept for its player's daily digest; "digested" once sent in one
OUT_HELD, OUT_DIGESTED = "held", "digested"
#: Player.notify_mode values: every notice / only what asks the player to act /
#: one digest a day at ``digest_hour`` / no game mail at all (web only)
NOTIFY_MODES = ("every", "my_turn", "digest", "none")


class Player(db.Model):
    """A person, known by email address (stored lower-case)."""

    __tablename__ = "players"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    email: Mapped[str] = mapped_column(String(320), unique=True)
    name: Mapped[str] = mapped_column(String(200), default="")
    timezone: Mapped[str] = mapped_column(String(64), default="UTC")
    #: bumped by "sign out everywhere": a session cookie carrying an older
    #: version no longer signs anyone in
    session_version: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    #: which mail about games the player wants: NOTIFY_MODES (docs/web.md)
    notify_mode: Mapped[str] = mapped_column(String(16), default="every", server_default="every")
    #: the hour (0-23, in the player's time zone) of the daily digest
    digest_hour: Mapped[int] = mapped_column(Integer, default=18, server_default="18")
    #: "never invite me again": no game can seat this address
    no_invites: Mapped[bool] = mapped_column(Boolean, default=False, server_default=sa_false())
    #: when mail to the address last bounced hard (no notices go to it
    #: while set; the account page clears it), and the server's words
    bounced_at: Mapped[dt.datetime | None] = mapped_column(UTCDateTime, nullable=True)
    bounce_reason: Mapped[str] = mapped_column(String(300), default="", server_default="")
    #: the language of the player's pages and mail (pbem.i18n; issue 16)
    language: Mapped[str] = mapped_column(String(8), default="en", server_default="en")
    #: True once the player chose ``language`` on the account page; until
    #: then the host's choice at the invitation, then the browser's
    #: Accept-Language at the first sign-in, may set it
    language_chosen: Mapped[bool] = mapped_column(Boolean, default=False, server_default=sa_false())
    #: the first sign-in (the browser's time zone is taken then); None: never
    first_signin_at: Mapped[dt.datetime | None] = mapped_column(UTCDateTime, nullable=True)
    #: days of absences that may move this player's deadlines in any 365 days (issue 25)
    absence_budget_days: Mapped[int] = mapped_column(Integer, default=28, server_default="28")
    #: the end of the player's last absence (None: none declared): a game's
    #: deadline looks for absences only when it is later (pbem.service.play.absences)
    away_until: Mapped[dt.datetime | None] = mapped_column(UTCDateTime, nullable=True)
    #: mail about table talk: "every" (one mail per quiet spell), "digest", "none" (issue 26)
    talk_mail: Mapped[str] = mapped_column(String(8), default="every", server_default="every")
    #: the calendar feed's random part (issue 25): the feed's secret link is an
    #: HMAC of it (pbem.service.core.secret_links); None: no feed; a new one revokes the old link
    calendar_nonce: Mapped[str | None] = mapped_column(String(32), nullable=True)
    #: the player registered an API webhook (issue 28): only then does a change of a game look them up
    api_webhooks: Mapped[bool] = mapped_column(Boolean, default=False, server_default=sa_false())
    created_at: Mapped[dt.datetime] = mapped_column(UTCDateTime, default=utcnow)

    seats: Mapped[list["Seat"]] = relationship(back_populates="player")

    def __repr__(self) -> str:
        return f"<Player {self.id} {self.email}>"


class Game(db.Model):
    """One game being played: its record, and the engine state snapshot.

    ``state`` is the engine's ``to_json()`` at ``step``; the action log in
    :class:`Move` replays to it from ``seed`` and ``options``. ``deadline_at``
    is when the current decision times out (``None`` when not running);
    ``reminder_step`` is the step whose reminder has gone out;
    ``paused_remaining`` holds the seconds left on the deadline while paused.
    """

    __tablename__ = "games"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(40))
    title: Mapped[str] = mapped_column(String(200), default="")
    options: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    seed: Mapped[int] = mapped_column(BigSeed)
    status: Mapped[str] = mapped_column(String(16), default=INVITED, index=True)
    host_id: Mapped[int | None] = mapped_column(ForeignKey("players.id"), nullable=True)
    deadline_seconds: Mapped[int] = mapped_column(Integer)
    reminder_seconds: Mapped[int] = mapped_column(Integer)
    timezone: Mapped[str] = mapped_column(String(64), default="UTC")
    state: Mapped[str | None] = mapped_column(Text, nullable=True)
    step: Mapped[int] = mapped_column(Integer, default=0)
    phase: Mapped[str] = mapped_column(String(200), default="")
    #: the phase as the engine worded it (``Msg.to_json()``), for pages in the
    #: reader's language; ``None``: only the English ``phase`` is known
    phase_msg: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    deadline_at: Mapped[dt.datetime | None] = mapped_column(UTCDateTime, nullable=True, index=True)
    reminder_step: Mapped[int | None] = mapped_column(Integer, nullable=True)
    paused_remaining: Mapped[int | None] = mapped_column(Integer, nullable=True)
    #: when the host notice waiting out its delay is due (UTC; ``None``:
    #: none waits): a resolution releases it early only then, so the
    #: common resolution sends no statement for it (issue 24)
    host_notice_due_at: Mapped[dt.datetime | None] = mapped_column(UTCDateTime, nullable=True)
    #: table talk the host allows: "full", "public" (to the whole table only), "none" (issue 26)
    talk: Mapped[str] = mapped_column(String(8), default="full", server_default="full")
    #: the game posts to a group chat (a ``game_channels`` row; issue 26): read with
    #: the game, so a turn of a game without one asks nothing more
    channel_on: Mapped[bool] = mapped_column(Boolean, default=False, server_default=sa_false())
    created_at: Mapped[dt.datetime] = mapped_column(UTCDateTime, default=utcnow)
    started_at: Mapped[dt.datetime | None] = mapped_column(UTCDateTime, nullable=True)
    finished_at: Mapped[dt.datetime | None] = mapped_column(UTCDateTime, nullable=True)
    #: issue 25: the most days absences may move this game's deadlines in all (the host's
    #: choice), the seconds they moved them so far, the late player's grace in hours
    #: (0: none), and the deadline before an absence moved it (None: not moved)
    absence_cap_days: Mapped[int] = mapped_column(Integer, default=14, server_default="14")
    absence_used_seconds: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    grace_hours: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    deadline_base_at: Mapped[dt.datetime | None] = mapped_column(UTCDateTime, nullable=True)
    #: the spectator link's random part (issue 25; None: not watchable; a new one revokes the old)
    spectator_nonce: Mapped[str | None] = mapped_column(String(32), nullable=True)
    #: spectators see the board one turn behind (the host's choice)
    spectator_delay: Mapped[bool] = mapped_column(Boolean, default=False, server_default=sa_false())
    #: issue 27 (docs/bots.md): a bot stands in for a seat after two missed deadlines in a row
    bot_takeover: Mapped[bool] = mapped_column(Boolean, default=True, server_default=sa_true())
    #: one person against bots with no deadline set: the game waits for the person
    person_paced: Mapped[bool] = mapped_column(Boolean, default=False, server_default=sa_false())
    updated_at: Mapped[dt.datetime] = mapped_column(UTCDateTime, default=utcnow, onupdate=utcnow)

    host: Mapped[Player | None] = relationship()
    seats: Mapped[list["Seat"]] = relationship(
        back_populates="game", order_by="Seat.index", cascade="all, delete-orphan")

    @property
    def phase_message(self) -> Any:
        """The phase as a :class:`~pbem.engine.messages.Msg` when the engine
        worded it so (``pbem.i18n.translate`` gives it in a language), else
        the stored English text."""
        from pbem.engine.messages import msg_from_json

        return msg_from_json(self.phase_msg) if self.phase_msg else self.phase

    def seat(self, index: int) -> "Seat":
        for s in self.seats:
            if s.index == index:
                return s
        raise KeyError(f"game {self.id} has no seat index {index}")

    def __repr__(self) -> str:
        return f"<Game {self.id} {self.kind} {self.status} step={self.step}>"


class Seat(db.Model):
    """A place at a game's table, held by a player.

    ``last_moved_step``: the state step after its last applied order (the
    turn notice shows the events since then). ``last_web_order_at`` (UTC):
    when its latest applied orders were sent from the web page (``None``:
    never), which tells a player at the table now from one who plays by
    mail (:func:`pbem.service.post.notify.notice_due`). The notices a seat was
    sent are the outbox's rows (``turn:<game>:<step>:<seat>``)."""

    __tablename__ = "seats"
    __table_args__ = (UniqueConstraint("game_id", "index"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    index: Mapped[int] = mapped_column(Integer)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"), index=True)
    joined: Mapped[bool] = mapped_column(Boolean, default=False)
    joined_at: Mapped[dt.datetime | None] = mapped_column(UTCDateTime, nullable=True)
    missed_turns: Mapped[int] = mapped_column(Integer, default=0)
    last_moved_step: Mapped[int] = mapped_column(Integer, default=0)
    last_web_order_at: Mapped[dt.datetime | None] = mapped_column(UTCDateTime, nullable=True)
    #: the step whose missed deadline gave this seat its one grace (issue 25); None: not yet
    grace_step: Mapped[int | None] = mapped_column(Integer, nullable=True)
    #: issue 27: the bot seated here ("standard"...; its player is the bot's reserved row), None: a person
    bot: Mapped[str | None] = mapped_column(String(16), nullable=True)
    #: a bot plays for the seat's person until they come back (take-over, or away past the cap)
    bot_standin: Mapped[bool] = mapped_column(Boolean, default=False, server_default=sa_false())

    game: Mapped[Game] = relationship(back_populates="seats")
    player: Mapped[Player] = relationship(back_populates="seats")

    @property
    def number(self) -> int:
        """The seat as players count it (index 0 is seat 1)."""
        return self.index + 1

    @property
    def bot_name(self) -> str | None:
        """The bot that makes this seat's decisions now: the seated bot, the
        standard bot while it stands in for the person, else None."""
        return self.bot or ("standard" if self.bot_standin else None)


class Move(db.Model):
    """The action log: one applied order. ``step`` is the state's step
    before it was applied, unique per game, so replaying the moves in step
    order from the seed gives the same game."""

    __tablename__ = "moves"
    __table_args__ = (UniqueConstraint("game_id", "step"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    step: Mapped[int] = mapped_column(Integer)
    seat_index: Mapped[int] = mapped_column(Integer)
    text: Mapped[str] = mapped_column(Text)
    source: Mapped[str] = mapped_column(String(16))
    created_at: Mapped[dt.datetime] = mapped_column(UTCDateTime, default=utcnow)


class GameEvent(db.Model):
    """One line of the game log. ``seat_index`` ``None``: public; otherwise
    only that seat may see it. ``step`` is the state step after the action
    that caused it."""

    __tablename__ = "game_events"
    __table_args__ = (Index("ix_game_events_game_step", "game_id", "step"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    step: Mapped[int] = mapped_column(Integer)
    seat_index: Mapped[int | None] = mapped_column(Integer, nullable=True)
    text: Mapped[str] = mapped_column(Text)
    kind: Mapped[str] = mapped_column(String(40), default="")
    data: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    created_at: Mapped[dt.datetime] = mapped_column(UTCDateTime, default=utcnow)

    def visible_to(self, seat: int | None) -> bool:
        return self.seat_index is None or self.seat_index == seat


class PendingOrder(db.Model):
    """A seat's validated orders waiting for resolution (one row per seat;
    a new submission on the same step replaces it). ``step`` is the state
    step they were made on; ``text`` holds one order per line."""

    __tablename__ = "pending_orders"
    __table_args__ = (UniqueConstraint("game_id", "seat_index"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    seat_index: Mapped[int] = mapped_column(Integer)
    step: Mapped[int] = mapped_column(Integer)
    text: Mapped[str] = mapped_column(Text)
    source: Mapped[str] = mapped_column(String(16))
    message_id: Mapped[str | None] = mapped_column(String(998), nullable=True)
    created_at: Mapped[dt.datetime] = mapped_column(UTCDateTime, default=utcnow)


#: How many seats of the game have orders stored. Deferred: read only where
#: asked for (:func:`pbem.service.core.snapshot.load_game` ``for_update``), in the
#: read right after the game's lock, so an order on a turn nobody has written
#: orders for yet needs no query of ``pending_orders``.
Game.pending_count = column_property(
    select(func.count(PendingOrder.id)).where(PendingOrder.game_id == Game.id)
    .correlate_except(PendingOrder).scalar_subquery(), deferred=True)


class HeldOrder(db.Model):
    """Order lines a seat sent before their decision came due (a game's
    :meth:`~pbem.engine.api.Game.hold_order` says which lines may be held):
    one row per seat, ``text`` one canonical line each, oldest first. The
    resolver applies each when its decision comes due
    (:mod:`pbem.service.play.held`); a new submission with held lines replaces
    them; dropped at the game's end."""

    __tablename__ = "held_orders"
    __table_args__ = (UniqueConstraint("game_id", "seat_index"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    seat_index: Mapped[int] = mapped_column(Integer)
    text: Mapped[str] = mapped_column(Text)
    source: Mapped[str] = mapped_column(String(16))
    created_at: Mapped[dt.datetime] = mapped_column(UTCDateTime, default=utcnow)


#: How many seats of the game hold orders for later decisions. Deferred
#: like ``pending_count``: read with the game's lock, so a resolution of a
#: game nobody holds orders in needs no query of ``held_orders``.
Game.held_count = column_property(
    select(func.count(HeldOrder.id)).where(HeldOrder.game_id == Game.id)
    .correlate_except(HeldOrder).scalar_subquery(), deferred=True)


class OutboxMessage(db.Model):
    """An email to send, written in the same transaction as the change it
    tells about. ``dedupe_key`` (unique) makes writing the same notice twice
    impossible; delivery retries with exponential backoff
    (``next_attempt_at``) and marks the row ``sent`` once.

    A turn notice is *deferred*: written with ``raw`` empty and ``step`` set
    (the game step it asks a move for), composed at delivery from the game
    as it then is, and marked ``superseded`` instead when the game has left
    that step by then (see :mod:`pbem.service.post.outbox`). Other mail is
    composed when written (``raw`` set, ``step`` empty)."""

    __tablename__ = "outbox"
    __table_args__ = (Index("ix_outbox_status_next", "status", "next_attempt_at"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int | None] = mapped_column(ForeignKey("games.id", ondelete="SET NULL"), nullable=True, index=True)
    seat_index: Mapped[int | None] = mapped_column(Integer, nullable=True)
    recipient: Mapped[str] = mapped_column(String(320))
    kind: Mapped[str] = mapped_column(String(40))
    subject: Mapped[str] = mapped_column(String(400), default="")
    raw: Mapped[bytes | None] = mapped_column(LargeBinary, nullable=True)
    step: Mapped[int | None] = mapped_column(Integer, nullable=True)
    dedupe_key: Mapped[str] = mapped_column(String(400), unique=True)
    status: Mapped[str] = mapped_column(String(16), default=OUT_PENDING)
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    next_attempt_at: Mapped[dt.datetime] = mapped_column(UTCDateTime, default=utcnow)
    claimed_at: Mapped[dt.datetime | None] = mapped_column(UTCDateTime, nullable=True)
    last_error: Mapped[str | None] = mapped_column(Text, nullable=True)
    created_at: Mapped[dt.datetime] = mapped_column(UTCDateTime, default=utcnow)
    sent_at: Mapped[dt.datetime | None] = mapped_column(UTCDateTime, nullable=True)


class InboundMessage(db.Model):
    """An inbound email seen by the pipeline, by Message-ID (unique), so the
    same message delivered twice is applied once. ``result`` is a short tag
    (``applied``, ``stored``, ``refused``, ``rejected``, ``ignored``)."""

    __tablename__ = "inbound_messages"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    message_id: Mapped[str] = mapped_column(String(998), unique=True)
    sender: Mapped[str] = mapped_column(String(320), default="")
    game_id: Mapped[int | None] = mapped_column(ForeignKey("games.id", ondelete="SET NULL"), nullable=True)
    seat_index: Mapped[int | None] = mapped_column(Integer, nullable=True)
    result: Mapped[str] = mapped_column(String(16), default="")
    detail: Mapped[str] = mapped_column(Text, default="")
    received_at: Mapped[dt.datetime] = mapped_column(UTCDateTime, default=utcnow)


class UsedToken(db.Model):
    """A single-use sign-in token's nonce, recorded when it is used."""

    __tablename__ = "used_tokens"
    nonce: Mapped[str] = mapped_column(String(128), primary_key=True)
    used_at: Mapped[dt.datetime] = mapped_column(UTCDateTime, default=utcnow)
    expires_at: Mapped[dt.datetime | None] = mapped_column(UTCDateTime, nullable=True)


class RateCount(db.Model):
    """One fixed window of one rate limit outside the pages
    (:mod:`pbem.service.core.ratelimit`): ``bucket`` names the limit, the
    window's length and a hash of the key (a sender address, say);
    ``window_start`` is the window's start in Unix seconds; ``hits`` the
    events counted in it. Every process counts in the same row (one
    ``pbem mail ingest`` process a mail); a row is deleted after
    ``expires_at``."""

    __tablename__ = "rate_counts"
    bucket: Mapped[str] = mapped_column(String(120), primary_key=True)
    window_start: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=False)
    hits: Mapped[int] = mapped_column(Integer, default=0)
    expires_at: Mapped[dt.datetime] = mapped_column(UTCDateTime, index=True)


from pbem.service.core import talk_models  # noqa: E402,F401  (issue 26: table talk, channels)
from pbem.service.core import api_models  # noqa: E402,F401  (issue 28: API tokens, idempotency keys)
from pbem.service.core import absence_rows  # noqa: E402,F401  (issue 25: absences)
