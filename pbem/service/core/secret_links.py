"""Secret links that stand for a right without a sign-in (issue 25): a
player's calendar feed, a game's spectator page.

A link's secret is ``HMAC-SHA256(SECRET_KEY, "<purpose>:<id>:<nonce>")``
(base64url, 32 characters, 192 bits), where ``nonce`` is a random string
kept on the row (``players.calendar_nonce``, ``games.spectator_nonce``).
The database never holds the secret itself: a copy of it alone opens no
feed. Revoking a link is drawing a new nonce (the old secret no longer
matches); ``NULL`` means no link at all. Secrets are compared in constant
time (:func:`hmac.compare_digest`), and those made with a key of
``SECRET_KEY_FALLBACKS`` are still accepted while a key is rotated.
"""
from __future__ import annotations

import base64
import hashlib
import hmac
import secrets

from flask import current_app

#: the purposes a secret may stand for (one key space each)
CALENDAR, SPECTATOR = "calendar", "spectator"
SECRET_CHARS = 32


def new_nonce() -> str:
    """A fresh random nonce (22 characters, 128 bits)."""
    return secrets.token_urlsafe(16)


def _secret(key: str, purpose: str, ident: int, nonce: str) -> str:
    mac = hmac.new(key.encode(), f"{purpose}:{int(ident)}:{nonce}".encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(mac).decode()[:SECRET_CHARS]


def secret_for(purpose: str, ident: int, nonce: str) -> str:
    """The secret of ``purpose`` for row ``ident`` with ``nonce``, signed
    with the current ``SECRET_KEY``."""
    return _secret(current_app.config["SECRET_KEY"], purpose, ident, nonce)


def split_token(token: str) -> tuple[int, str] | None:
    """``"<id>.<secret>"`` (the form links carry: one path segment, so a
    route has no integer next to a string) as ``(id, secret)``, or ``None``
    for anything else (an id outside a database integer included)."""
    ident, dot, secret = (token or "").partition(".")
    if not dot or not ident.isascii() or not ident.isdigit() or len(ident) > 10 or not 0 < int(ident) < 2 ** 31:
        return None
    return int(ident), secret


def token_for(purpose: str, ident: int, nonce: str) -> str:
    """``"<id>.<secret>"`` for a link (:func:`split_token` reads it)."""
    return f"{int(ident)}.{secret_for(purpose, ident, nonce)}"


def matches(purpose: str, ident: int, nonce: str | None, given: str) -> bool:
    """Whether ``given`` is the secret of ``purpose`` for row ``ident`` with
    ``nonce`` (``None``: no link, never matches), under the current key or a
    fallback key, compared in constant time."""
    if not nonce or not isinstance(given, str) or len(given) != SECRET_CHARS:
        return False
    keys = [current_app.config["SECRET_KEY"], *(current_app.config.get("SECRET_KEY_FALLBACKS") or [])]
    ok = False
    for key in keys:
        ok |= hmac.compare_digest(_secret(key, purpose, ident, nonce).encode(), given.encode("utf-8", "replace"))
    return ok


def calendar_path(player_id: int, nonce: str | None) -> str | None:
    """A player's calendar feed path, ``/calendar/<id>.<secret>.ics``;
    ``None`` without a nonce (no feed). Mail and pages build it here."""
    return f"/calendar/{token_for(CALENDAR, player_id, nonce)}.ics" if nonce else None


def spectator_path(game_id: int, nonce: str | None) -> str | None:
    """A game's spectator page path, ``/watch/<id>.<secret>``; ``None``
    without a nonce (the game is not watchable)."""
    return f"/watch/{token_for(SPECTATOR, game_id, nonce)}" if nonce else None
