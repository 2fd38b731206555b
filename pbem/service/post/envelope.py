"""The envelope of every notice and its way into the outbox.

:func:`envelope` is the one place a notice's headers are built (the
recipient, reply address, thread, List-Id, one-click unsubscribe, time zone
and language); :func:`queue_notice` sends a composed notice to a seat's player
(:func:`pbem.service.post.send.send`: after their mail preferences, sent,
held for the digest, or dropped).
"""
from __future__ import annotations

import datetime as dt
from typing import Sequence

from flask import current_app

from pbem.i18n import pick_language
from pbem.mail import compose
from pbem.service.core import links
from pbem.service.core.models import Game, Player, Seat
from pbem.service.post.send import send


def _timezone(game: Game, seat: Seat) -> str:
    return seat.player.timezone or game.timezone


def lang_of(player) -> str:
    """The language ``player``'s mail is written in (``players.language``;
    for a player not seen yet, the one the host chose); English without one."""
    return pick_language(getattr(player, "language", None))


def envelope(game: Game | None, seat: Seat | None, *, now: dt.datetime, tag: str,
              to_name: str | None = None, to_address: str | None = None, reply: bool = True,
              in_reply_to: str | None = None, references: Sequence[str] = (),
              lang: str | None = None, player: Player | None = None) -> compose.Envelope:
    """Headers of a mail to ``seat`` about ``game``: the seat's thread root
    and the game's List-Id, and, for the seat's own player, one-click
    unsubscribe and the preferences link (docs/mail.md). ``lang``: the
    recipient's language (default: the seat's player's). Without a seat,
    ``player`` is the recipient (a digest, a sign-in link, an answer about
    no game): their name, address, time zone and language, and their
    unsubscribe and preferences links when the mail goes to their own
    address (``to_address`` not given)."""
    cfg = current_app.config
    seated = game is not None and seat is not None
    who = seat.player if seat is not None else player
    own = to_address is None and who is not None and (seated or player is not None)
    return compose.Envelope(
        sender=cfg["MAIL_FROM"],
        to_name=to_name if to_name is not None else who.name,
        to_address=to_address or who.email,
        reply_to=links.reply_address(game.id, seat.index, seat.player.id if seat.player else None)
        if (reply and seated) else None,
        inbound_address=cfg["INBOUND_ADDRESS"],
        timezone=_timezone(game, seat) if seated else _own_timezone(player),
        locale=lang or lang_of(who),
        sent_at=now, msgid_tag=tag, in_reply_to=in_reply_to, references=tuple(references),
        thread_root=links.thread_root(game.id, seat.index) if seated else None,
        list_id=links.list_id(game.id, game.title) if game is not None else None,
        unsubscribe_url=links.unsubscribe_url(who.id) if own else None,
        preferences_url=links.preferences_url(who.id) if own else None)


def _own_timezone(player: Player | None) -> str:
    """A player's own time zone, else the service's default."""
    return (player.timezone if player is not None else None) or current_app.config["DEFAULT_TIMEZONE"]


def game_ref(game: Game) -> compose.GameRef:
    return compose.GameRef(game.title, game.id, links.absolute(links.game_path(game.id)))


def queue_notice(game: Game, seat: Seat | None, msg, kind: str, key: str, now: dt.datetime, *,
           about_you: bool = True, due_at: dt.datetime | None = None) -> None:
    """Queue ``msg`` unless the seat's player does not want this ``kind``
    (:func:`pbem.service.post.mailprefs.route`): dropped, or held for the digest.
    ``due_at`` (UTC): not sent before then (unless held)."""
    send(msg, kind=kind, dedupe_key=key, player=seat.player if seat is not None else None, now=now,
         game_id=game.id if game else None, seat_index=seat.index if seat else None, about_you=about_you,
         due_at=due_at)
