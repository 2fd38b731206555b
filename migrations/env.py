"""Alembic environment: the models' metadata; the database URL from the
Alembic config (``sqlalchemy.url``, set by :mod:`pbem.service.core.migrate`) or
else from the ``PBEM_*`` environment like the app."""
from __future__ import annotations

import os
from logging.config import fileConfig

from alembic import context
from sqlalchemy import create_engine, pool

from pbem.service.core import models  # noqa: F401  (registers the tables)
from pbem.service.core.db import db

config = context.config
if config.config_file_name and os.path.exists(config.config_file_name) and config.attributes.get("configure_logger", True):
    fileConfig(config.config_file_name, disable_existing_loggers=False)

target_metadata = db.metadata


def _url() -> str:
    url = config.get_main_option("sqlalchemy.url")
    if url:
        return url
    from pbem.config import load_config

    instance = os.environ.get("PBEM_INSTANCE_PATH") or os.path.join(os.getcwd(), "instance")
    return load_config(instance)["SQLALCHEMY_DATABASE_URI"]


def run_migrations_offline() -> None:
    url = _url()
    context.configure(url=url, target_metadata=target_metadata, literal_binds=True,
                      render_as_batch=url.startswith("sqlite"), compare_type=True)
    with context.begin_transaction():
        context.run_migrations()


def run_migrations_online() -> None:
    connectable = config.attributes.get("connection")
    if connectable is not None:
        _run(connectable)
        return
    engine = create_engine(_url(), poolclass=pool.NullPool)
    with engine.connect() as connection:
        _run(connection)
    engine.dispose()


def _run(connection) -> None:
    context.configure(connection=connection, target_metadata=target_metadata,
                      render_as_batch=connection.dialect.name == "sqlite", compare_type=True)
    with context.begin_transaction():
        context.run_migrations()


if context.is_offline_mode():
    run_migrations_offline()
else:
    run_migrations_online()
