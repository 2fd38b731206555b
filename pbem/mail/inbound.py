"""Parse one inbound RFC 5322 message into the order text and the headers
the service needs, or refuse it with a typed :class:`InboundRejected`.

Refused (never answered, so no mail loops):
- larger than ``max_bytes`` or more than ``max_lines`` raw lines;
- over the structural limits of :mod:`pbem.mail.inbound_limits` (header
  fields and sizes, recipients, MIME parts, part headers, nesting), checked
  on the bytes before the parser runs (:class:`TooComplex`);
- not a mail message at all, or MIME too broken to find a sender;
- our own mail coming back (``X-PBEM-Loop`` header, sent from one of our
  addresses, or too many ``Received`` hops);
- automatic mail per RFC 3834 and common practice: ``Auto-Submitted`` other
  than ``no``, ``X-Auto-Response-Suppress``, ``X-Autoreply``/``X-Autorespond``,
  ``Precedence: bulk/junk/list/auto_reply``, ``List-Id``/``List-Unsubscribe``,
  bounces (``Return-Path: <>``, ``MAILER-DAEMON``/``postmaster`` senders,
  ``multipart/report`` delivery reports).

The sender is read from the raw ``From:`` by the email package's address
parser (:mod:`pbem.mail.inbound_addresses`), never from a display name.

Everything else is accepted; the body is decoded whatever its charset
claims (unknown or broken bytes become U+FFFD), HTML-only mail is turned
into text, and only the newly written text is kept (see
:mod:`pbem.mail.reply_text`). Apart from ``InboundRejected`` nothing is
raised for any input bytes.
"""
from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field
from datetime import datetime
from email import message_from_bytes, policy as _policy
from email.message import Message
from email.parser import BytesHeaderParser
from email.utils import parsedate_to_datetime
from typing import Iterable, NoReturn

from . import inbound_addresses, inbound_limits, reply_text
from .inbound_automatic import LOOP_HEADER, check_automatic, check_loop
from .inbound_body import MAX_STRIPPED_CHARS, body_text, head_and_tail
from .inbound_headers import MAX_DECODED_HEADER_CHARS, header, message_ids, raw_header, raw_values
from .inbound_refusals import (AutomaticMail, InboundRejected, MailLoop, MalformedMail, Oversized, TooComplex,
                               TooManyLines)

__all__ = [
    "InboundMail", "InboundRejected", "Oversized", "TooManyLines", "TooComplex", "MalformedMail",
    "AutomaticMail", "MailLoop", "parse_inbound", "LOOP_HEADER", "reply_target", "check_limits",
    "MAX_STRIPPED_CHARS", "MAX_DECODED_HEADER_CHARS", "DEFAULT_MAX_BYTES", "DEFAULT_MAX_LINES",
    "DEFAULT_MAX_ORDER_LINES", "MAX_ORDER_LINE_CHARS",
]

#: 2 MiB: room for a phone reply that quotes our board picture back.
DEFAULT_MAX_BYTES = 2 * 1024 * 1024
#: Raw lines (base64 of 2 MiB is about 28,000 lines; the MIME parser
#: spends about 0.6 µs a body line).
DEFAULT_MAX_LINES = 40_000
#: Order text after quotes and signatures are removed.
DEFAULT_MAX_ORDER_LINES = 100
MAX_ORDER_LINE_CHARS = 1000
_MAX_BODY_CHARS = 400_000  # decoded text kept (InboundMail.body)
_MAX_AUTH_RESULTS = 10


@dataclass(frozen=True)
class InboundMail:
    """One accepted inbound message.

    ``message_id`` keeps its angle brackets; when the message has none, a
    stable ``<sha256@pbem.invalid>`` of the raw bytes is used so a duplicate
    delivery still dedupes. ``from_address`` is the bare address of the
    first ``From:`` mailbox (domain lower-cased), ``from_addresses`` every
    one (RFC 5322 allows several authors), ``sender_address`` the address
    of ``Sender:`` (``""`` when present but unreadable, ``None`` when
    absent); :attr:`author` is the one address the mail is from, or
    ``None``. ``from_name`` is the display name, decoded: written by
    whoever sent the mail, so for logs only, never for mail.
    ``auth_results`` holds the raw ``Authentication-Results`` values,
    topmost first (see :mod:`pbem.mail.authresults`). ``recipients`` lists every address the mail was delivered
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
    from_addresses: tuple[str, ...] = ()
    sender_address: str | None = None
    auth_results: tuple[str, ...] = ()

    @property
    def author(self) -> str | None:
        """The one address this mail is from: the only ``From:`` address
        when ``Sender:`` is absent or names the same one. ``None`` when
        ``From:`` names several, or ``Sender:`` another or none readable:
        then no seat can be sure the mail is its own."""
        addrs = self.from_addresses or (self.from_address,)
        if len(addrs) != 1:
            return None
        if self.sender_address is not None and self.sender_address.lower() != addrs[0].lower():
            return None
        return addrs[0]


def _looks_like_mail(raw: bytes) -> bool:
    head = raw.lstrip(b"\r\n")[:2000].split(b"\n", 1)[0]
    if head.startswith(b"From "):  # mbox separator line
        return True
    return re.match(rb"^[\x21-\x39\x3b-\x7e]+[ \t]*:", head) is not None


def parse_inbound(raw: bytes, *, max_bytes: int = DEFAULT_MAX_BYTES, max_lines: int = DEFAULT_MAX_LINES,
                  max_order_lines: int = DEFAULT_MAX_ORDER_LINES,
                  own_addresses: Iterable[str] = (),
                  limits: inbound_limits.Limits = inbound_limits.Limits()) -> InboundMail:
    """Parse one RFC 5322 message (bytes, as an MTA delivers it).

    ``own_addresses`` are the service's sending and inbound addresses (e.g.
    ``"pbem@example.org"``, ``"play@example.org"``); mail from them, or from
    any ``+tag`` variant of them, is our own mail looping back. ``limits``
    are the structural limits checked before the parser runs.
    Returns an :class:`InboundMail`; raises an :class:`InboundRejected`
    subclass (:class:`Oversized`, :class:`TooManyLines`, :class:`TooComplex`,
    :class:`MalformedMail`, :class:`MailLoop`, :class:`AutomaticMail`) and
    nothing else.
    """
    fields = check_limits(raw, max_bytes=max_bytes, max_lines=max_lines, limits=limits)
    raw = bytes(raw)
    try:
        msg = message_from_bytes(raw, policy=_policy.compat32)  # never refuses a header
        inbound_limits.check_tree(msg, limits)
        return _parse(raw, msg, fields, max_order_lines=max_order_lines, own_addresses=own_addresses)
    except InboundRejected:
        raise
    except inbound_limits.StructureLimit as exc:
        raise TooComplex(str(exc)) from None
    except RecursionError:
        raise MalformedMail("MIME nested too deeply") from None
    except Exception as exc:  # the last net: hostile input must not crash the worker
        raise MalformedMail(f"unparseable ({type(exc).__name__})") from None


def check_limits(raw: bytes, *, max_bytes: int = DEFAULT_MAX_BYTES, max_lines: int = DEFAULT_MAX_LINES,
                 limits: inbound_limits.Limits = inbound_limits.Limits(),
                 reports: bool = False) -> list[tuple[str, bytes]]:
    """The limits every inbound message meets before any parser reads it
    (size, lines, a header first, :func:`inbound_limits.check_raw`):
    returns the top header fields ``(lower-case name, raw value)``. Raises
    :class:`Oversized`, :class:`TooManyLines`, :class:`MalformedMail`,
    :class:`TooComplex`, and for a delivery report :class:`AutomaticMail`
    unless ``reports`` (mail to a bounce address); nothing else."""
    if not isinstance(raw, (bytes, bytearray, memoryview)):
        raise MalformedMail(f"expected bytes, got {type(raw).__name__}")
    raw = bytes(raw)
    if len(raw) > max_bytes:
        raise Oversized(f"{len(raw)} bytes > {max_bytes}")
    if inbound_limits.count_lines(raw) > max_lines:
        raise TooManyLines(f"more than {max_lines} lines")
    if not raw.strip():
        raise MalformedMail("empty message")
    if not _looks_like_mail(raw):
        raise MalformedMail("does not start with a header")
    try:
        return inbound_limits.check_raw(raw, limits, reports=reports)
    except InboundRejected:
        raise
    except inbound_limits.DeliveryReport as exc:
        _delivery_report(raw, str(exc))
    except inbound_limits.StructureLimit as exc:
        raise TooComplex(str(exc)) from None
    except Exception as exc:  # the last net: hostile input must not crash the worker
        raise MalformedMail(f"unparseable ({type(exc).__name__})") from None


def _delivery_report(raw: bytes, detail: str) -> NoReturn:
    """Refuse a delivery report as automatic mail, by the first of its
    headers that says so (only its top header block is parsed)."""
    head = BytesHeaderParser(policy=_policy.compat32).parsebytes(raw)
    from_value = head.get("From")
    senders = inbound_addresses.mailboxes(from_value) if isinstance(from_value, str) else []
    check_automatic(head, senders[0][1] if senders else "")
    raise AutomaticMail("bounce", detail)


def _senders(fields: list[tuple[str, bytes]]) -> tuple[str, tuple[str, ...], str | None]:
    """``(from_name, from_addresses, sender_address)`` from the raw header."""
    from_values, sender_values = raw_values(fields, "from"), raw_values(fields, "sender")
    if len(from_values) > 1 or len(sender_values) > 1:  # RFC 5322 §3.6: one each at most
        raise MalformedMail(f"{len(from_values)} From and {len(sender_values)} Sender fields")
    authors = inbound_addresses.mailboxes(from_values[0]) if from_values else []
    if not authors:
        raise MalformedMail("no readable From address")
    sender: str | None = None
    if sender_values:
        found = [a for v in sender_values for _n, a in inbound_addresses.mailboxes(v)]
        sender = found[0] if len(found) == 1 else ""
    name = authors[0][0].encode("utf-8", "replace").decode("utf-8")  # undecodable bytes arrive as surrogates
    return name, tuple(addr for _n, addr in authors), sender


def _parse(raw: bytes, msg: Message, fields: list[tuple[str, bytes]], *, max_order_lines: int,
           own_addresses: Iterable[str]) -> InboundMail:
    """The :class:`InboundMail` of a parsed message within the limits, once
    it is known to be no loop and no automatic mail."""
    from_name, from_addresses, sender_address = _senders(fields)
    _check_not_ours(msg, (*from_addresses, *([sender_address] if sender_address else [])), own_addresses)
    check_automatic(msg, from_addresses[0])
    body, from_html = body_text(msg)
    body = body[:_MAX_BODY_CHARS]
    return InboundMail(
        message_id=_message_id(raw, msg),
        from_address=from_addresses[0],
        from_name=from_name,
        # envelope fields first (the MTA's own), then To and Cc
        recipients=tuple(inbound_addresses.recipients(
            [v for name in inbound_limits.ADDRESS_FIELDS for v in raw_values(fields, name)])),
        subject=header(msg, "Subject"),
        text=_order_text(body, max_order_lines),
        body=body,
        in_reply_to=next(iter(message_ids(raw_header(fields, "in-reply-to"))), None),
        references=message_ids(raw_header(fields, "references")),
        date=_date(msg),
        from_html=from_html,
        defects=tuple(type(d).__name__ for d in (msg.defects or [])),
        suppress_auto_response=frozenset(
            v.strip().upper() for v in header(msg, "X-Auto-Response-Suppress").split(",") if v.strip()),
        from_addresses=from_addresses,
        sender_address=sender_address,
        auth_results=tuple(inbound_addresses.unfold(v) for v in
                           raw_values(fields, "authentication-results")[:_MAX_AUTH_RESULTS]),
    )


def _check_not_ours(msg: Message, addresses: Iterable[str], own_addresses: Iterable[str]) -> None:
    """Raise :class:`MailLoop` when any of ``addresses`` (From and Sender)
    is one of ``own_addresses`` or a ``+tag`` of one, or ``msg`` otherwise
    shows it is our own mail come back."""
    own = {a.strip().lower() for a in own_addresses if a and "@" in a}
    own_bases = {(a.rpartition("@")[0].split("+", 1)[0], a.rpartition("@")[2]) for a in own}
    for address in addresses:
        check_loop(msg, address, own, own_bases)


def _message_id(raw: bytes, msg: Message) -> str:
    """The Message-ID with its angle brackets; without one a stable
    ``<sha256@pbem.invalid>`` of ``raw``, so a duplicate delivery dedupes."""
    found = next(iter(message_ids(header(msg, "Message-ID"))), "")
    return found or f"<{hashlib.sha256(raw).hexdigest()}@pbem.invalid>"


def _date(msg: Message) -> datetime | None:
    """The Date header, timezone-aware, or ``None`` (absent, unreadable or without zone)."""
    date_text = header(msg, "Date")
    if not date_text:
        return None
    try:
        date = parsedate_to_datetime(date_text)
    except Exception:
        return None
    return date if date is not None and date.tzinfo is not None else None


def _order_text(body: str, max_order_lines: int) -> str:
    """The newly written text of ``body`` (:func:`reply_text.extract_new_text`
    of its first and last part). Raises :class:`TooManyLines` over
    ``max_order_lines`` lines or a line over :data:`MAX_ORDER_LINE_CHARS`."""
    text = reply_text.extract_new_text(head_and_tail(body, MAX_STRIPPED_CHARS))
    lines = text.split("\n") if text else []
    if len(lines) > max_order_lines:
        raise TooManyLines(f"{len(lines)} order lines > {max_order_lines}")
    for number, line in enumerate(lines, 1):
        if len(line) > MAX_ORDER_LINE_CHARS:
            raise TooManyLines(f"order line {number} is longer than {MAX_ORDER_LINE_CHARS} characters")
    return text


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
