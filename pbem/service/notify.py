"""Which emails a change causes, and what they say.

Every function here writes outbox rows in the current transaction (it never
commits). Each seat's email is built from ``state.view(seat)`` and the
events visible to that seat only, so no seat ever gets another seat's
private information. Dedupe keys make each notice unique:
``turn:<game>:<step>:<seat>``, ``reminder:<game>:<step>:<seat>``,
``missed:<game>:<step>:<seat>``, ``over:<game>:<seat>``...
"""
from __future__ import annotations

import datetime as dt
import html
import logging
from dataclasses import dataclass, field
from email.message import EmailMessage
from email.utils import format_datetime, formataddr, make_msgid
from zoneinfo import ZoneInfo

from flask import current_app
from sqlalchemy import select

from pbem.engine import get_game
from pbem.service import links, outbox
from pbem.service.db import db
from pbem.service.models import Game, GameEvent, Seat, utcnow

log = logging.getLogger(__name__)

#: at most this many events in "since your last move"
EVENTS_QUOTED = 60


@dataclass
class Notice:
    """One email before it becomes an :class:`EmailMessage`."""

    to_name: str
    to_email: str
    subject: str
    text: str
    html: str
    kind: str
    reply_to: str | None = None
    png: bytes | None = None
    msgid_tag: str = ""
    headers: dict[str, str] = field(default_factory=dict)


def format_deadline(when: dt.datetime | None, tz_name: str) -> str:
    """``when`` (UTC) as an absolute date and time in ``tz_name``:
    ``"Tuesday 24 November 2026, 14:00 EET (Europe/Helsinki)"``."""
    if when is None:
        return "none (the clock is stopped)"
    local = when.astimezone(ZoneInfo(tz_name))
    return f"{local:%A %d %B %Y, %H:%M} {local.tzname()} ({tz_name})"


def _domain() -> str:
    return current_app.config["INBOUND_ADDRESS"].rpartition("@")[2] or "localhost"


def to_email(n: Notice) -> EmailMessage:
    """Multipart email: plain text, HTML, the board PNG inline (cid)."""
    try:
        from pbem.mail import compose as mail_compose  # type: ignore
    except ImportError:
        mail_compose = None
    if mail_compose is not None and hasattr(mail_compose, "from_service_notice"):
        return mail_compose.from_service_notice(n)  # pragma: no cover - when the library offers it
    msg = EmailMessage()
    msg["From"] = current_app.config["MAIL_FROM"]
    msg["To"] = formataddr((n.to_name, n.to_email))
    msg["Subject"] = n.subject
    msg["Date"] = format_datetime(utcnow())
    msg["Message-ID"] = make_msgid(idstring=n.msgid_tag or n.kind, domain=_domain())
    if n.reply_to:
        msg["Reply-To"] = n.reply_to
    # RFC 3834: machine-sent; replies from robots must not come back
    msg["Auto-Submitted"] = "auto-generated"
    msg["X-Auto-Response-Suppress"] = "All"
    # our own mail coming back to the inbound address is recognised and dropped
    msg["X-PBEM-Loop"] = current_app.config["INBOUND_ADDRESS"]
    for k, v in n.headers.items():
        msg[k] = v
    msg.set_content(n.text)
    body = n.html
    if n.png:
        cid = make_msgid(idstring="board", domain=_domain())
        body = body.replace("{{BOARD}}", f'<p><img src="cid:{cid[1:-1]}" alt="The board" '
                                         f'style="max-width:100%"></p>')
        msg.add_alternative(_html_page(n.subject, body), subtype="html")
        msg.get_payload()[1].add_related(n.png, "image", "png", cid=cid,
                                         filename="board.png", disposition="inline")
    else:
        msg.add_alternative(_html_page(n.subject, body.replace("{{BOARD}}", "")), subtype="html")
    return msg


def _html_page(title: str, body: str) -> str:
    return (f'<!doctype html><html><head><meta charset="utf-8"><title>{html.escape(title)}</title></head>'
            f'<body style="font-family:sans-serif;max-width:760px">{body}</body></html>')


def _pre(text: str) -> str:
    return f'<pre style="font-family:monospace;white-space:pre-wrap">{html.escape(text)}</pre>'


def _p(text: str) -> str:
    return "<p>" + html.escape(text).replace("\n", "<br>") + "</p>"


def _queue(game: Game, seat: Seat, n: Notice, key: str, now: dt.datetime) -> None:
    outbox.add(to_email(n), kind=n.kind, dedupe_key=key, game_id=game.id, seat_index=seat.index, now=now)


def _board_png(game: Game, view: dict, highlight: list[str]) -> bytes | None:
    """PNG of the board as this view shows it, or ``None`` when the game has
    no board picture (the email then says so in words only)."""
    try:
        from pbem.boards import render_svg, svg_to_png

        return svg_to_png(render_svg(game.kind, view, highlight=highlight))
    except KeyError:
        return None
    except Exception:  # a picture must never stop a turn; the text carries everything
        log.exception("board picture of game %s failed", game.id)
        return None


def _events_since(game: Game, seat: int, since_step: int) -> list[GameEvent]:
    rows = list(db.session.execute(
        select(GameEvent).where(GameEvent.game_id == game.id, GameEvent.step > since_step)
        .order_by(GameEvent.id)).scalars())
    return [e for e in rows if e.visible_to(seat)][-EVENTS_QUOTED:]


def _subject(game: Game, what: str) -> str:
    return f"[{game.title} #{game.id}] {what} [step {game.step}]"


def _greeting(seat: Seat) -> str:
    return f"Hello {seat.player.name},"


def turn_notice(game: Game, state, seat: Seat, *, now: dt.datetime, kind: str = "turn") -> Notice:
    """The email asking ``seat`` for its move (``kind="reminder"``: the
    same, as a reminder before the deadline)."""
    engine = get_game(game.kind)
    view = state.view(seat.index)
    actions = state.legal_actions(seat.index)
    legal = sorted({a.to_text() for a in actions})
    sites = sorted({a.site for a in actions if a.site})
    tz = seat.player.timezone or game.timezone
    deadline = format_deadline(game.deadline_at, tz)
    events = _events_since(game, seat.index, seat.last_moved_step if kind == "turn" else (seat.last_moved_step or 0))
    order_link = links.signin_url(seat.player_id, links.order_path(game.id, seat.index))
    help_text = engine.order_help()
    shown = legal[:40]
    more = f"\n  ... and {len(legal) - 40} more (see the order page)" if len(legal) > 40 else ""
    head = ("Reminder: the deadline is near and your orders are not in yet.\n\n" if kind == "reminder" else "")
    intro = (f"{head}It is your move in {game.title} (game #{game.id}, seat {seat.number}): {game.phase}.\n"
             f"Deadline: {deadline}.")
    history = "\n".join(f"- {e.text}" for e in events) or "(nothing new)"
    text = (f"{_greeting(seat)}\n\n{intro}\n\n"
            f"What happened since your last move:\n{history}\n\n"
            f"Your view:\n{engine.view_text(view)}\n\n"
            f"Legal orders now:\n" + "\n".join(f"  {o}" for o in shown) + more + "\n\n"
            f"Reply to this email with your orders, one per line, above the quoted text,\n"
            f"or open the order page: {order_link}\n\n"
            f"How to write orders:\n{help_text}\n")
    body = (_p(_greeting(seat)) + _p(intro) + "{{BOARD}}"
            + "<h3>What happened since your last move</h3>"
            + ("<ul>" + "".join(f"<li>{html.escape(e.text)}</li>" for e in events) + "</ul>" if events else _p("(nothing new)"))
            + "<h3>Your view</h3>" + _pre(engine.view_text(view))
            + "<h3>Legal orders now</h3>" + _pre("\n".join(shown) + more)
            + f'<p><a href="{html.escape(order_link)}">Open the order page</a> or reply to this '
              "email with your orders, one per line.</p>"
            + "<h3>How to write orders</h3>" + _pre(help_text))
    subject = _subject(game, "Reminder: your move" if kind == "reminder" else "Your move")
    return Notice(seat.player.name, seat.player.email, subject, text, body, kind,
                  reply_to=links.reply_address(game.id, seat.index),
                  png=_board_png(game, view, sites), msgid_tag=f"pbem.{game.id}.{seat.index}.{game.step}.{kind}")


def after_change(game: Game, state, *, now: dt.datetime, missed: list[int] = ()) -> None:
    """Outbox rows after the state changed: a missed-turn notice to every
    seat for each seat that missed the deadline; the final scores to every
    seat when the game is over; otherwise a turn notice to each seat that
    must act now."""
    for missed_seat in missed:
        ms = game.seat(missed_seat)
        for seat in game.seats:
            who = "You" if seat.index == missed_seat else f"{ms.player.name} (seat {ms.number})"
            verb = "have" if seat.index == missed_seat else "has"
            line = (f"{who} {verb} missed the deadline in {game.title} (game #{game.id}); the default "
                    f"order was applied. Missed turns so far: {ms.missed_turns}.")
            n = Notice(seat.player.name, seat.player.email, _subject(game, f"Missed turn: seat {ms.number}"),
                       f"{_greeting(seat)}\n\n{line}\n\nThe game: {links.absolute(links.game_path(game.id))}\n",
                       _p(_greeting(seat)) + _p(line), "missed",
                       reply_to=links.reply_address(game.id, seat.index),
                       msgid_tag=f"pbem.{game.id}.{seat.index}.{game.step}.missed")
            _queue(game, seat, n, f"missed:{game.id}:{game.step}:{missed_seat}:{seat.index}", now)
    if state.is_terminal():
        for seat in game.seats:
            _queue(game, seat, game_over(game, state, seat), f"over:{game.id}:{seat.index}", now)
        return
    for index in state.current_seats():
        seat = game.seat(index)
        _queue(game, seat, turn_notice(game, state, seat, now=now), f"turn:{game.id}:{game.step}:{index}", now)
        seat.last_notified_step = game.step


def game_over(game: Game, state, seat: Seat) -> Notice:
    """Final scores, with the board and the seat's last view."""
    engine = get_game(game.kind)
    scores = sorted(state.scores(), key=lambda s: (s.rank, s.seat))
    lines = [f"{s.rank}. {game.seat(s.seat).player.name} (seat {s.seat + 1}): {s.points} points, "
             f"tie-break {s.tiebreak}" for s in scores]
    view = state.view(seat.index)
    text = (f"{_greeting(seat)}\n\n{game.title} (game #{game.id}) is over.\n\nFinal scores:\n"
            + "\n".join(lines) + f"\n\nThe game and its replay: {links.absolute(links.game_path(game.id))}\n\n"
            f"The final position:\n{engine.view_text(view)}\n")
    body = (_p(_greeting(seat)) + _p(f"{game.title} (game #{game.id}) is over.") + "<h3>Final scores</h3>"
            + "<ol>" + "".join(f"<li>{html.escape(x.split('. ', 1)[1])}</li>" for x in lines) + "</ol>"
            + "{{BOARD}}" + _pre(engine.view_text(view)))
    return Notice(seat.player.name, seat.player.email, _subject(game, "Game over: final scores"), text, body,
                  "over", png=_board_png(game, view, []), msgid_tag=f"pbem.{game.id}.{seat.index}.over")


def invitation(game: Game, seat: Seat) -> None:
    """The invitation with a sign-in link that joins the seat."""
    link = links.signin_url(seat.player_id, links.join_path(game.id, seat.index))
    host = game.host.name if game.host else "Someone"
    others = ", ".join(s.player.name for s in game.seats if s.index != seat.index)
    line = (f"{host} invites you to play {game.title} by email (game #{game.id}, seat {seat.number}) "
            f"with {others}. Each turn has a deadline of {game.deadline_seconds / 3600:g} hours.")
    text = f"{_greeting(seat)}\n\n{line}\n\nJoin the game: {link}\n\n(The link signs you in; it works once and for 7 days.)\n"
    body = _p(_greeting(seat)) + _p(line) + f'<p><a href="{html.escape(link)}">Join the game</a></p>'
    n = Notice(seat.player.name, seat.player.email, _subject(game, "Invitation"), text, body, "invite",
               msgid_tag=f"pbem.{game.id}.{seat.index}.invite")
    _queue(game, seat, n, f"invite:{game.id}:{seat.index}", utcnow())


def status_notice(game: Game, what: str, *, now: dt.datetime) -> None:
    """Tell every seat the host paused, resumed or extended the game."""
    for seat in game.seats:
        tz = seat.player.timezone or game.timezone
        if what == "paused":
            line = "The host has paused the game: the clock is stopped until it resumes."
        else:
            line = (f"The host has {'resumed the game' if what == 'resumed' else 'extended the deadline'}. "
                    f"The deadline is now {format_deadline(game.deadline_at, tz)}.")
        n = Notice(seat.player.name, seat.player.email, _subject(game, f"Game {what}"),
                   f"{_greeting(seat)}\n\n{line}\n", _p(_greeting(seat)) + _p(line), what,
                   msgid_tag=f"pbem.{game.id}.{seat.index}.{what}")
        key = f"{what}:{game.id}:{game.step}:{seat.index}:{int(now.timestamp() * 1000)}"
        _queue(game, seat, n, key, now)


def reminder(game: Game, state, seat: Seat, *, now: dt.datetime) -> None:
    _queue(game, seat, turn_notice(game, state, seat, now=now, kind="reminder"),
           f"reminder:{game.id}:{game.step}:{seat.index}:{int(game.deadline_at.timestamp())}", now)


def reply(to_email_addr: str, to_name: str, subject: str, text: str, *, kind: str, dedupe_key: str,
          in_reply_to: str | None = None, game: Game | None = None, seat: Seat | None = None,
          now: dt.datetime | None = None) -> None:
    """A confirmation or error answer to an inbound email."""
    n = Notice(to_name, to_email_addr, subject, text, _pre(text), kind,
               reply_to=links.reply_address(game.id, seat.index) if game and seat else None,
               msgid_tag=f"pbem.{game.id if game else 0}.{kind}")
    if in_reply_to:
        n.headers["In-Reply-To"] = in_reply_to
        n.headers["References"] = in_reply_to
    outbox.add(to_email(n), kind=kind, dedupe_key=dedupe_key, game_id=game.id if game else None,
               seat_index=seat.index if seat else None, now=now)
