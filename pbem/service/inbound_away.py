"""``away`` lines in a seat's mail (issue 25): each read
(:mod:`pbem.service.play.away_line`) in the player's own time zone,
recorded as an absence for all their games
(:func:`pbem.service.play.absences.declare`), and answered in one mail
(:func:`pbem.service.post.absence_notice.answer`): what was read and
recorded, or the line quoted with why not. The mail's other lines are then
read as orders as usual, without the away lines."""
from __future__ import annotations

import dataclasses
import datetime as dt

from pbem.service.core.db import db
from pbem.service.core.models import Game
from pbem.service.play import absences
from pbem.service.play.away_line import AwayLineError, find_away_lines, is_away_line, read_away
from pbem.service.inbound_notices import answer
from pbem.service.post.absence_notice import AwayAnswer, answer as away_answer


def without_away_lines(mail):
    """``mail`` with its away lines taken out of the text and the body."""
    def strip(text: str) -> str:
        return "\n".join(line for line in text.splitlines() if not is_away_line(line))
    return dataclasses.replace(mail, text=strip(mail.text), body=strip(mail.body))


def lines_of(mail) -> list[str]:
    """The away lines of ``mail``'s newly written text."""
    return find_away_lines(mail.text)


def declare_lines(mail, lines: list[str], game_id: int, seat_index: int, now: dt.datetime) -> list[AwayAnswer]:
    """Read and record each away line; returns what each came to. Commits
    each absence recorded."""
    game = db.session.get(Game, game_id)
    player = game.seat(seat_index).player
    player_id, zone = player.id, player.timezone or game.timezone
    out = []
    for line in lines:
        try:
            away = read_away(line, zone, now=now)
            absences.declare(player_id, away.start, away.end, now=now)
        except AwayLineError as err:
            db.session.rollback()
            out.append(AwayAnswer(line=line[:200], problem=err.code, word=err.word))
        except absences.AbsenceError as err:
            db.session.rollback()
            out.append(AwayAnswer(line=line[:200], problem=err.code))
        else:
            out.append(AwayAnswer(line=away.line, start=away.start, end=away.end))
    return out


def write_answer(mail, answers: list[AwayAnswer], game_id: int, seat_index: int, now: dt.datetime) -> None:
    """Queue the answer, in the current write transaction (does not commit)."""
    game = db.session.get(Game, game_id)
    seat = game.seat(seat_index)
    left = absences.budget_left(seat.player, now=now).total_seconds() / 86400
    answers = [dataclasses.replace(a, budget_days=round(max(0.0, left), 1)) for a in answers]
    answer(away_answer, game, seat, answers, in_reply_to=mail.message_id, dedupe_key=f"away:{mail.message_id}",
           now=now, references=mail.references)


__all__ = ["declare_lines", "lines_of", "without_away_lines", "write_answer"]
