"""Bring a database to the current schema with Alembic, configured in code.

There is no ``alembic.ini``: the CLI (``capua db upgrade``), the embedded server at
start-up and the tests all call :func:`upgrade` with a database URL, so the one place
that knows where the migrations live is this module.  The URL travels in
``Config.attributes`` rather than the ini options, because ini interpolation would
mangle a ``%`` in a password.
"""

from __future__ import annotations

from pathlib import Path
from typing import Optional

from alembic import command
from alembic.config import Config as AlembicConfig
from sqlalchemy.engine import Connection, make_url

MIGRATIONS_DIR = Path(__file__).resolve().parent / "migrations"


def alembic_config(database_url: str, *, connection: Optional[Connection] = None) -> AlembicConfig:
    """An Alembic configuration for ``database_url``.

    Pass ``connection`` to run inside a connection the caller already holds (its
    transaction then decides whether the migration sticks).
    """
    config = AlembicConfig()
    config.set_main_option("script_location", str(MIGRATIONS_DIR))
    config.attributes["database_url"] = database_url
    if connection is not None:
        config.attributes["connection"] = connection
    return config


def upgrade(database_url: str, revision: str = "head") -> None:
    """Migrate the database at ``database_url`` up to ``revision`` (default: the newest).

    For an SQLite file the folder is created first, so a fresh instance folder works.
    """
    url = make_url(database_url)
    if url.get_backend_name() == "sqlite" and url.database and url.database != ":memory:":
        Path(url.database).expanduser().resolve().parent.mkdir(parents=True, exist_ok=True)
    command.upgrade(alembic_config(database_url), revision)


def downgrade(database_url: str, revision: str = "base") -> None:
    """Migrate down to ``revision``; ``"base"`` drops every table Capua created."""
    command.downgrade(alembic_config(database_url), revision)


def current_revision(database_url: str) -> Optional[str]:
    """The revision the database is at, or ``None`` for a database never migrated."""
    from alembic.runtime.migration import MigrationContext

    from service.db import make_engine

    engine = make_engine(database_url)
    try:
        with engine.connect() as connection:
            return MigrationContext.configure(connection).get_current_revision()
    finally:
        engine.dispose()
