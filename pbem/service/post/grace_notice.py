"""The late player's grace, told to the late seat once (issue 25; the
``grace`` notice kind, :mod:`pbem.service.post.notices.grace`).

One mail per seat per game, ever (the dedupe key names no step): it says
the deadline was missed, that the game waits this once, and until when,
in the player's language and time zone. Nothing sent later says otherwise
before that time (:mod:`pbem.service.play.grace`).
"""
from __future__ import annotations

import datetime as dt

from pbem.i18n import translations
from pbem.mail import compose
from pbem.service.core import links
from pbem.service.core.models import Game, Seat
from pbem.service.post.envelope import envelope, game_ref, lang_of, queue_notice


def tell(game: Game, seat: Seat, *, now: dt.datetime) -> None:
    """Queue the grace notice of ``seat`` (the game's deadline is already the graced one)."""
    lang = lang_of(seat.player)
    tr = translations(lang)
    env = envelope(game, seat, now=now, tag=f"pbem.{game.id}.{seat.index}.{game.step}.grace")
    until = compose.format_deadline(game.deadline_at, env.timezone, env.locale)
    headline = tr.gettext("you missed the deadline: {hours} h of grace, until {deadline}").format(
        hours=game.grace_hours, deadline=until)
    paragraphs = [
        tr.gettext("You missed the deadline. As it is your first in this game, no default order was applied: "
                   "the game waits for your orders until {deadline}.").format(deadline=until),
        tr.gettext("This grace is given once per game. If your orders are not in by then, the default "
                   "order is applied as usual."),
        tr.gettext("Reply to this email with your orders, or send them from the game page: {url}").format(
            url=links.absolute(links.game_path(game.id))),
    ]
    msg = compose.host_notice(env, game_ref(game), headline=headline, paragraphs=paragraphs)
    queue_notice(game, seat, msg, "grace", f"grace:{game.id}:{seat.index}", now)
