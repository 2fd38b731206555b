"""A player's deadlines as an iCalendar feed (RFC 5545, built with the
``icalendar`` library; issue 25).

One ``VEVENT`` per open deadline: each running game (status ``active``)
where one of the player's seats owes a decision and has sent no orders for
it yet. The feed is computed from ``games.deadline_at`` at every fetch,
so an extension, a pause (the event goes until the game runs again), an
absence that moves the deadline and a resolution (the turn's event goes,
the next one comes) all show at the calendar's next refresh.

- ``UID``: ``pbem-<game>-<step>-<seat number>@<the site's host>``, stable for a
  seat's decision at one state step, so a calendar moves the event when the
  deadline moves and never shows it twice.
- ``DTSTART``: the deadline, in the player's time zone (``TZID`` with its
  ``VTIMEZONE``), 15 minutes long.
- ``VALARM``: when the game's reminder mail goes
  (:func:`pbem.service.play.reminder_time.reminder_lead` before the deadline);
  none when the game sends no reminders.
- ``URL`` and ``DESCRIPTION``: the seat's order page (a plain link: it asks
  for a sign-in, so a shared feed opens no seat).

The text is in the player's language. Only what the game's public page
shows is in an event (title, phase, deadline, seat number): never a view.
"""
from __future__ import annotations

import datetime as dt
from urllib.parse import urlsplit
from zoneinfo import ZoneInfo

import icalendar
from flask import current_app
from sqlalchemy import select

from pbem.engine import get_game
from pbem.i18n import translations
from pbem.mail.dates import format_deadline
from pbem.service.core import links
from pbem.service.core.db import db
from pbem.service.core.models import ACTIVE, Game, PendingOrder, Player, Seat, utcnow
from pbem.service.core.snapshot import engine_state
from pbem.service.play.reminder_time import reminder_lead
from pbem.service.post.content import phase_text
from pbem.service.post.envelope import lang_of

EVENT_MINUTES = 15
PRODID = "-//pbem//deadlines//EN"


def open_deadlines(player_id: int) -> list[tuple[Game, Seat]]:
    """``(game, seat)`` for each seat of ``player_id`` in a running game
    that owes a decision now and has no orders in for it, soonest first."""
    seats = db.session.execute(
        select(Seat).join(Game).where(Seat.player_id == player_id, Game.status == ACTIVE,
                                      Game.deadline_at.is_not(None))).scalars().all()
    out = []
    for seat in seats:
        game = seat.game
        if seat.index not in engine_state(game).current_seats():
            continue
        sent = db.session.execute(select(PendingOrder.id).where(
            PendingOrder.game_id == game.id, PendingOrder.seat_index == seat.index,
            PendingOrder.step == game.step)).first()
        if sent is None:
            out.append((game, seat))
    return sorted(out, key=lambda gs: (gs[0].deadline_at, gs[0].id, gs[1].index))


def _zone(player: Player) -> ZoneInfo:
    try:
        return ZoneInfo(player.timezone or "UTC")
    except Exception:  # an unknown zone name: UTC, as the mails do
        return ZoneInfo("UTC")


def uid(game: Game, seat: Seat) -> str:
    """The event's UID: one per game, state step and seat."""
    host = urlsplit(current_app.config["BASE_URL"]).hostname or "pbem.invalid"
    return f"pbem-{game.id}-{game.step}-{seat.number}@{host}"


def _event(game: Game, seat: Seat, player: Player, lang: str, now: dt.datetime) -> icalendar.Event:
    _ = translations(lang).gettext
    zone = _zone(player)
    start = game.deadline_at.astimezone(zone)
    url = links.absolute(links.order_path(game.id, seat.index))
    title = game.title or get_game(game.kind).title
    phase = phase_text(game, engine_state(game), lang)
    event = icalendar.Event()
    event.add("uid", uid(game, seat))
    event.add("dtstamp", now)
    event.add("dtstart", start)
    event.add("dtend", start + dt.timedelta(minutes=EVENT_MINUTES))
    event.add("summary", _("Deadline: {title} #{number}").format(title=title, number=game.id))
    event.add("description", "\n".join([
        _("Your move in {title} #{number} (seat {seat}).").format(title=title, number=game.id, seat=seat.number),
        phase,
        _("Deadline: {when}").format(when=format_deadline(game.deadline_at, str(zone), locale=lang)),
        _("Your order page: {url}").format(url=url)]))
    event.add("url", url)
    event.add("transp", "TRANSPARENT")
    if game.reminder_seconds > 0:
        alarm = icalendar.Alarm()
        alarm.add("action", "DISPLAY")
        alarm.add("description", _("Reminder: your move in {title} #{number}").format(title=title, number=game.id))
        alarm.add("trigger", -reminder_lead(game.reminder_seconds, game.deadline_seconds))
        event.add_component(alarm)
    return event


def feed(player: Player, *, now: dt.datetime | None = None) -> bytes:
    """The player's feed as iCalendar bytes (UTF-8, CRLF lines)."""
    now = (now or utcnow()).replace(microsecond=0)
    lang = lang_of(player)
    cal = icalendar.Calendar()
    cal.add("prodid", PRODID)
    cal.add("version", "2.0")
    cal.add("calscale", "GREGORIAN")
    cal.add("method", "PUBLISH")
    cal.add("x-wr-calname", translations(lang).gettext("pbem: my deadlines"))
    cal.add("x-published-ttl", "PT1H")
    cal.add("refresh-interval", dt.timedelta(hours=1), parameters={"VALUE": "DURATION"})
    for game, seat in open_deadlines(player.id):
        cal.add_component(_event(game, seat, player, lang, now))
    cal.add_missing_timezones()
    return cal.to_ical()
