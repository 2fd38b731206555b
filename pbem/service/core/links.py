"""Absolute links put into emails, and the URL scheme the web pages serve.

Links and reply addresses are always signed with ``SECRET_KEY``; the
readers (``web_queries.check_signin``, ``inbound``) also accept the keys of
``SECRET_KEY_FALLBACKS`` (``PBEM_SECRET_KEY_FALLBACKS``) while a key is rotated.

Paths (the web blueprints serve them):

- ``/signin/<token>``: a signed, expiring, single-use sign-in link; the token's
  subject is ``{"player": <player id>, "next": <path>}``; after sign-in the
  page redirects to ``next``. Links in turn emails add
  ``"seat": [<game id>, <seat index>]``: they open that seat's game and
  order pages only (``pbem.web.scope``).
- ``/games/<game id>``: the game page (public log, replay).
- ``/games/<game id>/seat/<seat number>``: the order page of a seat
  (seat number = index + 1, as players count).
- ``/games/<game id>/join/<seat number>``: accept an invitation.
"""
from __future__ import annotations

from flask import current_app

from pbem.mail.tokens import make_signin_token, make_reply_address


def game_path(game_id: int) -> str:
    return f"/games/{game_id}"


def order_path(game_id: int, seat_index: int) -> str:
    return f"/games/{game_id}/seat/{seat_index + 1}"


def join_path(game_id: int, seat_index: int) -> str:
    return f"/games/{game_id}/join/{seat_index + 1}"


def absolute(path: str) -> str:
    return current_app.config["BASE_URL"] + path


def signin_url(player_id: int, next_path: str) -> str:
    """An absolute sign-in link for ``player_id`` that lands on ``next_path``."""
    token, _nonce = make_signin_token(current_app.config["SECRET_KEY"],
                                      {"player": player_id, "next": next_path})
    return absolute(f"/signin/{token}")


def seat_signin_url(player_id: int, game_id: int, seat_index: int) -> str:
    """An absolute sign-in link for the links of turn emails: it lands on
    the seat's order page and opens only that seat's pages (game page and
    order page), so a forwarded turn email does not hand over the account."""
    token, _nonce = make_signin_token(current_app.config["SECRET_KEY"],
                                      {"player": player_id, "next": order_path(game_id, seat_index),
                                       "seat": [game_id, seat_index]})
    return absolute(f"/signin/{token}")


def reply_address(game_id: int, seat_index: int, holder: int | None = None) -> str:
    """The per-seat Reply-To address for the seat's ``holder`` (player id;
    default: whoever holds it now), HMAC-signed (see pbem.mail.tokens): it
    stops working for the seat when the host gives the seat away."""
    if holder is None:
        from sqlalchemy import select

        from pbem.service.core.db import db
        from pbem.service.core.models import Seat

        holder = db.session.execute(select(Seat.player_id).where(
            Seat.game_id == game_id, Seat.index == seat_index)).scalar_one()
    return make_reply_address(current_app.config["SECRET_KEY"],
                              current_app.config["INBOUND_ADDRESS"], game_id, seat_index, holder=holder)


# --- mail preferences, list and thread headers (issue 13) -------------------

_PREFS_SALT = "pbem-mail-preferences"


def _prefs_serializer(key: str):
    from itsdangerous import URLSafeSerializer

    return URLSafeSerializer(key, salt=_PREFS_SALT)


def preferences_token(player_id: int) -> str:
    """A signed token naming ``player_id`` for the mail-preferences page and
    one-click unsubscribe. It never expires (a mail read a year later must
    still unsubscribe, RFC 8058) and grants nothing else."""
    return _prefs_serializer(current_app.config["SECRET_KEY"]).dumps({"p": int(player_id)})


def read_preferences_token(token: str) -> int | None:
    """The player id of a :func:`preferences_token` signed with the current
    key or a fallback key; ``None`` for anything else."""
    from itsdangerous import BadSignature

    keys = [current_app.config["SECRET_KEY"], *(current_app.config.get("SECRET_KEY_FALLBACKS") or [])]
    for key in keys:
        try:
            data = _prefs_serializer(key).loads(token)
        except BadSignature:
            continue
        if isinstance(data, dict) and isinstance(data.get("p"), int):
            return data["p"]
    return None


def preferences_url(player_id: int) -> str:
    """The mail-preferences page of a player (no sign-in needed)."""
    return absolute(f"/mail/preferences/{preferences_token(player_id)}")


def unsubscribe_url(player_id: int) -> str:
    """The ``List-Unsubscribe`` target: POST there unsubscribes in one click."""
    return absolute(f"/mail/unsubscribe/{preferences_token(player_id)}")


def _mail_domain() -> str:
    from email.utils import parseaddr

    return (parseaddr(current_app.config["INBOUND_ADDRESS"])[1].rpartition("@")[2]
            or "pbem.invalid").lower()


def list_id(game_id: int, title: str) -> str:
    """``List-Id`` (RFC 2919) of a game's mail: ``"La Città #12" <game-12.pbem.example.org>``."""
    label = title.replace("\\", "").replace('"', "")
    return f'"{label} #{game_id}" <game-{game_id}.{_mail_domain()}>'


def thread_root(game_id: int, seat_index: int) -> str:
    """The stable Message-ID every mail to one seat of one game names first
    in ``References``, so mail clients show the game as one conversation."""
    return f"<pbem.game-{game_id}.seat-{seat_index + 1}@{_mail_domain()}>"
