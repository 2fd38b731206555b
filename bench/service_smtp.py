"""A discarding SMTP server for ``pbem bench service``: accepts every message
and keeps none, so outbox delivery does its real work (SMTP over TCP) without
the bench filling memory. Run: ``python -m bench.service_smtp PORT``; it stops
by itself after ``--max-seconds`` (default one hour) so it can never linger.
"""
from __future__ import annotations

import argparse
import time

from aiosmtpd.controller import Controller


class Discard:
    received = 0

    async def handle_DATA(self, server, session, envelope):  # noqa: N802 (aiosmtpd's name)
        Discard.received += 1
        return "250 OK"


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("port", type=int)
    ap.add_argument("--max-seconds", type=float, default=3600.0)
    args = ap.parse_args()
    ctl = Controller(Discard(), hostname="127.0.0.1", port=args.port, data_size_limit=0)
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
