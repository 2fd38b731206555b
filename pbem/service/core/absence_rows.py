"""The tables of absences (issue 25): what a player declared, and what it
moved. The rule is :mod:`pbem.service.play.absence_rule`; writing and
applying them :mod:`pbem.service.play.absences`.

There is no field for where or why: an absence is a player, an optional
game, a start and an end, nothing else (docs/long-games.md).
"""
from __future__ import annotations

import datetime as dt

from sqlalchemy import Boolean, ForeignKey, Index, Integer, UniqueConstraint
from sqlalchemy import false as sa_false
from sqlalchemy.orm import Mapped, mapped_column

from pbem.service.core.db import db
from pbem.service.core.columns import UTCDateTime, utcnow


class Absence(db.Model):
    """A player away from ``starts_at`` (inclusive) to ``ends_at``
    (exclusive), UTC. ``game_id`` None: every game of the player."""

    __tablename__ = "absences"
    __table_args__ = (Index("ix_absences_player_end", "player_id", "ends_at"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"))
    game_id: Mapped[int | None] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), nullable=True)
    starts_at: Mapped[dt.datetime] = mapped_column(UTCDateTime)
    ends_at: Mapped[dt.datetime] = mapped_column(UTCDateTime)
    #: the player's choice: once the game's cap (or their budget) no longer moves a
    #: deadline, a bot plays for them instead of the default order (issue 27)
    bot_after_cap: Mapped[bool] = mapped_column(Boolean, default=False, server_default=sa_false())
    created_at: Mapped[dt.datetime] = mapped_column(UTCDateTime, default=utcnow)


class AbsenceShift(db.Model):
    """How far an absence moved the deadline of one step of a game
    (``seconds``), charged to ``player_id``'s yearly budget and to the
    game's cap. One row per game step at most: moving again replaces it."""

    __tablename__ = "absence_shifts"
    __table_args__ = (UniqueConstraint("game_id", "step"), Index("ix_absence_shifts_player", "player_id", "created_at"))
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    step: Mapped[int] = mapped_column(Integer)
    seat_index: Mapped[int] = mapped_column(Integer)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"))
    seconds: Mapped[int] = mapped_column(Integer)
    created_at: Mapped[dt.datetime] = mapped_column(UTCDateTime, default=utcnow)
