"""The text of an inbound message's body: which part is read, how its
bytes become text, and how much of it the quote stripper sees.

The first inline ``text/plain`` part with text is read; without one, the
first ``text/html`` part is turned into text (html2text). Attachments are
skipped; ``format=flowed`` is undone. Charsets: the declared one if Python
knows it as a character set, else UTF-8, else cp1252; undecodable bytes
become U+FFFD. Nothing here raises for any part. Costs: the parts and their
headers were bounded by :mod:`pbem.mail.inbound_limits` before; every step
here is linear, and html2text and the quote stripper get at most
:data:`MAX_STRIPPED_CHARS`.
"""
from __future__ import annotations

import codecs
import re
from email.message import Message

from . import reply_text

from .flowed import decode_flowed

__all__ = ["MAX_STRIPPED_CHARS", "body_text", "decode_bytes", "flowed", "head_and_tail"]

#: Text handed to the quote stripper and HTML to html2text: both cost about
#: 1.5 µs of CPU per character. A longer body keeps its first and last half
#: of this (whole lines), so top-posted and bottom-posted orders both stay.
MAX_STRIPPED_CHARS = 16_000

#: Python codecs that are no mail character set; punycode is also
#: quadratic (32 KB take 90 ms), so a part claiming one is read as UTF-8.
_NOT_CHARSETS = frozenset({"punycode", "idna", "unicode-escape", "raw-unicode-escape", "undefined"})


def _codec(charset: str | None) -> str | None:
    if not charset:
        return None
    charset = charset.strip().strip('"').lower()
    try:
        name = codecs.lookup(charset).name
    except (LookupError, ValueError, TypeError):
        return None
    return None if name in _NOT_CHARSETS else name


def decode_bytes(data: bytes, charset: str | None) -> str:
    """``data`` as text: in ``charset`` when Python knows it as a character
    set, else UTF-8, else cp1252 (undecodable bytes become U+FFFD)."""
    name = _codec(charset)
    if name:
        try:
            return data.decode(name, errors="replace")
        except Exception:  # some codecs raise despite errors="replace"
            pass
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        # Undeclared 8-bit text is far more often cp1252 than anything else.
        return data.decode("cp1252", errors="replace")


def flowed(text: str, delsp: bool) -> str:
    """Undo RFC 3676 format=flowed, never joining across quote depths, in
    linear time (:func:`pbem.mail.flowed.decode_flowed`). NULs are dropped
    (the service drops them anyway)."""
    return decode_flowed(text.replace("\x00", ""), delsp=delsp)


def _part_text(part: Message) -> str:
    try:
        payload = part.get_payload(decode=True)
    except Exception:
        payload = None
    if payload is None:
        raw = part.get_payload()
        if isinstance(raw, str):
            payload = raw.encode("utf-8", "surrogateescape")
        else:
            return ""
    if not isinstance(payload, bytes):
        return ""
    try:
        charset = part.get_content_charset()
    except Exception:
        charset = None
    text = decode_bytes(payload, charset)
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    try:
        fmt = (part.get_param("format") or "")
        delsp = (part.get_param("delsp") or "")
    except Exception:
        fmt, delsp = "", ""
    if isinstance(fmt, str) and fmt.lower() == "flowed":
        text = flowed(text, isinstance(delsp, str) and delsp.lower() == "yes")
    return text


def _is_attachment(part: Message) -> bool:
    try:
        disp = (part.get("Content-Disposition") or "").split(";")[0].strip().lower()
    except Exception:
        return False
    return disp == "attachment"


def body_text(msg: Message) -> tuple[str, bool]:
    """(text, from_html): the first inline text/plain with content, else the
    first text/html turned into text. Attachments are ignored."""
    plain: str | None = None
    html: str | None = None
    for part in msg.walk():  # parts and depth bounded by inbound_limits.check_tree
        try:
            if part.is_multipart():
                continue
            ctype = part.get_content_type()
        except Exception:
            continue
        if _is_attachment(part):
            continue
        if ctype == "text/plain" and plain is None:
            text = _part_text(part)
            if text.strip():
                plain = text
        elif ctype == "text/html" and html is None:
            html = _part_text(part)
        if plain is not None:
            break
    if plain is not None:
        return plain, False
    if html is not None and html.strip():
        return reply_text.html_to_text(html[:MAX_STRIPPED_CHARS]), True
    return "", False


def head_and_tail(text: str, limit: int) -> str:
    """``text`` if at most ``limit`` characters, else its first and last
    ``limit // 2`` characters cut at line ends (orders are written above
    or below the quote, and the middle of a long mail is quoted text)."""
    if len(text) <= limit:
        return text
    half = limit // 2
    head_end = text.rfind("\n", 0, half)
    tail_start = text.find("\n", len(text) - half)
    head = text[:head_end if head_end > 0 else half]
    tail = text[tail_start + 1:] if tail_start >= 0 else ""
    return head + "\n" + tail
