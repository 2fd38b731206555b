"""The local SMTP server of the embedded defaults (aiosmtpd).

It accepts every message, stores it as a raw ``.eml`` file in a directory
with a line in ``index.jsonl``, and hands every message addressed to the
inbound address (``play@host`` or any ``play+tag@host``) to ``on_inbound``,
the way an MTA pipes mail to a program: with ``Return-Path`` and
``Delivered-To`` headers prepended, once per inbound recipient.

When ``on_inbound`` raises, the SMTP answer is ``451`` so the sender tries
again (the message is still stored; the service dedupes by Message-ID).

Reading side: :func:`list_messages`, :func:`read_message`,
:func:`recipients` — usable without a running server (the /dev/mail page).
"""
from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import os
import re
import socket
import threading
import time
from dataclasses import asdict, dataclass, field
from email import message_from_bytes, policy
from email.header import decode_header, make_header
from email.utils import getaddresses
from pathlib import Path
from typing import Callable, Iterable

from aiosmtpd.controller import Controller

__all__ = ["MailSink", "StoredMail", "list_messages", "read_message", "recipients", "free_port",
           "is_inbound_address", "INDEX"]

log = logging.getLogger(__name__)

INDEX = "index.jsonl"
_ID_RE = re.compile(r"^[0-9]{8}T[0-9]{6}-[0-9]{6}-[0-9a-f]{8}$")
#: Biggest message the sink accepts (bytes); the inbound parser is stricter.
DATA_SIZE_LIMIT = 25 * 1024 * 1024


@dataclass(frozen=True)
class StoredMail:
    """One stored message. ``received_at`` is UNIX time (seconds, UTC);
    ``rcpt_to`` the envelope recipients; ``to``/``subject``/``from_``/
    ``message_id`` decoded headers for listing."""

    id: str
    file: str
    received_at: float
    mail_from: str
    rcpt_to: list[str]
    from_: str = ""
    to: list[str] = field(default_factory=list)
    subject: str = ""
    message_id: str = ""
    size: int = 0
    inbound: bool = False


def free_port(host: str = "127.0.0.1") -> int:
    """A TCP port that was free a moment ago on ``host``."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind((host, 0))
        return s.getsockname()[1]


def is_inbound_address(address: str, inbound_address: str) -> bool:
    """True when ``address`` is the inbound address or a ``+tag`` form of it
    (case-insensitive)."""
    local, _, domain = address.strip().strip("<>").lower().rpartition("@")
    ilocal, _, idomain = inbound_address.strip().lower().rpartition("@")
    return bool(local) and domain == idomain and local.split("+", 1)[0] == ilocal.split("+", 1)[0]


def _decode(value: str | None) -> str:
    if not value:
        return ""
    try:
        return str(make_header(decode_header(value)))
    except Exception:
        return str(value)


def _summary(raw: bytes) -> dict:
    try:
        msg = message_from_bytes(raw, policy=policy.compat32)
        return {
            "from_": _decode(msg.get("From")),
            "to": [a for _, a in getaddresses([_decode(v) for v in (msg.get_all("To") or [])])],
            "subject": _decode(msg.get("Subject")),
            "message_id": _decode(msg.get("Message-ID")).strip(),
        }
    except Exception:
        return {}


class _Handler:
    def __init__(self, sink: "MailSink"):
        self.sink = sink

    async def handle_DATA(self, server, session, envelope):  # aiosmtpd hook
        raw = envelope.original_content or envelope.content
        if isinstance(raw, str):
            raw = raw.encode("utf-8", "surrogateescape")
        mail_from = envelope.mail_from or ""
        rcpts = list(envelope.rcpt_tos)
        inbound = [r for r in rcpts if self.sink.inbound_address
                   and is_inbound_address(r, self.sink.inbound_address)]
        self.sink.store(raw, mail_from=mail_from, rcpt_to=rcpts, inbound=bool(inbound))
        if inbound and self.sink.on_inbound is not None:
            loop = asyncio.get_running_loop()
            for rcpt in inbound:
                delivered = (f"Return-Path: <{mail_from}>\r\nDelivered-To: {rcpt}\r\n").encode(
                    "utf-8", "replace") + raw
                try:
                    # The callback may touch a database: keep it off the event loop.
                    await loop.run_in_executor(None, self.sink.on_inbound, delivered)
                except Exception:
                    log.exception("inbound handler failed for a message to %s", rcpt)
                    return "451 4.3.0 Inbound processing failed; try again later"
        return "250 2.0.0 Message accepted"


class MailSink:
    """A running local SMTP server that keeps every message.

    ``directory`` is created when missing. ``port=0`` picks a free port
    (read :attr:`port` after :meth:`start`). ``inbound_address`` (e.g.
    ``"play@localhost"``) selects the mail handed to ``on_inbound(raw)``.
    Use as a context manager or call :meth:`start`/:meth:`stop`.
    """

    def __init__(self, directory: str | os.PathLike[str], *, host: str = "127.0.0.1", port: int = 8025,
                 inbound_address: str | None = None, on_inbound: Callable[[bytes], None] | None = None):
        self.directory = Path(directory)
        self.host = host
        self.port = port
        self.inbound_address = inbound_address
        self.on_inbound = on_inbound
        self._lock = threading.Lock()
        self._seq = 0
        self._controller: Controller | None = None

    # -- server --
    def start(self) -> "MailSink":
        self.directory.mkdir(parents=True, exist_ok=True)
        if self.port == 0:
            self.port = free_port(self.host)
        self._controller = Controller(_Handler(self), hostname=self.host, port=self.port,
                                      data_size_limit=DATA_SIZE_LIMIT, enable_SMTPUTF8=True,
                                      server_hostname="pbem-sink", ready_timeout=10)
        self._controller.start()
        log.info("mail sink listening on %s:%s, storing in %s", self.host, self.port, self.directory)
        return self

    def stop(self) -> None:
        if self._controller is not None:
            self._controller.stop()
            self._controller = None

    def __enter__(self) -> "MailSink":
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()

    # -- storage --
    def store(self, raw: bytes, *, mail_from: str, rcpt_to: Iterable[str], inbound: bool = False) -> StoredMail:
        """Write one message and its index line; returns its record."""
        with self._lock:
            self._seq = (self._seq + 1) % 1_000_000
            now = time.time()
            digest = hashlib.sha256(raw).hexdigest()[:8]
            mid = f"{time.strftime('%Y%m%dT%H%M%S', time.gmtime(now))}-{self._seq:06d}-{digest}"
            name = f"{mid}.eml"
            self.directory.mkdir(parents=True, exist_ok=True)
            tmp = self.directory / f".{name}.tmp"
            tmp.write_bytes(raw)
            os.replace(tmp, self.directory / name)  # a reader never sees half a file
            record = StoredMail(id=mid, file=name, received_at=now, mail_from=mail_from,
                                rcpt_to=list(rcpt_to), size=len(raw), inbound=inbound, **_summary(raw))
            with open(self.directory / INDEX, "a", encoding="utf-8") as fh:
                fh.write(json.dumps(asdict(record), ensure_ascii=False) + "\n")
            return record


def list_messages(directory: str | os.PathLike[str], *, recipient: str | None = None,
                  limit: int | None = None) -> list[StoredMail]:
    """Stored messages, newest first; only those whose envelope recipients
    or To header include ``recipient`` (case-insensitive) when given.
    A missing directory or index gives ``[]``; damaged index lines are skipped."""
    path = Path(directory) / INDEX
    try:
        lines = path.read_text("utf-8", errors="replace").splitlines()
    except FileNotFoundError:
        return []
    out: list[StoredMail] = []
    want = recipient.lower() if recipient else None
    for line in reversed(lines):
        try:
            rec = StoredMail(**json.loads(line))
        except Exception:
            continue
        if want and want not in {a.lower() for a in (*rec.rcpt_to, *rec.to)}:
            continue
        out.append(rec)
        if limit is not None and len(out) >= limit:
            break
    return out


def read_message(directory: str | os.PathLike[str], message_id: str) -> bytes:
    """The raw bytes of one stored message. Raises ``KeyError`` for an id
    that is malformed or not stored (never reads outside ``directory``)."""
    if not _ID_RE.match(message_id or ""):
        raise KeyError(message_id)
    try:
        return (Path(directory) / f"{message_id}.eml").read_bytes()
    except FileNotFoundError:
        raise KeyError(message_id) from None


def recipients(directory: str | os.PathLike[str]) -> list[tuple[str, int, float]]:
    """``(address, message count, newest received_at)`` for every envelope
    recipient, most recently mailed first."""
    seen: dict[str, list] = {}
    for rec in list_messages(directory):
        for addr in rec.rcpt_to:
            key = addr.lower()
            if key not in seen:
                seen[key] = [addr, 0, rec.received_at]
            seen[key][1] += 1
    return [tuple(v) for v in sorted(seen.values(), key=lambda v: -v[2])]
