"""Email addresses and player names as people type them.

Every address the service accepts (the new-game form's seats, the sign-in
form, ``pbem service new-game --seat``, a replacement player, a sign-up
link) goes through :func:`normalise_email`: exactly one address, checked by
the ``email-validator`` library (syntax only, no DNS), stored lower-case
with an ASCII (IDNA) domain. Names go through :func:`clean_name`: no control
characters, so a name can never break a mail header or a log line.
"""
from __future__ import annotations

import re
import unicodedata

from email_validator import EmailNotValidError, validate_email

from pbem.service.core.errors import ServiceError

__all__ = ["normalise_email", "clean_name", "mailbox_key", "MAX_NAME"]

#: the longest player name kept (characters)
MAX_NAME = 100

# C0/C1 controls and DEL, line/paragraph separators, bidirectional
# embeddings, overrides and isolates (they make a name display as another)
_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069\ufeff]")
_SPACES = re.compile(r"\s+")

#: mail providers documented to ignore dots in the local part (Gmail)
_DOTLESS_DOMAINS = {"gmail.com": "gmail.com", "googlemail.com": "gmail.com"}


def normalise_email(text: str) -> str:
    """The one address in ``text``, lower-cased (``"Ada@Example.ORG "`` ->
    ``"ada@example.org"``; an internationalised domain comes back in its
    ASCII ``xn--`` form).

    Raises :class:`ServiceError` saying what was read and why it is not an
    address: a list (``"a@x.org, b@y.org"``), a display name
    (``"Ada <ada@x.org>"``), quoted or non-ASCII local parts (our mail
    server does not speak SMTPUTF8), a domain that cannot receive mail
    (``.test``, ``localhost``), anything over 254 characters."""
    given = text if isinstance(text, str) else ""
    address = given.strip()
    shown = address[:80] + ("…" if len(address) > 80 else "")
    if not address:
        raise ServiceError("an email address is needed")
    try:
        checked = validate_email(address, check_deliverability=False, allow_smtputf8=False,
                                 allow_quoted_local=False, allow_domain_literal=False,
                                 allow_display_name=False)
    except EmailNotValidError as err:
        hint = " Give one address only." if address.count("@") > 1 or "," in address or ";" in address else ""
        raise ServiceError(f"{shown!r} is not an email address: {err}{hint}") from None
    return (checked.ascii_email or checked.normalized).lower()


def clean_name(text: str | None, *, limit: int = MAX_NAME) -> str:
    """``text`` as a name to show and to put in a mail header: Unicode NFC,
    control and bidi-override characters dropped, every run of white space
    (line breaks included) one space, trimmed, at most ``limit``
    characters. May be ``""``."""
    name = unicodedata.normalize("NFC", text or "")
    name = _SPACES.sub(" ", _CONTROL.sub(" ", name)).strip()
    return name[:limit].rstrip()


def mailbox_key(text: str) -> str:
    """The mailbox an address delivers to, for counting sign-in requests per
    address: lower-case, ``+tag`` dropped (``ada+1@x.org`` and ``ada+2@x.org``
    reach the same inbox), and for Gmail the dots of the local part too
    (Gmail documents that it ignores them; no other provider is assumed to).
    Never raises: text that is no address comes back trimmed and lower-cased."""
    try:
        address = normalise_email(text)
    except ServiceError:
        return (text or "").strip().lower()[:320]
    local, _, domain = address.rpartition("@")
    local = local.split("+", 1)[0]
    if domain in _DOTLESS_DOMAINS:
        domain = _DOTLESS_DOMAINS[domain]
        local = local.replace(".", "")
    return f"{local}@{domain}"
