"""Shared helpers of the service tests."""
from __future__ import annotations

from email import message_from_bytes, policy

from sqlalchemy import select

from pbem.service.db import db
from pbem.service.lifecycle import create_game, join_game
from pbem.service.models import Game, OutboxMessage

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


def parsed(row: OutboxMessage):
    """The message as delivery will send it (board placeholders drawn)."""
    from pbem.service.pictures import materialize

    return message_from_bytes(materialize(row.raw), policy=policy.default)


def body_text(row: OutboxMessage) -> str:
    return parsed(row).get_body(("plain",)).get_content()
