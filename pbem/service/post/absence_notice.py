"""The answer to an ``away`` line mailed in (issue 25; the ``absence``
notice kind, :mod:`pbem.service.post.notices.absence`): what was read and
recorded, or the line quoted back with why it was not, and how to write it.
Sent to the seat's own player only, in their language and time zone."""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Sequence

from pbem.i18n import translations
from pbem.mail import compose
from pbem.service.core import links
from pbem.service.core.models import Game, Seat
from pbem.service.post.envelope import envelope, game_ref, lang_of, queue_notice

#: an example line (each language writes it in its own words, which
#: :mod:`pbem.service.play.away_line` reads: tests/service/test_absences.py)
EXAMPLE = "away 2026-12-20 to 2026-12-27"


@dataclass(frozen=True)
class AwayAnswer:
    """What an away line came to: ``line`` as written; ``start``/``end``
    (aware UTC) when recorded; else ``problem``, the code of why not
    (:class:`pbem.service.play.away_line.AwayLineError` codes and
    :class:`pbem.service.play.absences.AbsenceError` codes); ``word``: the
    word not understood; ``budget_days``: what is left of the player's
    yearly budget, in days."""

    line: str
    start: dt.datetime | None = None
    end: dt.datetime | None = None
    problem: str = ""
    word: str = ""
    budget_days: float = 0.0


def _why(tr, answer: AwayAnswer) -> str:
    return {
        "word": tr.gettext("the word \u201c{word}\u201d is not one pbem reads in an away line").format(word=answer.word),
        "dates": tr.gettext("it needs two dates, the first day and the last"),
        "date": tr.gettext("one of its dates or times does not exist"),
        "order": tr.gettext("the last day comes before the first"),
        "past": tr.gettext("that time is over already"),
        "long": tr.gettext("an absence may last a year at most"),
        "many": tr.gettext("you have three absences waiting already; withdraw one on your account page first"),
    }.get(answer.problem, answer.problem)


def answer(game: Game, seat: Seat, answers: Sequence[AwayAnswer], *, in_reply_to: str | None, dedupe_key: str,
           now: dt.datetime, references: Sequence[str] = ()) -> None:
    """Queue the answer to the away lines of one mail through ``seat``'s reply address."""
    lang = lang_of(seat.player)
    tr = translations(lang)
    env = envelope(game, seat, now=now, tag=f"pbem.{game.id}.{seat.index}.{game.step}.away",
                   in_reply_to=in_reply_to, references=references)
    paragraphs, refused = [], False
    for a in answers:
        if a.start is not None:
            paragraphs.append(tr.gettext(
                "Read: \u201c{line}\u201d. Recorded: you are away from {start} to {end}, in all your games.").format(
                    line=a.line, start=compose.format_deadline(a.start, env.timezone, env.locale),
                    end=compose.format_deadline(a.end, env.timezone, env.locale)))
        else:
            refused = True
            paragraphs.append(tr.gettext("Read: \u201c{line}\u201d. Not recorded: {why}.").format(
                line=a.line, why=_why(tr, a)))
    if refused:
        paragraphs.append(tr.gettext("Write it like this (dates in your own time zone, {zone}): {example}").format(
            zone=env.timezone, example=tr.gettext("away 2026-12-20 to 2026-12-27")))
    if any(a.start is not None for a in answers):
        paragraphs.append(tr.gettext(
            "A deadline that falls inside your absence moves to its end plus the game's grace, within the "
            "game's cap and your yearly budget ({days} days left). The other players see only that you are "
            "away and until when.").format(days=f"{answers[-1].budget_days:g}"))
    paragraphs.append(tr.gettext("Your absences, and a way to withdraw one: {url}").format(
        url=links.absolute("/account#absences")))
    headline = tr.gettext("your absence is recorded") if not refused else tr.gettext("your away line was not read")
    msg = compose.host_notice(env, game_ref(game), headline=headline, paragraphs=paragraphs)
    queue_notice(game, seat, msg, "absence", dedupe_key, now)
