"""Which mail a player gets: their notification preference, "never invite
me again", and a hard-bounced address (issue 13; docs/web.md "Mail
preferences").

``Player.notify_mode`` (:data:`pbem.service.core.models.NOTIFY_MODES`):

- ``every``: every notice (the default);
- ``my_turn``: only mail that asks the player to act or is about them: turn
  notices, reminders, their own missed turn, invitations, the final scores;
  what one-click unsubscribe sets (with ``no_invites``), issue 29;
- ``digest``: the other notices of ``every`` kept and sent as one mail a day
  at ``digest_hour`` in the player's time zone;
- ``none``: no game mail at all, turn mail included; only the player's own
  choice on the preferences page sets it, and the game pages show the seat
  "gets no turn mail".

Turn mail (:data:`TURN`: "your move", reminders, the game's end) and
invitations go at once in every mode but ``none``: a seat never stops
getting its turns without the player saying so. ``no_invites`` ("never
invite me again") drops invitations whatever the mode.

Answers to the player's own mail (confirmations, refusals) and sign-in
links they ask for always go: they are the reply to something the player
did. Nothing goes to an address that bounced hard (``bounced_at``) until the
player says on their account page that it works again, with one exception
(:data:`ASKED_NOW`): a sign-in link asked for right now on the sign-in page.
Whoever asks is at the keyboard waiting for it, and a sign-in is the way to
the page where they say the address works again (a real service sends a
password reset to the address it is asked to, bounced or not).

Table talk mail (``talk``, issue 26) follows its own choice,
``Player.talk_mail``: ``every`` (sent), ``digest`` (held for the daily
digest) or ``none`` (dropped); a game's chat channel posts (``channel``)
go to no player and are always written.

The daily digest itself (``digest``) goes unless the address bounced
since its notices were held. Every kind goes through :func:`route` when it
is queued (:func:`pbem.service.post.send.send`, the one way into the outbox).
"""
from __future__ import annotations

import datetime as dt
from typing import Literal
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from pbem.service.core.bots import is_bot_email
from pbem.service.core.models import Player
from pbem.service.post import notices
from pbem.service.post.notices import kind as audience

#: replies to what the player did (or what was sent in their name): sent
#: whatever the preference
ANSWERS = notices.of_audience(audience.ANSWER)
#: mail to the host about the game's mail itself (a player's address
#: bounces): sent whatever the preference
HOST_MAIL = notices.of_audience(audience.HOST)
#: turn mail: sent at once in every mode but ``none`` (never held for a
#: digest): "your move", reminders, the game's end (scores, or cancelled),
#: the seat given to someone else
TURN = notices.of_audience(audience.TURN)
#: mail that asks the player to act, or is about them
ACT = TURN | notices.of_audience(audience.ACT)
#: mail the recipient asked for right now on a page (a sign-in link): sent
#: even to an address that bounced, and to an address with no player yet
ASKED_NOW = notices.of_audience(audience.ASKED_NOW)
#: the day's held notices in one mail (:mod:`pbem.service.post.digest`)
DIGEST = notices.of_audience(audience.DIGEST)

#: table talk mail (issue 26): as ``Player.talk_mail`` says (every / digest / none)
TALK = notices.of_audience(audience.TALK)
#: posts to a game's chat channel: no player, always written (issue 26)
CHANNEL = notices.of_audience(audience.CHANNEL)
#: the choices of ``Player.talk_mail``: a mail per quiet spell, the daily digest, none
TALK_MAIL_MODES = ("every", "digest", "none")

#: every kind of notice (:mod:`pbem.service.post.notices`, one module per
#: kind); :func:`route` refuses any other, loudly
KINDS = notices.KINDS

Route = Literal["send", "hold", "drop"]


def route(player: Player | None, kind: str, *, about_you: bool = True) -> Route:
    """What to do with a mail of outbox ``kind`` to ``player``: ``send`` it,
    ``hold`` it for the daily digest, or ``drop`` it. ``about_you`` is False
    for a notice about another seat (someone else's missed turn).
    ``player`` is ``None`` for an address pbem has no player for yet: only
    a kind of :data:`ASKED_NOW` goes there. Raises ``ValueError`` for a
    kind not in :data:`KINDS`, or for ``player=None`` with another kind."""
    notices.get_notice(kind)  # ValueError for an unknown kind
    if player is not None and is_bot_email(player.email):
        return "drop"   # a bot's seat (issue 27): never mailed, whatever the kind
    if kind in ASKED_NOW or kind in CHANNEL:
        return "send"
    if player is None:
        raise ValueError(f"a {kind!r} notice needs a player to go to")
    if player.bounced_at is not None:
        return "drop"
    if kind in DIGEST:
        return "send"
    if kind in TALK:  # table talk has its own choice (issue 26)
        return {"none": "drop", "digest": "hold"}.get(getattr(player, "talk_mail", None) or "every", "send")
    if kind in ANSWERS or kind in HOST_MAIL or kind == "seat_given":  # the one mail saying the host gave the seat away
        return "send"
    if kind == "invite":
        return "drop" if player.no_invites else "send"
    mode = player.notify_mode or "every"
    if mode == "none":
        return "drop"
    if kind in TURN:
        return "send"
    if mode == "my_turn":
        return "send" if kind in ACT or (kind == "missed" and about_you) else "drop"
    if mode == "digest":
        return "hold"
    return "send"


def gets_turn_mail(player: Player) -> bool:
    """Whether "your move" mail reaches ``player``: not when they turned
    turn mail off (``none``) or their address bounces. The game pages show
    the others a seat that does not."""
    return player.bounced_at is None and (player.notify_mode or "every") != "none"


def next_digest_at(player: Player, now: dt.datetime) -> dt.datetime:
    """The next ``digest_hour`` o'clock in the player's time zone after
    ``now`` (UTC in, UTC out). On a day the hour does not exist (a
    daylight-saving jump) zoneinfo's fold rules pick the nearest instant."""
    try:
        zone = ZoneInfo(player.timezone or "UTC")
    except (ZoneInfoNotFoundError, ValueError):
        zone = ZoneInfo("UTC")
    local = now.astimezone(zone)
    hour = min(23, max(0, int(player.digest_hour or 0)))
    at = local.replace(hour=hour, minute=0, second=0, microsecond=0)
    if at <= local:
        at = (local + dt.timedelta(days=1)).replace(hour=hour, minute=0, second=0, microsecond=0)
    return at.astimezone(dt.timezone.utc)
