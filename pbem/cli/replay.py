"""``pbem replay FILE``: replay a game record (the JSON a game page offers
for download, docs/long-games.md) from its seed and check that it ends in
the record's position, byte for byte. Exit 0 when it does; 1 with a
sentence saying what went wrong when it does not (or when the file is no
record, or one seat's record of a running game, which has no seed)."""
from __future__ import annotations

import sys
from pathlib import Path

import click


@click.command("replay")
@click.argument("file", type=click.Path(dir_okay=False, path_type=Path, allow_dash=True))
def replay(file: Path) -> None:
    """Replay the game record FILE (JSON) and check its final position."""
    from pbem.service.play.record_check import RecordError, check

    try:
        data = sys.stdin.buffer.read() if str(file) == "-" else file.read_bytes()
    except OSError as err:
        raise click.ClickException(f"cannot read {file}: {err.strerror}") from None
    try:
        done = check(data)
    except RecordError as err:
        click.echo(f"pbem replay: {file}: {err}", err=True)
        sys.exit(1)
    click.echo(f"{file}: {done.game}, {done.orders} orders replayed to step {done.step}: "
               "the same position, byte for byte.")
