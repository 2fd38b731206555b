"""A game's life: create, join, start, pause, resume, extend the deadline.

Every function commits its own transaction (with the outbox rows it writes)
and then enqueues outbox delivery. Times are UTC; ``now`` may be injected.
"""
from __future__ import annotations

import datetime as dt
import secrets
from dataclasses import dataclass
from typing import Any, Sequence

from flask import current_app
from sqlalchemy import select

from pbem.engine import get_game
from pbem.engine.messages import Msg
from pbem.i18n import msg_json, stored_event_data
from pbem.service.accounts.addresses import normalise_email
from pbem.service.accounts.bot_players import bot_player
from pbem.service.accounts.players import check_timezone, get_or_create_player, set_invitee_language
from pbem.service.core import queue
from pbem.service.core.bots import BOT_NAMES, has_bots
from pbem.service.core.db import begin_write, db
from pbem.service.core.errors import NotAllowed, ServiceError, WrongStatus
from pbem.service.play import absences, held
from pbem.service.play.reminder_time import reminder_lead
from pbem.service.post import host_notice, notify
from pbem.service.core.models import (
    ACTIVE, CANCELLED, FINISHED, INVITED, PAUSED, Game, GameEvent, Player, Seat, utcnow,
)
from pbem.service.core.snapshot import engine_state, load_game


@dataclass(frozen=True)
class SeatSpec:
    """A seat to create: who sits there; ``language``: the host's choice
    of the invitee's language (``"fi"``; None: leave it), see
    :func:`pbem.service.accounts.players.set_invitee_language`; ``bot``: the
    bot seated here instead of a person (``"standard"``, ``"greedy"``,
    ``"random"``; ``email`` is then ignored; issue 27)."""

    email: str = ""
    name: str = ""
    timezone: str | None = None
    language: str | None = None
    bot: str | None = None


def _said(msg: Msg) -> dict[str, Any]:
    """A game log line's ``text`` and ``data`` keeping its message, so
    pages and mail show it in the reader's language (:func:`pbem.i18n.event_text`)."""
    return {"text": str(msg), "data": stored_event_data(msg, None)}


#: secret random bits in every new game's seed (issue #12: 48 were brute-forced)
SEED_BITS = 128


def new_seed() -> int:
    """A fresh game seed: :data:`SEED_BITS` secret random bits with bit 128
    set on top, so every new seed is at least ``2**128`` and the engines use
    their full-seed generator (seeds below ``2**64`` are the old games')."""
    return (1 << SEED_BITS) | secrets.randbits(SEED_BITS)


def refuse_uninvitable(emails: Sequence[str], host_email: str = "") -> None:
    """Raise :class:`ServiceError` when one of ``emails`` (normalised) has
    said "never invite me again" (docs/web.md, "Mail preferences"); the
    host's own address is never an invitation."""
    host = normalise_email(host_email) if host_email else ""
    asked = [e for e in emails if e != host]
    if not asked:
        return
    refusing = db.session.execute(select(Player.email).where(
        Player.email.in_(asked), Player.no_invites.is_(True))).scalars().all()
    if refusing:
        raise ServiceError(f"{', '.join(sorted(refusing))} asked not to be invited to games")


#: the host's limits on the absence cap (days) and the late player's grace (hours)
MAX_CAP_DAYS, MAX_GRACE_HOURS = 60, 168


def create_game(kind: str, host_email: str, seats: Sequence[SeatSpec | tuple[str, str] | dict],
                *, options: dict[str, Any] | None = None, deadline_seconds: int | None = None,
                reminder_seconds: int | None = None, timezone: str | None = None,
                seed: int | None = None, title: str = "", now: dt.datetime | None = None,
                absence_cap_days: int = 14, grace_hours: int = 0, bot_takeover: bool = True) -> Game:
    """Create a game of ``kind`` with the given seats (in seat order) and email the
    invitations (sign-in links); the host's own seat, if any, is joined at once. Raises
    :class:`ServiceError` for an unknown game, a bad seat count or option, a bad address or
    time zone, an address that asked never to be invited, or one address at two seats.
    ``absence_cap_days`` (0-:data:`MAX_CAP_DAYS`): the most days absences may move the
    game's deadlines in all; ``grace_hours`` (0-:data:`MAX_GRACE_HOURS`, 0: none): the late
    player's one grace (issue 25, docs/long-games.md). A seat may be a bot (``SeatSpec.bot``),
    but a game needs one person; one person against bots with no ``deadline_seconds`` plays
    at the person's pace (no deadline); ``bot_takeover``: a bot stands in for a seat that
    missed two deadlines in a row (issue 27, docs/bots.md)."""
    now = now or utcnow()
    engine = _engine(kind)
    specs = [s if isinstance(s, SeatSpec) else
             SeatSpec(**s) if isinstance(s, dict) else SeatSpec(email=s[1], name=s[0]) for s in seats]
    options, seed = _checked_setup(engine, specs, host_email, options, seed)
    paced = deadline_seconds is None and sum(1 for s in specs if not s.bot) == 1
    deadline_seconds = int(deadline_seconds or current_app.config["DEADLINE_SECONDS"])
    if deadline_seconds < 60:
        raise ServiceError("a deadline must be at least a minute")
    if reminder_seconds is None:
        reminder_seconds = current_app.config["REMINDER_SECONDS"]
    if not (0 <= int(absence_cap_days) <= MAX_CAP_DAYS and 0 <= int(grace_hours) <= MAX_GRACE_HOURS):
        raise ServiceError(f"the absence cap is 0 to {MAX_CAP_DAYS} days, the grace 0 to {MAX_GRACE_HOURS} hours")
    timezone = check_timezone(timezone or current_app.config["DEFAULT_TIMEZONE"])

    begin_write()
    host_spec = next((s for s in specs if not s.bot and normalise_email(s.email) == normalise_email(host_email)),
                     None)
    host = get_or_create_player(host_email, host_spec.name if host_spec else "",
                                (host_spec.timezone if host_spec else None) or timezone)
    game = Game(kind=kind, title=title or engine.title, options=options, seed=seed, status=INVITED,
                host=host, deadline_seconds=deadline_seconds, reminder_seconds=int(reminder_seconds),
                timezone=timezone, step=0, created_at=now, updated_at=now,
                absence_cap_days=int(absence_cap_days), grace_hours=int(grace_hours),
                bot_takeover=bool(bot_takeover), person_paced=paced and any(s.bot for s in specs))
    db.session.add(game)
    _seat_players(game, specs, host, timezone, now)
    db.session.add(GameEvent(game_id=game.id, step=0, seat_index=None, kind="created",
                             **_said(Msg("{name} created the game for {count} seats.", name=host.name,
                                         count=len(specs)))))
    db.session.commit()
    if all(s.joined for s in game.seats):
        return start_game(game.id, now=now)
    queue.enqueue(queue.DELIVER)
    return game


def _engine(kind: str):
    """The engine of ``kind``; raises :class:`ServiceError` for an unknown game."""
    try:
        return get_game(kind)
    except KeyError as err:
        raise ServiceError(str(err.args[0])) from None


def _checked_setup(engine, specs: list[SeatSpec], host_email: str, options: dict[str, Any] | None,
                   seed: int | None) -> tuple[dict[str, Any], int]:
    """The game's checked options and its seed (a new one when ``None``).
    Raises :class:`ServiceError` for a bad seat count or option (the
    engine's sentence, a ``Msg``, kept for the host's language), one address
    at two seats, an address that asked never to be invited, or what only
    the engine's setup knows."""
    try:
        options = engine.check_settings(len(specs), options)
    except ValueError as err:
        raise ServiceError(err.args[0]) from None
    _check_bots(specs)
    emails = [normalise_email(s.email) for s in specs if not s.bot]
    if len(set(emails)) != len(emails):
        raise ServiceError("each seat needs its own email address")
    refuse_uninvitable(emails, host_email)
    seed = new_seed() if seed is None else int(seed)
    try:
        engine.new_state(len(specs), seed, **options)
    except ValueError as err:
        raise ServiceError(str(err)) from None
    return options, seed


def _check_bots(specs: list[SeatSpec]) -> None:
    """:class:`ServiceError` for an unknown bot or a table of bots alone."""
    for spec in specs:
        if spec.bot and spec.bot not in BOT_NAMES:
            raise ServiceError(f"unknown bot {spec.bot!r}; known: {', '.join(BOT_NAMES)}")
    if all(s.bot for s in specs):
        raise ServiceError(Msg("A game needs at least one person."))


def _seat_players(game: Game, specs: list[SeatSpec], host: Player, timezone: str, now: dt.datetime) -> None:
    """A seat per spec, in order (the host's own seat and bots joined at
    once), and the invitations of the others (sign-in links)."""
    for index, spec in enumerate(specs):
        if spec.bot:
            db.session.add(Seat(game=game, index=index, player=bot_player(spec.bot), bot=spec.bot,
                                joined=True, joined_at=now))
            continue
        player = get_or_create_player(spec.email, spec.name, spec.timezone or timezone)
        if player.id != host.id:
            set_invitee_language(player, spec.language)
        db.session.add(Seat(game=game, index=index, player=player, joined=player.id == host.id,
                            joined_at=now if player.id == host.id else None))
    db.session.flush()
    for seat in game.seats:
        if not seat.joined:
            notify.invitation(game, seat, now=now)


def join_game(game_id: int, seat_index: int, *, player_id: int | None = None,
              now: dt.datetime | None = None) -> Game:
    """The seat's player accepts the invitation; the game starts when every
    seat has joined. ``player_id``, when given, must hold the seat
    (:class:`NotAllowed`). Joining twice is harmless."""
    now = now or utcnow()
    game = load_game(game_id, for_update=True)
    seat = game.seat(seat_index)
    if player_id is not None and seat.player_id != player_id:
        db.session.rollback()
        raise NotAllowed("this seat belongs to someone else")
    told = False
    if not seat.joined:
        seat.joined, seat.joined_at = True, now
        db.session.add(GameEvent(game_id=game.id, step=game.step, seat_index=None, kind="joined",
                                 **_said(Msg("{name} took seat {number}.", name=seat.player.name,
                                             number=seat.number))))
        if game.status in (ACTIVE, PAUSED) and game.state is not None:
            # a seat given to a newcomer in a running game: its turn notice goes once accepted
            state = engine_state(game)
            if seat.index in state.current_seats():
                told = notify.turn_notice(game, state, seat, now=now, key_suffix=f":p{seat.player_id}")
    everyone = all(s.joined for s in game.seats)
    db.session.commit()
    if told:
        queue.enqueue(queue.DELIVER)
    if everyone and game.status == INVITED:
        return start_game(game_id, now=now)
    return game


def _check_host(game: Game, by_player_id: int | None) -> None:
    if by_player_id is not None and game.host_id != by_player_id:
        db.session.rollback()
        raise NotAllowed("only the host can do this")


def _host_game(game_id: int, by_player_id: int | None, statuses, refusal: str) -> Game:
    """The game, locked for update, for a host action: :class:`NotAllowed`
    for anyone but the host, :class:`WrongStatus` (``refusal``, with
    ``{status}`` filled in) unless its status is one of ``statuses``; the
    transaction is rolled back on either."""
    game = load_game(game_id, for_update=True)
    _check_host(game, by_player_id)
    if game.status not in statuses:
        db.session.rollback()
        raise WrongStatus(refusal.format(status=game.status))
    return game


def start_game(game_id: int, *, by_player_id: int | None = None, now: dt.datetime | None = None) -> Game:
    """Set the game up and send the first turn notices. The host may start
    before every seat has joined. Starting a started game is harmless."""
    now = now or utcnow()
    game = load_game(game_id, for_update=True)
    _check_host(game, by_player_id)
    if game.status != INVITED:
        db.session.rollback()
        return game
    engine = get_game(game.kind)
    state = engine.new_state(len(game.seats), game.seed, **game.options)
    game.state = state.to_json()
    game.step = state.step
    game.phase = state.phase()
    game.phase_msg = msg_json(game.phase)
    game.status = ACTIVE
    game.started_at = now
    game.deadline_at = None if game.person_paced else now + dt.timedelta(seconds=game.deadline_seconds)
    game.reminder_step = None
    for seat in game.seats:
        seat.last_moved_step = state.step
    absences.settle(game, state.current_seats(), now=now, new_step=True)
    db.session.add(GameEvent(game_id=game.id, step=state.step, seat_index=None, kind="started",
                             **_said(Msg("The game has started: {phase}.", phase=state.phase()))))
    db.session.flush()
    notify.after_change(game, state, now=now)
    # read before the commit: after it the rows are expired, and reading them
    # would leave a read transaction open in the caller's session (SQLite:
    # an old snapshot that misses what other requests commit)
    bots = has_bots(game)
    db.session.commit()
    queue.enqueue(queue.DELIVER)
    if bots:
        queue.enqueue(queue.BOTS, game_id)
    return game


def pause_game(game_id: int, *, by_player_id: int | None = None, now: dt.datetime | None = None) -> Game:
    """Stop the clock: the remaining deadline time is kept and no deadline
    or reminder fires until :func:`resume_game`. Orders are refused while
    paused."""
    now = now or utcnow()
    game = _host_game(game_id, by_player_id, (ACTIVE,),
                      "only a running game can be paused; this one is {status}")
    remaining = max(0, int((game.deadline_at - now).total_seconds())) if game.deadline_at else game.deadline_seconds
    game.status, game.paused_remaining, game.deadline_at = PAUSED, remaining, None
    game.deadline_base_at = None  # placed again when it resumes
    db.session.add(GameEvent(game_id=game.id, step=game.step, seat_index=None, kind="paused",
                             **_said(Msg("The host paused the game."))))
    host_notice.tell(game, "paused", now=now)
    db.session.commit()
    queue.enqueue(queue.DELIVER)
    return game


def resume_game(game_id: int, *, by_player_id: int | None = None, now: dt.datetime | None = None) -> Game:
    """Restart the clock with the time that was left when paused (at least
    an hour, so nobody is surprised by an instant deadline)."""
    now = now or utcnow()
    game = _host_game(game_id, by_player_id, (PAUSED,),
                      "only a paused game can be resumed; this one is {status}")
    remaining = max(game.paused_remaining or 0, min(3600, game.deadline_seconds))
    game.status, game.paused_remaining = ACTIVE, None
    if not game.person_paced:   # one person against bots: no deadline (issue 27)
        game.deadline_at = now + dt.timedelta(seconds=remaining)
        absences.settle(game, absences.owing(game), now=now)
        _rearm_reminder(game, now)
    db.session.add(GameEvent(game_id=game.id, step=game.step, seat_index=None, kind="resumed",
                             **_said(Msg("The host resumed the game."))))
    host_notice.tell(game, "resumed", now=now)
    bots = has_bots(game)   # before the commit (see start_game)
    db.session.commit()
    queue.enqueue(queue.DELIVER)
    if bots:
        queue.enqueue(queue.BOTS, game_id)
    return game


def _rearm_reminder(game: Game, now: dt.datetime) -> None:
    """A reminder already sent is due again when the new deadline leaves
    more than the reminder's lead (:func:`pbem.service.play.reminder_time.reminder_lead`:
    never in the first half of a turn) after ``now``."""
    if game.deadline_at - reminder_lead(game.reminder_seconds, game.deadline_seconds) > now:
        game.reminder_step = None


def extend_deadline(game_id: int, seconds: int, *, by_player_id: int | None = None,
                    now: dt.datetime | None = None) -> Game:
    """Move the current deadline ``seconds`` later (a paused game keeps the
    extra time for when it resumes). A reminder already sent is sent again
    before the new deadline."""
    now = now or utcnow()
    if seconds <= 0:
        raise ServiceError("an extension must be a positive number of seconds")
    game = load_game(game_id, for_update=True)
    _check_host(game, by_player_id)
    if game.status == PAUSED:
        game.paused_remaining = (game.paused_remaining or 0) + seconds
    elif game.status == ACTIVE and game.deadline_at is not None:
        game.deadline_at = game.deadline_at + dt.timedelta(seconds=seconds)
        if game.deadline_base_at is not None:  # an absence had moved it: both move on
            game.deadline_base_at = game.deadline_base_at + dt.timedelta(seconds=seconds)
        _rearm_reminder(game, now)
    else:
        db.session.rollback()
        raise WrongStatus(f"a {game.status} game has no deadline to extend")
    hours = seconds / 3600
    db.session.add(GameEvent(game_id=game.id, step=game.step, seat_index=None, kind="extended",
                             **_said(Msg("The host extended the deadline by {hours} h.", hours=f"{hours:g}"))))
    host_notice.tell(game, "extended", now=now)
    db.session.commit()
    queue.enqueue(queue.DELIVER)
    return game


def cancel_game(game_id: int, *, by_player_id: int | None = None, now: dt.datetime | None = None) -> Game:
    """End the game without scores: its status becomes :data:`CANCELLED`,
    the clock stops for good (no deadline or reminder fires, turn notices
    not yet sent are superseded, orders are refused), and every seat is told
    once. Host only; any game not over (:class:`WrongStatus` otherwise)."""
    now = now or utcnow()
    game = _host_game(game_id, by_player_id, (INVITED, ACTIVE, PAUSED), "this game is {status} already")
    game.status, game.deadline_at, game.paused_remaining = CANCELLED, None, None
    game.finished_at = now
    game.updated_at = now
    held.drop_all(game.id)
    db.session.add(GameEvent(game_id=game.id, step=game.step, seat_index=None, kind="cancelled",
                             **_said(Msg("The host cancelled the game."))))
    host_notice.tell(game, "cancelled", now=now)
    db.session.commit()
    queue.enqueue(queue.DELIVER)
    return game


__all__ = ["SeatSpec", "CANCELLED", "cancel_game", "create_game", "join_game", "start_game", "pause_game", "resume_game",
           "extend_deadline", "engine_state"]
