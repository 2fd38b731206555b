"""Several writes in one round trip: rows for several tables, and updates
of several rows, sent as one statement where the database allows it.

A resolved turn writes its moves, its events and the marks of the seats
that acted: three statements, three round trips to the database, each
costing both the web process and PostgreSQL CPU (the order path's budget,
issue 24). On PostgreSQL they go as one statement: every write but the
last a data-modifying ``WITH`` of the last (``WITH w0 AS (INSERT INTO
moves ...), w1 AS (UPDATE seats ...) INSERT INTO game_events ...``). Such
parts all see the same snapshot and none sees another's rows, which is
right for writes to different rows that do not read each other. Elsewhere
(SQLite) they go one after another.

A :class:`Write` names its table, the kind of write and the values of each
row; :func:`execute` compiles the combined statement once per *shape*
(tables, kinds, columns and row counts, with numbered bound parameters)
and sends its SQL text with the parameters through their types' bind
processors, so a turn pays neither the building nor SQLAlchemy's
compiling, nor its cache key (a walk over every bound parameter) again.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

from sqlalchemy import Table, bindparam, insert, update
from sqlalchemy.engine import Connection


@dataclass(frozen=True)
class Write:
    """One write: ``rows`` inserted into ``table`` (``kind="insert"``; every
    row with the same keys), or one row of ``table`` updated
    (``kind="update"``: ``rows`` holds one dict of the new values and
    ``key``, the primary key's value)."""

    table: Table
    kind: str
    rows: Sequence[dict[str, Any]]
    key: Any = None

    def __post_init__(self) -> None:
        if self.kind not in ("insert", "update"):
            raise ValueError(f"unknown write kind {self.kind!r}")
        if self.kind == "update" and len(self.rows) > 1:
            raise ValueError("an update writes one row")
        if any(set(row) != set(self.rows[0]) for row in self.rows[1:]):
            raise ValueError(f"rows for {self.table.name} with different columns")

    def shape(self) -> tuple:
        return self.table.name, self.kind, tuple(sorted(self.rows[0])), len(self.rows)


_COMPILED: dict[tuple, tuple[str, dict]] = {}
_PLAIN: dict[tuple, Any] = {}


def execute(conn: Connection, writes: Sequence[Write]) -> None:
    """Send ``writes`` (empty ones skipped) in one statement on PostgreSQL,
    one statement each elsewhere, in the current transaction. Raises what
    the database raises (a unique key, a foreign key); nothing is written
    then (the caller's transaction fails as a whole)."""
    writes = [w for w in writes if w.rows]
    if conn.dialect.name != "postgresql" or len(writes) < 2:
        for w in writes:
            _plain(conn, w)
        return
    shape = tuple(w.shape() for w in writes)
    found = _COMPILED.get(shape)
    if found is None:
        # compiled once per shape and sent as its SQL text: executing the
        # statement object would make SQLAlchemy walk its hundreds of bound
        # parameters for a cache key on every turn
        compiled = _build(writes).compile(dialect=conn.dialect)
        found = _COMPILED[shape] = (compiled.string, dict(compiled._bind_processors))
    sql, processors = found
    params = _params(writes)
    for name, process in processors.items():
        if name in params:
            params[name] = process(params[name])
    conn.exec_driver_sql(sql, params)


def _plain(conn: Connection, w: Write) -> None:
    """One write as its own statement (built once per table and columns):
    rows inserted with one ``executemany`` or one row updated."""
    key = (w.table.name, w.kind, tuple(sorted(w.rows[0])))
    stmt = _PLAIN.get(key)
    if stmt is None:
        if w.kind == "insert":
            stmt = w.table.insert()
        else:
            (pk,) = w.table.primary_key.columns
            stmt = update(w.table).where(pk == bindparam("batch_key")).values(
                {name: bindparam(f"batch_{name}") for name in key[2]})
        _PLAIN[key] = stmt
    if w.kind == "insert":
        # one row as one execute: a list, even of one, is an executemany
        conn.execute(stmt, dict(w.rows[0]) if len(w.rows) == 1 else [dict(r) for r in w.rows])
    else:
        conn.execute(stmt, {"batch_key": w.key, **{f"batch_{k}": v for k, v in w.rows[0].items()}})


def _build(group: Sequence[Write]):
    """The statement of ``group``: the last write, the others its ``WITH``
    parts, every value a bound parameter ``w<write>_<row>_<column>``."""
    parts = [_statement(i, w) for i, w in enumerate(group)]
    *first, last = parts
    if first:
        last = last.add_cte(*(p.cte(f"w{i}") for i, p in enumerate(first)))
    return last


def _statement(i: int, w: Write):
    cols = w.table.c
    if w.kind == "insert":
        return insert(w.table).values([
            {name: bindparam(f"w{i}_{r}_{name}", type_=cols[name].type) for name in sorted(w.rows[0])}
            for r in range(len(w.rows))])
    if w.kind == "update":
        (pk,) = w.table.primary_key.columns
        return (update(w.table).where(pk == bindparam(f"w{i}_key", type_=pk.type))
                .values({name: bindparam(f"w{i}_0_{name}", type_=cols[name].type) for name in sorted(w.rows[0])}))
    raise ValueError(f"unknown write kind {w.kind!r}")


def _params(group: Sequence[Write]) -> dict[str, Any]:
    params: dict[str, Any] = {}
    for i, w in enumerate(group):
        if w.kind == "update":
            params[f"w{i}_key"] = w.key
        for r, row in enumerate(w.rows):
            for name, value in row.items():
                params[f"w{i}_{r}_{name}"] = value
    return params


__all__ = ["Write", "execute"]
