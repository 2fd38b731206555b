"""The host connects a game to the group's chat through Apprise (issue 26;
docs/long-games.md, "The group's channel").

:func:`connect` checks the URL (:func:`pbem.service.post.channel_url.check`:
Apprise knows it, and it reaches only public servers), stores it with the
language of the posts, and tells the channel "this game posts here" (a
first post, through the outbox like every post). The URL is never shown
again: :func:`shown` gives the pages only the service's name. :func:`disconnect`
forgets it. What is posted: :mod:`pbem.service.post.channel_post`.
"""
from __future__ import annotations

import datetime as dt
from email.message import EmailMessage

from pbem.engine.messages import Msg
from pbem.i18n import supported, translations
from pbem.service.core import queue
from pbem.service.core.db import begin_write, db
from pbem.service.core.errors import NotAllowed, ServiceError
from pbem.service.core.models import utcnow
from pbem.service.core.snapshot import load_game
from pbem.service.core.talk_models import GameChannel
from pbem.service.post import channel_url
from pbem.service.post.channel_post import address
from pbem.service.post.send import send

#: the longest URL taken
MAX_URL = 2000


def _host_game(game_id: int, by_player_id: int | None):
    game = load_game(game_id, for_update=True)
    if by_player_id is None or game.host_id != by_player_id:
        db.session.rollback()
        raise NotAllowed(Msg("Only the host of this game can do that."))
    return game


def connect(game_id: int, url: str, *, by_player_id: int | None, lang: str | None = None,
            now: dt.datetime | None = None) -> str:
    """Connect game ``game_id`` to the chat at Apprise ``url``, posting in
    ``lang`` (default: the host's language). Returns the service's name.
    Commits. Raises ``NotAllowed`` (not the host) and ``ServiceError``
    (a URL Apprise does not know, too long, or not public)."""
    now = now or utcnow()
    url = (url or "").strip()
    if not url or len(url) > MAX_URL:
        raise ServiceError(Msg("Paste the Apprise address of your chat (at most {most} characters).", most=MAX_URL))
    service = channel_url.check(url)
    begin_write()
    game = _host_game(game_id, by_player_id)
    lang = supported(lang) or supported(game.host.language if game.host else None) or "en"
    channel = db.session.get(GameChannel, game.id)
    if channel is None:
        channel = GameChannel(game_id=game.id, created_at=now)
        db.session.add(channel)
    channel.url, channel.service, channel.lang = url, service, lang
    game.channel_on = True
    tr = translations(lang)
    hello = EmailMessage()
    hello["To"], hello["Subject"] = address(game.id), game.title
    hello.set_content(tr.gettext("This chat now hears the public news of {title}: every turn, the deadline, "
                                 "the end.").format(title=game.title))
    send(hello, kind="channel", dedupe_key=f"channel:{game.id}:hello:{int(now.timestamp())}", player=None, now=now,
         game_id=game.id)
    db.session.commit()
    queue.enqueue(queue.DELIVER)
    return service


def disconnect(game_id: int, *, by_player_id: int | None) -> None:
    """Forget the game's chat (posts not yet sent fail, unsent). Commits."""
    begin_write()
    game = _host_game(game_id, by_player_id)
    game.channel_on = False
    channel = db.session.get(GameChannel, game_id)
    if channel is not None:
        db.session.delete(channel)
    db.session.commit()


def shown(game_id: int) -> dict | None:
    """What the pages may show of the game's channel: ``{"service",
    "lang"}``, never the URL; ``None`` without one. Reads only."""
    channel = db.session.get(GameChannel, game_id)
    return None if channel is None else {"service": channel.service, "lang": channel.lang}
