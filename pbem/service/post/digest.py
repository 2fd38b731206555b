"""The daily digest: notices held for players who asked for one mail a day
(:mod:`pbem.service.post.mailprefs`) go out together at their hour.

:func:`send_due` runs with every delivery pass (:func:`pbem.service.post.delivery.deliver_due`).
For each recipient with held rows that are due, it composes every held
notice as it is now (a turn notice whose turn has passed is left out, like
any stale notice), queues one ``digest`` mail with them, and marks the
held rows ``digested``. The digest's dedupe key (recipient and due hour)
makes a second pass, or a second worker, queue nothing twice.
"""
from __future__ import annotations

import datetime as dt
from email import message_from_bytes, policy

from sqlalchemy import select, update

from pbem.mail import compose
from pbem.mail.flowed import plain_text
from pbem.service.core.db import begin_write, db
from pbem.service.core.models import OUT_DIGESTED, OUT_HELD, OutboxMessage, Player
from pbem.service.post import outbox
from pbem.service.post.envelope import envelope
from pbem.service.post.send import send


def _item(row: OutboxMessage, now: dt.datetime) -> compose.DigestItem | None:
    raw = outbox.render(row, now=now)
    if raw is None:
        return None  # stale: the turn it asked for has passed
    msg = message_from_bytes(raw, policy=policy.default)
    text = plain_text(msg)  # the notice's paragraphs, soft breaks joined (RFC 3676)
    # the greeting (its first line, in any language) and footer of each
    # notice are the digest's own, once
    head = text.split("\n", 2)
    text = head[2] if len(head) == 3 and not head[1].strip() else text
    text = text.split("\n-- \n")[0].strip()
    return compose.DigestItem(str(msg.get("Subject", "")), text, msg.get("Reply-To"))


def send_due(*, now: dt.datetime) -> int:
    """Queue the digests that are due at ``now`` (UTC); returns how many."""
    recipients = list(db.session.execute(
        select(OutboxMessage.recipient).where(OutboxMessage.status == OUT_HELD,
                                              OutboxMessage.next_attempt_at <= now)
        .distinct()).scalars())
    db.session.commit()
    queued = 0
    for recipient in recipients:
        begin_write()
        rows = list(db.session.execute(
            select(OutboxMessage).where(OutboxMessage.status == OUT_HELD,
                                        OutboxMessage.recipient == recipient,
                                        OutboxMessage.next_attempt_at <= now)
            .order_by(OutboxMessage.id)).scalars())
        items = [i for i in (_item(r, now) for r in rows) if i is not None]
        player = db.session.execute(select(Player).where(Player.email == recipient.lower())).scalar_one_or_none()
        if items and player is not None:
            due = min(r.next_attempt_at for r in rows)
            env = envelope(None, None, now=now, tag=f"pbem.digest.{player.id}", reply=False, player=player)
            if send(compose.digest(env, items), kind="digest", player=player, now=now,
                    dedupe_key=f"digest:{player.id}:{due:%Y-%m-%dT%H}") is not None:
                queued += 1
        db.session.execute(update(OutboxMessage).where(OutboxMessage.id.in_([r.id for r in rows]))
                           .values(status=OUT_DIGESTED).execution_options(synchronize_session=False))
        db.session.commit()
    return queued
