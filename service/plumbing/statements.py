"""Statements built once and run many times, and writes held for the commit.

Building a SQLAlchemy statement and computing its cache key cost more than running a
small one; on a command's path, where a handful of statements run per request, that
building was most of the CPU the database work took.  The hot paths build their
statements once per dialect (the values travel as ``bindparam``), and this module holds
what they share.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Optional, Union

from sqlalchemy import CursorResult, Executable, event
from sqlalchemy.engine import Engine
from sqlalchemy.exc import DBAPIError
from sqlalchemy.pool import Pool
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.orm import Session


def dialect_insert(dialect: str) -> Callable:
    """The ``insert`` with ``ON CONFLICT`` of ``dialect`` (``"postgresql"``, else SQLite's)."""
    return pg_insert if dialect == "postgresql" else sqlite_insert


def run(session: Session, statement: Executable,
        params: Optional[Union[dict[str, Any], list[dict[str, Any]]]] = None) -> Any:
    """Run a Core statement in ``session``'s transaction, on its connection.

    ``session.execute`` would run the same statement on the same connection, after asking
    the ORM whether the statement concerns it and which engine it binds to: on a small
    statement that asking cost about as much again as the execution (measured ~0.1 ms a
    statement).  Only for Core statements: nothing is autoflushed first, so a caller
    that needs the session's pending rows written says ``session.flush()`` itself.

    On PostgreSQL, when writes are held for the commit (:func:`defer`), they travel with
    this statement in one round trip, and its rows come back as plain tuples (with
    SQLAlchemy's result processing) in a :class:`Rows`.
    """
    connection = session.connection()
    if params and _DEFERRED in connection.info:
        compiled = _compiled(connection.dialect, statement, params)
        if compiled is not None:
            return _send(connection, then=(compiled, params))
    return connection.execute(statement, params)


class Rows:
    """The rows of a statement :func:`run` sent in a pipeline: what its callers use of a
    ``CursorResult``."""

    def __init__(self, rows: list[tuple], rowcount: int) -> None:
        self._rows = rows
        self.rowcount = rowcount

    def __iter__(self):
        return iter(self._rows)

    def all(self) -> list[tuple]:
        return list(self._rows)

    def first(self) -> Optional[tuple]:
        return self._rows[0] if self._rows else None

    def scalar(self) -> Any:
        return self._rows[0][0] if self._rows else None


# --- Statements that travel with the commit -------------------------------------------
#
# On PostgreSQL every statement is a round trip to the server, and on a busy machine a
# round trip costs more than the statement: the request's thread sends, the server's
# process is woken to run it, and the thread is woken again for the answer (measured
# 0.2-0.7 ms each on the two shared cores, against ~0.05 ms of the server's own work).
# Most writes of a command are read by nobody before the commit (its events, the DELETE
# of decisions no longer open, the notification rows, the idempotency answer), so
# :func:`defer` holds them: they are sent, through psycopg's pipeline, in the same round
# trip as the next statement that :func:`run` sends (the open decisions' upsert) or as
# the COMMIT.  Elsewhere (SQLite, where a statement is a function call) they run at once.

#: ``Connection.info`` key of the statements held for the commit.
_DEFERRED = "capua.deferred"


def defer(session: Session, statement: Executable,
          params: Optional[Union[dict[str, Any], list[dict[str, Any]]]] = None, *,
          on_error: Optional[Callable[[DBAPIError], BaseException]] = None) -> None:
    """Run the Core ``statement`` in ``session``'s transaction no later than its commit.

    For writes whose result nobody reads: on PostgreSQL it is held and sent with the
    COMMIT in one round trip, or with the transaction's next statement if one comes
    first (in one round trip when that statement goes through :func:`run`), so the order
    of the writes is kept; elsewhere, or when the statement needs values SQLAlchemy
    computes at execution (a Python-side column default not given), it runs now.  A
    failure surfaces with that next statement or at the commit, as SQLAlchemy's error
    (or what ``on_error`` makes of it), and the transaction rolls back as any failed
    statement makes it.
    """
    connection = session.connection()
    compiled = _compiled(connection.dialect, statement, params) if params else None
    if compiled is None:
        try:
            run(session, statement, params)
        except DBAPIError as error:
            if on_error is None:
                raise
            raise on_error(error) from error
        return
    connection.info.setdefault(_DEFERRED, []).append((compiled, params, on_error))


@dataclass(frozen=True)
class _Compiled:
    sql: str
    binds: tuple[tuple[str, str, Optional[Callable]], ...]  # (name in the SQL, key of the value, processor)
    results: tuple[Optional[Callable], ...]                 # each column's result processor


_COMPILED: dict[tuple, tuple[Executable, Optional[_Compiled]]] = {}
_MOST_COMPILED = 256


def _compiled(dialect, statement: Executable, params) -> Optional[_Compiled]:
    """``statement`` compiled once for PostgreSQL with the columns of ``params``; ``None``
    for another database or driver (the pipeline is psycopg's), or where SQLAlchemy
    computes something at execution (a Python default not given, an expanding
    parameter): those run as ever."""
    if dialect.name != "postgresql" or dialect.driver != "psycopg":
        return None
    keys = tuple(params[0] if isinstance(params, list) else params)
    cache_key = (id(statement), keys)
    if cache_key in _COMPILED:
        return _COMPILED[cache_key][1]
    compiled = statement.compile(dialect=dialect, column_keys=list(keys))
    found: Optional[_Compiled] = None
    if not (compiled.insert_prefetch or compiled.update_prefetch or compiled.positional
            or compiled.post_compile_params or compiled.literal_execute_params):
        processors = compiled._bind_processors
        escaped = compiled.escaped_bind_names or {}
        binds = tuple((escaped.get(bind.key, bind.key), bind.key, processors.get(bind.key))
                      for bind in compiled.binds.values())
        results = tuple(column[3]._cached_result_processor(dialect, None) for column in compiled._result_columns)
        if all(key in keys for _, key, _ in binds):
            found = _Compiled(compiled.string, binds, results)
    if len(_COMPILED) >= _MOST_COMPILED:  # the hot paths' statements are built once; a
        _COMPILED.clear()                 # caller building its own each time is bounded
    _COMPILED[cache_key] = (statement, found)  # the statement kept alive: its id stays its own
    return found


def _values(compiled: _Compiled, row: dict[str, Any]) -> dict[str, Any]:
    return {name: (process(row[key]) if process else row[key]) for name, key, process in compiled.binds}


def _send(connection, *, commit: bool = False, then: Optional[tuple[_Compiled, Any]] = None) -> Optional[Rows]:
    """Send what :func:`defer` held on ``connection``, then the statement ``then`` (its
    compiled form and parameters) and the COMMIT if ``commit``, in one round trip
    (psycopg's pipeline; each row of an executemany as a statement of its own, so
    nothing waits on the way); the rows of ``then``."""
    held = connection.info.pop(_DEFERRED, [])
    if not held and then is None:
        return None
    dbapi = connection.connection.dbapi_connection
    dbapi_error = connection.dialect.loaded_dbapi.Error
    sent: list[tuple[Any, tuple]] = []  # (cursor, what was held), in order
    cursors: list = []
    try:
        with dbapi.pipeline():
            for entry in held + ([(*then, None)] if then else []):
                compiled, params, _ = entry
                many = isinstance(params, list)
                # seen like any other statement (the statement counts of the tests)
                connection.dispatch.before_cursor_execute(connection, None, compiled.sql, params, None, many)
                cursors = []
                for row in (params if many else [params]):
                    cursor = dbapi.cursor()
                    cursor.execute(compiled.sql, _values(compiled, row))
                    cursors.append(cursor)
                    sent.append((cursor, entry))
            if commit:
                # as a statement of the pipeline: psycopg's ``commit()`` would add a
                # round trip of its own; the driver sees the transaction ended and
                # SQLAlchemy's commit then has nothing left to send
                dbapi.cursor().execute("COMMIT")
    except dbapi_error as error:
        # the statement that failed: the first without a result (those after it were
        # skipped by the server)
        failed = next((entry for cursor, entry in sent if cursor.pgresult is None), (None, None, None))
        compiled, params, on_error = failed
        wrapped = DBAPIError.instance(compiled.sql if compiled else None, params, error, dbapi_error)
        raise (on_error(wrapped) if on_error else wrapped) from error
    if then is None:
        return None
    processors = then[0].results
    rows = []
    for cursor in cursors:
        if cursor.description is not None:
            rows += [tuple(p(v) if p else v for p, v in zip(processors, row)) for row in cursor.fetchall()]
    return Rows(rows, sum(cursor.rowcount for cursor in cursors))


@event.listens_for(Session, "before_commit")
def _send_with_commit(session: Session) -> None:
    """The held statements go with the COMMIT; what the session holds unflushed is
    written first, so nothing is left to write once the transaction is committed."""
    held = _held_on(session)
    if held:
        session.flush()  # (a statement it writes sends the held ones before it)
    for connection in held:
        _send(connection, commit=True)


def _held_on(session: Session) -> list:
    transaction = session.get_transaction()
    if transaction is None:
        return []
    # (the transaction lists each connection under its engine too)
    return list({id(conn): conn for conn, *_ in transaction._connections.values()
                 if conn.info.get(_DEFERRED)}.values())


@event.listens_for(Engine, "before_cursor_execute")
def _send_before_next(connection, _cursor, _statement, _params, _context, _many) -> None:
    """A statement after held ones: they go first, in order."""
    if _DEFERRED in connection.info:
        _send(connection)


@event.listens_for(Engine, "rollback")
def _drop_on_rollback(connection) -> None:
    connection.info.pop(_DEFERRED, None)


@event.listens_for(Pool, "checkin")
def _drop_on_checkin(_dbapi_connection, record) -> None:
    if record is not None:
        record.info.pop(_DEFERRED, None)
