"""Header values of an inbound message, read without ever raising:
decoded to text (RFC 2047 words included, cut before decoding), or raw
from the fields :func:`pbem.mail.inbound_limits.check_raw` returned.
"""
from __future__ import annotations

import re
from email.header import decode_header
from email.message import Message

from . import inbound_addresses
from .inbound_body import decode_bytes


#: a header value is cut to this many characters before RFC 2047 decoding
#: (``decode_header`` is quadratic in one long encoded word)
MAX_DECODED_HEADER_CHARS = 1000


def header(msg: Message, name: str) -> str:
    """One header decoded to text (RFC 2047 words included), '' if absent."""
    try:
        value = msg.get(name)
    except Exception:
        return ""
    return decode_header_value(value)


def decode_header_value(value) -> str:
    """A header value (``str``, a header object or ``None``) as one line of
    text: cut to :data:`MAX_DECODED_HEADER_CHARS`, RFC 2047 words decoded
    (broken bytes as U+FFFD); the value as it is when it cannot be decoded."""
    if value is None:
        return ""
    if not isinstance(value, str):
        value = str(value)
    if len(value) > MAX_DECODED_HEADER_CHARS:
        cut = value.rfind(" ", 0, MAX_DECODED_HEADER_CHARS)  # keep whole encoded words if it can
        value = value[:cut if cut > MAX_DECODED_HEADER_CHARS // 2 else MAX_DECODED_HEADER_CHARS]
    try:
        parts = decode_header(value)
    except Exception:
        return value
    out = []
    for chunk, charset in parts:
        if isinstance(chunk, bytes):
            out.append(decode_bytes(chunk, charset))
        else:
            out.append(chunk)
    text = "".join(out)
    return re.sub(r"\s*[\r\n]+\s*", " ", text).strip()


def all_headers(msg: Message, name: str) -> list[str]:
    """Every ``name`` header of ``msg``, decoded (:func:`decode_header_value`)."""
    try:
        values = msg.get_all(name) or []
    except Exception:
        return []
    return [decode_header_value(v) for v in values]


def raw_values(fields: list[tuple[str, bytes]], *names: str) -> list[bytes]:
    """The raw values of the ``fields`` (``(lower-case name, value)``) named one of ``names``."""
    return [value for name, value in fields if name in names]


def raw_header(fields: list[tuple[str, bytes]], name: str) -> str:
    """The first ``name`` field, unfolded, undecoded (message ids are ASCII)."""
    values = raw_values(fields, name)
    return inbound_addresses.unfold(values[0]) if values else ""


def message_ids(value: str) -> tuple[str, ...]:
    """The ``<id>`` tokens of a Message-ID, In-Reply-To or References value, in order."""
    return tuple(re.findall(r"<[^<>\s]{1,500}>", value))
