"""Playing Tally games through the real stack: orders are stored by the
service in the test process (as the web process does) and resolved by the
``celery worker`` subprocess."""
from __future__ import annotations

import time

import redis
from sqlalchemy import func, select

from pbem.service.core.db import db
from pbem.service.core.models import Game, GameEvent, Move, OutboxMessage, PendingOrder, utcnow
from pbem.service.play.orders import submit_orders
from tests.service.helpers import PLAYERS

from .stack import wait_for


def new_game(seats: int = 3, seed: int = 7, **kw) -> int:
    """A started Tally game (every seat joined); returns its id."""
    from pbem.service.play.lifecycle import create_game, join_game

    game = create_game("tally", PLAYERS[0][1], PLAYERS[:seats], seed=seed, **kw)
    gid = game.id
    for i in range(1, seats):
        join_game(gid, i)
    return gid


def fresh(gid: int) -> Game:
    db.session.commit()
    db.session.expire_all()
    return db.session.get(Game, gid)


def step(gid: int) -> int:
    return fresh(gid).step


def wait_step(gid: int, at_least: int, timeout: float = 30) -> Game:
    wait_for(lambda: step(gid) >= at_least, timeout, f"game {gid} to reach step {at_least}")
    return fresh(gid)


def submit(gid: int, seat: int, text: str, *, expected_step: int | None = None, source: str = "web"):
    g = fresh(gid)
    return submit_orders(gid, seat, text, expected_step=g.step if expected_step is None else expected_step,
                         source=source)


def play_round_of_adds(gid: int, seats: int = 3) -> Game:
    """Each seat adds 1 in turn, each resolved by the worker; ends in the
    bidding phase."""
    for seat in range(seats):
        before = step(gid)
        res = submit(gid, seat, "add 1")
        assert res.status == "stored", res.summary()
        wait_step(gid, before + 1)
    g = fresh(gid)
    assert g.phase == "Bidding"
    return g


def moves(gid: int) -> list[tuple[int, int, str]]:
    db.session.commit()
    return [(m.step, m.seat_index, m.text) for m in db.session.execute(
        select(Move).where(Move.game_id == gid).order_by(Move.step)).scalars()]


def events(gid: int, kind: str) -> list[GameEvent]:
    db.session.commit()
    return list(db.session.execute(select(GameEvent).where(
        GameEvent.game_id == gid, GameEvent.kind == kind).order_by(GameEvent.id)).scalars())


def pending(gid: int) -> list[tuple[int, int, str]]:
    db.session.commit()
    return sorted((p.seat_index, p.step, p.text) for p in db.session.execute(
        select(PendingOrder).where(PendingOrder.game_id == gid)).scalars())


def outbox_rows(**filters) -> list[OutboxMessage]:
    db.session.commit()
    db.session.expire_all()
    stmt = select(OutboxMessage).order_by(OutboxMessage.id)
    for k, v in filters.items():
        stmt = stmt.where(getattr(OutboxMessage, k) == v)
    return list(db.session.execute(stmt).scalars())


def turn_notices(gid: int, at_step: int) -> list[str]:
    """Dedupe keys of the turn notices written for ``at_step``."""
    return sorted(r.dedupe_key for r in outbox_rows(game_id=gid, kind="turn")
                  if r.dedupe_key.startswith(f"turn:{gid}:{at_step}:"))


def settle(stack, quiet: float = 1.5, timeout: float = 30) -> None:
    """Wait until the stack's queue is empty, then ``quiet`` seconds more
    for the tasks already taken to finish."""
    client = redis.Redis.from_url(stack.env["PBEM_BROKER_URL"])
    queue = stack.env["PBEM_TASK_QUEUE"]
    try:
        wait_for(lambda: client.llen(queue) == 0, timeout, f"queue {queue} to drain")
    finally:
        client.close()
    time.sleep(quiet)


def count(model, **filters) -> int:
    db.session.commit()
    stmt = select(func.count()).select_from(model)
    for k, v in filters.items():
        stmt = stmt.where(getattr(model, k) == v)
    return db.session.execute(stmt).scalar_one()


__all__ = ["new_game", "fresh", "step", "wait_step", "submit", "play_round_of_adds", "moves",
           "events", "pending", "outbox_rows", "turn_notices", "settle", "count", "utcnow"]
