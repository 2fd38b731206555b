"""A player's first sign-in (issue 16), the page's side: what the browser
says. The defaults it sets are the accounts wing's
(:mod:`pbem.service.accounts.first_signin`): the browser's language and
time zone, taken once, inside the transaction that spends the link.

- the language: the best supported match of the request's
  ``Accept-Language``;
- the time zone: the confirmation page's script (``signin.js``) posts it as
  ``browser_zone`` (:data:`ZONE_FIELD`) from
  ``Intl.DateTimeFormat().resolvedOptions().timeZone``.
"""
from __future__ import annotations

from flask import request

from pbem.engine.fold import LANGUAGES
from pbem.service.accounts.first_signin import Browser

#: the form field the confirmation page's script fills
ZONE_FIELD = "browser_zone"


def browser() -> Browser:
    """What this request's browser says (values unchecked: the accounts
    wing keeps only valid ones)."""
    return Browser(language=request.accept_languages.best_match(LANGUAGES),
                   zone=request.form.get(ZONE_FIELD))
