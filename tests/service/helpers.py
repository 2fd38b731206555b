"""Shared helpers of the service tests."""
from __future__ import annotations

from email import message_from_bytes, policy

from sqlalchemy import select

from pbem.mail.flowed import plain_text
from pbem.service.core.db import db
from pbem.service.core.models import Game, OutboxMessage
from pbem.service.play.lifecycle import create_game, join_game

PLAYERS = [("Ada", "ada@example.org"), ("Bo", "bo@example.org"), ("Cy", "cy@example.org")]


def new_tally(t0, seats=3, seed=7, **kw) -> int:
    """A started Tally game; returns its id. The host (Ada) holds seat 1."""
    game = create_game("tally", PLAYERS[0][1], PLAYERS[:seats], seed=seed, now=t0, **kw)
    gid = game.id
    for i in range(1, seats):
        join_game(gid, i, now=t0)
    return gid


def game(gid: int) -> Game:
    db.session.commit()  # end the read snapshot: see what other connections wrote
    db.session.expire_all()
    return db.session.get(Game, gid)


def outbox(**filters) -> list[OutboxMessage]:
    db.session.commit()  # end the read snapshot: see what other connections wrote
    db.session.expire_all()
    stmt = select(OutboxMessage).order_by(OutboxMessage.id)
    for k, v in filters.items():
        stmt = stmt.where(getattr(OutboxMessage, k) == v)
    return list(db.session.execute(stmt).scalars())


def raw_of(row: OutboxMessage) -> bytes:
    """The row's bytes as delivery would send them now, placeholders kept
    (a deferred turn notice is composed; a stale one fails the test)."""
    from pbem.service.post.outbox import render

    raw = render(row)
    assert raw is not None, f"outbox row {row.id} ({row.dedupe_key}) is stale: it would be superseded"
    return raw


def compose_pending() -> int:
    """Compose every deferred turn notice that is still current and keep its
    bytes in the row, as an immediate delivery would have sent them (tests
    that read notices after later moves need each as it was). Returns how
    many were composed."""
    from pbem.service.post.outbox import render

    n = 0
    for row in outbox(status="pending"):
        if row.raw is None:
            raw = render(row)
            if raw is not None:
                row.raw, n = raw, n + 1
    db.session.commit()
    return n


def parsed(row: OutboxMessage):
    """The message as delivery will send it (board placeholders drawn)."""
    from pbem.service.post.pictures import materialize

    return message_from_bytes(materialize(raw_of(row)), policy=policy.default)


def body_text(row: OutboxMessage) -> str:
    return plain_text(parsed(row))
