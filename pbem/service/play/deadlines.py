"""The periodic scan: passed deadlines, due reminders, turns left ready.

Run by Celery beat every minute (:data:`pbem.service.celery_app.SCAN_EVERY`).
Deadlines live in the database (``games.deadline_at``), never in long ETA
tasks, so extending a deadline, pausing, or restarting every process never
loses or doubles a turn: the scan only acts on what the rows say now, and
each action claims its turn (see :mod:`pbem.service.play.resolve`).
"""
from __future__ import annotations

import datetime as dt
import logging
from dataclasses import dataclass, field

from sqlalchemy import select, update

from pbem.service.core import queue
from pbem.service.core.db import db
from pbem.service.core.models import ACTIVE, Game, PendingOrder, utcnow
from pbem.service.core.snapshot import engine_state, load_game
from pbem.service.play.reminder_time import reminder_lead
from pbem.service.play.resolve import resolve_game
from pbem.service.post import notify

log = logging.getLogger(__name__)


@dataclass
class ScanReport:
    expired: list[int] = field(default_factory=list)
    reminded: list[int] = field(default_factory=list)
    ready: list[int] = field(default_factory=list)


def send_reminder(game_id: int, *, now: dt.datetime | None = None) -> bool:
    """Remind the seats whose orders are not in, once per step and deadline.
    Claims with ``UPDATE ... WHERE reminder_step IS NULL``. Returns whether
    reminders were written."""
    now = now or utcnow()
    game = load_game(game_id, for_update=True)
    if game.status != ACTIVE or game.deadline_at is None or game.reminder_step is not None:
        db.session.rollback()
        return False
    claimed = db.session.execute(
        update(Game).where(Game.id == game.id, Game.step == game.step, Game.reminder_step.is_(None))
        .values(reminder_step=game.step).execution_options(synchronize_session=False)).rowcount
    if claimed != 1:
        db.session.rollback()
        return False
    state = engine_state(game)
    have = set(db.session.execute(select(PendingOrder.seat_index).where(
        PendingOrder.game_id == game.id, PendingOrder.step == game.step)).scalars())
    for index in state.current_seats():
        if index not in have:
            notify.reminder(game, state, game.seat(index), now=now)
    db.session.commit()
    return True


def scan(*, now: dt.datetime | None = None) -> ScanReport:
    """One pass: resolve games whose deadline has passed (defaults for the
    missing seats), send due reminders, and resolve games whose orders are
    all in but whose resolve task never ran (broker down). Each game is its
    own transaction; one failing game does not stop the others."""
    now = now or utcnow()
    report = ScanReport()
    expired = list(db.session.execute(select(Game.id).where(
        Game.status == ACTIVE, Game.deadline_at <= now)).scalars())
    due = list(db.session.execute(select(Game.id, Game.deadline_at, Game.reminder_seconds, Game.deadline_seconds).where(
        Game.status == ACTIVE, Game.deadline_at > now, Game.reminder_step.is_(None))).all())
    ready_candidates = list(db.session.execute(
        select(PendingOrder.game_id).join(Game, Game.id == PendingOrder.game_id)
        .where(Game.status == ACTIVE, PendingOrder.step == Game.step).distinct()).scalars())
    db.session.commit()
    for game_id in expired:
        try:
            if resolve_game(game_id, now=now, expired=True).status == "resolved":
                report.expired.append(game_id)
        except Exception:
            db.session.rollback()
            log.exception("deadline of game %s", game_id)
    for game_id, deadline_at, reminder_seconds, deadline_seconds in due:
        if reminder_seconds > 0 and deadline_at - reminder_lead(reminder_seconds, deadline_seconds) <= now:
            try:
                if send_reminder(game_id, now=now):
                    report.reminded.append(game_id)
            except Exception:
                db.session.rollback()
                log.exception("reminder of game %s", game_id)
    for game_id in ready_candidates:
        if game_id in report.expired:
            continue
        try:
            if resolve_game(game_id, now=now).status == "resolved":
                report.ready.append(game_id)
        except Exception:
            db.session.rollback()
            log.exception("resolving game %s", game_id)
    if report.reminded:
        queue.enqueue(queue.DELIVER)
    _bots_safety_net(now)
    return report


def _bots_safety_net(now: dt.datetime) -> None:
    """A bot run for each running game with a bot seat that has been quiet
    for a while (:func:`pbem.service.play.bot_turns.stalled_games`): a run
    lost with its worker is made again; one that finds nothing owed does nothing."""
    from pbem.service.play.bot_turns import stalled_games

    games = stalled_games(now)
    db.session.commit()
    for game_id in games:
        try:
            queue.enqueue(queue.BOTS, game_id)
        except Exception:   # eager mode runs the task here: one game never stops the scan
            db.session.rollback()
            log.exception("bot run of game %s", game_id)
