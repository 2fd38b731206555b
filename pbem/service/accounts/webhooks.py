"""Webhooks of the public API (issue 28; docs/api.md): a token registers
an HTTPS address to be told "your move", "turn resolved" and "game over"
in the games it reaches. Registration and removal are written here;
:mod:`pbem.service.post.webhook_post` queues the calls as outbox rows and
:mod:`pbem.service.post.webhook_delivery` makes them (and notes failures).

An address must be ``https://`` and resolve to public addresses only
(:func:`pbem.service.core.safe_url.check_url`: no loopback, private,
link-local...); it is checked again before every call. Each hook gets a
random secret, shown once, with which every call is signed. Registering
marks the player (``Player.api_webhooks``), so a change of a game whose
players have none costs no query.
"""
from __future__ import annotations

import datetime as dt
import logging
import secrets
from urllib.parse import urlsplit

from sqlalchemy import delete, select, update

from pbem.engine.messages import Msg
from pbem.service.core.api_models import ApiToken, ApiWebhook
from pbem.service.core.db import begin_write, db
from pbem.service.core.errors import NotAllowed, ServiceError
from pbem.service.core.models import Player, utcnow
from pbem.service.core.safe_url import check_url

log = logging.getLogger(__name__)

#: most hooks one token may hold
MAX_HOOKS = 5


def check_address(url: str) -> str:
    """``url`` stripped, when it is an ``https://`` address of a public
    server; else :class:`ServiceError`."""
    url = (url or "").strip()
    try:
        parts = urlsplit(url)
    except ValueError:
        parts = None
    if parts is None or parts.scheme != "https" or not parts.hostname or len(url) > 2000 or parts.username:
        raise ServiceError(Msg("A webhook needs an https:// address of at most 2000 characters, without a "
                               "user name."))
    check_url(url)
    return url


def register(token: ApiToken, url: str, *, now: dt.datetime | None = None) -> tuple[ApiWebhook, str]:
    """A new hook of ``token`` calling ``url``; returns ``(row, secret)``.
    Raises :class:`ServiceError` (nothing written). Commits."""
    url = check_address(url)
    if len(hooks_of(token.id)) >= MAX_HOOKS:
        raise ServiceError(Msg("A token holds at most {n} webhooks.", n=MAX_HOOKS))
    secret = "whsec_" + secrets.token_urlsafe(32)
    begin_write()
    row = ApiWebhook(token_id=token.id, url=url, secret=secret, created_at=now or utcnow(), failures=0,
                     last_error="")
    db.session.add(row)
    db.session.execute(update(Player).where(Player.id == token.player_id).values(api_webhooks=True))
    db.session.commit()
    log.info("webhook %s registered by api token %s", row.id, token.id)
    return row, secret


def hooks_of(token_id: int) -> list[ApiWebhook]:
    return list(db.session.execute(select(ApiWebhook).where(ApiWebhook.token_id == token_id)
                                   .order_by(ApiWebhook.id)).scalars())


def remove(token_id: int, hook_id: int) -> None:
    """Remove hook ``hook_id`` of ``token_id``; :class:`NotAllowed` when it
    is not that token's. Commits."""
    begin_write()
    done = db.session.execute(delete(ApiWebhook).where(ApiWebhook.id == hook_id, ApiWebhook.token_id == token_id))
    if done.rowcount != 1:
        db.session.rollback()
        raise NotAllowed(Msg("That is not one of this token's webhooks."))
    db.session.commit()


__all__ = ["MAX_HOOKS", "check_address", "register", "hooks_of", "remove"]
