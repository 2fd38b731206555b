"""The flask-sqlalchemy ``db`` object and the SQLite connection settings.

Constraint names follow a naming convention so Alembic migrations name them
the same on SQLite and PostgreSQL.
"""
from __future__ import annotations

from flask_sqlalchemy import SQLAlchemy
from sqlalchemy import MetaData, event, text
from sqlalchemy.engine import Engine
from sqlalchemy.orm import DeclarativeBase

NAMING_CONVENTION = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING_CONVENTION)


db = SQLAlchemy(model_class=Base)


def configure_sqlite(engine: Engine) -> None:
    """SQLite settings for the service database (no-op on other databases).

    WAL lets pages read while the worker writes; ``busy_timeout`` makes a
    writer wait for the lock instead of failing. Transactions begin
    deferred (readers never block); service functions that read and then
    write take the write lock first with :func:`begin_write`, because a
    deferred transaction that reads and then writes fails at once
    (SQLITE_BUSY_SNAPSHOT) when another writer got in between.
    """
    if engine.dialect.name != "sqlite":
        return

    @event.listens_for(engine, "connect")
    def _connect(dbapi_connection, connection_record) -> None:
        dbapi_connection.isolation_level = None  # we emit BEGIN ourselves
        cursor = dbapi_connection.cursor()
        try:
            cursor.execute("PRAGMA journal_mode=WAL")
        except Exception:  # pragma: no cover - in-memory databases have no WAL
            pass
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute("PRAGMA busy_timeout=30000")
        cursor.close()

    @event.listens_for(engine, "begin")
    def _begin(conn) -> None:
        conn.exec_driver_sql("BEGIN")


def begin_write() -> None:
    """Take the database write lock now, at the start of a read-then-write
    transaction (SQLite only; PostgreSQL uses row locks, see
    :func:`pbem.service.core.snapshot.load_game`).

    A read-only transaction already open in the session is committed first:
    its snapshot may be older than the last write, and upgrading it would
    fail instead of waiting.
    """
    session = db.session()
    if session.get_bind().dialect.name != "sqlite":
        return
    if session.in_transaction() and not (session.new or session.dirty or session.deleted):
        session.commit()
    # A write statement starts the write transaction even when it matches no
    # row; busy_timeout makes it wait for another writer.
    session.execute(text("UPDATE used_tokens SET nonce = nonce WHERE 1 = 0"))
