"""What the inbound pipeline (:mod:`pbem.service.inbound`) tells about
mail it does not apply: the fixed-text notice to a seat's own registered
address when mail came through its reply address from someone else, the
hint to a registered player whose mail came through no reply address, and
the guard that leaves hostile mail unanswered rather than crash the worker.
No text a sender wrote is mailed anywhere (no backscatter).
"""
from __future__ import annotations

import datetime as dt
import email.errors
import logging

from flask import current_app
from sqlalchemy import select

from pbem.mail.authresults import sender_authenticated
from pbem.mail.inbound import InboundMail
from pbem.service.core import ratelimit
from pbem.service.core.db import db
from pbem.service.core.models import Game, Player
from pbem.service.post import notify

log = logging.getLogger(__name__)

#: fixed-text "not applied" notices to one registered address (any cause)
NOTICE_LIMIT = "2 per hour; 6 per day"


def notify_holder(game: Game, seat, why: str, mail: InboundMail, *, now: dt.datetime) -> None:
    """The fixed-text notice to the seat's own registered address, at most
    :data:`NOTICE_LIMIT` per address."""
    if ratelimit.allow("pbem-notice", seat.player.email.strip().lower(), NOTICE_LIMIT, fail_open=False, now=now):
        answer(notify.not_applied, game, seat, seat.player, why, dedupe_key=f"inbound:{mail.message_id}",
                now=now)
    else:
        log.warning("not-applied notice to seat %s of game %s dropped: over %s", seat.index, game.id, NOTICE_LIMIT)


def hint_unknown(mail: InboundMail, *, now: dt.datetime) -> None:
    """Mail through no reply address: a fixed-text hint when its one author
    is a registered player (and, with ``INBOUND_REQUIRE_AUTH``, our mail
    server authenticated it), counted against the global
    ``UNKNOWN_MAIL_ANSWER_LIMIT`` and the per-address :data:`NOTICE_LIMIT`."""
    cfg = current_app.config
    author = (mail.author or "").lower()
    if not author:
        return
    player = db.session.execute(select(Player).where(Player.email == author)).scalar_one_or_none()
    if player is None:
        return
    if cfg.get("INBOUND_REQUIRE_AUTH") and not sender_authenticated(
            mail.auth_results, author, cfg.get("INBOUND_AUTHSERV_IDS") or ()).ok:
        return
    if not ratelimit.allow("pbem-unknown-answer", "all", cfg.get("UNKNOWN_MAIL_ANSWER_LIMIT") or "",
                           fail_open=False, now=now):
        log.warning("answer to unknown mail dropped: over UNKNOWN_MAIL_ANSWER_LIMIT")
        return
    if not ratelimit.allow("pbem-notice", author, NOTICE_LIMIT, fail_open=False, now=now):
        return
    answer(notify.not_applied, None, None, player, "unknown", dedupe_key=f"inbound:{mail.message_id}", now=now)


def answer(write, *args, **kwargs) -> None:
    """Write an answer to the outbox with ``write``. Hostile mail can carry
    what no email header may hold (a NUL in the sender's address or in its
    Message-ID); such mail stays unanswered instead of crashing the worker
    (which would retry it forever). The answer is built before its outbox
    row is added, so a failure leaves nothing half written."""
    try:
        write(*args, **kwargs)
    except (ValueError, TypeError, email.errors.MessageError) as err:
        log.warning("inbound mail left unanswered: the answer could not be addressed (%s)", err)
