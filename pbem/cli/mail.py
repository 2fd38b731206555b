"""``pbem mail ingest``: one RFC 5322 message on standard input into the
inbound pipeline, the way an MTA pipes mail to a program
(Postfix ``mailbox_command``/``pipe``, Exim ``pipe`` transport).

Exit status (sysexits): 0 processed (applied, refused and answered, or
dropped as automatic/duplicate mail); 75 (EX_TEMPFAIL) when the service
could not process it now (database down): the MTA keeps the message and
tries again, and the Message-ID dedupe makes the retry safe.
"""
from __future__ import annotations

import sys

import click

EX_TEMPFAIL = 75


@click.group()
def mail() -> None:
    """Email commands."""


@mail.command()
@click.option("--quiet", is_flag=True, help="print nothing on success")
def ingest(quiet: bool) -> None:
    """Read one message from stdin and hand it to the inbound pipeline."""
    raw = sys.stdin.buffer.read()
    try:
        from pbem.service.core.db import db
        from pbem.service.inbound import handle_inbound
        from pbem.web import create_app

        app = create_app()
        with app.app_context():
            result = handle_inbound(raw)
            db.session.remove()
    except Exception as err:  # anything here is ours, not the sender's: ask the MTA to retry
        click.echo(f"pbem mail ingest: temporary failure: {type(err).__name__}: {err}", err=True)
        sys.exit(EX_TEMPFAIL)
    if not quiet:
        where = f" game {result.game_id}" if result.game_id is not None else ""
        where += f" seat {result.seat_index + 1}" if result.seat_index is not None else ""
        click.echo(f"{result.result}{where}: {result.detail}")
