"""``pbem demo [--port 5000]``: the whole service on one machine.

On the embedded defaults (or whatever ``PBEM_*`` variables say) it starts,
in this one process: the Flask app on SQLite (migrated to the newest
schema), a Celery worker and beat on the SQLite broker, and the local SMTP
sink (:mod:`pbem.mail.sink`) that stores every mail for ``/dev/mail`` (on
here only: ``PBEM_DEV_MAIL=on``) and hands mail for the inbound address to
the inbound pipeline. It seeds a
3-seat La Città demo game (once) and prints a sign-in link for each seat;
``--bots N`` seeds a practice game instead, Alice against N standard bots
(issue 27), which waits for her moves.
"""
from __future__ import annotations

import logging
import os
import signal
import sys

import click

#: SMTP hosts that mean "the local sink of this demo"
LOOPBACK = ("127.0.0.1", "localhost", "::1")


def seed_demo_game(kind: str = "lacitta", *, seats: int = 3, bots: int = 0):
    """Create and start the demo game unless one exists; returns it.
    Every seat is joined at once (the demo players are fictional). With
    ``bots``, a practice game instead: Alice against that many standard
    bots (issue 27), with no deadline (it waits for her), no absence, no talk."""
    if bots:
        return _seed_bot_game(kind, bots)
    from sqlalchemy import select

    from pbem.service.core.db import db
    from pbem.service.core.models import Game
    from pbem.service.play.lifecycle import SeatSpec, create_game, join_game

    existing = db.session.execute(select(Game).where(Game.title.like("%(demo)%"))
                                  .order_by(Game.id.desc())).scalars().first()
    if existing is not None and existing.status != "finished":
        return existing
    people = [("Alice", "alice@example.com", "Europe/Helsinki"),
              ("Bruno", "bruno@example.com", "Europe/Rome"),
              ("Carla", "carla@example.com", "America/New_York"),
              ("Dora", "dora@example.com", "Europe/Berlin"),
              ("Emil", "emil@example.com", "Europe/Prague")][:seats]
    from pbem.engine import get_game

    title = f"{get_game(kind).title} (demo)"
    game = create_game(kind, people[0][1], [SeatSpec(e, n, tz) for n, e, tz in people], title=title,
                       grace_hours=24)
    for index in range(1, seats):
        join_game(game.id, index)
    declare_demo_absence(db.session.get(Game, game.id))
    db.session.commit()
    seed_demo_talk(game.id)
    return db.session.get(Game, game.id)


def _seed_bot_game(kind: str, bots: int):
    """Alice against ``bots`` standard bots (unless that demo game exists)."""
    from sqlalchemy import select

    from pbem.engine import get_game
    from pbem.service.core.db import db
    from pbem.service.core.models import Game
    from pbem.service.play.lifecycle import SeatSpec, create_game

    engine = get_game(kind)
    if not 1 <= bots <= engine.max_seats - 1:
        raise ValueError(f"{engine.title} seats 1 to {engine.max_seats - 1} bots beside Alice")
    title = f"{engine.title} (demo, {bots} bots)"
    existing = db.session.execute(select(Game).where(Game.title == title).order_by(Game.id.desc())).scalars().first()
    if existing is not None and existing.status != "finished":
        return existing
    seats = [SeatSpec("alice@example.com", "Alice", "Europe/Helsinki")] + [SeatSpec(bot="standard")] * bots
    game = create_game(kind, "alice@example.com", seats, title=title)
    return db.session.get(Game, game.id)


def declare_demo_absence(game) -> None:
    """The last seat's player is away for the next five days (issue 25):
    the game page shows "away until …" and the host the cap left."""
    import datetime as dt

    from pbem.service.core.models import utcnow
    from pbem.service.play.absences import declare

    now = utcnow()
    declare(game.seats[-1].player_id, now - dt.timedelta(hours=1), now + dt.timedelta(days=5), now=now)


def seed_demo_talk(game_id: int) -> None:
    """A short table talk thread (issue 26): Bruno to everyone, Alice to
    Bruno alone (only they two see it), Bruno's answer."""
    from pbem.service.core.db import db
    from pbem.service.core.models import Game
    from pbem.service.play import talk

    seats = db.session.get(Game, game_id).seats
    held = {s.index: s.player_id for s in seats}
    talk.post_message(game_id, 1, held[1], "Good luck, everyone! Who takes the market this year?", to=talk.ALL)
    talk.post_message(game_id, 0, held[0], "Bruno, leave me the hill by the river and the market is yours. "
                      "Rules: https://boardgamegeek.com/boardgame/1035", to=[1])
    talk.post_message(game_id, 1, held[1], "Deal. Not a word to Carla.", to=[0])


def watch_and_calendar_lines(game) -> list[str]:
    """Make the demo game watchable and the host's calendar feed (issue 25);
    the lines that print both links."""
    from pbem.service.accounts.calendar_link import calendar_url, set_calendar
    from pbem.service.play.spectators import set_watchable, spectator_url

    watched = set_watchable(game.id, "on")
    host = set_calendar(watched.seats[0].player_id, "on")
    return [f"  spectators: {spectator_url(watched)}",
            f"  calendar:  {calendar_url(host)}  ({host.name}'s deadlines, iCalendar)"]


@click.command()
@click.option("--port", default=5000, show_default=True, help="HTTP port of the web app")
@click.option("--host", default="127.0.0.1", show_default=True, help="address to listen on")
@click.option("--smtp-port", default=None, type=int, help="port of the local SMTP sink (default 8025)")
@click.option("--game", "kind", default="lacitta", show_default=True, help="game of the demo table")
@click.option("--instance", default=None, help="instance folder (database, mail); default ./instance")
@click.option("--bots", default=0, type=click.IntRange(0, 4), show_default=True,
              help="a practice game instead: you against this many standard bots")
def demo(port: int, host: str, smtp_port: int | None, kind: str, instance: str | None, bots: int) -> None:
    """Run pbem on embedded defaults with a demo game."""
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    for noisy in ("celery", "kombu", "amqp", "alembic", "mail.log"):
        logging.getLogger(noisy).setLevel(logging.WARNING)
    os.environ.setdefault("PBEM_BASE_URL", f"http://localhost:{port}")
    if smtp_port is not None:
        os.environ["PBEM_SMTP_PORT"] = str(smtp_port)
    if (os.environ.get("PBEM_SMTP_HOST") or "127.0.0.1") in LOOPBACK:
        # the local sink runs: /dev/mail reads it (the only place that page is ever on)
        os.environ["PBEM_DEV_MAIL"] = "on"
    if instance:
        os.environ["PBEM_INSTANCE_PATH"] = os.path.abspath(instance)
    elif not os.environ.get("PBEM_INSTANCE_PATH"):
        os.environ["PBEM_INSTANCE_PATH"] = os.path.abspath("instance")

    from pbem.mail.sink import MailSink
    from pbem.service.core import links
    from pbem.service.core.db import db
    from pbem.service.core.migrate import upgrade
    from pbem.service.embedded import EmbeddedWorker
    from pbem.service.inbound import handle_inbound
    from pbem.web import create_app

    import socket

    with socket.socket() as probe:  # a clear message now beats a traceback after start-up
        try:
            probe.bind((host, port))
        except OSError as err:
            raise click.ClickException(f"cannot listen on {host}:{port}: {err} (use --port)") from None
    app = create_app()
    cfg = app.config
    upgrade(cfg["SQLALCHEMY_DATABASE_URI"])

    def on_inbound(raw: bytes) -> None:
        with app.app_context():
            try:
                result = handle_inbound(raw)
            finally:
                db.session.remove()
        logging.getLogger("pbem.demo").info("inbound mail: %s %s", result.result, result.detail)

    sink = None
    if cfg["SMTP_HOST"] in LOOPBACK:
        sink = MailSink(cfg["MAIL_SINK_DIR"], host="127.0.0.1", port=int(cfg["SMTP_PORT"]),
                        inbound_address=cfg["INBOUND_ADDRESS"], on_inbound=on_inbound)
        try:
            sink.start()
        except OSError as err:
            raise click.ClickException(f"cannot start the local SMTP sink on port {cfg['SMTP_PORT']}: {err} "
                                       "(use --smtp-port)") from None
    worker = EmbeddedWorker(app, concurrency=2, beat=True).start()
    try:
        with app.app_context():
            try:
                game = seed_demo_game(kind, bots=bots)
            except (KeyError, ValueError) as err:
                raise click.ClickException(str(err.args[0] if err.args else err)) from None
            base = cfg["BASE_URL"]
            click.echo("")
            click.echo(f"pbem demo: {game.title} #{game.id}, {game.phase}")
            click.echo(f"  web app:   {base}/")
            click.echo(f"  game page: {base}{links.game_path(game.id)}")
            for line in watch_and_calendar_lines(game):
                click.echo(line)
            if sink is not None:
                click.echo(f"  mail:      {base}/dev/mail  (SMTP sink on 127.0.0.1:{sink.port}; "
                           f"inbound address {cfg['INBOUND_ADDRESS']})")
            click.echo(f"  API:       {base}/api/docs  (OpenAPI {base}/api/openapi.json; "
                       f"tokens: {base}/account/tokens)")
            click.echo("  sign in as (each link works once; the turn emails carry fresh ones):")
            for seat in game.seats:
                if seat.bot:   # a bot's seat: nobody signs in as a bot
                    click.echo(f"    seat {seat.number}: the {seat.bot} bot")
                    continue
                url = links.signin_url(seat.player_id, links.order_path(game.id, seat.index))
                click.echo(f"    seat {seat.number} {seat.player.name} <{seat.player.email}>: {url}")
            click.echo("")
            db.session.remove()
        sys.stdout.flush()
        from werkzeug.serving import run_simple

        # SIGTERM (a service manager, `kill`) stops as cleanly as Ctrl-C
        signal.signal(signal.SIGTERM, signal.default_int_handler)
        try:
            run_simple(host, port, app, threaded=True, use_reloader=False, use_debugger=False)
        except KeyboardInterrupt:
            click.echo("pbem demo: stopping")
    finally:
        worker.stop()
        if sink is not None:
            sink.stop()
