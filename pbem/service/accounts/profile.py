"""The account page's action: a player's name, time zone and language
(``GET/POST /account``, :mod:`pbem.web.auth`).

:func:`set_account` checks what was posted (:func:`check_account`: a name
of 1 to :data:`NAME_MAX` characters once cleaned, a zone of
:data:`pbem.service.accounts.zones.ZONES`, a supported language), then
writes the player's row in one ``UPDATE`` under the write lock and
commits. A language given is the player's own choice
(``language_chosen``): the host's and the browser's no longer count
(:mod:`pbem.service.accounts.first_signin`). A refusal is a
:class:`~pbem.service.core.errors.ServiceError` whose message (a
:class:`~pbem.engine.messages.Msg`) the page shows in its language;
nothing is written then.
"""
from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import update

from pbem.engine.messages import Msg
from pbem.i18n import supported
from pbem.service.accounts.addresses import clean_name
from pbem.service.accounts.zones import zone_or_none
from pbem.service.core.db import begin_write, db
from pbem.service.core.errors import ServiceError
from pbem.service.core.models import Player

#: the longest name the account page takes (characters, once cleaned)
NAME_MAX = 100


@dataclass(frozen=True)
class Account:
    """What the account page sets: ``language`` ``None`` keeps the
    player's (the form did not name one)."""

    name: str
    timezone: str
    language: str | None


def check_account(name: str | None, timezone: str | None, language: str | None) -> Account:
    """The posted values as an :class:`Account`, or :class:`ServiceError`.
    ``name`` is cleaned of control characters and runs of white space
    (:func:`pbem.service.accounts.addresses.clean_name`); ``language``
    ``None`` or ``""`` means "not given"."""
    cleaned = clean_name(name, limit=NAME_MAX + 1)
    if not cleaned or len(cleaned) > NAME_MAX:
        raise ServiceError(Msg("Please give a name of 1 to 100 characters."))
    zone = zone_or_none(timezone)
    if zone is None:
        raise ServiceError(Msg("Please choose a time zone from the list."))
    code = supported(language) if language else None
    if language and code is None:
        raise ServiceError(Msg("Please choose a language from the list."))
    return Account(cleaned, zone, code)


def set_account(player_id: int, *, name: str | None, timezone: str | None,
                language: str | None = None) -> Account:
    """Check the values (:func:`check_account`), then store them for
    ``player_id``. Returns what was stored. Commits; raises
    :class:`ServiceError` (nothing written)."""
    account = check_account(name, timezone, language)
    values = {"name": account.name, "timezone": account.timezone}
    if account.language is not None:  # the player's own choice
        values.update(language=account.language, language_chosen=True)
    begin_write()
    db.session.execute(update(Player).where(Player.id == player_id).values(**values))
    db.session.commit()
    return account
