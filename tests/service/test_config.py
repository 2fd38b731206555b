"""Configuration from PBEM_* variables: the database connection pool."""
from __future__ import annotations

import pytest

from pbem.config import load_config

PG = "postgresql://db.internal/pbem"


def test_each_web_thread_has_a_pooled_postgresql_connection(tmp_path):
    # more threads than pooled connections would open and close a
    # connection (a new PostgreSQL server process) per request beyond the pool
    options = load_config(tmp_path, {"PBEM_DATABASE_URL": PG, "PBEM_WEB_THREADS": "8"})["SQLALCHEMY_ENGINE_OPTIONS"]
    assert options["pool_size"] == 8 and options["pool_pre_ping"] is True
    assert load_config(tmp_path, {"PBEM_DATABASE_URL": PG})["SQLALCHEMY_ENGINE_OPTIONS"]["pool_size"] == 5


def test_the_pool_size_can_be_set_and_sqlite_keeps_its_own_pool(tmp_path):
    cfg = load_config(tmp_path, {"PBEM_DATABASE_URL": PG, "PBEM_WEB_THREADS": "8", "PBEM_DB_POOL_SIZE": "12"})
    assert cfg["SQLALCHEMY_ENGINE_OPTIONS"]["pool_size"] == 12
    embedded = load_config(tmp_path, {})
    assert embedded["SQLALCHEMY_DATABASE_URI"].startswith("sqlite")
    assert "pool_size" not in embedded["SQLALCHEMY_ENGINE_OPTIONS"]


def test_the_host_notice_delay_is_read_from_its_variable(tmp_path):
    assert load_config(tmp_path, {})["HOST_NOTICE_DELAY_SECONDS"] == 60
    assert load_config(tmp_path, {"PBEM_HOST_NOTICE_DELAY_SECONDS": "0"})["HOST_NOTICE_DELAY_SECONDS"] == 0
    assert load_config(tmp_path, {"PBEM_HOST_NOTICE_DELAY_SECONDS": "7.5"})["HOST_NOTICE_DELAY_SECONDS"] == 7.5


@pytest.mark.parametrize("bad", ["soon", "-1", "nan", "100000"])
def test_a_bad_host_notice_delay_is_refused_by_name(tmp_path, bad):
    with pytest.raises(ValueError, match="PBEM_HOST_NOTICE_DELAY_SECONDS"):
        load_config(tmp_path, {"PBEM_HOST_NOTICE_DELAY_SECONDS": bad})
