"""Players: the player row of an address (found, or created), its time
zone checked, and the host's choice of an invitee's language. Does not
commit: the caller's transaction does.
"""
from __future__ import annotations

from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from flask import current_app
from sqlalchemy import select

from pbem.i18n import supported
from pbem.service.accounts.addresses import clean_name, normalise_email
from pbem.service.core.db import db
from pbem.service.core.errors import ServiceError
from pbem.service.core.models import Player


def check_timezone(name: str) -> str:
    """``name`` if it is an IANA time zone, else :class:`ServiceError`."""
    try:
        ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        raise ServiceError(f"unknown time zone {name!r} (use a name like Europe/Helsinki)") from None
    return name


def set_invitee_language(player: Player, language: str | None) -> None:
    """The host's choice of language for an invitee (issues 16, 22): stored
    as ``players.language`` only while nobody has said which language the
    player reads: the address has never signed in (its first sign-in takes
    the browser's), never chose one on the account page, and no host chose
    one before (``language`` is ``""``). So an invitation never changes the
    language of a player's other games. An unsupported ``language`` changes
    nothing. The invitation and sign-in pages then use it."""
    code = supported(language)
    if code and not player.language and not player.language_chosen and player.first_signin_at is None:
        player.language = code


def get_or_create_player(email: str, name: str = "", timezone: str | None = None) -> Player:
    """The player with ``email`` (one address, see
    :func:`pbem.service.accounts.addresses.normalise_email`), created when new with
    ``name`` cleaned of control characters (default: the address's local
    part) and no language yet (``""``: the host's choice or the browser's
    at the first sign-in sets it). A name typed for a player who exists
    replaces the stored one while nobody chose that: the address has never
    signed in, or its name is still the local part ("Hana" for
    ``hana@...``). Does not commit. Raises :class:`ServiceError` for a bad
    address or time zone."""
    email = normalise_email(email)
    typed = clean_name(name)
    player = db.session.execute(select(Player).where(Player.email == email)).scalar_one_or_none()
    if player is None:
        player = Player(email=email, name=typed or email.split("@")[0], language="",
                        timezone=check_timezone(timezone or current_app.config["DEFAULT_TIMEZONE"]))
        db.session.add(player)
        db.session.flush()
    elif typed and (player.first_signin_at is None or player.name == email.split("@")[0]):
        player.name = typed
    return player


def find_player(player_id: int) -> Player | None:
    """The player row ``player_id``, or ``None`` (read only; the session's
    copy when it has one)."""
    return db.session.get(Player, player_id)
