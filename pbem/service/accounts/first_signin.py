"""A player's first sign-in (issue 16): the browser's language and time
zone become the player's defaults.

When ``players.first_signin_at`` is None, the sign-in takes

- the browser's language (its ``Accept-Language``, best supported match),
  when the player has not chosen one on the account page
  (``language_chosen``); it replaces the host's choice for an invitee;
- the browser's time zone (the confirmation page's script posts it, see
  :mod:`pbem.web.first_signin`), when it is one of
  :data:`pbem.service.accounts.zones.ZONES`; until then the player's zone
  is the one the game or the service gave the new row, never the
  player's choice;

and records ``first_signin_at``. Later sign-ins change nothing; the
account page (:mod:`pbem.service.accounts.profile`) changes both at any
time. Bad or missing values leave the stored ones as they are.
:func:`take_browser_defaults` runs inside the transaction that spends the
link (:func:`pbem.service.accounts.signin.use_signin`'s ``with_player``):
when storing fails, the link still works.
"""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from pbem.i18n import supported
from pbem.service.accounts.zones import zone_or_none
from pbem.service.core.models import Player, utcnow


@dataclass(frozen=True)
class Browser:
    """What a browser says at a sign-in, as it said it: ``language`` its
    best match among the supported languages (``None``: none), ``zone``
    the time zone its script posted (``None`` or ``""``: none)."""

    language: str | None = None
    zone: str | None = None


def needs_browser_zone(player: Player | None) -> bool:
    """Whether the confirmation page should ask the browser for its zone:
    a new address (the row is made at the sign-in) or a first sign-in."""
    return player is None or player.first_signin_at is None


def take_browser_defaults(player: Player, browser: Browser, now: dt.datetime | None = None) -> None:
    """At the first sign-in of ``player``: ``browser``'s language and zone
    as described above, each only when valid. Does not commit (the
    caller's transaction spends the link with it)."""
    if player.first_signin_at is not None:
        return
    if not player.language_chosen:
        language = supported(browser.language)
        if language:
            player.language = language
    zone = zone_or_none((browser.zone or "").strip())
    if zone:
        player.timezone = zone
    player.first_signin_at = now or utcnow()
