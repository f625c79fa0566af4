"""SQLite's write-ahead log, copied back into the database beside the requests, not in one.

In WAL mode SQLite moves the log's pages into the database file (a *checkpoint*) when a
commit leaves the log past ``wal_autocheckpoint`` pages (1,000 by default), and the
connection that committed does the copying before its ``COMMIT`` returns.  A served command
writes about 18 pages, so one command in ~55 paid for a checkpoint: measured with
``bench.command_tail``, 2.5-9 ms of CPU (5-12 ms of wall time) on top of a 4.4 ms
command, the largest single part of the command's p99 on SQLite.

So each file database's connections leave that to SQLite only past a far longer log
(:data:`SAFETY_PAGES`: the net in case the thread below falls behind or dies), and every
:data:`EVERY_COMMITS` commits of an engine a short-lived daemon thread, started when the
committing connection is back in the pool (after the request's answer, in a web process),
runs a ``PASSIVE`` checkpoint on a connection of its own while requests go on.  A passive
checkpoint never waits for, nor blocks, readers and writers (it copies what no reader
still needs, and a later one does the rest); SQLite does the copying with the GIL
released.  Each process counts its own commits and checkpoints alone; two processes
checkpointing at once is harmless (the second finds the checkpoint lock taken and returns).
"""

from __future__ import annotations

import logging
import threading
import weakref
from typing import Any, Optional, Union

from sqlalchemy import event
from sqlalchemy.engine import URL, Engine, make_url

log = logging.getLogger(__name__)

#: Commits between two checkpoints of the thread: about 900 pages of a command's writes,
#: below SQLite's own default trigger.
EVERY_COMMITS = 50

#: ``wal_autocheckpoint`` of every connection: a commit checkpoints only past this many
#: pages (~40 MB with 4 KiB pages), which the thread keeps the log far from.
SAFETY_PAGES = 10_000


def is_file_database(engine: Engine) -> bool:
    """True for SQLite on a file (in-memory databases have no write-ahead log)."""
    return engine.dialect.name == "sqlite" and is_file_url(engine.url)


def is_file_url(url: Union[str, URL]) -> bool:
    """True for a SQLite URL naming a file; false for an in-memory database (``:memory:``,
    ``file::memory:``, a ``mode=memory`` URI) and for any other database."""
    url = make_url(url)
    database = url.database
    return url.get_backend_name() == "sqlite" and bool(database) and database != ":memory:" \
        and not database.startswith("file::memory:") and url.query.get("mode") != "memory"


class Checkpointer:
    """Counts ``engine``'s commits and checkpoints its log off the committing thread."""

    def __init__(self, engine: Engine, every: int = EVERY_COMMITS) -> None:
        # (weakly: the engine holds its listeners, and they this; the engine's end is its own)
        self._engine = weakref.ref(engine)
        self.every = every
        self._commits = 0
        self._due = False
        self._lock = threading.Lock()
        self._running: Optional[threading.Thread] = None
        self.checkpoints = 0  # done, for tests and benchmarks

    def committed(self) -> None:
        """One more commit; every ``every``-th makes a checkpoint due."""
        with self._lock:
            self._commits += 1
            if self._commits >= self.every:
                self._commits = 0
                self._due = True

    def checked_in(self, dbapi_connection: Any = None, record: Any = None) -> None:
        """A connection is back in the pool, its transaction over: count it as a commit if
        it changed rows since it was last here, then start the checkpoint that is due,
        unless one is running.  (Not at the commit itself: SQLAlchemy tells of a commit
        before it reaches SQLite, and a checkpoint racing it would leave that commit's
        pages behind, so the log would never start anew.)

        Counted here, by SQLite's count of the rows the connection changed, rather than
        by listening to the engine's commits: an engine with a listener of its
        connections' events has every begin, statement and commit of every request
        dispatched to its listeners, and this was the SQLite engine's only one.  (A
        transaction that wrote and rolled back counts too: a checkpoint a little early.)"""
        if dbapi_connection is not None and record is not None:
            changes = dbapi_connection.total_changes
            if changes != record.info.get(_CHANGES, 0):
                record.info[_CHANGES] = changes
                self.committed()
        if not self._due:
            return
        with self._lock:
            if not self._due or (self._running is not None and self._running.is_alive()):
                return
            self._due = False
            self._running = threading.Thread(target=self.checkpoint, name="capua-wal-checkpoint", daemon=True)
            self._running.start()

    def checkpoint(self) -> Optional[tuple[int, int, int]]:
        """Run one ``PASSIVE`` checkpoint; SQLite's ``(busy, log pages, checkpointed pages)``,
        or ``None`` if it failed (logged: the next one, or SQLite's own, copies the rest)."""
        engine = self._engine()
        if engine is None:
            return None
        try:
            raw = engine.raw_connection()
            try:
                # (a PRAGMA opens no transaction in the sqlite3 module; the pool's reset
                # on check-in rolls back nothing)
                row = raw.cursor().execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
            finally:
                raw.close()
        except Exception:
            log.warning("checkpointing the SQLite log failed; a later checkpoint will copy it", exc_info=True)
            return None
        self.checkpoints += 1
        return tuple(row)

    def wait(self, timeout: float = 10.0) -> None:
        """Wait for a running checkpoint to end (tests)."""
        running = self._running
        if running is not None:
            running.join(timeout)


def checkpoint_beside(engine: Engine, every: int = EVERY_COMMITS) -> Optional[Checkpointer]:
    """Checkpoint ``engine``'s log beside its commits (file SQLite only; else ``None``).

    Call before the first connection: the ``connect`` listener raises the connections'
    own trigger to :data:`SAFETY_PAGES`.
    """
    if not is_file_database(engine):
        return None
    checkpointer = Checkpointer(engine, every)

    @event.listens_for(engine, "connect")
    def _raise_own_trigger(dbapi_connection, _record):  # pragma: no cover - trivial
        dbapi_connection.execute(f"PRAGMA wal_autocheckpoint={SAFETY_PAGES}")

    @event.listens_for(engine, "checkin")
    def _after(dbapi_connection, record):
        checkpointer.checked_in(dbapi_connection, record)

    _CHECKPOINTERS[engine] = checkpointer
    return checkpointer


#: ``ConnectionPoolEntry.info`` key: the connection's ``total_changes`` when last checked in.
_CHANGES = "capua.wal_changes"

_CHECKPOINTERS: "weakref.WeakKeyDictionary[Engine, Checkpointer]" = weakref.WeakKeyDictionary()


def checkpointer_of(engine: Engine) -> Optional[Checkpointer]:
    """The checkpointer :func:`checkpoint_beside` gave ``engine``, if any."""
    return _CHECKPOINTERS.get(engine)
