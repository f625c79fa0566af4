"""``service.plumbing.db.engine_options``: a SQLite file's pool hands out the connection
given back last, whose cache of the database's pages is still good."""

from __future__ import annotations

from sqlalchemy import text
from sqlalchemy.pool import NullPool

from service.plumbing.db import engine_options, make_engine


def _raw(conn):
    return conn.connection.dbapi_connection


def test_a_sqlite_file_gets_the_connection_given_back_last(tmp_path):
    engine = make_engine(f"sqlite:///{tmp_path / 'pool.sqlite3'}")
    try:
        first, second = engine.connect(), engine.connect()
        first_raw, second_raw = _raw(first), _raw(second)
        assert first_raw is not second_raw
        first.close()
        second.close()  # given back last
        with engine.connect() as again:
            assert _raw(again) is second_raw
    finally:
        engine.dispose()


def test_the_connection_that_wrote_serves_the_next_request(tmp_path):
    """One writer after another, as requests one at a time: always the same connection,
    so SQLite never finds that another connection wrote since its last transaction."""
    engine = make_engine(f"sqlite:///{tmp_path / 'pool.sqlite3'}")
    try:
        with engine.begin() as conn:
            conn.execute(text("CREATE TABLE t (id INTEGER PRIMARY KEY)"))
        other, held = engine.connect(), engine.connect()  # two in the pool, as for two threads
        other.close()
        held.close()
        used = set()
        for _ in range(5):
            with engine.begin() as conn:
                conn.execute(text("INSERT INTO t DEFAULT VALUES"))
                used.add(id(_raw(conn)))
        assert len(used) == 1
    finally:
        engine.dispose()


def test_other_databases_and_pools_keep_their_defaults(tmp_path):
    assert "pool_use_lifo" not in engine_options("sqlite://")
    assert "pool_use_lifo" not in engine_options("sqlite:///:memory:")
    assert "pool_use_lifo" not in engine_options("sqlite:///file::memory:?cache=shared")
    assert "pool_use_lifo" not in engine_options("sqlite:///file:shared?mode=memory&uri=true")
    assert "pool_use_lifo" not in engine_options("postgresql+psycopg://capua@localhost/capua")
    # another pool class (migrations use NullPool) takes the file's other options
    engine = make_engine(f"sqlite:///{tmp_path / 'null.sqlite3'}", poolclass=NullPool)
    try:
        assert isinstance(engine.pool, NullPool)
        with engine.connect() as conn:
            assert conn.execute(text("SELECT 1")).scalar() == 1
    finally:
        engine.dispose()
