"""The Alembic migrations build exactly the schema of ``service.plumbing.db`` and take it down again."""

from __future__ import annotations

import os

import pytest
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import MetaData, create_engine, inspect
from sqlalchemy.engine import make_url

from service.plumbing.db import Base, make_engine
from service.plumbing.schema_upgrade import current_revision, downgrade, upgrade
from tests.conftest import _requested_databases, ensure_postgres_database, postgres_url


@pytest.fixture(scope="module", params=_requested_databases())
def migration_database_url(request, tmp_path_factory):
    """A database of its own for migration tests (never the shared test database)."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path_factory.mktemp('migrations') / 'migrations.sqlite3'}"
        return
    url = make_url(postgres_url())
    url = url.set(database=f"{url.database}_migrations_{os.getpid()}")  # one per run: runs never collide
    rendered = url.render_as_string(hide_password=False)
    ensure_postgres_database(rendered)
    yield rendered
    admin = create_engine(url.set(database="postgres"), isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.exec_driver_sql(f'DROP DATABASE IF EXISTS "{url.database}" WITH (FORCE)')
    admin.dispose()


@pytest.fixture
def empty_database_url(migration_database_url):
    """That database with every table dropped, as a fresh install finds it."""
    _drop_all_tables(migration_database_url)
    return migration_database_url


def _drop_all_tables(url: str) -> None:
    engine = make_engine(url)
    with engine.begin() as conn:
        tables = MetaData()
        tables.reflect(conn)
        tables.drop_all(conn)
    engine.dispose()


def _differences(url: str) -> list:
    engine = make_engine(url)
    try:
        with engine.connect() as conn:
            context = MigrationContext.configure(conn, opts={"compare_type": True, "compare_server_default": True})
            return compare_metadata(context, Base.metadata)
    finally:
        engine.dispose()


def _tables(url: str) -> set[str]:
    engine = make_engine(url)
    try:
        with engine.connect() as conn:
            return set(inspect(conn).get_table_names())
    finally:
        engine.dispose()


def test_upgrade_to_head_matches_the_models_exactly(empty_database_url):
    assert current_revision(empty_database_url) is None
    upgrade(empty_database_url)
    assert current_revision(empty_database_url) is not None
    assert _differences(empty_database_url) == []
    assert _tables(empty_database_url) == set(Base.metadata.tables) | {"alembic_version"}


def test_downgrade_to_base_removes_every_table_and_upgrade_again_works(empty_database_url):
    upgrade(empty_database_url)
    downgrade(empty_database_url, "base")
    assert _tables(empty_database_url) == {"alembic_version"}
    assert current_revision(empty_database_url) is None
    upgrade(empty_database_url)
    assert _differences(empty_database_url) == []


def test_upgrade_twice_is_a_no_op(empty_database_url):
    upgrade(empty_database_url)
    upgrade(empty_database_url)
    assert _differences(empty_database_url) == []
