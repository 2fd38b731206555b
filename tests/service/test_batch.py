"""pbem.service.core.batch: several writes, one round trip on PostgreSQL,
the same rows as the writes one by one (run on both databases:
``PBEM_TEST_SERVICE_DB=postgres``)."""
from __future__ import annotations

import datetime as dt

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st
from sqlalchemy import select

from pbem.service.core import batch
from pbem.service.core.db import db
from pbem.service.core.models import GameEvent, Move, Seat
from tests.service.test_query_budget import counted
from tests.webapp import app_with_schema, make_app, new_lacitta

T0 = dt.datetime(2026, 11, 29, 1, 0, tzinfo=dt.timezone.utc)


@pytest.fixture
def app(tmp_path, service_database_url):
    yield from app_with_schema(make_app(tmp_path, service_database_url))


def _writes(gid: int, seat: Seat, moves: int, events: int, step: int) -> list[batch.Write]:
    return [
        batch.Write(Move.__table__, "insert", [dict(game_id=gid, step=step + i, seat_index=0, text=f"m{i}",
                                                    source="web", created_at=T0) for i in range(moves)]),
        # the keys in another order than the table's: rows are matched by name
        batch.Write(GameEvent.__table__, "insert", [dict(data={"i": i}, kind="x", text=f"e{i}", created_at=T0,
                                                         seat_index=None, step=step, game_id=gid)
                                                    for i in range(events)]),
        batch.Write(Seat.__table__, "update", [dict(last_moved_step=step)], key=seat.id),
    ]


# each example starts a game of its own: the shared app does not carry state over
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(moves=st.integers(0, 3), events=st.integers(0, 4))
def test_the_writes_land_as_written_in_one_round_trip_on_postgresql(app, moves, events):
    gid = new_lacitta()
    seat = db.session.scalars(select(Seat).where(Seat.game_id == gid, Seat.index == 1)).one()
    with counted() as statements:
        batch.execute(db.session.connection(), _writes(gid, seat, moves, events, step=7))
    db.session.commit()
    written = [w for w, n in ((1, moves), (1, events), (1, 1)) if n]
    expected = 1 if db.engine.dialect.name == "postgresql" else len(written)
    assert len([s for s in statements if s not in ("BEGIN", "COMMIT")]) == expected
    got_moves = db.session.scalars(select(Move.text).where(Move.game_id == gid, Move.step >= 7)
                                   .order_by(Move.step)).all()
    got_events = db.session.execute(select(GameEvent.text, GameEvent.data).where(
        GameEvent.game_id == gid, GameEvent.kind == "x").order_by(GameEvent.id)).all()
    assert got_moves == [f"m{i}" for i in range(moves)]
    assert [(t, d) for t, d in got_events] == [(f"e{i}", {"i": i}) for i in range(events)]
    assert db.session.scalar(select(Seat.last_moved_step).where(Seat.id == seat.id)) == 7


def test_a_failing_part_writes_nothing(app):
    gid = new_lacitta()
    seat = db.session.scalars(select(Seat).where(Seat.game_id == gid, Seat.index == 0)).one()
    db.session.commit()
    twice = [dict(game_id=gid, step=50, seat_index=0, text="a", source="web", created_at=T0)] * 2
    with pytest.raises(Exception):   # moves (game_id, step) is unique
        batch.execute(db.session.connection(), [
            batch.Write(Seat.__table__, "update", [dict(last_moved_step=99)], key=seat.id),
            batch.Write(Move.__table__, "insert", twice)])
    db.session.rollback()
    assert db.session.scalar(select(Seat.last_moved_step).where(Seat.id == seat.id)) != 99
    assert not db.session.scalars(select(Move).where(Move.game_id == gid, Move.step == 50)).all()


def test_rows_of_one_table_must_have_the_same_columns():
    with pytest.raises(ValueError, match="different columns"):
        batch.Write(Move.__table__, "insert", [dict(step=1), dict(step=1, text="x")])
    with pytest.raises(ValueError, match="one row"):
        batch.Write(Seat.__table__, "update", [dict(index=1), dict(index=2)], key=1)
