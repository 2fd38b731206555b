"""Absences (issue 25): declaring them, and the deadline they move.

The rule itself is pure (:mod:`pbem.service.play.absence_rule`); this
module reads the rows it needs and writes what it decides:

- :func:`declare` / :func:`withdraw` write a player's absence and move the
  deadline of every running game it touches now (:func:`refresh_player`);
- :func:`settle` places a game's current deadline: ``games.deadline_at``
  is the one stored deadline that moves (the scan, the pages, the mail and
  the calendar feed all read it), ``games.deadline_base_at`` keeps the
  deadline before the move, and an ``absence_shifts`` row (one per game
  step) says how far it moved and whose budget paid.

Limits: a game's moves in all never exceed ``games.absence_cap_days``; a
player's moves in any 365 days never exceed ``players.absence_budget_days``;
at most :data:`MAX_PENDING` absences of a player wait (njudge's limit).
"""
from __future__ import annotations

import datetime as dt

from sqlalchemy import func, or_, select

from pbem.service.core.absence_rows import Absence, AbsenceShift
from pbem.service.core.db import begin_write, db
from pbem.service.core.errors import ServiceError
from pbem.service.core.models import ACTIVE, Game, PendingOrder, Player, Seat, utcnow
from pbem.service.play.absence_rule import Span, moved_deadline
from pbem.service.play.reminder_time import reminder_lead
from pbem.service.post import away_text

#: absences of one player not yet over, at most (njudge: 3 pending)
MAX_PENDING = 3
#: the longest absence one may declare
MAX_LENGTH = dt.timedelta(days=366)
YEAR = dt.timedelta(days=365)


class AbsenceError(ServiceError):
    """An absence refused; ``str(err)`` is an English sentence, ``code`` what
    was wrong (``order``: the end is not after the start, ``past``: it ended
    already, ``long``: longer than a year, ``many``: too many pending,
    ``game``: not a game of the player)."""

    def __init__(self, code: str, text: str):
        super().__init__(text)
        self.code = code


def pending(player_id: int, *, now: dt.datetime) -> list[Absence]:
    """The player's absences not over at ``now``, soonest first."""
    return list(db.session.execute(select(Absence).where(
        Absence.player_id == player_id, Absence.ends_at > now).order_by(Absence.starts_at, Absence.id)).scalars())


def declare(player_id: int, starts_at: dt.datetime, ends_at: dt.datetime, *, game_id: int | None = None,
            now: dt.datetime | None = None, bot_after_cap: bool = False) -> Absence:
    """Record that ``player_id`` is away from ``starts_at`` to ``ends_at``
    (aware UTC) in game ``game_id`` (None: every game), and move the
    deadlines it covers now. ``bot_after_cap``: a deadline the absence can
    no longer move (the cap or the budget used up) brings a bot that plays
    for the player (issue 27, :mod:`pbem.service.play.standin`). Raises
    :class:`AbsenceError`. Commits."""
    now = now or utcnow()
    begin_write()   # read, then write: take SQLite's write lock first (waits; an upgrade would fail)
    _check(player_id, starts_at, ends_at, game_id, now)
    absence = Absence(player_id=player_id, game_id=game_id, starts_at=starts_at, ends_at=ends_at, created_at=now,
                      bot_after_cap=bool(bot_after_cap))
    db.session.add(absence)
    db.session.flush()
    _mark_player(player_id)
    refresh_player(player_id, game_id=game_id, now=now)
    db.session.commit()
    return absence


def _check(player_id: int, starts_at: dt.datetime, ends_at: dt.datetime, game_id: int | None,
           now: dt.datetime) -> None:
    if ends_at <= starts_at:
        raise AbsenceError("order", "an absence must end after it starts")
    if ends_at <= now:
        raise AbsenceError("past", "this absence is over already")
    if ends_at - starts_at > MAX_LENGTH:
        raise AbsenceError("long", "an absence may last a year at most")
    if len(pending(player_id, now=now)) >= MAX_PENDING:
        raise AbsenceError("many", f"at most {MAX_PENDING} absences may wait at once; withdraw one first")
    if game_id is not None and db.session.scalar(select(Seat.id).where(
            Seat.game_id == game_id, Seat.player_id == player_id)) is None:
        raise AbsenceError("game", "you have no seat in this game")


def withdraw(player_id: int, absence_id: int, *, now: dt.datetime | None = None) -> bool:
    """Delete the player's absence ``absence_id`` (another player's: nothing
    happens) and place again the deadlines it moved. Returns whether one
    was deleted. Commits."""
    now = now or utcnow()
    begin_write()
    row = db.session.get(Absence, absence_id)
    if row is None or row.player_id != player_id:
        db.session.rollback()
        return False
    game_id = row.game_id
    db.session.delete(row)
    db.session.flush()
    _mark_player(player_id)
    refresh_player(player_id, game_id=game_id, now=now)
    db.session.commit()
    return True


def _mark_player(player_id: int) -> None:
    """Keep ``players.away_until`` the end of the player's last absence."""
    player = db.session.get(Player, player_id)
    player.away_until = db.session.scalar(select(func.max(Absence.ends_at)).where(Absence.player_id == player_id))


def refresh_player(player_id: int, *, game_id: int | None, now: dt.datetime) -> None:
    """Place again the current deadline of every running game of the
    player (only ``game_id`` when given), locking each game row."""
    query = select(Seat.game_id).join(Game, Game.id == Seat.game_id).where(
        Seat.player_id == player_id, Game.status == ACTIVE)
    if game_id is not None:
        query = query.where(Seat.game_id == game_id)
    for gid in sorted(set(db.session.execute(query).scalars())):
        game = db.session.execute(select(Game).where(Game.id == gid).with_for_update()).scalar_one()
        if game.deadline_at is not None:
            before = game.deadline_at
            settle(game, owing(game), now=now)
            _rearm_reminder(game, before, now)


def _rearm_reminder(game: Game, before: dt.datetime, now: dt.datetime) -> None:
    """A reminder already sent goes again before a deadline an absence
    moved later, as after an extension (when the reminder's lead still
    lies ahead)."""

    if game.deadline_at > before and game.deadline_at - reminder_lead(game.reminder_seconds,
                                                                      game.deadline_seconds) > now:
        game.reminder_step = None


def owing(game: Game) -> list[int]:
    """The seats the game waits for now: to move, and no orders stored."""
    from pbem.service.core.snapshot import engine_state

    have = set(db.session.execute(select(PendingOrder.seat_index).where(
        PendingOrder.game_id == game.id, PendingOrder.step == game.step)).scalars())
    return [s for s in engine_state(game).current_seats() if s not in have]


def settle(game: Game, seats, *, now: dt.datetime, new_step: bool = False) -> dt.datetime | None:
    """Place ``game``'s current deadline for the absences of the players
    at ``seats`` (the seats it waits for): from the deadline before any
    move (``deadline_base_at``, else ``deadline_at``), by the rule, the
    furthest any seat's absences take it, within what is left of the cap
    and of that player's budget. Writes ``deadline_at``,
    ``deadline_base_at``, ``absence_used_seconds`` and this step's
    ``absence_shifts`` row; returns the deadline. Does not commit.
    ``new_step``: the step has just begun (no shift row yet). A game none
    of whose waited-for players has an absence ending after the deadline
    (``players.away_until``) costs no query."""
    base = game.deadline_base_at or game.deadline_at
    if base is None:
        return None
    ids = [game.seat(s).player_id for s in seats
           if game.seat(s).player.away_until is not None and game.seat(s).player.away_until > base]
    if not ids and not game.deadline_base_at:
        return base
    shift = None if new_step else db.session.execute(select(AbsenceShift).where(
        AbsenceShift.game_id == game.id, AbsenceShift.step == game.step)).scalar_one_or_none()
    used = max(0, (game.absence_used_seconds or 0) - (shift.seconds if shift else 0))
    best, payer = base, None
    by_player = _spans(game, ids, base)
    if by_player:
        cap_left = dt.timedelta(days=game.absence_cap_days) - dt.timedelta(seconds=used)
        grace = dt.timedelta(hours=game.grace_hours)
        for index in sorted(seats):
            seat = game.seat(index)
            spans = by_player.get(seat.player_id)
            if not spans:
                continue
            left = budget_left(seat.player, now=now, skip=shift)
            moved = moved_deadline(base, spans, grace=grace, cap_left=cap_left, budget_left=left)
            if moved > best:
                best, payer = moved, seat
    best, payer = _keep_the_wait(game, shift, base, best, payer, now)
    _write(game, base, best, payer, shift, used, now)
    return best


def _keep_the_wait(game: Game, shift: AbsenceShift | None, base: dt.datetime, best: dt.datetime, payer,
                   now: dt.datetime) -> tuple[dt.datetime, Seat | None]:
    """``(deadline, payer)`` no earlier than ``now`` while a move of this
    step has already been waited through: the time the table waited past
    the base stays charged to the cap and the budget of whoever the move
    was charged to (an absence withdrawn, or orders sent, late refund
    none of it; else the same move could be had every turn)."""
    if shift is None or game.deadline_at is None or now <= base:
        return best, payer
    floor = min(game.deadline_at, now)
    if floor <= best:
        return best, payer
    return floor, game.seat(shift.seat_index)


def _spans(game: Game, player_ids: list[int], base: dt.datetime) -> dict[int, list[Span]]:
    """Player id -> the spans of their absences in ``game`` (or every
    game) that end after ``base`` and were declared before it (an absence
    declared once a deadline has passed never undoes the missed turn):
    one query."""
    if not player_ids:
        return {}
    rows = db.session.execute(select(Absence.player_id, Absence.starts_at, Absence.ends_at).where(
        Absence.player_id.in_(player_ids), Absence.ends_at > base, Absence.created_at < base,
        or_(Absence.game_id.is_(None), Absence.game_id == game.id))).all()
    out: dict[int, list[Span]] = {}
    for pid, start, end in rows:
        out.setdefault(pid, []).append(Span(start, end))
    return out


def _write(game: Game, base, best, payer, shift, used: int, now: dt.datetime) -> None:
    seconds = int((best - base).total_seconds())
    game.deadline_at = best
    game.deadline_base_at = base if seconds > 0 else None
    game.absence_used_seconds = used + seconds
    if seconds <= 0:
        if shift is not None:
            db.session.delete(shift)
        return
    if shift is None:
        db.session.add(AbsenceShift(game_id=game.id, step=game.step, seat_index=payer.index,
                                    player_id=payer.player_id, seconds=seconds, created_at=now))
    else:
        shift.seat_index, shift.player_id, shift.seconds = payer.index, payer.player_id, seconds


def budget_left(player: Player, *, now: dt.datetime, skip: AbsenceShift | None = None) -> dt.timedelta:
    """What is left of ``player``'s yearly budget: ``absence_budget_days``
    less every move charged to them in the 365 days before ``now`` (but
    ``skip``, the move being placed again)."""
    query = select(func.coalesce(func.sum(AbsenceShift.seconds), 0)).where(
        AbsenceShift.player_id == player.id, AbsenceShift.created_at > now - YEAR)
    if skip is not None:
        query = query.where(AbsenceShift.id != skip.id)
    spent = db.session.scalar(query) or 0
    return dt.timedelta(days=player.absence_budget_days or 0) - dt.timedelta(seconds=int(spent))


def cap_left(game: Game) -> dt.timedelta:
    """What is left of the game's cap (the host's page shows it)."""
    return max(dt.timedelta(0), dt.timedelta(days=game.absence_cap_days)
               - dt.timedelta(seconds=game.absence_used_seconds or 0))


def away_until(game: Game, *, now: dt.datetime) -> dict[int, dt.datetime]:
    """Seat index -> the end of its player's absence covering ``now`` (in
    this game or every game): what the other seats see ("away until …";
    :func:`pbem.service.post.away_text.away_ends`). Only the end: never
    where or why (there is no such field)."""
    return away_text.away_ends(game, now=now)
