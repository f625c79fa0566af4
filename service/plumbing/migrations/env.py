"""Alembic's entry point, run by Flask-Migrate: connects to the URL given by
:mod:`service.plumbing.schema_upgrade` (or the app's, for ``flask db``).

Autogenerate compares against :data:`service.plumbing.db.Base.metadata`, the one schema
definition.  SQLite cannot alter most constraints in place, so its migrations run in
batch mode (copy, alter, swap), which the same revision scripts support on PostgreSQL.
"""

from __future__ import annotations

from alembic import context
from sqlalchemy.pool import NullPool

from service.plumbing.db import Base, make_engine

config = context.config
target_metadata = Base.metadata


def _database_url() -> str:
    url = config.attributes.get("database_url") or config.get_main_option("sqlalchemy.url")
    if not url:
        raise RuntimeError("no database URL: call service.plumbing.schema_upgrade.upgrade(database_url)")
    return url


def run_migrations_offline() -> None:
    """Write the SQL to stdout instead of running it (``alembic upgrade --sql``)."""
    url = _database_url()
    context.configure(
        url=url,
        target_metadata=target_metadata,
        literal_binds=True,
        dialect_opts={"paramstyle": "named"},
        render_as_batch=url.startswith("sqlite"),
        compare_type=True,
    )
    with context.begin_transaction():
        context.run_migrations()


def _run_on(connection) -> None:
    context.configure(
        connection=connection,
        target_metadata=target_metadata,
        render_as_batch=connection.dialect.name == "sqlite",
        compare_type=True,
    )
    with context.begin_transaction():
        context.run_migrations()


def run_migrations_online() -> None:
    connection = config.attributes.get("connection")
    if connection is not None:
        _run_on(connection)
        return
    engine = make_engine(_database_url(), poolclass=NullPool)
    try:
        with engine.connect() as connection:
            _run_on(connection)
    finally:
        engine.dispose()


if context.is_offline_mode():
    run_migrations_offline()
else:
    run_migrations_online()
