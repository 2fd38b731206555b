"""The host's seat tools: give a seat to another player, send an invitation
again (docs/service.md, "Host tools"; issues 22 and 29).

- :func:`replace_player`: the newcomer is *invited* to the seat: the seat
  is theirs to take (the game's pages, mail and deadlines address them), it
  counts as joined only when they accept it on the invitation page, and its
  turn notice goes out then (:func:`pbem.service.play.lifecycle.join_game`).
  The player who leaves gets one mail, in their own language, saying the
  host gave the seat to someone else; their old invitation page says so too.
- :func:`resend_invitation`: a fresh invitation to a seat whose player has
  never joined, in a game that waits for players or already runs. The
  first resend after the invitation is always allowed; after that one per
  :data:`RESEND_INTERVAL`. Never to an address that asked not to be invited.
"""
from __future__ import annotations

import datetime as dt

from sqlalchemy import func, select

from pbem.engine.messages import Msg
from pbem.i18n import translations
from pbem.mail import compose
from pbem.service.accounts.addresses import normalise_email
from pbem.service.core import queue
from pbem.service.core.db import db
from pbem.service.core.errors import ServiceError
from pbem.service.play import held
from pbem.service.post import notify
from pbem.service.post.send import send
from pbem.service.post.envelope import envelope, game_ref, lang_of
from pbem.service.play.lifecycle import (
    _host_game, _said, get_or_create_player, refuse_uninvitable, set_invitee_language,
)
from pbem.service.core.models import ACTIVE, INVITED, PAUSED, Game, GameEvent, OutboxMessage, Player, Seat, utcnow

#: the least time between two resent invitations to one seat (docs/service.md)
RESEND_INTERVAL = dt.timedelta(minutes=10)
#: outbox kind of the mail to a player whose seat the host gave away
SEAT_GIVEN = "seat_given"


def replace_player(game_id: int, seat_index: int, email: str, name: str = "", *,
                   timezone: str | None = None, language: str | None = None, by_player_id: int | None = None,
                   now: dt.datetime | None = None) -> Game:
    """The host gives seat ``seat_index`` to the player with ``email``
    (``name`` as the host typed it, see :func:`get_or_create_player`;
    ``language``: the host's choice for an address that has never signed
    in, :func:`set_invitee_language`). The missed-turn count starts again,
    orders held for the seat are dropped, every seat sees the change in the
    log; the newcomer gets an invitation and the leaving player one mail.
    Raises :class:`NotAllowed` (not the host), :class:`WrongStatus` (the
    game is over) and :class:`ServiceError` (the address already holds a
    seat of this game, or asked never to be invited)."""
    now = now or utcnow()
    game = _host_game(game_id, by_player_id, (INVITED, ACTIVE, PAUSED), "a {status} game keeps its players")
    seat = game.seat(seat_index)
    address = normalise_email(email)
    try:
        if seat.player.email == address:
            raise ServiceError(f"{address} already holds seat {seat.number}")
        if any(s.player.email == address for s in game.seats):
            raise ServiceError(f"{address} already holds another seat of this game")
        refuse_uninvitable([address])
    except ServiceError:
        db.session.rollback()
        raise
    before = seat.player
    newcomer = get_or_create_player(address, name, timezone or game.timezone)
    if newcomer.id != by_player_id:
        set_invitee_language(newcomer, language)
    if seat.bot and game.person_paced:   # a second person at a table of bots: deadlines again (issue 27)
        game.person_paced, game.reminder_step = False, None
        if game.status == ACTIVE:
            game.deadline_at = now + dt.timedelta(seconds=game.deadline_seconds)
    seat.player, seat.missed_turns, seat.last_web_order_at = newcomer, 0, None
    seat.bot, seat.bot_standin = None, False   # a person again, if a bot played the seat (issue 27)
    seat.joined, seat.joined_at = newcomer.id == by_player_id, now if newcomer.id == by_player_id else None
    held.drop_all(game.id, seat.index)  # orders sent ahead were the leaving player's
    db.session.add(GameEvent(game_id=game.id, step=game.step, seat_index=None, kind="replaced",
                             **_said(Msg("{name} took over seat {number} from {before}.", name=newcomer.name,
                                         number=seat.number, before=before.name))))
    db.session.flush()
    notify.invitation(game, seat, now=now, key_suffix=f":p{newcomer.id}")
    seat_given_notice(game, seat, before, now=now)
    db.session.commit()
    queue.enqueue(queue.DELIVER)
    return game


def seat_given_notice(game: Game, seat: Seat, before: Player, *, now: dt.datetime) -> None:
    """One mail to ``before``, in their language: the host gave their seat
    of ``game`` to someone else (nothing when their mail bounces)."""
    lang = lang_of(before)
    tr = translations(lang)
    env = envelope(game, None, now=now, tag=f"pbem.{game.id}.{seat.index}.given", to_name=before.name,
                           to_address=before.email, reply=False, lang=lang)
    host = game.host.name if game.host else "pbem"
    msg = compose.host_notice(env, game_ref(game), headline=tr.gettext("your seat has a new player"), paragraphs=[
        tr.gettext("{host} has given your seat {number} in this game to another player. You no longer play "
                   "in it, and pbem sends you no more mail about it.").format(host=host, number=seat.number),
        tr.gettext("If you think this is a mistake, write to {host}.").format(host=host),
    ])
    send(msg, kind=SEAT_GIVEN, player=before, dedupe_key=f"{SEAT_GIVEN}:{game.id}:{seat.index}:{before.id}:"
         f"{int(now.timestamp())}", game_id=game.id, seat_index=seat.index, now=now)


def gave_away(game: Game, seat: Seat, player: Player) -> bool:
    """Whether ``player`` once held ``seat`` and the host gave it to
    someone else (the mail of :func:`seat_given_notice` went to them)."""
    return db.session.scalar(select(func.count(OutboxMessage.id)).where(
        OutboxMessage.game_id == game.id, OutboxMessage.seat_index == seat.index,
        OutboxMessage.kind == SEAT_GIVEN, OutboxMessage.recipient == player.email)) > 0


def resend_invitation(game_id: int, seat_index: int, *, by_player_id: int | None = None,
                      now: dt.datetime | None = None) -> Game:
    """Send the seat's player a new invitation with a fresh sign-in link
    (the old one may have expired or been lost). Host only; for a seat
    whose player has never joined, in a game not over. Raises
    :class:`NotAllowed`, :class:`WrongStatus` (the game is over) and
    :class:`ServiceError` (the seat has joined, its player asked never to be
    invited, or the last resend went less than :data:`RESEND_INTERVAL` ago:
    the message says when the next one may go)."""
    now = now or utcnow()
    game = _host_game(game_id, by_player_id, (INVITED, ACTIVE, PAUSED),
                      "invitations are for a game not over; this one is {status}")
    seat = game.seat(seat_index)
    try:
        if seat.joined:
            raise ServiceError(f"{seat.player.name} has joined seat {seat.number} already")
        if seat.player.no_invites:
            raise ServiceError(f"{seat.player.email} asked not to be invited to games")
        resent = _check_interval(game, seat, now)
    except ServiceError:
        db.session.rollback()
        raise
    notify.invitation(game, seat, now=now, key_suffix=f":r{seat.player_id}.{resent + 1}")
    db.session.commit()
    queue.enqueue(queue.DELIVER)
    return game


def _check_interval(game: Game, seat: Seat, now: dt.datetime) -> int:
    """How many invitations were resent to the seat's player; raises
    :class:`ServiceError` when the last went less than
    :data:`RESEND_INTERVAL` ago (the first invitation does not count)."""
    sent = list(db.session.execute(select(OutboxMessage.created_at).where(
        OutboxMessage.game_id == game.id, OutboxMessage.seat_index == seat.index,
        OutboxMessage.kind == "invite", OutboxMessage.recipient == seat.player.email,
        OutboxMessage.dedupe_key.contains(":r", autoescape=True),
    ).order_by(OutboxMessage.created_at.desc())).scalars())
    if sent and now - sent[0] < RESEND_INTERVAL:
        wait = int((RESEND_INTERVAL - (now - sent[0])).total_seconds() // 60) + 1
        raise ServiceError(f"an invitation went to {seat.player.email} a moment ago; "
                           f"you can send another in {wait} min")
    return len(sent)


__all__ = ["RESEND_INTERVAL", "SEAT_GIVEN", "replace_player", "resend_invitation", "seat_given_notice", "gave_away"]
