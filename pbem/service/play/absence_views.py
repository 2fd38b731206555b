"""What the pages show and take of absences (issue 25): a player's own
absences (account page), the "away until …" of a game's seats and the
host's remaining cap (game page), and a declaration from a form's two days.

Only ends are shown to others: an absence has no where or why.
"""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from sqlalchemy import select

from pbem.service.core.absence_rows import Absence
from pbem.service.core.db import db
from pbem.service.core.models import Game, Player, utcnow
from pbem.service.play import absences
from pbem.service.play.away_line import local_days


@dataclass(frozen=True)
class OwnAbsence:
    """One of the player's absences not over: id, start, end (aware UTC),
    ``game_id`` (None: every game) and the game's title."""

    id: int
    start: dt.datetime
    end: dt.datetime
    game_id: int | None
    game_title: str


def own(player_id: int, *, now: dt.datetime | None = None) -> list[OwnAbsence]:
    """The player's absences not over yet, soonest first."""
    now = now or utcnow()
    rows = db.session.execute(select(Absence, Game.title).outerjoin(Game, Game.id == Absence.game_id).where(
        Absence.player_id == player_id, Absence.ends_at > now).order_by(Absence.starts_at, Absence.id)).all()
    return [OwnAbsence(a.id, a.starts_at, a.ends_at, a.game_id, title or "") for a, title in rows]


def _days(seconds: float) -> float | int:
    """Days to one decimal, a whole number without one (``28``, ``3.5``)."""
    days = round(max(0.0, seconds / 86400), 1)
    return int(days) if days == int(days) else days


def budget_days_left(player: Player, *, now: dt.datetime | None = None) -> float | int:
    """Days left of the player's yearly budget (one decimal at most)."""
    return _days(absences.budget_left(player, now=now or utcnow()).total_seconds())


def cap_days_left(game: Game) -> float | int:
    """Days left of the game's cap (one decimal at most; the host sees it)."""
    return _days(absences.cap_left(game).total_seconds())


def away_seats(game: Game, *, now: dt.datetime | None = None) -> dict[int, dt.datetime]:
    """Seat index -> end of the absence its player is in now (this game or all)."""
    return absences.away_until(game, now=now or utcnow())


def declare_days(player_id: int, first: str, last: str, zone: str, *, game_id: int | None = None,
                 now: dt.datetime | None = None, bot_after_cap: bool = False) -> Absence:
    """Declare an absence from the form's days ``first`` and ``last``
    (``YYYY-MM-DD``, the player's days in ``zone``). Raises
    :class:`pbem.service.play.absences.AbsenceError` (``date``: not a day)."""
    try:
        start, end = local_days(dt.date.fromisoformat(first.strip()), dt.date.fromisoformat(last.strip()), zone)
    except (ValueError, AttributeError, OverflowError):
        raise absences.AbsenceError("date", "please give the first and the last day as dates") from None
    return absences.declare(player_id, start, end, game_id=game_id, now=now, bot_after_cap=bot_after_cap)
