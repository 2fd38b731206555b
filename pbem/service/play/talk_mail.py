"""Message mail: the table talk a seat has not seen, mailed in one notice
(issue 26; docs/long-games.md, "Table talk").

:func:`send_due` runs every minute (Celery beat, ``pbem.talk_mail``). For
each seat of a game with talk it gathers the messages its player may read
(:func:`pbem.service.play.talk_read.messages_for`: never another seat's
private message, never a muted seat's, never a hidden one), newer than
both what the player saw on the page and what was mailed already, not
their own. They are mailed when:

- the oldest of them is at least ``TALK_MAIL_GRACE_SECONDS`` old (default
  120): a player at the table sees them on the page first, and what they
  saw there is never mailed;
- the seat's last message mail is at least ``TALK_MAIL_SECONDS`` old
  (default 900, 15 minutes): at most one message mail per seat per quarter
  hour, holding every message since the last.

The mail goes through :func:`pbem.service.post.send.send` as kind
``talk``, so the player's ``talk_mail`` choice decides: ``every`` (sent),
``digest`` (held for the daily digest) or ``none`` (dropped). Its
Message-ID names the newest message (``pbem.<game>.<seat>.<id>.talk``): a
reply to it is a message to the same people (:mod:`pbem.service.inbound_talk`).
"""
from __future__ import annotations

import datetime as dt
from collections import Counter
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from babel.dates import format_datetime
from flask import current_app
from sqlalchemy import select

from pbem.i18n import translations
from pbem.mail import talk_mail as mail
from pbem.mail.talk_reply import fold
from pbem.service.core import links
from pbem.service.core.db import begin_write, db
from pbem.service.core.models import Game, Seat, utcnow
from pbem.service.core.talk_models import TalkMessage, TalkRead
from pbem.service.play.talk import TALK_STATUSES
from pbem.service.play.talk_read import Line, messages_for
from pbem.service.post.envelope import envelope, game_ref, lang_of
from pbem.service.post.send import send

#: defaults of ``TALK_MAIL_SECONDS`` and ``TALK_MAIL_GRACE_SECONDS``
TALK_MAIL_SECONDS = 900
TALK_MAIL_GRACE_SECONDS = 120


def _seconds(key: str, default: float) -> dt.timedelta:
    return dt.timedelta(seconds=float(current_app.config.get(key, default)))


def send_due(*, now: dt.datetime | None = None) -> int:
    """Write every message mail that is due (see the module). Commits per
    game; returns how many mails were written (held ones included)."""
    now = now or utcnow()
    window = _seconds("TALK_MAIL_SECONDS", TALK_MAIL_SECONDS)
    grace = _seconds("TALK_MAIL_GRACE_SECONDS", TALK_MAIL_GRACE_SECONDS)
    since = now - window - grace - dt.timedelta(days=2)
    game_ids = list(db.session.scalars(select(TalkMessage.game_id).where(TalkMessage.created_at >= since)
                                       .distinct()))
    db.session.commit()
    written = 0
    for game_id in game_ids:
        written += _game(game_id, now, window, grace)
    return written


def _game(game_id: int, now: dt.datetime, window: dt.timedelta, grace: dt.timedelta) -> int:
    begin_write()
    game = db.session.get(Game, game_id)
    written = 0
    if game is not None and game.status in TALK_STATUSES:
        for seat in game.seats:
            written += _seat(game, seat, now, window, grace)
    db.session.commit()
    return written


def _read_mark(game: Game, seat: Seat) -> TalkRead:
    read = db.session.get(TalkRead, (game.id, seat.index, seat.player_id))
    if read is None:
        read = TalkRead(game_id=game.id, seat_index=seat.index, player_id=seat.player_id, seen_id=0, mailed_id=0)
        db.session.add(read)
    return read


def _seat(game: Game, seat: Seat, now: dt.datetime, window: dt.timedelta, grace: dt.timedelta) -> int:
    """Write the seat's message mail if one is due (in the open transaction)."""
    read = _read_mark(game, seat)
    after = max(read.seen_id or 0, read.mailed_id or 0)
    lines = [m for m in messages_for(game, seat.index, seat.player_id, after_id=after) if not m.mine and not m.hidden]
    if not lines or lines[0].created_at > now - grace:
        return 0
    if read.mailed_at is not None and read.mailed_at > now - window:
        return 0
    newest = lines[-1].id
    read.mailed_id, read.mailed_at = newest, now
    msg = compose(game, seat, lines, now=now)
    return 1 if send(msg, kind="talk", dedupe_key=f"talk:{game.id}:{seat.index}:{seat.player_id}:{newest}",
                     player=seat.player, now=now, game_id=game.id, seat_index=seat.index) else 0


def names(game: Game, seats, lang: str) -> str:
    """The players of ``seats`` (indices) named in ``lang``: "Bruno and Carla";
    a name two players of the game share with its seat: "Bo (seat 3)"
    (so nobody passes for another by taking their name)."""
    tr = translations(lang)
    shared = Counter(fold(s.player.name) for s in game.seats if s.player and s.player.name)

    def one(i: int) -> str:
        name = game.seat(i).player.name
        if not name:
            return tr.gettext("seat %(number)s") % {"number": i + 1}
        return tr.gettext("{name} (seat {number})").format(name=name, number=i + 1) if shared[fold(name)] > 1 \
            else name

    who = [one(i) for i in seats]
    if len(who) <= 1:
        return "".join(who)
    return tr.gettext("%(names)s and %(last)s") % {"names": ", ".join(who[:-1]), "last": who[-1]}


def reply_whom(game: Game, seat_index: int, line: Line, lang: str) -> str:
    """Who a reply to ``line`` reaches: everyone, or its author and its
    other recipients (:func:`pbem.service.inbound_talk.reply_recipients`)."""
    if line.to_all:
        return translations(lang).gettext("everyone")
    return names(game, sorted({line.seat, *line.to} - {seat_index}), lang)


def head(game: Game, seat_index: int, line: Line, lang: str, zone: str) -> str:
    """"Bruno → everyone · 24/11/2026, 18:00": the author, the recipients
    and when, in the reader's language and zone."""
    tr = translations(lang)
    to = tr.gettext("everyone") if line.to_all else names(game, line.to, lang)
    try:
        tz = ZoneInfo(zone or "UTC")
    except (ZoneInfoNotFoundError, ValueError):
        tz = ZoneInfo("UTC")
    when = format_datetime(line.created_at, "short", tzinfo=tz, locale=lang)
    return f"{names(game, [line.seat], lang)} → {to} · {when}"


def compose(game: Game, seat: Seat, lines: list[Line], *, now: dt.datetime):
    """The message mail to ``seat`` holding ``lines`` (oldest first)."""
    lang = lang_of(seat.player)
    zone = seat.player.timezone or game.timezone
    items = [mail.TalkLine(head(game, seat.index, m, lang, zone), m.body, private=not m.to_all) for m in lines]
    env = envelope(game, seat, now=now, tag=f"pbem.{game.id}.{seat.index}.{lines[-1].id}.talk")
    return mail.messages(env, game_ref(game), items, reply_to_whom=reply_whom(game, seat.index, lines[-1], lang),
                         page_url=links.absolute(links.order_path(game.id, seat.index)) + "#talk")
