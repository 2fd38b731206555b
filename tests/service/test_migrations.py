"""The Alembic migrations create exactly the schema the models describe."""
from __future__ import annotations

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import create_engine, inspect

from pbem.service.core.db import db
from pbem.service.core.migrate import downgrade, upgrade


def _diff(url: str) -> list:
    engine = create_engine(url)
    with engine.connect() as conn:
        ctx = MigrationContext.configure(conn, opts={"compare_type": True})
        diff = compare_metadata(ctx, db.metadata)
    engine.dispose()
    return diff


def test_migrated_sqlite_schema_matches_models(tmp_path):
    url = f"sqlite:///{tmp_path / 'migrated.sqlite'}"
    upgrade(url)
    assert _diff(url) == []
    engine = create_engine(url)
    tables = set(inspect(engine).get_table_names())
    engine.dispose()
    assert set(db.metadata.tables) <= tables


def test_migrations_downgrade_to_empty_and_back(tmp_path):
    url = f"sqlite:///{tmp_path / 'roundtrip.sqlite'}"
    upgrade(url)
    downgrade(url, "base")
    engine = create_engine(url)
    assert set(inspect(engine).get_table_names()) <= {"alembic_version"}
    engine.dispose()
    upgrade(url)
    assert _diff(url) == []


def test_a_model_change_without_migration_is_caught(tmp_path):
    """The comparison is not vacuous: a column the migration lacks shows up."""
    from sqlalchemy import Column, Integer, MetaData, Table

    url = f"sqlite:///{tmp_path / 'm.sqlite'}"
    upgrade(url)
    extra = MetaData()
    for table in db.metadata.tables.values():
        table.to_metadata(extra)
    extra.tables["players"].append_column(Column("karma", Integer))
    engine = create_engine(url)
    with engine.connect() as conn:
        diff = compare_metadata(MigrationContext.configure(conn), extra)
    engine.dispose()
    assert any(d[0] == "add_column" and d[3].name == "karma" for d in diff)
