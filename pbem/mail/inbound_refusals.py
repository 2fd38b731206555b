"""Why an inbound message is refused: :class:`InboundRejected` and one
subclass per reason. A refused message is never answered (no mail loops).
"""
from __future__ import annotations


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
    """Larger than the byte limit."""

    reason = "oversized"


class TooManyLines(InboundRejected):
    """More raw lines, order lines, or a longer order line than the limits allow."""

    reason = "too-many-lines"


class TooComplex(InboundRejected):
    """Over a structural limit (:class:`pbem.mail.inbound_limits.Limits`):
    too many or too large header fields, recipients, MIME parts or part
    headers, or nesting too deep."""

    reason = "too-complex"


class MalformedMail(InboundRejected):
    """Not a mail message, or too broken to find its sender."""

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
    """Our own mail come back (see :mod:`pbem.mail.inbound_automatic`)."""

    reason = "loop"
