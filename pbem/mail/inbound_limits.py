"""Cheap structural limits on one raw inbound message, checked before any
parser sees it.

The stdlib's MIME parser costs about 12 µs per part and 2.5 µs per header
line, its parameter parser (``get_param``, ``get_content_charset``) is
quadratic in the length of a header, and its address parsers are quadratic
in the length of an address list. A 2 MiB message can hold 170,000 parts or
an 80,000-address ``To:``. Each check here is a few passes of C code over the
bytes (``bytes.count``/``find`` and one pass over the top header block), so
any message up to the size limit is measured in a few milliseconds, and what
the parser is then given is small (``pbem bench inbound`` measures it).

:func:`check_raw` raises :class:`StructureLimit` (a ``ValueError``) with a
line for the log; :func:`check_tree` does the same on the parsed tree
(parts, nesting, part headers) before anything reads a part's parameters.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from email.message import Message

__all__ = ["Limits", "StructureLimit", "DeliveryReport", "check_raw", "check_tree", "top_headers", "count_lines",
           "ADDRESS_FIELDS"]

#: header fields whose addresses are recipients (``recipients`` of a mail)
ADDRESS_FIELDS = ("delivered-to", "x-original-to", "envelope-to", "to", "cc")


class StructureLimit(ValueError):
    """The message is over one of the :class:`Limits`."""


class DeliveryReport(StructureLimit):
    """A ``message/delivery-status`` part: a bounce, never orders (the
    parser would read its header blocks until the part ends)."""


@dataclass(frozen=True)
class Limits:
    """What one inbound message may hold. Sizes in bytes (of the raw,
    still folded header); every figure is far above what a mail client
    writes."""

    #: header fields of the message itself (40 ``Received`` are a loop already)
    header_fields: int = 300
    #: lines of the top header block, folded continuation lines included
    header_lines: int = 2000
    #: bytes of the top header block
    header_bytes: int = 256 * 1024
    #: one header field, folded (a long ``References:`` of a long thread fits)
    field_bytes: int = 32 * 1024
    #: ``From:`` and ``Sender:`` (RFC 5322 allows 998 characters a line)
    sender_field_bytes: int = 998
    #: addresses in To, Cc and the envelope fields together (counted as ``@``)
    recipients: int = 100
    #: bytes of To, Cc and the envelope fields together (100 addresses with names)
    recipient_bytes: int = 16 * 1024
    #: lines beginning ``--`` in a multipart message (an upper bound of parts)
    delimiter_lines: int = 1000
    #: header lines of every MIME part header block together
    part_header_lines: int = 5000
    #: one MIME part's header block (a parameter list costs the parser
    #: quadratic time: ``get_param`` on 16 KiB of them takes 25 ms)
    part_header_bytes: int = 4 * 1024
    #: every MIME part header block together
    part_header_total_bytes: int = 64 * 1024
    #: parameters of one Content-Type or Content-Disposition (the parser
    #: reads them in quadratic time, three times a text part)
    header_params: int = 64
    #: parts in the parsed tree (the message itself counts)
    parts: int = 200
    #: multipart/message nesting
    depth: int = 10


def count_lines(raw: bytes) -> int:
    """Lines as the stdlib parser splits them: CRLF, LF and a lone CR each
    end one."""
    return raw.count(b"\n") + raw.count(b"\r") - raw.count(b"\r\n") + 1


_BLANK_LINE = re.compile(rb"(?>\r\n|\n|\r)(?>\r\n|\n|\r)")


def _block_end(raw: bytes, start: int, cap: int, what: str) -> int:
    """Offset just past the header block starting at ``start`` (its ending
    blank line, or the end of the message); looks at most ``cap`` bytes
    ahead and raises :class:`StructureLimit` when the block is longer."""
    if raw.startswith((b"\r\n", b"\n", b"\r"), start):
        return start  # no headers at all
    window = start + cap + 4
    m = _BLANK_LINE.search(raw, start, window)
    end = m.end() if m else len(raw)
    if end - start > cap or (m is None and window < len(raw)):
        raise StructureLimit(f"{what} longer than {cap} bytes")
    return end


def top_headers(raw: bytes, limits: Limits) -> list[tuple[str, bytes]]:
    """The top header block as ``(lower-case name, raw folded value)``
    pairs, in order; raises :class:`StructureLimit` over the header limits."""
    block = raw[:_block_end(raw, 0, limits.header_bytes, "the header block")]
    if count_lines(block) > limits.header_lines:
        raise StructureLimit(f"header block of more than {limits.header_lines} lines")
    pieces: list[tuple[str, list[bytes]]] = []  # joined once at the end: no quadratic concatenation
    for line in block.splitlines(keepends=True):
        if line[:1] in (b" ", b"\t") and pieces:
            pieces[-1][1].append(line)
        elif line.startswith(b"From ") and not pieces:
            continue  # mbox separator
        else:
            name, sep, value = line.partition(b":")
            if not sep:
                continue
            pieces.append((name.strip().decode("latin-1").lower(), [value]))
            if len(pieces) > limits.header_fields:
                raise StructureLimit(f"more than {limits.header_fields} header fields")
    fields = [(name, b"".join(parts)) for name, parts in pieces]
    for name, value in fields:
        cap = limits.sender_field_bytes if name in ("from", "sender") else limits.field_bytes
        if len(value) > cap:
            raise StructureLimit(f"{name}: header of {len(value)} bytes > {cap}")
    address_values = [value for name, value in fields if name in ADDRESS_FIELDS]
    at_signs = sum(value.count(b"@") for value in address_values)
    if at_signs > limits.recipients:
        raise StructureLimit(f"{at_signs} recipient addresses > {limits.recipients}")
    size = sum(len(value) for value in address_values)
    if size > limits.recipient_bytes:
        raise StructureLimit(f"recipient fields of {size} bytes > {limits.recipient_bytes}")
    return fields


def _line_starts(raw: bytes, prefix: bytes, cap: int) -> list[int]:
    """Offsets of the lines that begin with ``prefix`` (at most ``cap + 1``)."""
    found = [0] if raw.startswith(prefix) else []
    for sep in (b"\n" + prefix, b"\r" + prefix):
        pos = raw.find(sep)
        while pos >= 0 and len(found) <= cap:
            found.append(pos + 1)
            pos = raw.find(sep, pos + 1)
    return sorted(found)


_LINE_END = re.compile(rb"\r\n|\n|\r")


def _header_chain(raw: bytes, start: int, cap: int, limits: Limits,
                  reports: bool = False) -> tuple[int, int, int]:
    """``(end, lines, bytes)`` of the header block at ``start`` and, while a
    block declares a ``message/*`` type, of the message header block after
    it (an attached message's own headers). A ``message/delivery-status``
    block raises :class:`DeliveryReport`, or with ``reports`` ends the
    chain (its per-recipient blocks are counted as parts by
    :func:`check_tree`)."""
    lines = size = 0
    while True:
        end = _block_end(raw, start, cap, "a MIME part header")
        block = raw[start:end].lower()
        lines += count_lines(block)
        size += end - start
        if b"delivery-status" in block:
            if reports:
                return end, lines, size
            # the parser reads header blocks until the part ends: a delivery report, never orders
            raise DeliveryReport("message/delivery-status (a delivery report)")
        if b"message/" not in block or end >= len(raw):
            return end, lines, size
        start, cap = end, limits.header_bytes


def check_raw(raw: bytes, limits: Limits = Limits(), *, reports: bool = False) -> list[tuple[str, bytes]]:
    """Every limit that can be read from the bytes alone; returns the top
    header fields (:func:`top_headers`). The size and line limits are the
    caller's (they come first). A delivery report raises
    :class:`DeliveryReport` unless ``reports`` (mail to a bounce address:
    the same limits, and a report is what it should hold)."""
    fields = top_headers(raw, limits)
    lowered = raw.lower()
    if b"multipart/" not in lowered and b"message/" not in lowered:
        return fields  # one header block: the parser makes no parts
    # Every part starts at a line "--boundary"; each is followed by a header block.
    starts = _line_starts(raw, b"--", limits.delimiter_lines)
    if len(starts) > limits.delimiter_lines:
        raise StructureLimit(f"more than {limits.delimiter_lines} lines begin with '--' (MIME parts)")
    top_end = _block_end(raw, 0, limits.header_bytes, "the header block")
    scanned, lines, size = top_end, 0, 0
    if b"message/" in lowered[:top_end]:
        scanned, lines, size = _header_chain(raw, top_end, limits.header_bytes, limits, reports)
    for start in starts:
        _check_part_totals(lines, size, limits)
        if start < scanned:
            continue  # inside a block already counted
        eol = _LINE_END.search(raw, start, start + 1000)
        if eol is None:
            continue  # no delimiter line is that long
        scanned, more, more_bytes = _header_chain(raw, eol.end(), limits.part_header_bytes, limits, reports)
        lines, size = lines + more, size + more_bytes
    _check_part_totals(lines, size, limits)
    return fields


def _check_part_totals(lines: int, size: int, limits: Limits) -> None:
    if lines > limits.part_header_lines:
        raise StructureLimit(f"more than {limits.part_header_lines} MIME part header lines")
    if size > limits.part_header_total_bytes:
        raise StructureLimit(f"MIME part headers of more than {limits.part_header_total_bytes} bytes")


def check_tree(msg: Message, limits: Limits = Limits()) -> None:
    """Parts, nesting and part header sizes of the parsed tree, walked
    without recursion; before anything parses a part's parameters."""
    stack: list[tuple[Message, int]] = [(msg, 1)]
    count = 0
    while stack:
        part, depth = stack.pop()
        count += 1
        if count > limits.parts:
            raise StructureLimit(f"more than {limits.parts} MIME parts")
        if depth > limits.depth:
            raise StructureLimit(f"MIME nested more than {limits.depth} deep")
        headers = list(part.raw_items())  # as stored: no decoding
        if len(headers) > limits.header_fields:
            raise StructureLimit(f"a MIME part with more than {limits.header_fields} header fields")
        for name, value in headers:
            if not isinstance(value, str):
                continue
            if len(value) > limits.field_bytes:
                raise StructureLimit(f"a MIME part header of {len(value)} characters > {limits.field_bytes}")
            if name.lower() in ("content-type", "content-disposition") and value.count(";") > limits.header_params:
                raise StructureLimit(f"{name}: more than {limits.header_params} parameters")
        if part.is_multipart():  # multipart/* and message/*: a list of parts
            stack.extend((p, depth + 1) for p in part.get_payload() if isinstance(p, Message))
