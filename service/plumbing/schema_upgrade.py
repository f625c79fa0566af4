"""Bring a database to the current schema: Flask-Migrate over Capua's Alembic history.

There is no ``alembic.ini``: the CLI (``capua db upgrade``, the Procfile's release step),
the embedded server at start-up and the tests all call :func:`upgrade` with a database
URL, which runs Flask-Migrate's ``upgrade`` in an app of its own (``flask db upgrade``
works as well, with ``--app 'service.app:create_app()'``).  The URL reaches ``env.py`` in
``Config.attributes`` rather than the ini options, because ini interpolation would
mangle a ``%`` in a password.
"""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import flask_migrate
from alembic.config import Config as AlembicConfig
from flask import Flask
from sqlalchemy.engine import Connection, make_url

from service.plumbing.database import MIGRATIONS_DIR, db, migrate


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
    with _migrations_app(database_url).app_context():
        try:
            flask_migrate.upgrade(directory=str(MIGRATIONS_DIR), revision=revision)
        finally:
            db.engine.dispose()


def downgrade(database_url: str, revision: str = "base") -> None:
    """Migrate down to ``revision``; ``"base"`` drops every table Capua created."""
    with _migrations_app(database_url).app_context():
        try:
            flask_migrate.downgrade(directory=str(MIGRATIONS_DIR), revision=revision)
        finally:
            db.engine.dispose()


def _migrations_app(database_url: str) -> Flask:
    app = Flask("capua-migrations")
    app.config["SQLALCHEMY_DATABASE_URI"] = database_url
    db.init_app(app)
    migrate.init_app(app, db, directory=str(MIGRATIONS_DIR))
    return app


def current_revision(database_url: str) -> Optional[str]:
    """The revision the database is at, or ``None`` for a database never migrated."""
    from alembic.runtime.migration import MigrationContext

    from service.plumbing.db import make_engine

    engine = make_engine(database_url)
    try:
        with engine.connect() as connection:
            return MigrationContext.configure(connection).get_current_revision()
    finally:
        engine.dispose()
