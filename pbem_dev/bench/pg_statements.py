"""PostgreSQL's own count of the bench's statements (``pbem bench service --pg-statements``).

``pg_stat_statements`` must be loaded by the server (``shared_preload_libraries``,
a restart) and created in the admin database (``CREATE EXTENSION
pg_stat_statements``). A shared PostgreSQL that has not loaded it can be
left alone: start a private one beside it for the profile, e.g. as the
``postgres`` user::

    initdb -D <dir> -A trust -U postgres
    pg_ctl -D <dir> -o "-p 5544 -c listen_addresses=127.0.0.1 \\
        -c shared_preload_libraries=pg_stat_statements -c unix_socket_directories=<dir>" start
    psql -h 127.0.0.1 -p 5544 -U postgres -c "CREATE EXTENSION pg_stat_statements"
    pbem bench service ... --pg-url postgresql://postgres@127.0.0.1:5544/postgres --pg-statements

:func:`reset` empties the counts as the measured window opens and
:func:`top` reads them as it closes: calls, rows and execution time of
each statement of the bench's database, per measured order.
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass
class Statement:
    """One normalised statement's figures in the window: ``calls``,
    ``rows`` and ``ms`` (total execution time, milliseconds)."""

    query: str
    calls: int
    rows: int
    ms: float

    def per_order(self, orders: int) -> str:
        """``<calls> calls <rows> rows <µs> us per order, <µs> us a call: <query>``."""
        n = max(1, orders)
        mean_us = 1000 * self.ms / self.calls if self.calls else 0.0
        text = " ".join(self.query.split())
        return (f"{self.calls / n:6.2f} calls {self.rows / n:7.2f} rows {1000 * self.ms / n:7.1f} us per order, "
                f"{mean_us:6.1f} us a call: {text[:150]}")


def available(admin_url: str) -> bool:
    """Whether ``pg_stat_statements`` can be read through ``admin_url``."""
    import psycopg

    try:
        with psycopg.connect(admin_url, autocommit=True, connect_timeout=5) as conn:
            conn.execute("SELECT 1 FROM pg_stat_statements LIMIT 1")
        return True
    except psycopg.Error:
        return False


def reset(admin_url: str) -> None:
    """Empty the counts (every database's: the server has one table of them)."""
    import psycopg

    with psycopg.connect(admin_url, autocommit=True) as conn:
        conn.execute("SELECT pg_stat_statements_reset()")


def top(admin_url: str, db_name: str, limit: int = 25) -> list[Statement]:
    """The ``limit`` statements of database ``db_name`` that took the most
    execution time since :func:`reset`, most first."""
    import psycopg

    with psycopg.connect(admin_url, autocommit=True) as conn:
        rows = conn.execute(
            "SELECT s.query, s.calls, s.rows, s.total_exec_time FROM pg_stat_statements s "
            "JOIN pg_database d ON d.oid = s.dbid WHERE d.datname = %s "
            "ORDER BY s.total_exec_time DESC LIMIT %s", (db_name, limit)).fetchall()
    return [Statement(q, int(c), int(r), float(ms)) for q, c, r, ms in rows]


def report(statements: list[Statement], orders: int) -> str:
    """The lines :func:`top` gave, per order, with their sums first."""
    calls = sum(s.calls for s in statements)
    ms = sum(s.ms for s in statements)
    head = (f"pg_stat_statements, top {len(statements)} by time, per order of the window: "
            f"{calls / max(1, orders):.2f} calls, {1000 * ms / max(1, orders):.0f} us of execution")
    return "\n".join([head, *(s.per_order(orders) for s in statements)])
