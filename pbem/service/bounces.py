"""Bounces: a hard bounce stops mail to the address and tells the host.

Every mail leaves with its own envelope sender (VERP:
:func:`pbem.mail.tokens.make_bounce_address`, outbox row id and signature),
so a bounce, which mail servers send to the envelope sender, names the mail
that failed. ``pbem mail ingest`` hands every mail for the inbound address
and its ``+tag`` variants to :func:`pbem.service.inbound.handle_inbound`,
which asks :func:`handle` first: a mail to a bounce address is a bounce.

A hard bounce (RFC 3464 ``Action: failed``, status 5.x.x, for the row's
recipient) marks the player ``bounced_at`` with the server's words:
:mod:`pbem.service.mailprefs` sends that address nothing more until the
player says on their mail-preferences page that it works again. The host of
the game the mail was about is told once per bounce. Soft bounces and
unreadable reports change nothing (the sending server retries a delay on
its own). A forged bounce needs the row's signature, so nobody can switch
off another player's mail.
"""
from __future__ import annotations

import datetime as dt
import logging
from email import policy
from email.parser import BytesHeaderParser
from email.utils import getaddresses

from flask import current_app
from sqlalchemy import select

from pbem.mail.dsn import read_dsn
from pbem.mail.tokens import parse_bounce_address
from pbem.service.db import begin_write, db
from pbem.service.models import Game, OutboxMessage, Player

log = logging.getLogger(__name__)

#: where the envelope recipient may be written by the receiving server
_RECIPIENT_HEADERS = ("Delivered-To", "X-Original-To", "Envelope-To", "To")
#: how far into a message the cheap test for a bounce address looks
_SNIFF_BYTES = 64 * 1024


def bounce_row_id(raw: bytes) -> int | None:
    """The outbox row a mail to one of our bounce addresses is about, or
    ``None`` (cheap for ordinary mail: one substring test)."""
    if b"+bounce-" not in raw[:_SNIFF_BYTES]:
        return None
    headers = BytesHeaderParser(policy=policy.compat32).parsebytes(raw[:_SNIFF_BYTES])
    cfg = current_app.config
    for name in _RECIPIENT_HEADERS:
        for _n, address in getaddresses([str(v) for v in headers.get_all(name, [])][:20]):
            row_id = parse_bounce_address(cfg["SECRET_KEY"], cfg["INBOUND_ADDRESS"], address,
                                          old_secrets=cfg.get("SECRET_KEY_FALLBACKS") or ())
            if row_id is not None:
                return row_id
    return None


def handle(raw: bytes, *, now: dt.datetime) -> tuple[str, str] | None:
    """Process ``raw`` if it is a bounce of ours: ``(status, detail)`` with
    status ``bounce`` (hard: the address is marked), ``bounce-soft`` or
    ``bounce-unread``; ``None`` when it is not addressed to a bounce
    address. Commits."""
    row_id = bounce_row_id(raw)
    if row_id is None:
        return None
    row = db.session.get(OutboxMessage, row_id)
    if row is None:
        return "bounce-unread", f"bounce for outbox row {row_id}, which is gone"
    recipients = {r.strip().lower() for r in row.recipient.split(",")}
    hard = [d for d in read_dsn(raw) if d.hard and d.recipient in recipients]
    if not hard:
        return "bounce-soft", f"no permanent failure for outbox row {row_id}"
    begin_write()
    reason = hard[0].diagnostic or f"status {hard[0].status}"
    player = db.session.execute(select(Player).where(Player.email == hard[0].recipient)).scalar_one_or_none()
    if player is not None and player.bounced_at is None:
        player.bounced_at, player.bounce_reason = now, reason[:300]
        row.last_error = f"bounced: {reason}"[:2000]
        game = db.session.get(Game, row.game_id) if row.game_id else None
        if game is not None and game.host is not None and game.host.id != player.id:
            from pbem.service import notify

            notify.bounce_notice(game, player, reason, now=now, row_id=row_id)
    db.session.commit()
    log.warning("hard bounce for %s (outbox %s): %s", hard[0].recipient, row_id, reason)
    return "bounce", f"{hard[0].recipient}: {reason}"
