"""Addresses of an inbound message, read from the raw header as sent.

The sender (``From:``, ``Sender:``) is read with the ``email`` package's
RFC 5322 address parser (:mod:`email.headerregistry`, the modern policy's
parser) from the raw, undecoded header value: only the addr-spec counts,
inside ``<...>`` when there is one, and the display name never does. An
encoded-word display name such as ``=?utf-8?q?bruno=40example=2Ecom?=
<mallory@evil.example>`` stays a name, so the address is
``mallory@evil.example``. A value the parser cannot read as mailboxes but
that holds exactly one ``<...>`` (``alice@example.com <mallory@evil.example>``,
an unquoted display name that looks like an address) is the address inside
the brackets, parsed the same way; anything else gives no address.

Recipients (``To``, ``Cc`` and the envelope fields) only locate a signed
reply address, so the faster ``email.utils.getaddresses`` reads them.

The modern parser is quadratic in its input; callers hand it at most one
header line (:mod:`pbem.mail.inbound_limits` refuses longer ``From:``).
"""
from __future__ import annotations

import re
from email.errors import InvalidHeaderDefect
from email.headerregistry import HeaderRegistry
from email.utils import getaddresses

__all__ = ["mailboxes", "recipients", "unfold", "MAX_MAILBOX_CHARS"]

#: longest From/Sender value given to the parser (RFC 5322's line limit)
MAX_MAILBOX_CHARS = 998

_registry = HeaderRegistry()
_ONE_ANGLE_ADDR = re.compile(r"[^<>]*(<[^<>]*>)\s*(?:\([^()]*\)\s*)?")
_NOT_IN_ADDRESS = re.compile(r"[\x00-\x20\x7f]")


def unfold(value: bytes | str) -> str:
    """A raw header value as one line of text (8-bit bytes read as UTF-8,
    undecodable ones as U+FFFD; RFC 2047 words left encoded)."""
    if isinstance(value, bytes):
        value = value.decode("utf-8", errors="replace")
    return re.sub(r"[\r\n]+", " ", re.sub(r"\r?\n(?=[ \t])", "", value)).strip()


def _normal(addr_spec: str) -> str | None:
    local, at, domain = addr_spec.rpartition("@")
    if not at or not local or not domain or _NOT_IN_ADDRESS.search(addr_spec):
        return None
    return f"{local}@{domain.lower()}"


def _parse(value: str) -> list[tuple[str, str]] | None:
    """The mailboxes' ``(display name, address)``, or ``None`` when the
    parser found junk."""
    try:
        header = _registry("From", value)
        addresses = header.addresses
    except (RecursionError, ValueError, IndexError, TypeError, AttributeError):
        return None
    if any(isinstance(d, InvalidHeaderDefect) for d in header.defects) or not addresses:
        return None
    out = [(a.display_name, _normal(a.addr_spec)) for a in addresses]
    return None if any(addr is None for _name, addr in out) else out


def mailboxes(value: bytes | str) -> list[tuple[str, str]]:
    """Every ``(display name, address)`` of one ``From:``/``Sender:`` value
    (raw, as received; the name decoded, the address's domain lower-cased);
    ``[]`` when no address can be read without guessing or the value is
    longer than :data:`MAX_MAILBOX_CHARS`. The name is whatever the sender
    wrote: for logs, never for mail."""
    text = unfold(value)
    if not text or len(text) > MAX_MAILBOX_CHARS:
        return []
    found = _parse(text)
    if found is None:
        m = _ONE_ANGLE_ADDR.fullmatch(text)
        found = _parse(m.group(1)) if m else None  # "<...>" alone: no display name
        if found is not None and len(found) != 1:
            found = None
    return found or []


def recipients(values: list[bytes | str]) -> list[str]:
    """Every address in these recipient header values, lower-cased, in
    order, without duplicates."""
    seen: dict[str, None] = {}
    for value in values:
        try:
            pairs = getaddresses([unfold(value)])
        except (RecursionError, ValueError, IndexError, TypeError):
            continue
        for _name, addr in pairs:
            addr = _normal(addr.strip().strip("<>"))
            if addr:
                seen.setdefault(addr.lower(), None)
    return list(seen)
