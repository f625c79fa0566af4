"""``service.plumbing.wal``: a file SQLite database's log is checkpointed beside the
commits, never by the commit that crossed SQLite's own trigger."""

from __future__ import annotations

from sqlalchemy import text

from service.plumbing import wal
from service.plumbing.db import make_engine

_ROW = "x" * 3000  # most of a 4 KiB page: one row, about one page of the log


def _engine(tmp_path):
    engine = make_engine(f"sqlite:///{tmp_path / 'wal.sqlite3'}")
    with engine.begin() as conn:
        conn.execute(text("CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT)"))
    return engine


def _write(engine, rows: int) -> None:
    for _ in range(rows):
        with engine.begin() as conn:
            conn.execute(text("INSERT INTO t (v) VALUES (:v)"), {"v": _ROW})


def _log_pages(engine) -> int:
    """Pages in the log now (a checkpoint that copies nothing, as nobody writes)."""
    with engine.connect() as conn:
        return conn.exec_driver_sql("PRAGMA wal_checkpoint(PASSIVE)").one()[1]


def test_a_file_database_leaves_checkpoints_to_the_thread(tmp_path):
    engine = _engine(tmp_path)
    with engine.connect() as conn:
        assert conn.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
        assert conn.exec_driver_sql("PRAGMA wal_autocheckpoint").scalar() == wal.SAFETY_PAGES
    assert wal.checkpointer_of(engine) is not None
    engine.dispose()


def test_an_in_memory_database_has_no_checkpointer():
    engine = make_engine("sqlite://")
    assert wal.checkpointer_of(engine) is None
    assert not wal.is_file_database(engine)


def test_a_commit_past_sqlites_default_trigger_does_not_checkpoint(tmp_path):
    engine = _engine(tmp_path)
    wal.checkpointer_of(engine).every = 10**9  # the thread never runs here
    _write(engine, 1200)
    # SQLite's default (1,000 pages) would have had a commit copy the log back and the
    # next one start it anew: the log would hold a few hundred pages, not every one
    assert _log_pages(engine) > 1200
    engine.dispose()


def test_every_nth_commit_has_the_thread_checkpoint_the_log(tmp_path):
    engine = _engine(tmp_path)
    checkpointer = wal.checkpointer_of(engine)
    checkpointer.every = 40
    done = checkpointer.checkpoints
    _write(engine, 39)  # (a commit counts by the rows it changed: the CREATE TABLE changed none)
    checkpointer.wait()
    assert checkpointer.checkpoints == done
    _write(engine, 1)
    checkpointer.wait()
    assert checkpointer.checkpoints == done + 1
    # the next writer starts the log anew: the copied pages are not written again
    _write(engine, 5)
    assert _log_pages(engine) < 40
    engine.dispose()


def test_a_failed_checkpoint_is_logged_and_harmless(tmp_path, caplog):
    unreachable = make_engine(f"sqlite:///{tmp_path / 'missing' / 'nowhere.sqlite3'}")
    assert wal.Checkpointer(unreachable).checkpoint() is None
    assert "checkpointing the SQLite log failed" in caplog.text


def test_a_checkpointer_keeps_no_engine_alive(tmp_path):
    import gc
    import weakref

    engine = _engine(tmp_path)
    checkpointer = wal.checkpointer_of(engine)
    engine.dispose()
    gone = weakref.ref(engine)
    del engine
    gc.collect()
    assert gone() is None
    assert checkpointer.checkpoint() is None
