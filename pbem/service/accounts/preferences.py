"""Mail preferences, the actions: what the preferences page and one-click
unsubscribe store (issue 13; docs/web.md "Mail preferences"). Which mail
a player then gets is :mod:`pbem.service.post.mailprefs`.

- :func:`set_mail_preferences`: the mode (:data:`NOTIFY_MODES`), the
  digest's hour, "never invite me again" and, after a hard bounce, "mail
  to me works again": that last one clears ``bounced_at`` and
  ``bounce_reason``, so mail goes to the address again (the player's own
  word is the only thing that clears a bounce; :mod:`pbem.service.
  accounts.bounces` sets it).
- :func:`unsubscribe`: RFC 8058 one-click unsubscribe: ``my_turn`` (a
  player who chose ``none`` keeps it) and no invitations (issue 29).

Each checks first (a refusal is a :class:`ServiceError` whose
:class:`~pbem.engine.messages.Msg` the page shows; nothing is written),
then writes the player's row in one ``UPDATE`` under the write lock, and
commits. Each changes the row of the ``player_id`` given only: the pages
pass the player their token or session names.
"""
from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import case, update

from pbem.engine.messages import Msg
from pbem.service.core.db import begin_write, db
from pbem.service.core.errors import ServiceError
from pbem.service.core.models import NOTIFY_MODES, Player
from pbem.service.core.talk_models import TALK_MAIL_MODES


@dataclass(frozen=True)
class MailPreferences:
    """What the preferences page sets: ``digest_hour`` ``None`` keeps the
    player's (the form did not send one)."""

    notify_mode: str
    digest_hour: int | None
    no_invites: bool
    mail_works: bool = False


def check_mail_preferences(mode: str | None, digest_hour: object, *, no_invites: bool,
                           mail_works: bool = False) -> MailPreferences:
    """The posted values as :class:`MailPreferences`, or :class:`ServiceError`:
    ``mode`` one of :data:`NOTIFY_MODES`; ``digest_hour`` a whole hour 0 to
    23 (a number or its digits), or ``None``."""
    if mode not in NOTIFY_MODES:
        raise ServiceError(Msg("Please choose which mail you want."))
    hour = None
    if digest_hour is not None:
        try:
            hour = int(digest_hour)
        except (TypeError, ValueError):
            hour = -1
        if not 0 <= hour <= 23:
            raise ServiceError(Msg("Please choose an hour from 0 to 23 for the digest."))
    return MailPreferences(mode, hour, bool(no_invites), bool(mail_works))


def set_mail_preferences(player_id: int, mode: str | None, digest_hour: object = None, *,
                         no_invites: bool = False, mail_works: bool = False) -> MailPreferences:
    """Check (:func:`check_mail_preferences`), then store the preferences
    of ``player_id``; ``mail_works`` clears a hard bounce. Returns what was
    stored. Commits; raises :class:`ServiceError` (nothing written)."""
    prefs = check_mail_preferences(mode, digest_hour, no_invites=no_invites, mail_works=mail_works)
    values: dict = {"notify_mode": prefs.notify_mode, "no_invites": prefs.no_invites}
    if prefs.digest_hour is not None:
        values["digest_hour"] = prefs.digest_hour
    if prefs.mail_works:  # the player says the address works again: mail goes to it again
        values.update(bounced_at=None, bounce_reason="")
    _write(player_id, values)
    return prefs


def set_talk_mail(player_id: int, mode: str | None) -> None:
    """Store which table talk mail ``player_id`` wants (``Player.talk_mail``:
    ``every`` message mail, in the daily ``digest``, ``none``; issue 26).
    Commits; raises :class:`ServiceError` for another value (nothing written)."""
    if mode not in TALK_MAIL_MODES:
        raise ServiceError(Msg("Please choose which mail you want."))
    _write(player_id, {"talk_mail": mode})


def unsubscribe(player_id: int) -> None:
    """One-click unsubscribe of ``player_id``: only turn mail (``my_turn``;
    ``none`` stays ``none``), no invitations and no table talk mail (the
    messages stay on the game's page). Commits."""
    _write(player_id, {"notify_mode": case((Player.notify_mode == "none", "none"), else_="my_turn"),
                       "no_invites": True, "talk_mail": "none"})


def _write(player_id: int, values: dict) -> None:
    begin_write()
    db.session.execute(update(Player).where(Player.id == player_id).values(**values))
    db.session.commit()
