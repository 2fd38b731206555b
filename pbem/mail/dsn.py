"""Reading bounces: RFC 3464 delivery status notifications.

:func:`read_dsn` finds the ``message/delivery-status`` part of a bounce
(``multipart/report; report-type=delivery-status``, RFC 6522) and returns
each recipient's action, status and the server's words. A hard bounce is
``Action: failed`` with a 5.x.x status (RFC 3463); 4.x.x is a delay that the
sending server retries on its own. Bounces that are not RFC 3464 (plain text
from old servers) give no entries: pbem does not guess from prose.
"""
from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from email import message_from_bytes, policy
from email.message import Message

from .inbound_limits import Limits, check_tree

#: a bounce bigger than this is not read (a DSN is a few kB plus the returned headers)
MAX_DSN_BYTES = 512 * 1024
#: RFC 3463 status codes: class, subject, detail (``5.1.1``)
_STATUS = re.compile(r"[245]\.\d{1,3}\.\d{1,3}")


@dataclass(frozen=True)
class Delivery:
    """One recipient's fate: ``recipient`` (address), ``action``
    (``failed``, ``delayed``, ``delivered``, ``relayed``, ``expanded``),
    ``status`` (``5.1.1``; ``""`` when the report's is not an RFC 3463
    code) and ``diagnostic`` (the remote server's words: whoever wrote the
    report chose them, so for the log only). Every field is printable text
    (control, format and surrogate characters are dropped)."""

    recipient: str
    action: str
    status: str
    diagnostic: str

    @property
    def hard(self) -> bool:
        """A permanent failure: the address does not take mail."""
        return self.action == "failed" and self.status.startswith("5")


def printable(value: str) -> str:
    """``value`` without control, format, surrogate, private-use or
    unassigned characters (a NUL cannot be stored in PostgreSQL text, a lone
    surrogate cannot be encoded), whitespace runs made one space."""
    kept = "".join(c if unicodedata.category(c)[0] != "C" else " " for c in value)
    return " ".join(kept.split())


def _field(block: Message, name: str) -> str:
    value = str(block.get(name, "") or "")
    value = value.split(";", 1)[1] if ";" in value else value  # "rfc822; bob@x" -> "bob@x"
    return printable(value)[:300]


def _status(block: Message) -> str:
    value = _field(block, "Status")
    return value if _STATUS.fullmatch(value) else ""


def read_dsn(raw: bytes, limits: Limits = Limits()) -> list[Delivery]:
    """The per-recipient entries of the RFC 3464 report in ``raw``; empty
    when ``raw`` is no such report, too big to be one, over ``limits``
    (parts, nesting: :func:`pbem.mail.inbound_limits.check_tree`) or
    unparseable. Never raises for any bytes."""
    if len(raw) > MAX_DSN_BYTES:
        return []
    try:
        msg = message_from_bytes(raw, policy=policy.compat32)
        check_tree(msg, limits)
        return _deliveries(msg)
    except Exception:  # StructureLimit, RecursionError, anything: a report is written by
        return []  # whoever sent it, and nothing in it may fail the ingest


def _deliveries(msg: Message) -> list[Delivery]:
    out: list[Delivery] = []
    for part in msg.walk():
        if part.get_content_type() != "message/delivery-status":
            continue
        blocks = part.get_payload()
        if not isinstance(blocks, list):
            continue
        for block in blocks[1:]:  # the first block is about the message, the rest per recipient
            recipient = _field(block, "Final-Recipient") or _field(block, "Original-Recipient")
            if recipient:
                out.append(Delivery(recipient.strip("<> ").lower(), _field(block, "Action").lower(),
                                    _status(block), _field(block, "Diagnostic-Code")))
    return out
