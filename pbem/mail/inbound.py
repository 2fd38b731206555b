"""Parse one inbound RFC 5322 message into the order text and the headers
the service needs, or refuse it with a typed :class:`InboundRejected`.

Refused (never answered, so no mail loops):
- larger than ``max_bytes`` or more than ``max_lines`` raw lines;
- not a mail message at all, or MIME too broken to find a sender;
- our own mail coming back (``X-PBEM-Loop`` header, sent from one of our
  addresses, or too many ``Received`` hops);
- automatic mail per RFC 3834 and common practice: ``Auto-Submitted`` other
  than ``no``, ``X-Auto-Response-Suppress``, ``X-Autoreply``/``X-Autorespond``,
  ``Precedence: bulk/junk/list/auto_reply``, ``List-Id``/``List-Unsubscribe``,
  bounces (``Return-Path: <>``, ``MAILER-DAEMON``/``postmaster`` senders,
  ``multipart/report`` delivery reports).

Everything else is accepted; the body is decoded whatever its charset
claims (unknown or broken bytes become U+FFFD), HTML-only mail is turned
into text, and only the newly written text is kept (see
:mod:`pbem.mail.reply_text`). Apart from ``InboundRejected`` nothing is
raised for any input bytes.
"""
from __future__ import annotations

import codecs
import hashlib
import re
from dataclasses import dataclass, field
from datetime import datetime
from email import message_from_bytes, policy as _policy
from email.header import decode_header
from email.message import Message
from email.utils import getaddresses, parsedate_to_datetime
from typing import Iterable

from . import reply_text
from .flowed import decode_flowed

__all__ = [
    "InboundMail", "InboundRejected", "Oversized", "TooManyLines", "MalformedMail",
    "AutomaticMail", "MailLoop", "parse_inbound", "LOOP_HEADER",
    "reply_target", "DEFAULT_MAX_BYTES", "DEFAULT_MAX_LINES", "DEFAULT_MAX_ORDER_LINES", "MAX_ORDER_LINE_CHARS",
]

#: Header every message we send carries (value: our inbound address), so our
#: own mail coming back is recognised and dropped.
LOOP_HEADER = "X-PBEM-Loop"

#: 2 MiB: room for a phone reply that quotes our board picture back.
DEFAULT_MAX_BYTES = 2 * 1024 * 1024
#: Raw lines (base64 of 2 MiB is about 28,000 lines).
DEFAULT_MAX_LINES = 60_000
#: Order text after quotes and signatures are removed.
DEFAULT_MAX_ORDER_LINES = 100
MAX_ORDER_LINE_CHARS = 1000
_MAX_RECEIVED = 40
_MAX_PARTS = 200
_MAX_BODY_CHARS = 400_000  # text handed to the quote stripper


class InboundRejected(Exception):
    """An inbound message that is not processed and must not be answered.

    ``reason`` is a short machine tag (the subclass's), ``detail`` a line
    for the log.
    """

    reason = "rejected"

    def __init__(self, detail: str):
        super().__init__(f"{self.reason}: {detail}")
        self.detail = detail


class Oversized(InboundRejected):
    reason = "oversized"


class TooManyLines(InboundRejected):
    reason = "too-many-lines"


class MalformedMail(InboundRejected):
    reason = "malformed"


class AutomaticMail(InboundRejected):
    """Auto-submitted, auto-reply, bounce, bulk or list mail (RFC 3834).
    ``kind`` is one of ``auto-submitted``, ``auto-reply``, ``bounce``,
    ``bulk``, ``list``."""

    reason = "automatic"

    def __init__(self, kind: str, detail: str):
        self.kind = kind
        super().__init__(f"{kind}: {detail}")


class MailLoop(InboundRejected):
    reason = "loop"


@dataclass(frozen=True)
class InboundMail:
    """One accepted inbound message.

    ``message_id`` keeps its angle brackets; when the message has none, a
    stable ``<sha256@pbem.invalid>`` of the raw bytes is used so a duplicate
    delivery still dedupes. ``from_address`` is the bare address (domain
    lower-cased). ``recipients`` lists every address the mail was delivered
    to, envelope first (``Delivered-To``, ``X-Original-To``,
    ``Envelope-To``), then ``To`` and ``Cc``; lower-cased, no duplicates.
    ``text`` is the newly written text (the orders); ``body`` the whole
    decoded text before quote stripping; ``from_html`` tells that the text
    came from an HTML-only body. ``date`` is timezone-aware or ``None``.
    ``suppress_auto_response`` holds the values of Exchange's
    ``X-Auto-Response-Suppress`` (upper-cased: ``ALL``, ``OOF``,
    ``AUTOREPLY``...): the orders are still read; the sender's system asked
    for no automatic answers, and whether a confirmation counts as one is
    the service's call.
    """

    message_id: str
    from_address: str
    from_name: str
    recipients: tuple[str, ...]
    subject: str
    text: str
    body: str = ""
    in_reply_to: str | None = None
    references: tuple[str, ...] = ()
    date: datetime | None = None
    from_html: bool = False
    defects: tuple[str, ...] = field(default=())
    suppress_auto_response: frozenset[str] = frozenset()


# --- decoding helpers (never raise) -----------------------------------------

def _codec(charset: str | None) -> str | None:
    if not charset:
        return None
    charset = charset.strip().strip('"').lower()
    try:
        return codecs.lookup(charset).name
    except (LookupError, ValueError, TypeError):
        return None


def _decode_bytes(data: bytes, charset: str | None) -> str:
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


def _header(msg: Message, name: str) -> str:
    """One header decoded to text (RFC 2047 words included), '' if absent."""
    try:
        value = msg.get(name)
    except Exception:
        return ""
    return _decode_header_value(value)


def _decode_header_value(value) -> str:
    if value is None:
        return ""
    if not isinstance(value, str):
        value = str(value)
    try:
        parts = decode_header(value)
    except Exception:
        return value
    out = []
    for chunk, charset in parts:
        if isinstance(chunk, bytes):
            out.append(_decode_bytes(chunk, charset))
        else:
            out.append(chunk)
    text = "".join(out)
    return re.sub(r"\s*[\r\n]+\s*", " ", text).strip()


def _all_headers(msg: Message, name: str) -> list[str]:
    try:
        values = msg.get_all(name) or []
    except Exception:
        return []
    return [_decode_header_value(v) for v in values]


def _addresses(values: Iterable[str]) -> list[tuple[str, str]]:
    out = []
    for value in values:
        try:
            pairs = getaddresses([value])
        except Exception:
            continue
        for name, addr in pairs:
            addr = addr.strip().strip("<>")
            if "@" in addr and " " not in addr:
                local, _, domain = addr.rpartition("@")
                if local and domain:
                    out.append((name.strip(), f"{local}@{domain.lower()}"))
    return out


def _strip_comments(value: str) -> str:
    return re.sub(r"\([^)]*\)", "", value).strip().lower()


# --- the checks --------------------------------------------------------------

def _check_automatic(msg: Message, from_address: str) -> None:
    auto = _strip_comments(_header(msg, "Auto-Submitted"))
    if auto and auto.split(";")[0].strip() != "no":
        raise AutomaticMail("auto-submitted", f"Auto-Submitted: {auto}")
    # X-Auto-Response-Suppress is deliberately not a refusal: Exchange puts it
    # on mail people write too (it asks *us* not to auto-reply; see InboundMail).
    for name in ("X-Autoreply", "X-Autorespond", "X-Autoresponse"):
        if _header(msg, name):
            raise AutomaticMail("auto-reply", f"{name} present")
    precedence = _strip_comments(_header(msg, "Precedence"))
    if precedence in ("bulk", "junk", "list", "auto_reply"):
        raise AutomaticMail("bulk", f"Precedence: {precedence}")
    for name in ("List-Id", "List-Unsubscribe", "List-Post"):
        if _header(msg, name):
            raise AutomaticMail("list", f"{name} present")
    return_paths = _all_headers(msg, "Return-Path")
    if any(rp.strip() in ("<>", "") for rp in return_paths[:1]) and return_paths:
        raise AutomaticMail("bounce", "Return-Path: <>")
    local = from_address.rpartition("@")[0].lower()
    if local in ("mailer-daemon", "postmaster") or local.startswith("mailer-daemon"):
        raise AutomaticMail("bounce", f"sender {from_address}")
    try:
        ctype = msg.get_content_type()
    except Exception:
        ctype = ""
    if ctype == "multipart/report":
        raise AutomaticMail("bounce", "multipart/report")


def _check_loop(msg: Message, from_address: str, own: set[str], own_domain_bases: set[tuple[str, str]]) -> None:
    if msg.get(LOOP_HEADER) is not None:
        raise MailLoop(f"{LOOP_HEADER} present: our own mail came back")
    addr = from_address.lower()
    if addr in own:
        raise MailLoop(f"sent from our own address {addr}")
    local, _, domain = addr.rpartition("@")
    if (local.split("+", 1)[0], domain) in own_domain_bases:
        raise MailLoop(f"sent from our own address {addr}")
    try:
        hops = len(msg.get_all("Received") or [])
    except Exception:
        hops = 0
    if hops > _MAX_RECEIVED:
        raise MailLoop(f"{hops} Received headers")


# --- body --------------------------------------------------------------------

def _flowed(text: str, delsp: bool) -> str:
    """Undo RFC 3676 format=flowed, never joining across quote depths
    (:mod:`pbem.mail.flowed`)."""
    return decode_flowed(text, delsp=delsp)


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
    text = _decode_bytes(payload, charset)
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    try:
        fmt = (part.get_param("format") or "")
        delsp = (part.get_param("delsp") or "")
    except Exception:
        fmt, delsp = "", ""
    if isinstance(fmt, str) and fmt.lower() == "flowed":
        text = _flowed(text, isinstance(delsp, str) and delsp.lower() == "yes")
    return text


def _is_attachment(part: Message) -> bool:
    try:
        disp = (part.get("Content-Disposition") or "").split(";")[0].strip().lower()
    except Exception:
        return False
    return disp == "attachment"


def _body(msg: Message) -> tuple[str, bool]:
    """(text, from_html): the first inline text/plain with content, else the
    first text/html turned into text. Attachments are ignored."""
    plain: str | None = None
    html: str | None = None
    count = 0
    for part in msg.walk():
        count += 1
        if count > _MAX_PARTS:
            break
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
        return reply_text.html_to_text(html[:_MAX_BODY_CHARS]), True
    return "", False


def _looks_like_mail(raw: bytes) -> bool:
    head = raw.lstrip(b"\r\n")[:2000].split(b"\n", 1)[0]
    if head.startswith(b"From "):  # mbox separator line
        return True
    return re.match(rb"^[\x21-\x39\x3b-\x7e]+[ \t]*:", head) is not None


def _ids(value: str) -> tuple[str, ...]:
    return tuple(re.findall(r"<[^<>\s]{1,500}>", value))


def parse_inbound(raw: bytes, *, max_bytes: int = DEFAULT_MAX_BYTES, max_lines: int = DEFAULT_MAX_LINES,
                  max_order_lines: int = DEFAULT_MAX_ORDER_LINES,
                  own_addresses: Iterable[str] = ()) -> InboundMail:
    """Parse one RFC 5322 message (bytes, as an MTA delivers it).

    ``own_addresses`` are the service's sending and inbound addresses (e.g.
    ``"pbem@example.org"``, ``"play@example.org"``); mail from them, or from
    any ``+tag`` variant of them, is our own mail looping back.
    Returns an :class:`InboundMail`; raises an :class:`InboundRejected`
    subclass (:class:`Oversized`, :class:`TooManyLines`,
    :class:`MalformedMail`, :class:`MailLoop`, :class:`AutomaticMail`) and
    nothing else.
    """
    if not isinstance(raw, (bytes, bytearray, memoryview)):
        raise MalformedMail(f"expected bytes, got {type(raw).__name__}")
    raw = bytes(raw)
    if len(raw) > max_bytes:
        raise Oversized(f"{len(raw)} bytes > {max_bytes}")
    if raw.count(b"\n") + 1 > max_lines:
        raise TooManyLines(f"more than {max_lines} lines")
    if not raw.strip():
        raise MalformedMail("empty message")
    if not _looks_like_mail(raw):
        raise MalformedMail("does not start with a header")
    try:
        return _parse(raw, max_order_lines=max_order_lines, own_addresses=own_addresses)
    except InboundRejected:
        raise
    except RecursionError:
        raise MalformedMail("MIME nested too deeply") from None
    except Exception as exc:  # the last net: hostile input must not crash the worker
        raise MalformedMail(f"unparseable ({type(exc).__name__})") from None


def _parse(raw: bytes, *, max_order_lines: int, own_addresses: Iterable[str]) -> InboundMail:
    # compat32 never refuses a header; values are decoded by hand above.
    msg = message_from_bytes(raw, policy=_policy.compat32)
    defects = tuple(type(d).__name__ for d in (msg.defects or []))

    senders = _addresses(_all_headers(msg, "From")) or _addresses(_all_headers(msg, "Sender"))
    if not senders:
        raise MalformedMail("no sender address")
    from_name, from_address = senders[0]

    own = {a.strip().lower() for a in own_addresses if a and "@" in a}
    own_bases = {(a.rpartition("@")[0].split("+", 1)[0], a.rpartition("@")[2]) for a in own}
    _check_loop(msg, from_address, own, own_bases)
    _check_automatic(msg, from_address)

    recipients: list[str] = []
    for name in ("Delivered-To", "X-Original-To", "Envelope-To", "To", "Cc"):
        for _, addr in _addresses(_all_headers(msg, name)):
            addr = addr.lower()
            if addr not in recipients:
                recipients.append(addr)

    message_id = next(iter(_ids(_header(msg, "Message-ID"))), "")
    if not message_id:
        message_id = f"<{hashlib.sha256(raw).hexdigest()}@pbem.invalid>"
    date = None
    date_text = _header(msg, "Date")
    if date_text:
        try:
            date = parsedate_to_datetime(date_text)
            if date is not None and date.tzinfo is None:
                date = None
        except Exception:
            date = None

    body, from_html = _body(msg)
    body = body[:_MAX_BODY_CHARS]
    text = reply_text.extract_new_text(body)
    lines = text.split("\n") if text else []
    if len(lines) > max_order_lines:
        raise TooManyLines(f"{len(lines)} order lines > {max_order_lines}")
    for number, line in enumerate(lines, 1):
        if len(line) > MAX_ORDER_LINE_CHARS:
            raise TooManyLines(f"order line {number} is longer than {MAX_ORDER_LINE_CHARS} characters")

    return InboundMail(
        message_id=message_id,
        from_address=from_address,
        from_name=from_name,
        recipients=tuple(recipients),
        subject=_header(msg, "Subject"),
        text=text,
        body=body,
        in_reply_to=next(iter(_ids(_header(msg, "In-Reply-To"))), None),
        references=_ids(_header(msg, "References")),
        date=date,
        from_html=from_html,
        defects=defects,
        suppress_auto_response=frozenset(
            v.strip().upper() for v in _header(msg, "X-Auto-Response-Suppress").split(",") if v.strip()),
    )


def reply_target(mail: InboundMail, secret: str | bytes, inbound_address: str, *,
                 old_secrets: Iterable[str | bytes] = ()) -> tuple[int | str, int | str, str]:
    """The seat a reply is for: ``(game_id, seat_id, reply_address)`` from the
    first recipient that is a valid signed reply address.

    Raises :class:`pbem.mail.tokens.BadToken` when no recipient verifies.
    That the sender is the seat's own address is the service's check.
    """
    from .tokens import BadToken, parse_reply_address

    last: BadToken | None = None
    for addr in mail.recipients:
        try:
            game, seat = parse_reply_address(secret, inbound_address, addr, old_secrets=old_secrets)
        except BadToken as exc:
            last = exc
            continue
        return game, seat, addr
    raise BadToken(f"no signed reply address among the recipients ({last})" if last
                   else "no recipients")
