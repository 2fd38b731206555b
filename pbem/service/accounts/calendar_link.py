"""A player's calendar feed link (issue 25): turned on, renewed (the old
link stops working) and off on the account page; found again from the
link's secret (:mod:`pbem.service.core.secret_links`).

Path: ``/calendar/<player id>.<secret>.ics``. The secret is never stored:
``players.calendar_nonce`` is, and the secret is an HMAC of it, so the
account page can show the link again and a copy of the database alone
opens no feed.
"""
from __future__ import annotations

from pbem.service.core import links, secret_links
from pbem.service.core.db import db
from pbem.service.core.errors import ServiceError
from pbem.service.core.models import Player


def calendar_path(player: Player) -> str | None:
    """The feed's path for ``player``, ``None`` while they have no feed."""
    return secret_links.calendar_path(player.id, player.calendar_nonce)


def calendar_url(player: Player) -> str | None:
    """:func:`calendar_path` as an absolute URL (``BASE_URL``)."""
    path = calendar_path(player)
    return links.absolute(path) if path else None


def set_calendar(player_id: int, action: str) -> Player:
    """``action`` ``"on"`` (a feed, keeping the link there is), ``"renew"``
    (a new link; the old one stops working at once) or ``"off"`` (no feed).
    Commits; returns the player. ``ServiceError`` for another action."""
    if action not in ("on", "renew", "off"):
        raise ServiceError(f"unknown calendar action {action!r}")
    player = db.session.get(Player, player_id)
    if player is None:
        raise ServiceError(f"no player {player_id}")
    if action == "off":
        player.calendar_nonce = None
    elif action == "renew" or not player.calendar_nonce:
        player.calendar_nonce = secret_links.new_nonce()
    db.session.commit()
    return player


def player_of_feed(token: str) -> Player | None:
    """The player whose feed ``token`` (``"<player id>.<secret>"``) opens,
    else ``None`` (no such player, no feed, a revoked or wrong secret: all
    look the same)."""
    parts = secret_links.split_token(token)
    if parts is None:
        return None
    player_id, secret = parts
    player = db.session.get(Player, player_id)
    if player is None or not secret_links.matches(secret_links.CALENDAR, player.id, player.calendar_nonce, secret):
        return None
    return player
