"""Bounces: a hard bounce stops mail to the address and tells the host.

Every mail leaves with its own envelope sender (VERP:
:func:`pbem.mail.tokens.make_bounce_address`, outbox row id and signature),
so a bounce, which mail servers send to the envelope sender, names the mail
that failed. ``pbem mail ingest`` hands every mail for the inbound address
and its ``+tag`` variants to :func:`pbem.service.inbound.handle_inbound`,
which asks :func:`addressed` first: a mail to a bounce address is a bounce.
It meets the limits of all inbound mail (size, lines, structure; and the
per-sender rate limit, recorded by Message-ID like any mail) before its
report is read, and nothing in the report can fail the ingest (issue 22).

A hard bounce (RFC 3464 ``Action: failed``, an RFC 3463 status 5.x.y, for
the row's recipient) marks the player ``bounced_at`` with the server's
words (printable characters only; the player's own mail server wrote them
to the player's own page): :mod:`pbem.service.post.mailprefs` sends that address
nothing more until the player says on their mail-preferences page that it
works again. The host of the game the mail was about is told once per
bounce, with the status code alone: whoever holds a bounce address (anyone
who got one mail) writes the report's words. Soft bounces and unreadable
reports change nothing (the sending server retries a delay on its own). A
forged bounce needs the row's signature, so nobody can switch off another
player's mail.
"""
from __future__ import annotations

import datetime as dt
import hashlib
import logging
import re
from dataclasses import dataclass

from flask import current_app
from sqlalchemy import select

from pbem.mail import inbound_addresses
from pbem.mail.dsn import printable, read_dsn
from pbem.mail.inbound import check_limits
from pbem.mail.inbound_limits import ADDRESS_FIELDS
from pbem.mail.tokens import parse_bounce_address
from pbem.service.core.db import db
from pbem.service.core.models import Game, OutboxMessage, Player

log = logging.getLogger(__name__)

#: how far into a message the cheap test for a bounce address looks
_SNIFF_BYTES = 64 * 1024
#: a Message-ID as stored: printable ASCII, no angle brackets or spaces inside
_MSGID = re.compile(rb"<[\x21-\x3b\x3d\x3f-\x7e]{1,500}>")


@dataclass(frozen=True)
class Bounce:
    """Mail to one of our bounce addresses: ``row_id`` is the outbox row
    it is about, ``message_id`` its Message-ID (angle brackets kept; a hash
    of the bytes when it has none), ``sender`` its From address (``""``
    when none can be read)."""

    row_id: int
    message_id: str
    sender: str


def addressed(raw: bytes) -> Bounce | None:
    """The :class:`Bounce` when ``raw`` is addressed to one of our bounce
    addresses, else ``None`` (cheap for ordinary mail: one substring test).
    Such mail meets every size and structure limit of inbound mail first
    (:func:`pbem.mail.inbound.check_limits`, a delivery report allowed):
    raises :class:`pbem.mail.inbound.InboundRejected` over one."""
    if b"+bounce-" not in raw[:_SNIFF_BYTES]:
        return None
    fields = check_limits(raw, reports=True)
    cfg = current_app.config
    values = [value for name, value in fields if name in ADDRESS_FIELDS]
    for address in inbound_addresses.recipients(values):
        row_id = parse_bounce_address(cfg["SECRET_KEY"], cfg["INBOUND_ADDRESS"], address,
                                      old_secrets=cfg.get("SECRET_KEY_FALLBACKS") or ())
        if row_id is not None:
            ids = [m.group().decode("ascii") for name, value in fields if name == "message-id"
                   for m in [_MSGID.search(value)] if m]
            senders = [addr for name, value in fields if name == "from"
                       for _n, addr in inbound_addresses.mailboxes(value)]
            return Bounce(row_id, ids[0] if ids else f"<{hashlib.sha256(raw).hexdigest()}@pbem.invalid>",
                          printable(senders[0]).lower() if senders else "")
    return None


def apply(bounce: Bounce, raw: bytes, *, now: dt.datetime) -> tuple[str, str, int | None]:
    """Read the report in ``raw`` and act on it, in the caller's write
    transaction (nothing is committed): ``(status, detail, game id)`` with
    status ``bounce`` (hard: the address is marked and the host told the
    status code), ``bounce-soft`` (no permanent failure for the row's
    recipient) or ``bounce-unread`` (no RFC 3464 report could be read, or
    the row is gone). Never raises for any report (:func:`read_dsn`)."""
    row = db.session.get(OutboxMessage, bounce.row_id)
    if row is None:
        return "bounce-unread", f"bounce for outbox row {bounce.row_id}, which is gone", None
    deliveries = read_dsn(raw)
    if not deliveries:
        return "bounce-unread", f"no delivery report read for outbox row {row.id}", row.game_id
    recipients = {r.strip().lower() for r in row.recipient.split(",")}
    hard = [d for d in deliveries if d.hard and d.recipient in recipients]
    if not hard:
        return "bounce-soft", f"no permanent failure for outbox row {row.id}", row.game_id
    first = hard[0]
    reason = first.diagnostic or f"status {first.status}"
    player = db.session.execute(select(Player).where(Player.email == first.recipient)).scalar_one_or_none()
    if player is not None and player.bounced_at is None:
        player.bounced_at, player.bounce_reason = now, reason[:300]
        row.last_error = f"bounced: {first.status} {reason}"[:2000]
        game = db.session.get(Game, row.game_id) if row.game_id else None
        if game is not None and game.host is not None and game.host.id != player.id:
            from pbem.service.post import notify

            # the status code alone: the report's words are whoever sent it's
            notify.bounce_notice(game, player, first.status, now=now, row_id=row.id)
    log.warning("hard bounce for %s (outbox %s): %s %s", first.recipient, row.id, first.status, reason)
    return "bounce", f"{first.recipient}: {first.status} {reason}", row.game_id
