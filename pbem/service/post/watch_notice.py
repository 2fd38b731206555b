"""The spectator link in the host's mail (issue 25; docs/long-games.md,
"Spectators").

- :func:`tell`: when the host makes the game watchable or makes a new
  spectator link, one mail to the host (the ``watchable`` notice kind,
  :mod:`pbem.service.post.notices.watchable`): *People can watch at:
  <link>*, what spectators see, and where to renew or stop it; a link the
  host can forward.
- :func:`watch_url`: the link for the host's other mails about the game's
  set-up (the host's own copy of a pause, resume or extension notice).

The link goes to the host only: every function here takes the host from
the game, never from a seat.
"""
from __future__ import annotations

import datetime as dt
import hashlib

from pbem.i18n import translations
from pbem.mail import compose
from pbem.service.core import links, secret_links
from pbem.service.core.models import Game, Seat
from pbem.service.post.envelope import envelope, game_ref, lang_of
from pbem.service.post.send import send


def watch_url(game: Game) -> str:
    """The game's spectator page, absolute; ``""`` while it is not watchable."""
    path = secret_links.spectator_path(game.id, game.spectator_nonce)
    return links.absolute(path) if path else ""


def host_link(game: Game, seat: Seat) -> str:
    """:func:`watch_url` when ``seat`` is the host's, else ``""`` (never to another seat)."""
    return watch_url(game) if seat.player_id is not None and seat.player_id == game.host_id else ""


def tell(game: Game, *, now: dt.datetime) -> None:
    """Queue the host's mail with the spectator link (in the host's
    language and zone), once per link: the dedupe key names a digest of
    the link's nonce (never the secret). Nothing when the game is not
    watchable or has no host."""
    url, host = watch_url(game), game.host
    if not url or host is None:
        return
    tr = translations(lang_of(host))
    paragraphs = [
        tr.gettext("People can watch at: {url}").format(url=url),
        tr.gettext("Whoever has this link sees the board, the deadline and the public game log, as every player "
                   "sees them: never a hand, an order or a message."),
    ]
    if game.spectator_delay:
        paragraphs.append(tr.gettext("Spectators see the game one turn behind."))
    paragraphs.append(tr.gettext("On the game page you can make a new link (this one then stops working) or stop "
                                 "spectators: {url}").format(url=links.absolute(links.game_path(game.id)) + "#spectators"))
    env = envelope(game, None, now=now, tag=f"pbem.{game.id}.watchable", to_name=host.name, to_address=host.email,
                   reply=False, lang=lang_of(host))
    msg = compose.host_notice(env, game_ref(game), headline=tr.gettext("people can watch the game"),
                              paragraphs=paragraphs)
    link = hashlib.sha256(game.spectator_nonce.encode()).hexdigest()[:16]
    send(msg, kind="watchable", dedupe_key=f"watchable:{game.id}:{link}", player=host, game_id=game.id, now=now)
