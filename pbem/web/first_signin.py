"""A player's first sign-in (issue 16): the browser's language and time
zone become the player's defaults.

When ``players.first_signin_at`` is None, the sign-in (``POST
/signin/<token>``) takes

- the browser's ``Accept-Language``, when it names a supported language
  and the player has not chosen one on the account page
  (``language_chosen``); it replaces the host's choice for an invitee;
- the browser's time zone, which the confirmation page's script
  (``signin.js``) posts as ``browser_zone`` from
  ``Intl.DateTimeFormat().resolvedOptions().timeZone``, when it is one of
  :data:`pbem.web.zones.ZONES`; until then the player's zone is the one
  the game or the service gave the new row, never the player's choice;

and records ``first_signin_at``. Later sign-ins change nothing; the
account page changes both at any time. Bad or missing values leave the
stored ones as they are. It runs inside the transaction that spends the
link (:func:`pbem.service.accounts.signin.use_signin`): when storing fails,
the link still works.
"""
from __future__ import annotations

import datetime as dt

from flask import request

from pbem.engine.fold import LANGUAGES
from pbem.i18n import supported
from pbem.service.core.models import Player, utcnow
from pbem.web.zones import zone_or_none

#: the form field the confirmation page's script fills
ZONE_FIELD = "browser_zone"


def needs_browser_zone(player: Player | None) -> bool:
    """Whether the confirmation page should ask the browser for its zone:
    a new address (the row is made at the sign-in) or a first sign-in."""
    return player is None or player.first_signin_at is None


def take_browser_defaults(player: Player, now: dt.datetime | None = None) -> None:
    """At the first sign-in of ``player``: the request's ``Accept-Language``
    and posted browser zone as described above. Does not commit (the
    caller's transaction spends the link with it)."""
    if player.first_signin_at is not None:
        return
    if not player.language_chosen:
        language = supported(request.accept_languages.best_match(LANGUAGES))
        if language:
            player.language = language
    zone = zone_or_none((request.form.get(ZONE_FIELD) or "").strip())
    if zone:
        player.timezone = zone
    player.first_signin_at = now or utcnow()
