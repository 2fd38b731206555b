"""A real local SMTP server for tests (aiosmtpd) that can refuse mail."""
from __future__ import annotations

import socket
from email import message_from_bytes, policy

from aiosmtpd.controller import Controller


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Recorder:
    """Accepts mail after refusing the first ``refuse`` messages with 451."""

    def __init__(self, refuse: int = 0):
        self.refuse = refuse
        self.refused = 0
        self.messages: list[tuple[list[str], bytes]] = []
        self.senders: list[str] = []  # MAIL FROM of each accepted message

    async def handle_DATA(self, server, session, envelope):
        if self.refused < self.refuse:
            self.refused += 1
            return "451 4.3.0 try again later"
        self.messages.append((list(envelope.rcpt_tos), envelope.original_content or envelope.content))
        self.senders.append(envelope.mail_from)
        return "250 OK"

    def parsed(self):
        return [(rcpt, message_from_bytes(raw, policy=policy.default)) for rcpt, raw in self.messages]


class SMTPServer:
    def __init__(self, refuse: int = 0):
        self.handler = Recorder(refuse)
        self.port = free_port()
        self.controller = Controller(self.handler, hostname="127.0.0.1", port=self.port)

    def __enter__(self) -> "SMTPServer":
        self.controller.start()
        return self

    def __exit__(self, *exc) -> None:
        self.controller.stop()
