"""Reading bounces: RFC 3464 delivery status notifications.

:func:`read_dsn` finds the ``message/delivery-status`` part of a bounce
(``multipart/report; report-type=delivery-status``, RFC 6522) and returns
each recipient's action, status and the server's words. A hard bounce is
``Action: failed`` with a 5.x.x status (RFC 3463); 4.x.x is a delay that the
sending server retries on its own. Bounces that are not RFC 3464 (plain text
from old servers) give no entries: pbem does not guess from prose.
"""
from __future__ import annotations

from dataclasses import dataclass
from email import message_from_bytes, policy
from email.message import Message

#: a bounce bigger than this is not read (a DSN is a few kB plus the returned headers)
MAX_DSN_BYTES = 512 * 1024


@dataclass(frozen=True)
class Delivery:
    """One recipient's fate: ``recipient`` (address), ``action``
    (``failed``, ``delayed``, ``delivered``, ``relayed``, ``expanded``),
    ``status`` (``5.1.1``) and ``diagnostic`` (the remote server's words)."""

    recipient: str
    action: str
    status: str
    diagnostic: str

    @property
    def hard(self) -> bool:
        """A permanent failure: the address does not take mail."""
        return self.action == "failed" and self.status.startswith("5")


def _field(block: Message, name: str) -> str:
    value = str(block.get(name, "") or "")
    value = value.split(";", 1)[1] if ";" in value else value  # "rfc822; bob@x" -> "bob@x"
    return " ".join(value.split())[:300]


def read_dsn(raw: bytes) -> list[Delivery]:
    """The per-recipient entries of the RFC 3464 report in ``raw``; empty
    when ``raw`` is no such report (or too big to be one)."""
    if len(raw) > MAX_DSN_BYTES:
        return []
    msg = message_from_bytes(raw, policy=policy.compat32)
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
                                    _field(block, "Status"), _field(block, "Diagnostic-Code")))
    return out
