"""Who at a table is away, and until when (issue 25): the game page and the
turn mail show it to the other seats. Only the end is ever shown: an
absence has no where or why."""
from __future__ import annotations

import datetime as dt

from sqlalchemy import or_, select

from pbem.i18n import translations
from pbem.mail.dates import format_deadline
from pbem.service.core.absence_rows import Absence
from pbem.service.core.absence_spans import Span, covering_end
from pbem.service.core.db import db
from pbem.service.core.models import Game, Seat


def away_ends(game: Game, *, now: dt.datetime) -> dict[int, dt.datetime]:
    """Seat index -> the end of the run of absences its player is in at
    ``now`` (in this game or all games). No query when no player of the
    game has an absence ending after ``now`` (``players.away_until``)."""
    ids = {s.player_id: s.index for s in game.seats
           if s.player.away_until is not None and s.player.away_until > now}
    if not ids:
        return {}
    spans: dict[int, list[Span]] = {}
    for pid, start, end in db.session.execute(select(Absence.player_id, Absence.starts_at, Absence.ends_at).where(
            Absence.player_id.in_(list(ids)), Absence.ends_at > now,
            or_(Absence.game_id.is_(None), Absence.game_id == game.id))).all():
        spans.setdefault(pid, []).append(Span(start, end))
    out = {}
    for pid, runs in spans.items():
        end = covering_end(now, runs)
        if end is not None:
            out[ids[pid]] = end
    return out


def away_lines(game: Game, reader: Seat, *, now: dt.datetime, lang: str, zone: str) -> list[str]:
    """"Bo (seat 2): away until <when>" for each other seat away now, in
    ``lang`` and the reader's ``zone``."""
    tr = translations(lang)
    out = []
    for index, end in sorted(away_ends(game, now=now).items()):
        if index == reader.index:
            continue
        seat = game.seat(index)
        who = tr.gettext("{name} (seat {number})").format(name=seat.player.name, number=seat.number)
        out.append(tr.gettext("{who}: away until {until}").format(who=who, until=format_deadline(end, zone, lang)))
    return out
