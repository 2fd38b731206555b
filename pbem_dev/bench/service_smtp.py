"""A discarding SMTP server for ``pbem bench service``: accepts every message
and keeps none, so outbox delivery does its real work (SMTP over TCP) without
the bench filling memory. Run: ``python -m pbem_dev.bench.service_smtp PORT``; it stops
by itself after ``--max-seconds`` (default one hour) so it can never linger.

``--report UDP_PORT``: for every message accepted, one datagram to
127.0.0.1:UDP_PORT, ``"<time.monotonic()> <envelope sender>"`` (the sender
is the outbox row's VERP bounce address, so the bench knows which notice
arrived and when; CLOCK_MONOTONIC is the same clock in every process).
"""
from __future__ import annotations

import argparse
import socket
import time

from aiosmtpd.controller import Controller


class Discard:
    received = 0

    def __init__(self, report_port: int | None = None):
        self.report = None
        if report_port:
            self.report = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
            self.report.connect(("127.0.0.1", report_port))

    async def handle_DATA(self, server, session, envelope):  # noqa: N802 (aiosmtpd's name)
        Discard.received += 1
        if self.report is not None:
            try:
                self.report.send(f"{time.monotonic():.6f} {envelope.mail_from}".encode())
            except OSError:
                pass  # the bench is gone or busy: a lost report is a notice not timed
        return "250 OK"


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("port", type=int)
    ap.add_argument("--max-seconds", type=float, default=3600.0)
    ap.add_argument("--report", type=int, default=None, help="UDP port told of every message accepted")
    args = ap.parse_args()
    ctl = Controller(Discard(args.report), hostname="127.0.0.1", port=args.port, data_size_limit=0)
    ctl.start()
    print("smtp ready", flush=True)
    try:
        time.sleep(args.max_seconds)
    except KeyboardInterrupt:
        pass
    finally:
        ctl.stop()


if __name__ == "__main__":
    main()
