"""Shared fixtures: a real database (SQLite and/or PostgreSQL), settings, and the app.

Which databases the database-backed tests run on is chosen by ``CAPUA_TEST_DATABASES``
(a comma list, default ``sqlite``; CI sets ``sqlite,postgresql``): every test that uses
``database_url`` (directly or through ``session``, ``config``, ``app``...) runs once per
database.  PostgreSQL is ``CAPUA_TEST_POSTGRES_URL`` (default
``postgresql+psycopg://postgres@127.0.0.1:5432/capua_test``); the database is created
if missing.  When PostgreSQL is asked for and unreachable the tests fail rather than
skip: a green run must mean the tests ran.  Runs sharing that database take turns (an
advisory lock held for the session), so two engineers' runs never truncate each other.

Tables are created once per run from ``service.plumbing.db`` and emptied before every test
(``TRUNCATE`` on PostgreSQL, ``DELETE`` on SQLite), which keeps each test isolated and
the suite fast.  Tests own their transactions: nothing here commits for them.
"""

from __future__ import annotations

import os
import time
from typing import Callable, Iterator

import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.engine import Engine, make_url
from sqlalchemy.orm import Session, sessionmaker
from sqlalchemy.pool import NullPool

from service.plumbing.db import Base, User, make_engine, make_sessionmaker
from service.plumbing import database

DEFAULT_POSTGRES_URL = "postgresql+psycopg://postgres@127.0.0.1:5432/capua_test"
KNOWN_DATABASES = ("sqlite", "postgresql")


@pytest.fixture(autouse=True, scope="session")
def wired() -> None:
    """The rooms wired as the app factory and the worker wire them (listeners of game
    changes, the dispatchers of both modes), for tests that call the service directly."""
    from service import wiring
    from worker.tasks import CeleryDispatch

    wiring.connect(celery=CeleryDispatch())


def _requested_databases() -> list[str]:
    raw = os.environ.get("CAPUA_TEST_DATABASES", "sqlite")
    kinds = [k.strip().lower() for k in raw.split(",") if k.strip()]
    unknown = sorted(set(kinds) - set(KNOWN_DATABASES))
    if unknown:
        raise pytest.UsageError(f"CAPUA_TEST_DATABASES: unknown {unknown}; use {', '.join(KNOWN_DATABASES)}")
    return kinds or ["sqlite"]


def postgres_url() -> str:
    return os.environ.get("CAPUA_TEST_POSTGRES_URL", DEFAULT_POSTGRES_URL)


def ensure_postgres_database(url: str) -> None:
    """Create the database named in ``url`` if it does not exist yet."""
    target = make_url(url)
    admin = create_engine(target.set(database="postgres"), isolation_level="AUTOCOMMIT")
    try:
        with admin.connect() as conn:
            exists = conn.execute(text("SELECT 1 FROM pg_database WHERE datname = :name"),
                                  {"name": target.database}).scalar()
            if not exists:
                conn.exec_driver_sql(f'CREATE DATABASE "{target.database}"')
    except Exception as err:
        pytest.fail(f"PostgreSQL at {target.render_as_string(hide_password=True)} is not usable: {err}",
                    pytrace=False)
    finally:
        admin.dispose()


@pytest.fixture(scope="session", params=_requested_databases())
def database_url(request, tmp_path_factory) -> Iterator[str]:
    """The URL of an empty test database with Capua's tables; one run per database kind."""
    if request.param == "sqlite":
        # A file, not :memory:, so that several connections (threads racing) share it.
        url = f"sqlite:///{tmp_path_factory.mktemp('db') / 'capua-test.sqlite3'}"
        lock = None
    else:
        url = postgres_url()
        ensure_postgres_database(url)
        lock = _hold_run_lock(url)
    engine = make_engine(url)
    Base.metadata.drop_all(engine)
    Base.metadata.create_all(engine)
    engine.dispose()
    yield url
    if lock is not None:
        lock.close()
        lock.engine.dispose()


#: Advisory lock key held by a test run for the whole session on the shared database.
_RUN_LOCK_KEY = 0x43415055  # "CAPU"


def _hold_run_lock(url: str, wait_seconds: float = 600.0):
    """Serialise test runs that share one PostgreSQL database.

    Two runs at once would drop and truncate each other's tables mid-test; instead the
    second waits for the first (an advisory lock on a connection held for the session).
    """
    engine = create_engine(url, poolclass=NullPool, isolation_level="AUTOCOMMIT")
    conn = engine.connect()
    deadline = time.monotonic() + wait_seconds
    while not conn.execute(text("SELECT pg_try_advisory_lock(:key)"), {"key": _RUN_LOCK_KEY}).scalar():
        if time.monotonic() > deadline:
            conn.close()
            engine.dispose()
            pytest.fail(f"another test run has held the test database for {wait_seconds:.0f}s", pytrace=False)
        time.sleep(0.5)
    return conn


@pytest.fixture(scope="session")
def db_engine(database_url) -> Iterator[Engine]:
    engine = make_engine(database_url)
    yield engine
    engine.dispose()


@pytest.fixture
def clean_database(db_engine) -> Engine:
    """Empties every table before the test, so each test starts from nothing."""
    tables = list(reversed(Base.metadata.sorted_tables))
    with db_engine.begin() as conn:
        if conn.dialect.name == "postgresql":
            conn.exec_driver_sql("TRUNCATE " + ", ".join(f'"{t.name}"' for t in tables) + " RESTART IDENTITY CASCADE")
        else:
            for table in tables:
                conn.execute(table.delete())
    return db_engine


@pytest.fixture
def session_factory(clean_database) -> sessionmaker:
    """Makes independent sessions (separate connections), e.g. for racing writers."""
    return make_sessionmaker(clean_database)


@pytest.fixture
def session(session_factory) -> Iterator[Session]:
    s = session_factory()
    yield s
    s.rollback()
    s.close()


@pytest.fixture
def config_overrides(database_url, tmp_path) -> dict:
    """Settings for a test instance: its own folder, the test database, a fixed key."""
    return {
        "instance_dir": str(tmp_path / "instance"),
        "database_url": database_url,
        "secret_key": "test-secret-key-not-for-production",
        "redis_url": "",
        "mail_backend": "outbox",
        # the service tests are about the service: their bot seats answer at random, as fast
        # as can be; how the levels play is tested in tests/bots and tests/service/test_bot_levels.py
        "bot_level": "random",
        # ... and deterministically: chance and bot answers come from generators seeded by this
        # and the request or decision (TESTING only; see service.play.games.injected_chance)
        "test_seed": "capua-tests",
    }


@pytest.fixture
def config(config_overrides, clean_database):
    from service.plumbing.config import load_config

    return load_config(overrides=config_overrides, environ={})


@pytest.fixture
def app(config_overrides, clean_database):
    """The Flask app over the test database (needs the API, auth and pages modules)."""
    from service.app import create_app

    app = create_app({**config_overrides, "TESTING": True})
    app.testing = True
    yield app
    database.dispose(app)


@pytest.fixture
def make_user(session) -> Callable[..., User]:
    """``make_user("ann")`` adds and flushes ``ann@example.org`` (display name "Ann")."""

    def make(name: str, email: str | None = None) -> User:
        user = User(email=(email or f"{name}@example.org").lower(), display_name=name.capitalize())
        session.add(user)
        session.flush()
        return user

    return make
