"""Telling a player that one of their webhooks was disabled (issue 28):
after :data:`pbem.service.post.webhook_delivery.MAX_FAILURES` failed
calls in a row, a mail in their language names the address and the last
error and says how to start again. Kind ``webhook_off`` (an answer to what
the player set up: sent whatever their mail preferences, never to an
address that bounced)."""
from __future__ import annotations

import datetime as dt

from pbem.i18n import translations
from pbem.mail import compose
from pbem.service.core import links
from pbem.service.core.api_models import ApiWebhook
from pbem.service.core.models import Game, Player
from pbem.service.post.envelope import envelope, game_ref, lang_of
from pbem.service.post.send import send


def hook_disabled(hook: ApiWebhook, player: Player, game: Game, *, now: dt.datetime) -> None:
    """Queue the mail to ``player`` (in the caller's transaction) that
    ``hook`` (last called for ``game``) was disabled."""
    lang = lang_of(player)
    tr = translations(lang)
    env = envelope(game, None, now=now, tag=f"pbem.webhook.{hook.id}.off", to_name=player.name,
                   to_address=player.email, reply=False, lang=lang)
    msg = compose.host_notice(env, game_ref(game), headline=tr.gettext("your webhook is switched off"), paragraphs=[
        tr.gettext("pbem could not reach your webhook {url} {n} times in a row (last: {error}), so it calls it "
                   "no more.").format(url=hook.url, n=hook.failures, error=hook.last_error),
        tr.gettext("When it works again, register it again with your API token; the API's documentation is at "
                   "{docs}.").format(docs=links.absolute("/api/docs")),
    ])
    send(msg, kind="webhook_off", dedupe_key=f"webhook_off:{hook.id}:{hook.failures}", player=player,
         game_id=game.id, now=now)
