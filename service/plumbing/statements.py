"""Statements built once and run many times.

Building a SQLAlchemy statement and computing its cache key cost more than running a
small one; on a command's path, where a handful of statements run per request, that
building was most of the CPU the database work took.  The hot paths build their
statements once per dialect (the values travel as ``bindparam``), and this module holds
what they share.
"""

from __future__ import annotations

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
        params: Optional[Union[dict[str, Any], list[dict[str, Any]]]] = None) -> CursorResult:
    """Run a Core statement in ``session``'s transaction, on its connection.

    ``session.execute`` would run the same statement on the same connection, after asking
    the ORM whether the statement concerns it and which engine it binds to: on a small
    statement that asking cost about as much again as the execution (measured ~0.1 ms a
    statement).  Only for Core statements: nothing is autoflushed first, so a caller
    that needs the session's pending rows written says ``session.flush()`` itself.
    """
    return session.connection().execute(statement, params)


# --- Statements that travel with the commit -------------------------------------------
#
# On PostgreSQL every statement is a round trip to the server, and on a busy machine a
# round trip costs more than the statement: the request's thread sends, the server's
# process is woken to run it, and the thread is woken again for the answer (measured
# 0.2-0.7 ms each on the two shared cores, against ~0.05 ms of the server's own work).
# The last writes of a command are read by nobody before the commit (the notification
# rows, the idempotency answer), so :func:`defer` holds them and they are sent with the
# COMMIT in one round trip, through psycopg's pipeline.  Elsewhere (SQLite, where a
# statement is a function call) they run at once.

#: ``Connection.info`` key of the statements held for the commit.
_DEFERRED = "capua.deferred"


def defer(session: Session, statement: Executable,
          params: Optional[Union[dict[str, Any], list[dict[str, Any]]]] = None) -> None:
    """Run the Core ``statement`` in ``session``'s transaction no later than its commit.

    For writes whose result nobody reads: on PostgreSQL it is held and sent with the
    COMMIT in one round trip (or before the transaction's next statement, if one comes
    first, so the order of the writes is kept); elsewhere, or when the statement needs
    values SQLAlchemy computes at execution (a Python-side column default not given),
    it runs now.  A failure surfaces at the commit, as SQLAlchemy's error, and the
    transaction rolls back as any failed commit does.
    """
    connection = session.connection()
    if connection.dialect.name != "postgresql" or not params:
        run(session, statement, params)
        return
    many = isinstance(params, list)
    rows = params if many else [params]
    compiled = _compiled(connection.dialect, statement, tuple(rows[0]))
    if compiled is None:
        run(session, statement, params)
        return
    sql, binds = compiled
    values = [{name: (process(row.get(key)) if process else row.get(key)) for name, key, process in binds}
              for row in rows]
    connection.info.setdefault(_DEFERRED, []).append((sql, values if many else values[0], many))


_COMPILED: dict[tuple, Any] = {}


def _compiled(dialect, statement: Executable, keys: tuple[str, ...]):
    """``statement`` compiled for ``dialect`` with the columns ``keys``: its SQL and, per
    parameter, its name, the key of its value and its bind processor; ``None`` where
    SQLAlchemy would compute a value at execution (Python-side defaults not given)."""
    cache_key = (id(statement), dialect.name, keys)
    if cache_key in _COMPILED:
        return _COMPILED[cache_key][1]
    compiled = statement.compile(dialect=dialect, column_keys=list(keys))
    if compiled.insert_prefetch or compiled.update_prefetch or compiled.positional:
        found = None
    else:
        processors = compiled._bind_processors
        escaped = compiled.escaped_bind_names or {}
        found = (compiled.string,
                 tuple((escaped.get(bind.key, bind.key), bind.key, processors.get(bind.key))
                       for bind in compiled.binds.values()))
        if any(key not in keys for _, key, _ in found[1]):
            found = None
    _COMPILED[cache_key] = (statement, found)  # the statement kept alive: its id stays its own
    return found


def _send(connection, *, commit: bool) -> None:
    """Send what :func:`defer` held on ``connection`` in one round trip, with the COMMIT
    if ``commit``."""
    held = connection.info.pop(_DEFERRED, None)
    if not held:
        return
    dbapi = connection.connection.dbapi_connection
    sql = params = None
    try:
        with dbapi.pipeline():
            cursor = dbapi.cursor()
            for sql, params, many in held:
                # seen like any other statement (the statement counts of the tests)
                connection.dispatch.before_cursor_execute(connection, cursor, sql, params, None, many)
                if many:
                    cursor.executemany(sql, params)
                else:
                    cursor.execute(sql, params)
            if commit:
                # as a statement of the pipeline: psycopg's ``commit()`` would add a
                # round trip of its own; the driver sees the transaction ended and
                # SQLAlchemy's commit then has nothing left to send
                cursor.execute("COMMIT")
    except connection.dialect.loaded_dbapi.Error as error:
        raise DBAPIError.instance(sql, params, error, connection.dialect.loaded_dbapi.Error) from error


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
    return [conn for conn, *_ in transaction._connections.values() if conn.info.get(_DEFERRED)]


@event.listens_for(Engine, "before_cursor_execute")
def _send_before_next(connection, _cursor, _statement, _params, _context, _many) -> None:
    """A statement after held ones: they go first, in order."""
    if _DEFERRED in connection.info:
        _send(connection, commit=False)


@event.listens_for(Engine, "rollback")
def _drop_on_rollback(connection) -> None:
    connection.info.pop(_DEFERRED, None)


@event.listens_for(Pool, "checkin")
def _drop_on_checkin(_dbapi_connection, record) -> None:
    if record is not None:
        record.info.pop(_DEFERRED, None)
