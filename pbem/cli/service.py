"""``pbem service ...``: operator commands for a running deployment.

Every command reads the same ``PBEM_*`` environment as the web app and the
workers (see README.md).

- ``pbem service migrate``   bring the database to the newest schema
- ``pbem service scan``      one pass of the deadline/reminder scan (cron instead of beat)
- ``pbem service deliver``   send the outbox mail that is due, once
- ``pbem service outbox``    rows by status and kind; ``--failed`` lists mail given up on, ``--retry ID`` requeues it
- ``pbem service prune-outbox``  drop the bytes of old sent mail (cron instead of beat)
- ``pbem service games``     the games, their status, step and deadline
- ``pbem service new-game``  create a game and email the invitations
"""
from __future__ import annotations

import click


def _app():
    from pbem.web import create_app

    return create_app()


@click.group()
def service() -> None:
    """Operate the service (database, scan, outbox, games)."""


@service.command()
def migrate() -> None:
    """Migrate the database to the newest schema (Alembic)."""
    from pbem.service.core.migrate import upgrade

    app = _app()
    upgrade(app.config["SQLALCHEMY_DATABASE_URI"])
    click.echo("database is at the newest schema")


@service.command()
def scan() -> None:
    """Resolve passed deadlines, send due reminders, resolve ready turns."""
    from pbem.service.play.deadlines import scan as run_scan

    with _app().app_context():
        r = run_scan()
    click.echo(f"deadlines passed: {len(r.expired)}, reminders: {len(r.reminded)}, ready turns: {len(r.ready)}")


@service.command()
def deliver() -> None:
    """Send every outbox email that is due now."""
    from pbem.service.post.delivery import deliver_due

    with _app().app_context():
        total = {"sent": 0, "failed": 0, "gave_up": 0, "superseded": 0}
        while True:
            r = deliver_due()
            for k in total:
                total[k] += getattr(r, k)
            if r.sent + r.failed + r.gave_up < 100:
                break
    click.echo(f"sent {total['sent']}, failed (will retry) {total['failed']}, given up {total['gave_up']}, "
               f"superseded {total['superseded']}")


@service.command()
@click.option("--failed", "show_failed", is_flag=True, help="list the mail given up on, newest first")
@click.option("--retry", "retry_ids", type=int, multiple=True, metavar="ID",
              help="put a failed row back in the queue (repeatable)")
def outbox(show_failed: bool, retry_ids: tuple[int, ...]) -> None:
    """Outbox rows by status and kind; the failed ones; requeue them."""
    from pbem.service.post import outbox as box

    with _app().app_context():
        if retry_ids:
            done = box.retry_failed(list(retry_ids))
            skipped = sorted(set(retry_ids) - set(done))
            click.echo(f"requeued {len(done)}: {', '.join(map(str, done)) or '-'}"
                       + (f"; not failed, left alone: {', '.join(map(str, skipped))}" if skipped else ""))
            return
        for status, kinds in box.status_counts().items():
            click.echo(f"{status}\t{sum(kinds.values())}\t" + ", ".join(f"{k} {n}" for k, n in kinds.items()))
        if show_failed:
            for row in box.failed_rows():
                click.echo(f"#{row.id}\t{row.kind}\t{row.recipient}\tattempts {row.attempts}\t"
                           f"{(row.last_error or '').splitlines()[0][:200] if row.last_error else '-'}")


@service.command("prune-outbox")
@click.option("--days", type=float, default=None,
              help="retention in days (default PBEM_OUTBOX_RETENTION_DAYS; 0 keeps everything)")
def prune_outbox(days: float | None) -> None:
    """Drop the bytes of sent outbox mail older than the retention (rows and
    dedupe keys stay), delete old superseded rows; failed mail keeps its
    bytes twice as long."""
    from pbem.service.post.outbox import prune

    with _app().app_context():
        r = prune(keep_days=days)
    click.echo(f"sent emptied {r.emptied}, failed emptied {r.failed_emptied}, "
               f"superseded deleted {r.deleted} ({r.batches} batches)")


@service.command()
@click.option("--status", type=click.Choice(["invited", "active", "paused", "finished"]), default=None)
def games(status: str | None) -> None:
    """List the games."""
    from sqlalchemy import select

    from pbem.service.core.db import db
    from pbem.service.core.models import Game

    with _app().app_context():
        stmt = select(Game).order_by(Game.id)
        if status:
            stmt = stmt.where(Game.status == status)
        for g in db.session.execute(stmt).scalars():
            deadline = g.deadline_at.strftime("%Y-%m-%d %H:%M UTC") if g.deadline_at else "-"
            seats = ", ".join(s.player.email for s in g.seats)
            click.echo(f"#{g.id}\t{g.kind}\t{g.status}\tstep {g.step}\t{g.phase or '-'}\tdeadline {deadline}\t{seats}")


def _seat(value: str):
    """``'Name <address>'`` or a bare address: exactly one, checked like
    every address the service takes (:func:`pbem.service.accounts.addresses.normalise_email`);
    the name without control characters (default: the address's local part).
    ``bot:standard`` (or ``bot:greedy``, ``bot:random``): a bot's seat (issue 27)."""
    from email.headerregistry import HeaderRegistry

    if value.strip().lower().startswith("bot:"):
        from pbem.service.play.lifecycle import SeatSpec

        return SeatSpec(bot=value.strip()[4:].strip().lower())

    from pbem.service.accounts.addresses import clean_name, normalise_email
    from pbem.service.core.errors import ServiceError

    header = HeaderRegistry()("To", clean_name(value, limit=1000))  # no line break reaches the parser
    if len(header.addresses) != 1 or header.defects or not header.addresses[0].addr_spec:
        raise click.BadParameter(f"{value!r}: write one seat as 'Name <address>' or an address")
    name, address = header.addresses[0].display_name, header.addresses[0].addr_spec
    try:
        address = normalise_email(address)
    except ServiceError as err:
        raise click.BadParameter(str(err)) from None
    return clean_name(name) or address.split("@")[0], address


@service.command("new-game")
@click.option("--game", "kind", required=True, help="lacitta, medina...")
@click.option("--host", "host", required=True, help="the host's email address")
@click.option("--seat", "seats", multiple=True, required=True,
              help="'Name <address>', or bot:standard / bot:greedy, in seat order")
@click.option("--option", "options", multiple=True, help="setup option, e.g. setup=experienced")
@click.option("--deadline-hours", type=float, default=None, help="turn deadline (default 48)")
@click.option("--timezone", default=None, help="IANA time zone of the game, e.g. Europe/Helsinki")
@click.option("--title", default="", help="a name for the game")
@click.option("--bot-takeover/--no-bot-takeover", default=True, show_default=True,
              help="a bot plays for a seat that missed two deadlines in a row, until its player comes back")
def new_game(kind, host, seats, options, deadline_hours, timezone, title, bot_takeover) -> None:
    """Create a game; the invitations go out by email."""
    from pbem.service.core.errors import ServiceError
    from pbem.service.play.lifecycle import create_game

    opts = {}
    for item in options:
        key, eq, value = item.partition("=")
        if not eq:
            raise click.BadParameter(f"{item!r}: write options as key=value")
        opts[key.strip()] = value.strip()
    with _app().app_context():
        try:
            game = create_game(kind, host, [_seat(s) for s in seats], options=opts, title=title,
                               timezone=timezone, bot_takeover=bot_takeover,
                               deadline_seconds=int(deadline_hours * 3600) if deadline_hours else None)
        except ServiceError as err:
            raise click.ClickException(str(err)) from None
        click.echo(f"created {game.title} #{game.id} ({game.status}); invitations are in the outbox")
