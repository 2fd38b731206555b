"""Deadlines found by the periodic scan (PostgreSQL + Redis + real
workers), and the Alembic migrations on an empty PostgreSQL database."""
from __future__ import annotations

import datetime as dt
import uuid

import pytest
from sqlalchemy import create_engine, inspect, text, update

from pbem.service.core.db import db
from pbem.service.core.models import Game, GameEvent, Seat, utcnow
from pbem.service.play.lifecycle import extend_deadline

from .play import count, fresh, moves, new_game, settle, step, turn_notices, wait_step
from .stack import wait_for

pytestmark = pytest.mark.integration


def _deadline_passed(gid: int, seconds_ago: float = 5) -> None:
    """Time passes: the deadline is now ``seconds_ago`` behind us."""
    db.session.execute(update(Game).where(Game.id == gid).values(
        deadline_at=utcnow() - dt.timedelta(seconds=seconds_ago)))
    db.session.commit()


def _missed(gid: int, seat: int) -> int:
    db.session.commit()
    db.session.expire_all()
    return db.session.query(Seat).filter_by(game_id=gid, index=seat).one().missed_turns


@pytest.mark.slow
def test_deadline_scan_resolves_once_across_extension_and_restart(stack):
    worker = stack.worker(concurrency=2)
    gid = new_game()
    s0 = step(gid)

    # the deadline passes; beat's scan runs twice at once (two beats by
    # mistake, or a slow run overlapping the next) and a resolve races it
    _deadline_passed(gid)
    stack.send("pbem.scan")
    stack.send("pbem.scan")
    stack.send("pbem.resolve", gid)
    wait_step(gid, s0 + 1)
    settle(stack)
    assert moves(gid) == [(s0, 0, "add 1")]  # the default order, once
    assert step(gid) == s0 + 1
    assert _missed(gid, 0) == 1
    assert count(GameEvent, game_id=gid, kind="missed") == 1
    g = fresh(gid)
    assert g.deadline_at > utcnow() + dt.timedelta(hours=47)  # a full new deadline

    # the deadline of seat 2's turn passes, but the host extends it before
    # the scan comes round: the extension wins, nothing is resolved
    s1 = g.step
    _deadline_passed(gid, seconds_ago=60)
    extend_deadline(gid, 3600)
    assert fresh(gid).deadline_at > utcnow() + dt.timedelta(minutes=58)
    stack.send("pbem.scan")
    settle(stack)
    assert step(gid) == s1 and _missed(gid, 1) == 0

    # every process restarts (the worker is SIGKILLed); the new one's scan
    # finds nothing due, and nothing is done twice
    worker.kill()
    stack.worker(concurrency=2)
    stack.send("pbem.scan")
    stack.send("pbem.scan")
    settle(stack)
    assert step(gid) == s1 and len(moves(gid)) == 1

    # the extended deadline passes in turn: resolved once, by the scan
    _deadline_passed(gid)
    stack.send("pbem.scan")
    stack.send("pbem.scan")
    wait_step(gid, s1 + 1)
    settle(stack)
    assert moves(gid) == [(s0, 0, "add 1"), (s1, 1, "add 1")]
    assert _missed(gid, 0) == 1 and _missed(gid, 1) == 1
    assert count(GameEvent, game_id=gid, kind="missed") == 2
    assert turn_notices(gid, s1 + 1) == [f"turn:{gid}:{s1 + 1}:2"]


def test_postgres_migrations_from_empty_match_the_models(postgres_url):
    """Alembic builds the schema of the models on an empty PostgreSQL
    database (types, nullability, indexes, constraints), and downgrades to
    empty and back."""
    from alembic.autogenerate import compare_metadata
    from alembic.migration import MigrationContext
    from sqlalchemy.engine import make_url

    from pbem.service.core.migrate import downgrade, upgrade

    name = f"pbem_mig_{uuid.uuid4().hex[:10]}"
    admin = create_engine(postgres_url, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f'CREATE DATABASE "{name}"'))
    url = make_url(postgres_url).set(database=name).render_as_string(hide_password=False)
    try:
        engine = create_engine(url)
        with engine.connect() as conn:
            assert inspect(conn).get_table_names() == []
        upgrade(url)
        with engine.connect() as conn:
            diff = compare_metadata(MigrationContext.configure(conn, opts={"compare_type": True}),
                                    db.metadata)
            assert diff == []
            assert set(db.metadata.tables) <= set(inspect(conn).get_table_names())
        downgrade(url, "base")
        with engine.connect() as conn:
            assert set(inspect(conn).get_table_names()) <= {"alembic_version"}
        upgrade(url)
        with engine.connect() as conn:
            assert compare_metadata(MigrationContext.configure(conn, opts={"compare_type": True}),
                                    db.metadata) == []
        engine.dispose()
    finally:
        with admin.connect() as conn:
            conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()
