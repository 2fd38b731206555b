"""What a game tells its group's chat channel (issue 26): public events
only, in the channel's language, written to the outbox as rows of kind
``channel`` in the transaction of the change (so a post never blocks a
turn; :mod:`pbem.service.post.channel_delivery` posts them through Apprise
with the outbox's retries).

After each change (:func:`after_change`, called by
:func:`pbem.service.post.notify.after_change`): the public log lines since
the last change ("Bruno built a farm in F7"), where the game stands now
with the public board picture and the deadline, or at the end the final
scores. Nothing a seat's view hides, and never table talk.
"""
from __future__ import annotations

import datetime as dt
from email.message import EmailMessage

from pbem.i18n import translations
from pbem.mail.dates import format_deadline
from pbem.service.core.db import db
from pbem.service.core.models import Game
from pbem.service.core.talk_models import GameChannel
from pbem.service.post.content import board_png, event_line, events_since, phase_text
from pbem.service.post.send import send

#: the pseudo address of a channel row (never mailed: delivery posts it)
DOMAIN = "channel.pbem.invalid"
#: most log lines in one post
MAX_LINES = 12


def address(game_id: int) -> str:
    return f"game-{game_id}@{DOMAIN}"


def after_change(game: Game, state, *, now: dt.datetime, since_step: int | None = None) -> None:
    """Queue the channel post of a change of ``game`` (nothing without a channel)."""
    if not game.channel_on:
        return  # most games: no query at all
    channel = db.session.get(GameChannel, game.id)
    if channel is None:
        return
    lang = channel.lang or "en"
    tr = translations(lang)
    lines = [event_line(game, e, lang) for e in events_since(game, None, since_step if since_step is not None
                                                             else game.step - 1)][-MAX_LINES:]
    if state.is_terminal():
        ranked = sorted(state.scores(), key=lambda s: (s.rank, s.seat))
        lines.append(tr.gettext("Game over. Final scores:"))
        lines += [f"{s.rank}. {game.seat(s.seat).player.name}: {s.points}" for s in ranked]
        title = tr.gettext("{title}: game over").format(title=game.title)
    else:
        lines.append(tr.gettext("Now: {phase}").format(phase=phase_text(game, state, lang)))
        if game.deadline_at is not None:
            lines.append(tr.gettext("Deadline: {deadline}").format(
                deadline=format_deadline(game.deadline_at, game.timezone, lang)))
        title = tr.gettext("{title}: step {step}").format(title=game.title, step=game.step)
    picture = board_png(game, state.view(None), lang=lang)
    send(_container(game, title, "\n".join(lines), picture), kind="channel", dedupe_key=f"channel:{game.id}:{game.step}",
         player=None, now=now, game_id=game.id)


def _container(game: Game, title: str, text: str, picture: bytes | None) -> EmailMessage:
    """The post kept as a message (the outbox's form): ``Subject`` the
    title, the text, the public picture as a PNG part (a placeholder drawn
    at delivery)."""
    msg = EmailMessage()
    msg["To"] = address(game.id)
    msg["Subject"] = title
    msg.set_content(text)
    if picture is not None:
        msg.add_attachment(picture, maintype="image", subtype="png", filename="board.png", cid="<board@pbem.invalid>")
    return msg
