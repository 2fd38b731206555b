"""Posting a game's channel rows through Apprise (issue 26), called by
outbox delivery (:mod:`pbem.service.post.delivery`) for rows of kind
``channel`` instead of SMTP, with the same claim, retry and backoff.

The URL is read from the game's channel when the post goes (never stored
in the outbox row), checked again (:func:`pbem.service.post.channel_url.check`:
a name may resolve elsewhere since it was saved), and the post made with
every connection it opens checked as it connects
(:func:`pbem.service.core.safe_connect.public_only`: no redirect to, nor
a name now resolving to, a private address is followed), with
the row's title, text and public picture (an Apprise attachment). A game
whose channel was removed meanwhile, or whose URL is now refused, fails
the row for good (:class:`~pbem.mail.smtp.PermanentFailure`); a service
that does not take the post is tried again later
(:class:`~pbem.mail.smtp.TemporaryFailure`).
"""
from __future__ import annotations

import os
import tempfile
from email import message_from_bytes, policy

import apprise

from pbem.mail.smtp import PermanentFailure, TemporaryFailure
from pbem.service.core.db import db
from pbem.service.core.safe_connect import public_only
from pbem.service.core.errors import ServiceError
from pbem.service.core.talk_models import GameChannel
from pbem.service.post import channel_url

#: the longest a post may keep the delivery waiting (Apprise stops waiting then:
#: a chat server that answers a byte now and then holds nobody's mail longer)
POST_SECONDS = 20


def _parts(raw: bytes) -> tuple[str, str, bytes | None]:
    """``(title, text, png)`` of a stored channel post."""
    msg = message_from_bytes(raw, policy=policy.default)
    body = msg.get_body(("plain",))
    png = next((p.get_payload(decode=True) for p in msg.walk() if p.get_content_type() == "image/png"), None)
    return str(msg.get("Subject", "")), body.get_content().strip() if body is not None else "", png


def post(raw: bytes, game_id: int | None) -> None:
    """Post the stored channel row ``raw`` of game ``game_id``. Raises
    ``PermanentFailure`` or ``TemporaryFailure`` (see the module)."""
    channel = db.session.get(GameChannel, game_id) if game_id is not None else None
    url = channel.url if channel is not None else None
    db.session.commit()
    if url is None:
        raise PermanentFailure("the game has no channel any more")
    try:
        channel_url.check(url)
    except ServiceError as err:
        raise PermanentFailure(f"the channel's address is refused now: {err}") from None
    title, text, png = _parts(raw)
    sender = apprise.Apprise(asset=apprise.AppriseAsset(service_timeout=POST_SECONDS))
    sender.add(url)
    path = None
    try:
        if png:
            fd, path = tempfile.mkstemp(suffix=".png", prefix="pbem-board-")
            with os.fdopen(fd, "wb") as f:
                f.write(png)
        with public_only():   # a redirect or a name resolving elsewhere now reaches no private address
            ok = sender.notify(title=title, body=text, attach=path)
    finally:
        if path:
            os.unlink(path)
    if not ok:
        raise TemporaryFailure("the chat service did not take the post")
