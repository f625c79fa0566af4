"""Statements built once and run on the driver, and writes held for the commit.

Building a SQLAlchemy statement and computing its cache key cost more than running a
small one; on a command's path, where a handful of statements run per request, that
building was most of the CPU the database work took.  The hot paths build their
statements once per dialect (the values travel as ``bindparam``), and this module runs
them: compiled once per statement and set of parameters (:class:`_Compiled`), then sent
on the driver (SQLite's cursor; PostgreSQL's connection, a round trip's statements at
once: :class:`_RoundTrip`) with SQLAlchemy's bind and result processors applied here, so
that SQLAlchemy's execution (its compiled cache's lookups, an execution context, a
result's setup per statement, ~a quarter of a command's CPU) is not paid per statement.
Every statement is still seen by SQLAlchemy's ``before_cursor_execute`` listeners (the
statement counts of the tests), and a driver's error is raised as SQLAlchemy's
``DBAPIError`` as ever.  A statement this module cannot run so (a Python default to
compute, an expanding parameter) runs through SQLAlchemy.
"""

from __future__ import annotations

import functools
import itertools
import re
import threading
import weakref
from dataclasses import dataclass, field
from functools import lru_cache
from operator import itemgetter
from typing import Any, Callable, Optional, Union

from sqlalchemy import JSON, Executable, Insert, Table, bindparam, event
from sqlalchemy.engine import Engine
from sqlalchemy.exc import DBAPIError
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.orm import Session
from sqlalchemy.orm.session import SessionTransactionState

Params = Optional[Union[dict[str, Any], list[dict[str, Any]]]]


def dialect_insert(dialect: str) -> Callable:
    """The ``insert`` with ``ON CONFLICT`` of ``dialect`` (``"postgresql"``, else SQLite's)."""
    return pg_insert if dialect == "postgresql" else sqlite_insert


def run(session: Session, statement: Executable, params: Params = None) -> Any:
    """Run a Core statement in ``session``'s transaction, on its connection; its rows.

    ``session.execute`` would run the same statement on the same connection, after asking
    the ORM whether the statement concerns it and which engine it binds to: on a small
    statement that asking cost about as much again as the execution (measured ~0.1 ms a
    statement).  Only for Core statements: nothing is autoflushed first, so a caller
    that needs the session's pending rows written says ``session.flush()`` itself.

    The rows come back as plain tuples (SQLAlchemy's result processing applied) in a
    :class:`Rows`.  On PostgreSQL, what is held for the transaction (:func:`defer`,
    :func:`ahead`) travels with this statement in one round trip, and so does the
    transaction's ``BEGIN`` when this is its first statement.
    """
    return _run(connection_of(session), statement, params)


def _run(connection: Any, statement: Executable, params: Params, compiled: Any = False) -> Any:
    """:func:`run` on ``connection``; ``compiled``: what :func:`_compiled` made of the
    statement already, if the caller asked it."""
    if params:
        if compiled is False:
            compiled = _compiled(connection.dialect, statement, params)
        if compiled is not None:
            entry = _Entry(compiled, params, wanted=True)
            if compiled.pipelined:
                _send(connection, then=entry)
            else:
                _execute_now(connection, entry)
            return entry.rows
    return connection.execute(statement, params)


#: ``Session.info`` key of ``(the session's transaction, its connection)``.
_CONNECTION = "capua.connection"
_ACTIVE = SessionTransactionState.ACTIVE


def connection_of(session: Session) -> Any:
    """``session.connection()``, asked of SQLAlchemy once per transaction.

    ``session.connection()`` walks the session's transaction state machine on every call
    (~15 calls a command, a tenth of the database work's CPU); the answer cannot change
    while the same transaction is active, so it is kept beside the transaction it
    belongs to and asked again once that transaction has ended (commit, rollback, close:
    the session then has another transaction, or none) or is no longer active (a failed
    flush: SQLAlchemy's own answer, an error, is given then).
    """
    transaction = session._transaction
    kept = session.info.get(_CONNECTION)
    if kept is not None and kept[0] is transaction and transaction._state is _ACTIVE:
        return kept[1]
    connection = session.connection()
    session.info[_CONNECTION] = (session._transaction, connection)
    return connection


class Rows:
    """The rows of a statement run here: what its callers use of a ``CursorResult``."""

    __slots__ = ("_rows", "rowcount")

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


# --- Statements that travel with the next one ------------------------------------------
#
# On PostgreSQL every statement is a round trip to the server, and on a busy machine a
# round trip costs more than the statement: the request's thread sends, the server's
# process is woken to run it, and the thread is woken again for the answer (measured
# 0.2-0.7 ms each on the two shared cores, against ~0.05 ms of the server's own work).
# Most writes of a command are read by nobody before the commit (its events, the DELETE
# of decisions no longer open, the notification rows, the idempotency answer), so
# :func:`defer` holds them: they are sent, in one write through libpq's pipeline mode
# (:class:`_RoundTrip`), in the same round trip as the next statement that :func:`run`
# sends or as the COMMIT.  A write whose answer decides something (the version's
# ``UPDATE`` of an append without events: did the race go our way?) is held with a ``check`` of its answer, run when the answer comes
# back, and sent before the COMMIT; where the server itself refuses what must not be
# committed (a command's events, whose unique seq fails a lost race:
# :func:`service.play.store.append`), no check is needed and the write goes with the
# COMMIT.  A statement whose answer is wanted, but not at once (the idempotency key's
# claim, before the view reads its game), is sent ahead (:func:`ahead`) the same way, and
# so is one whose answer is wanted only by work after the commit (:func:`when_answered`:
# the ids of the open decisions a command opened).  Elsewhere (SQLite, where a statement
# is a function call) they run at once.

#: ``Connection.info`` key of the statements held for the transaction's next round trip.
_HELD = "capua.held"


def defer(session: Session, statement: Executable, params: Params = None, *,
          on_error: Optional[Callable[[DBAPIError], BaseException]] = None,
          check: Optional[Callable[["Rows"], None]] = None) -> None:
    """Run the Core ``statement`` in ``session``'s transaction no later than its commit.

    For writes whose result nobody reads (a plain ``INSERT`` of a list of rows is one
    multi-row statement, see :func:`_compiled`): on PostgreSQL it is held and sent with the
    COMMIT in one round trip, or with the transaction's next statement if one comes
    first (in one round trip when that statement goes through :func:`run`), so the order
    of the writes is kept; elsewhere, or when the statement needs values SQLAlchemy
    computes at execution (a Python-side column default not given), it runs now.  A
    failure surfaces with that next statement or at the commit, as SQLAlchemy's error
    (or what ``on_error`` makes of it), and the transaction rolls back as any failed
    statement makes it.  ``check(rows)``, if given, judges the statement's answer when it
    comes back (raising what it finds wrong, from the statement that sent it); a held
    write with a check is sent before the COMMIT, never with it, so what it refuses is
    never committed.
    """
    connection = connection_of(session)
    compiled = _compiled(connection.dialect, statement, params) if params else None
    if compiled is None or not compiled.pipelined:
        try:
            rows = _run(connection, statement, params, compiled)
        except DBAPIError as error:
            if on_error is None:
                raise
            raise on_error(error) from error
        if check is not None:
            check(rows)
        return
    _hold(connection, _Entry(compiled, params, on_error, check, wanted=check is not None))


class Pending:
    """The answer of a statement sent :func:`ahead`."""

    __slots__ = ("_connection", "_entry", "_rows")

    def __init__(self, connection: Any, entry: Optional["_Entry"], rows: Any = None) -> None:
        self._connection, self._entry, self._rows = connection, entry, rows

    @property
    def sent(self) -> bool:
        """Its answer is here (it travelled with another statement, or ran at once)."""
        return self._entry is None or self._entry.rows is not None

    def rows(self) -> Any:
        """The statement's rows; sent now, alone, if nothing took it along yet; ``None``
        if its transaction rolled back before it was sent."""
        if self._entry is None:
            return self._rows
        if self._entry.rows is None and not self._entry.dropped:
            _send(self._connection)
        return self._entry.rows


def ahead(session: Session, statement: Executable, params: Params = None, *,
          check: Optional[Callable[["Rows"], None]] = None) -> Pending:
    """Send the Core ``statement`` with the transaction's next round trip: its
    :class:`Pending` answer.

    For a statement whose answer is needed soon but not at once: on PostgreSQL it travels
    with the next statement :func:`run` sends (no round trip of its own), or alone when
    its answer is asked for first; elsewhere it runs now.  ``check(rows)`` judges the
    answer as soon as it comes back, raising what it finds wrong from the statement that
    sent it (before that statement's caller goes on with its own answer).
    """
    connection = connection_of(session)
    compiled = _compiled(connection.dialect, statement, params) if params else None
    if compiled is None or not compiled.pipelined:
        rows = _run(connection, statement, params, compiled)
        if check is not None:
            check(rows)
        return Pending(connection, None, rows)
    entry = _Entry(compiled, params, None, check, wanted=True)
    _hold(connection, entry)
    return Pending(connection, entry)


def when_answered(session: Session, callback: Callable[[], None]) -> None:
    """Run ``callback()`` once every statement held now for ``session``'s transaction
    has its answer.

    At once where nothing is held (SQLite, where statements run at once, or nothing
    waiting); on PostgreSQL when the last of them comes back, with the transaction's
    next round trip (the COMMIT's at the latest: then before anything after the commit
    runs), after their checks; never if the transaction rolls back, or a statement of
    that round trip fails, before.  For work that needs what a held statement returns
    but not before the commit (the ids of the rows a command opened, for the deadlines
    scheduled after it: :func:`service.play.deadlines.on_append`), so that the statement
    can travel with the COMMIT rather than in a round trip of its own.
    """
    held = connection_of(session).info.get(_HELD)
    if not held:
        callback()
        return
    last = held[-1]
    if last.answered is None:
        last.answered = []
    last.answered.append(callback)


def _hold(connection: Any, entry: "_Entry") -> None:
    """Hold ``entry`` on ``connection`` for its next round trip (the engine's listeners
    that send and drop what is held are in place first)."""
    _listen_pipelined(connection.engine)
    connection.info.setdefault(_HELD, []).append(entry)


@dataclass(frozen=True)
class _Compiled:
    sql: str
    binds: tuple[tuple[Any, Optional[Callable], Any], ...]  # (key of the value, processor, constant)
    named: tuple[str, ...]                                  # the names in the SQL; () if positional
    results: tuple[Optional[Callable], ...]                 # each column's result processor
    returns: bool                                           # it has rows to fetch
    rows: bool = False  # one multi-row statement for a list of rows (a key is (row, key))
    count: int = 0      # its number of rows
    pipelined: bool = False  # its driver is psycopg's: it can be held and sent with others
    # (made from the above:) the driver's values of one row of the parameters, processed
    row_values: Callable[[dict[str, Any]], list] = field(init=False, repr=False, compare=False)
    # (index, result processor) of each column that has one
    processing: tuple[tuple[int, Callable], ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        per_row = self.binds[:len(self.binds) // (self.count or 1)] if self.rows else self.binds
        object.__setattr__(self, "row_values", _row_values(per_row, self.rows))
        object.__setattr__(self, "processing", tuple((i, p) for i, p in enumerate(self.results) if p is not None))


def _row_values(binds: tuple, rows: bool) -> Callable[[dict[str, Any]], list]:
    """A function of one row of the parameters: its values in the order of ``binds``,
    each through its bind processor (a constant of the statement processed once, here).

    Made once per compiled statement, so that binding a row is a dictionary lookup per
    value and a call per value that needs processing, not a walk of ``binds`` deciding
    each value's case again."""
    template: list = []
    taken: list[tuple[int, str]] = []              # (index, key in the row)
    processing: list[tuple[int, Callable]] = []    # (index, processor) of the row's values
    for i, (key, process, constant) in enumerate(binds):
        if constant is _NO_CONSTANT:
            taken.append((i, key[1] if rows else key))
            template.append(None)
            if process is not None:
                processing.append((i, process))
        else:
            template.append(process(constant) if process is not None else constant)
    keys = [key for _i, key in taken]
    if len(taken) == len(template):  # (no constants: the row's values, in order)
        if not keys:
            def pick(row: dict[str, Any]) -> list:
                return []
        elif len(keys) == 1:
            only = keys[0]

            def pick(row: dict[str, Any]) -> list:
                return [row[only]]
        else:
            getter = itemgetter(*keys)

            def pick(row: dict[str, Any]) -> list:
                return list(getter(row))
    else:
        def pick(row: dict[str, Any]) -> list:
            values = template.copy()
            for i, key in taken:
                values[i] = row[key]
            return values
    if not processing:
        return pick
    steps = tuple(processing)

    def row_values(row: dict[str, Any]) -> list:
        values = pick(row)
        for i, process in steps:
            values[i] = process(values[i])
        return values

    return row_values


@dataclass(slots=True)
class _Entry:
    compiled: _Compiled
    params: Any
    on_error: Optional[Callable[[DBAPIError], BaseException]] = None
    check: Optional[Callable[[Rows], None]] = None
    wanted: bool = False          # its rows are read (by its caller or its check)
    rows: Optional[Rows] = field(default=None)
    answered: Optional[list[Callable[[], None]]] = None  # run once it is answered (:func:`when_answered`)
    dropped: bool = False         # its transaction rolled back before it was sent


_COMPILED: dict[tuple, tuple[Executable, Optional[_Compiled]]] = {}
_MOST_COMPILED = 256
#: A bind parameter's value given in the statement itself, not in the parameters.
_NO_CONSTANT = object()


def _pipelined(dialect) -> bool:
    return dialect.driver == "psycopg"


def pipelined(session: Session) -> bool:
    """Statements of ``session`` can travel together (PostgreSQL's psycopg): one sent
    :func:`ahead` costs no round trip of its own."""
    return _pipelined(session.get_bind().dialect)


#: Most rows of one multi-row ``INSERT`` (7 columns of events: 350 parameters, far from
#: SQLite's 32,766); a longer list is sent a statement per row as before.
_MOST_ROWS = 50


def _compiled(dialect, statement: Executable, params) -> Optional[_Compiled]:
    """``statement`` compiled once for ``dialect`` with the columns of ``params``; ``None``
    for a driver other than psycopg's and SQLite's, or where SQLAlchemy computes
    something at execution (a Python default not given, an expanding parameter): those
    run as ever.

    A plain ``INSERT`` of a list of rows is one multi-row ``INSERT ... VALUES (...),
    (...)`` (the statement of one row compiled once, its ``VALUES`` repeated for each
    number of rows, without compiling again): one statement for the server to parse
    and run, where a statement per row had it parse and run each (the 17-21 events of a
    bot's whole turn were 17-21 statements).  Up to :data:`_MOST_ROWS` rows: a longer
    list is a statement per row."""
    if dialect.driver not in ("psycopg", "pysqlite"):
        return None
    many = isinstance(params, list)
    keys = tuple(params[0] if many else params)
    count = len(params) if many and 1 < len(params) <= _MOST_ROWS and _multi_row(statement) else 0
    found = _COMPILED.get((id(statement), dialect.name, keys, count))
    if found is not None:
        return found[1]
    if count:  # the one row's multi-row form, its ``VALUES`` repeated (no compiling per number)
        one = _cached(dialect, statement, keys, -1, lambda: _compile(dialect, statement, keys, 1))
        made = _repeated(one, count)
        if made is None:  # (not for this statement: a statement per row, as ever)
            made = _compiled(dialect, statement, params[0])
    else:
        made = _compile(dialect, statement, keys, 0)
    return _cached(dialect, statement, keys, count, lambda: made)


def _cached(dialect, statement: Executable, keys: tuple, count: int,
            compile: Callable[[], Optional[_Compiled]]) -> Optional[_Compiled]:
    """What ``compile`` makes of ``statement``, kept under its dialect, columns and number
    of rows (-1: the multi-row form of one row)."""
    cache_key = (id(statement), dialect.name, keys, count)
    found = _COMPILED.get(cache_key)
    if found is not None:
        return found[1]
    made = compile()
    if len(_COMPILED) >= _MOST_COMPILED:  # the hot paths' statements are built once; a
        _COMPILED.clear()                 # caller building its own each time is bounded
    _COMPILED[cache_key] = (statement, made)  # the statement kept alive: its id stays its own
    return made


def _repeated(one: Optional[_Compiled], count: int) -> Optional[_Compiled]:
    """The multi-row statement ``one`` (of one row) for ``count`` rows: its ``VALUES (...)``
    repeated, each row's parameters after the last's."""
    if one is None or not one.rows or one.named:
        return None
    head, values, group = one.sql.rpartition(" VALUES ")
    placeholder = "%s" if "%s" in group else "?"
    if not (values and group.startswith("(") and group.endswith(")")
            and group.count(placeholder) == len(one.binds)):
        return None
    binds = tuple(((i, key[1]) if constant is _NO_CONSTANT else key, process, constant)
                  for i in range(count) for key, process, constant in one.binds)
    return _Compiled(head + values + ", ".join([group] * count), binds, (), one.results, one.returns, rows=True,
                     count=count, pipelined=one.pipelined)


def _multi_row(statement: Executable) -> bool:
    """``statement`` is an ``INSERT`` of a table's row (no ``RETURNING``, no values of
    its own): one per row of its parameters."""
    return (isinstance(statement, Insert) and not statement._returning and not statement._values
            and not statement._multi_values and statement._post_values_clause is None
            and isinstance(statement.table, Table))


def _compile(dialect, statement: Executable, keys: tuple, count: int) -> Optional[_Compiled]:
    """Compile ``statement`` (for ``count`` rows in one statement if ``count``)."""
    names: dict[str, Any] = {}
    if count:
        columns = statement.table.c
        rows = []
        for i in range(count):
            row = {}
            for key in keys:
                if key not in columns:
                    return None
                name = f"{key}_r{i}"
                names[name] = (i, key)
                row[key] = bindparam(name, type_=columns[key].type, required=True)
            rows.append(row)
        statement = statement.values(rows)
        compiled = statement.compile(dialect=dialect)
    else:
        compiled = statement.compile(dialect=dialect, column_keys=list(keys))
    made: Optional[_Compiled] = None
    if not (compiled.insert_prefetch or compiled.update_prefetch or compiled.post_compile_params
            or compiled.literal_execute_params or compiled.escaped_bind_names):
        processors = compiled._bind_processors
        order = compiled.positiontup if compiled.positional else list(compiled.binds)
        binds, usable = [], True
        for name in order:
            bind = compiled.binds[name]
            if count and bind.key in names:
                key, constant = names[bind.key], _NO_CONSTANT
            elif not count and bind.key in keys:
                key, constant = bind.key, _NO_CONSTANT
            elif not bind.required and bind.callable is None:
                key, constant = bind.key, bind.value  # (a literal of the statement: ``status == "mailed"``)
            else:
                usable = False
                break
            binds.append((key, _json_as_given(bind.type, processors.get(bind.key)), constant))
        if usable:
            results = tuple(column[3]._cached_result_processor(dialect, None) for column in compiled._result_columns)
            sql, named = compiled.string, () if compiled.positional else tuple(order)
            if count and named:
                # by position: the rows' values one after another, as :func:`_repeated`
                # repeats the row's placeholders
                by_name = dict(zip(order, binds))
                binds = [by_name[name] for name in _NAMED.findall(sql)]
                sql, named = _NAMED.sub("%s", sql), ()
            made = _Compiled(sql, tuple(binds), named, results, bool(compiled._result_columns), rows=bool(count),
                             pipelined=_pipelined(dialect))
    return made


#: A named parameter in psycopg's SQL.
_NAMED = re.compile(r"%\((\w+)\)s")


class JsonText(str):
    """A value already encoded as JSON, for a JSON column: bound as it is, where the
    column's processor would encode it again (an event's ``data``, whose stored form was
    encoded once already: :func:`service.play.store.as_stored`)."""

    __slots__ = ()


def takes_json_text(session: Session) -> bool:
    """A :class:`JsonText` given to :func:`defer` or :func:`run` for ``session`` is bound
    as it is (the statements this module runs on the driver: psycopg's and SQLite's)."""
    return session.get_bind().dialect.driver in ("psycopg", "pysqlite")


def _json_as_given(type_, process: Optional[Callable]) -> Optional[Callable]:
    """``process``, except that a JSON column's :class:`JsonText` is bound as it is."""
    if process is None or not isinstance(type_, JSON):
        return process

    def json_as_given(value: Any) -> Any:
        return value if value.__class__ is JsonText else process(value)

    return json_as_given


def _values(compiled: _Compiled, params: Any) -> Union[dict[str, Any], list]:
    """The driver's parameters of one statement: by name (psycopg), else in order
    (SQLite's ``?``; ``params`` is the list of rows of a multi-row statement)."""
    if compiled.rows:
        values: list = []
        row_values = compiled.row_values
        for row in params:
            values += row_values(row)
    else:
        values = compiled.row_values(params)
    if compiled.named:
        return dict(zip(compiled.named, values))
    return values


def _sent(compiled: _Compiled, params) -> Any:
    """(SQL, the driver's parameters) of each statement that runs ``params``."""
    if compiled.rows:
        yield compiled.sql, _values(compiled, params)
    else:
        for row in (params if isinstance(params, list) else [params]):
            yield compiled.sql, _values(compiled, row)


def _rows_of(compiled: _Compiled, fetched: list) -> list[tuple]:
    """The driver's rows as tuples, each column through its result processor."""
    processing = compiled.processing
    if not processing:
        return fetched if fetched[0].__class__ is tuple else [tuple(row) for row in fetched]
    rows = []
    for row in fetched:
        values = list(row)
        for i, process in processing:
            values[i] = process(values[i])
        rows.append(tuple(values))
    return rows


def _execute_now(connection, entry: _Entry) -> None:
    """Run ``entry`` on the driver's cursor (SQLite: a function call, nothing to hold)."""
    compiled, params = entry.compiled, entry.params
    many = params.__class__ is list
    if connection._has_events or connection.engine._has_events:
        # seen like any other statement (the statement counts of the tests)
        connection.dispatch.before_cursor_execute(connection, None, compiled.sql, params, None, many)
    cursor = connection.connection.dbapi_connection.cursor()
    try:
        rows: list[tuple] = []
        rowcount = 0
        if many and not compiled.returns and not compiled.rows:
            cursor.executemany(compiled.sql, [_values(compiled, row) for row in params])
            rowcount = cursor.rowcount
        elif not many or compiled.rows:  # (one statement)
            cursor.execute(compiled.sql, _values(compiled, params))
            if compiled.returns:
                rows = cursor.fetchall()
            rowcount = max(cursor.rowcount, 0)
        else:
            for sql, values in _sent(compiled, params):
                cursor.execute(sql, values)
                if compiled.returns:
                    rows += cursor.fetchall()
                rowcount += max(cursor.rowcount, 0)
    except connection.dialect.loaded_dbapi.Error as error:
        raise DBAPIError.instance(compiled.sql, params, error, connection.dialect.loaded_dbapi.Error) from error
    finally:
        cursor.close()
    entry.rows = Rows(_rows_of(compiled, rows) if rows else [], rowcount)


def _send(connection, *, commit: bool = False, then: Optional[_Entry] = None) -> None:
    """Send what is held on ``connection``, then the statement ``then`` and the COMMIT if
    ``commit``, in one round trip (:class:`_RoundTrip`); a held write with a check goes in
    a round trip before the COMMIT's."""
    held = connection.info.pop(_HELD, [])
    if then is not None:
        held.append(then)
    if commit and any(entry.check for entry in held):
        _pipeline(connection, held, commit=False)
        held = []
    if held or commit:
        _pipeline(connection, held, commit=commit)


#: ``ConnectionPoolEntry.info`` key: this module turned psycopg's autocommit on to send
#: the transaction's ``BEGIN`` itself (turned off again before the next transaction).
_OWN_BEGIN = "capua.own_begin"


def _pipeline(connection, entries: list[_Entry], *, commit: bool) -> None:
    """``entries`` (and the COMMIT) in one round trip: each row of a list that is not one
    multi-row statement (:func:`_compiled`) as a statement of its own, so nothing waits on
    the way; then each entry's rows and check.

    The statements go to the server in one write (:class:`_RoundTrip`), not as psycopg's
    pipeline sends them, each in a write of its own with a wait for the socket before it.

    psycopg starts a transaction by sending its ``BEGIN`` and waiting for the answer: a
    round trip of its own, every transaction.  So when the transaction has not begun on
    the server yet, its ``BEGIN`` is sent here, first in the round trip, with psycopg's
    autocommit on (it then sends no ``BEGIN`` of its own; its ``commit`` and ``rollback``
    still end the transaction, which the server holds open); autocommit is off again
    when the next transaction begins (:func:`_driver_begins_again`)."""
    _listen_pipelined(connection.engine)
    pool_entry = connection.connection
    dbapi = pool_entry.dbapi_connection
    dbapi_error = connection.dialect.loaded_dbapi.Error
    sent: list[tuple[Optional[_Entry], Any]] = []  # (entry, its answer once back), in order
    begin = not dbapi.autocommit and dbapi.info.transaction_status == _IDLE
    if begin:
        dbapi.autocommit = True
        pool_entry.info[_OWN_BEGIN] = True
    try:
        with dbapi.lock:  # (as psycopg's cursor holds it around a statement)
            trip = _RoundTrip(dbapi, pool_entry.info)
            if begin:
                trip.add(b"BEGIN", None)
            for entry in entries:
                compiled, params = entry.compiled, entry.params
                many = isinstance(params, list)
                # seen like any other statement (the statement counts of the tests)
                connection.dispatch.before_cursor_execute(connection, None, compiled.sql, params, None, many)
                for sql, values in _sent(compiled, params):
                    trip.add(sql, values, entry)
            if commit:
                # in the round trip: psycopg's ``commit()`` would add a round trip of its
                # own; the driver sees the transaction ended and SQLAlchemy's commit then
                # has nothing left to send
                trip.add(b"COMMIT", None)
            sent, failure = trip.run()
            if failure is not None:
                raise failure
    except dbapi_error as error:
        # the statement that failed: the first without an answer (those after it were
        # skipped by the server); what came back before it is judged first
        failed = next((entry for entry, answer in sent if answer is None), None)
        answered = [(entry, answer) for entry, answer in sent
                    if entry is not None and answer is not None and entry is not failed]
        _answers(answered, callbacks=False)
        # a connection the server dropped (or that broke on the way) is invalidated, as
        # SQLAlchemy does for its own statements: the rollback then succeeds, and the pool
        # gives the next transaction a new connection
        lost = connection.dialect.is_disconnect(error, dbapi, None)
        if lost:
            connection.invalidate(error)
        wrapped = DBAPIError.instance(failed.compiled.sql if failed else None, failed.params if failed else None,
                                      error, dbapi_error, connection_invalidated=lost)
        raise (failed.on_error(wrapped) if failed and failed.on_error else wrapped) from error
    _answers([(entry, answer) for entry, answer in sent if entry is not None])


def _answers(sent: list[tuple[_Entry, "_Answer"]], *, callbacks: bool = True) -> None:
    """Give each wanted entry its rows, then run the checks, then (unless the round trip
    failed: ``callbacks`` false) what waited for the answers (:func:`when_answered`),
    each in the order sent."""
    by_entry: dict[int, tuple[_Entry, list]] = {}
    for entry, answer in sent:
        if entry.wanted or entry.answered:
            by_entry.setdefault(id(entry), (entry, []))[1].append(answer)
    for entry, answers in by_entry.values():
        if not entry.wanted:
            continue
        rows: list = []
        for answer in answers:
            rows += answer.rows
        entry.rows = Rows(_rows_of(entry.compiled, rows) if rows else [], sum(a.rowcount for a in answers))
    for entry, _answers_of in by_entry.values():
        if entry.check is not None:
            entry.check(entry.rows)
    if callbacks:
        for entry, _answers_of in by_entry.values():
            for callback in entry.answered or ():
                callback()


class _Answer:
    """A statement's answer as its entry reads it: its rows (loaded as psycopg's cursor
    loads them, for a statement that returns rows) and its row count."""

    __slots__ = ("rows", "rowcount")

    def __init__(self, rows: list, rowcount: int) -> None:
        self.rows, self.rowcount = rows, rowcount


#: ``ConnectionPoolEntry.info`` key: the statements prepared on the connection by
#: :class:`_RoundTrip`, their names by ``(SQL, parameter types)``.
_PREPARED = "capua.prepared"
#: Most statements :class:`_RoundTrip` prepares on one connection; beyond, a statement
#: is parsed at each execution (the hot paths' statements are built once: far fewer).
_MOST_PREPARED = 256
_prepared_names = itertools.count(1)
#: psycopg's placeholders, as :func:`_numbered` reads them.
_PLACEHOLDER = re.compile(r"%%|%s|%\((\w+)\)s")


@lru_cache(maxsize=1024)
def _numbered(sql: str, encoding: str) -> tuple[bytes, Optional[tuple[str, ...]]]:
    """``sql`` (psycopg's, with ``%s`` or ``%(name)s`` placeholders) with PostgreSQL's
    numbered parameters, as psycopg sends it: its bytes, and the names in the order of
    their numbers (a name used twice is one parameter), ``None`` where positional."""
    names: dict[str, int] = {}
    count = 0

    def number(match: re.Match) -> str:
        nonlocal count
        if match.group(0) == "%%":
            return "%"
        name = match.group(1)
        if name is None:
            count += 1
            return f"${count}"
        if name not in names:
            names[name] = len(names) + 1
        return f"${names[name]}"

    text = _PLACEHOLDER.sub(number, sql)
    return text.encode(encoding), (tuple(names) if names else None)


class _RoundTrip:
    """Statements sent to PostgreSQL in one write and answered in one wait.

    psycopg's pipeline sends each statement as it is executed: it waits for the socket
    to take it and writes it, a system call or two per statement, and the server's
    process is woken for each.  Here the statements are queued in libpq's buffer
    (``psycopg.pq``, the pipeline mode of libpq itself) and written at once with the
    pipeline's sync; then the answers are read.  What psycopg's cursor does per
    statement is done as it does it: the parameters dumped and the rows loaded by a
    ``psycopg.adapt.Transformer`` of the connection (the same adapters, hence the same
    values), a statement prepared on the server the first time it is sent on a
    connection (psycopg prepares one after five executions), an error raised as the
    error class psycopg raises for its SQLSTATE.  The waits are psycopg's own
    (``Connection.wait``: other threads run meanwhile)."""

    def __init__(self, dbapi: Any, info: dict) -> None:
        self.dbapi = dbapi
        self.pgconn = dbapi.pgconn
        self.encoding = dbapi.info.encoding
        self.tx = _Transformer.from_context(dbapi)
        # (None: a connection this module does not prepare on, see :func:`_prepare_here`)
        self.prepared: Optional[dict[tuple, bytes]] = info.get(_PREPARED)
        # what each answer is: (entry or None, statement's own or a PREPARE's (key, name)), in order
        self.expected: list[tuple[Optional[_Entry], Optional[tuple]]] = []
        self.sends: list[Callable[[], None]] = []

    def add(self, sql: Union[str, bytes], values: Any, entry: Optional[_Entry] = None) -> None:
        """Queue the statement ``sql`` with ``values`` (``None``: a statement without
        parameters, ``BEGIN`` or ``COMMIT``), whose answer is ``entry``'s."""
        pgconn = self.pgconn
        if values is None:
            self.sends.append(functools.partial(pgconn.send_query_params, sql, None))
            self.expected.append((entry, None))
            return
        query, names = _numbered(sql, self.encoding)
        if names is not None:
            values = [values[name] for name in names]
        tx = self.tx
        params = tx.dump_sequence(values, [_AUTO] * len(values))
        types, formats = tx.types, tx.formats
        key = (query, types)
        prepared = self.prepared
        name = None if prepared is None else prepared.get(key)
        if name is None and prepared is not None and len(prepared) < _MOST_PREPARED:
            name = b"capua_%d" % next(_prepared_names)
            self.sends.append(functools.partial(pgconn.send_prepare, name, query, param_types=types))
            self.expected.append((entry, (key, name)))
        if name is None:
            self.sends.append(functools.partial(pgconn.send_query_params, query, params, param_types=types,
                                                param_formats=formats))
        else:
            self.sends.append(functools.partial(pgconn.send_query_prepared, name, params, param_formats=formats))
        self.expected.append((entry, None))

    def run(self) -> tuple[list[tuple[Optional[_Entry], Optional[_Answer]]], Optional[Exception]]:
        """Send what was queued, read the answers: ``(entry, answer)`` per statement, in
        order (a ``PREPARE``'s answer is none of them), and psycopg's error of the first
        statement that failed, if one did: the statements before it have their answers,
        it and those after it ``None`` (the server skipped them)."""
        pgconn, dbapi = self.pgconn, self.dbapi
        pgconn.enter_pipeline_mode()
        try:
            for send in self.sends:
                send()
            pgconn.pipeline_sync()
            groups = dbapi.wait(_exchange(pgconn, len(self.expected) + 1))
            if len(groups) != len(self.expected) + 1:
                raise _OperationalError("the server's answers ended before the round trip's sync")
            pgconn.exit_pipeline_mode()
        except BaseException:
            _leave_pipeline(pgconn)
            raise
        answers: list[tuple[Optional[_Entry], Optional[_Answer]]] = []
        error = None
        tx = self.tx
        for (entry, prepare), results in zip(self.expected, groups):
            result = results[-1]
            status = result.status
            if status == _FATAL_ERROR:
                if error is None:
                    error = _error_from_result(result, encoding=self.encoding)
            if prepare is not None:
                if status == _COMMAND_OK and self.prepared is not None:
                    self.prepared[prepare[0]] = prepare[1]
                continue
            if status != _TUPLES_OK and status != _COMMAND_OK:
                answers.append((entry, None))
                continue
            rows: list = []
            if status == _TUPLES_OK and result.ntuples and entry is not None and entry.wanted:
                tx.set_pgresult(result)
                rows = tx.load_rows(0, result.ntuples, tuple)
            count = result.command_tuples
            answers.append((entry, _Answer(rows, -1 if count is None else count)))
        return answers, error


def _exchange(pgconn: Any, groups: int) -> Any:
    """psycopg's generator of a round trip: write what libpq holds, then read ``groups``
    answers (each statement's results, the last the pipeline's sync)."""
    yield from _send_all(pgconn)
    fetched = []
    while len(fetched) < groups:
        results = yield from _fetch_many(pgconn)
        if not results:
            break
        fetched.append(results)
    return fetched


def _leave_pipeline(pgconn: Any) -> None:
    """Out of libpq's pipeline mode after a failure on the way (the connection broken,
    or the thread interrupted): where answers are still owed, the connection is closed
    (the pool then discards it), since nothing could tell them from the next ones."""
    try:
        pgconn.exit_pipeline_mode()
    except Exception:
        pgconn.finish()


try:  # the driver's (psycopg is optional: SQLite needs none)
    from psycopg.adapt import PyFormat as _PyFormat, Transformer as _Transformer
    from psycopg.errors import OperationalError as _OperationalError, error_from_result as _error_from_result
    from psycopg.generators import fetch_many as _fetch_many, send as _send_all
    from psycopg.pq import ExecStatus as _ExecStatus, TransactionStatus as _Status
    _IDLE = _Status.IDLE
    _AUTO = _PyFormat.AUTO
    _FATAL_ERROR, _COMMAND_OK, _TUPLES_OK = _ExecStatus.FATAL_ERROR, _ExecStatus.COMMAND_OK, _ExecStatus.TUPLES_OK
except ImportError:  # pragma: no cover
    _IDLE = 0


@event.listens_for(Session, "before_commit")
def _send_with_commit(session: Session) -> None:
    """The held statements go with the COMMIT; what the session holds unflushed is
    written first, so nothing is left to write once the transaction is committed."""
    if not _LISTENING:  # (no engine of this process holds statements: SQLite's)
        return
    held = _held_on(session)
    if held:
        session.flush()  # (a statement it writes sends the held ones before it)
    for connection in held:
        if connection.info.get(_HELD):
            _send(connection, commit=True)


def _held_on(session: Session) -> list:
    transaction = session.get_transaction()
    if transaction is None:
        return []
    # (the transaction lists each connection under its engine too)
    return list({id(conn): conn for conn, *_ in transaction._connections.values()
                 if conn.info.get(_HELD)}.values())


#: The engines whose connections can hold statements (psycopg's), listened to below.
_LISTENING: "weakref.WeakSet[Engine]" = weakref.WeakSet()
_LISTENING_LOCK = threading.Lock()


def listen_pipelined(engine: Engine) -> None:
    """Have ``engine`` send what its connections hold before any other statement, and
    drop it on a rollback or a check-in (psycopg's engines: done by
    :func:`service.plumbing.db.configure_engine`, and before anything is first held or
    sent here on an engine that was not configured so).

    Listened to on these engines only, not on every engine: SQLAlchemy dispatches a
    connection's events (its begin, each statement, its commit) only on an engine that has
    listeners, and SQLite's, which never holds a statement, has none of these."""
    if engine in _LISTENING:
        return
    with _LISTENING_LOCK:
        if engine in _LISTENING:
            return
        # (first: the held statements are sent, and seen by other listeners, before the next)
        event.listen(engine, "before_cursor_execute", _send_before_next, insert=True)
        event.listen(engine, "begin", _driver_begins_again)
        event.listen(engine, "rollback", _drop_on_rollback)
        event.listen(engine, "checkin", _drop_on_checkin)
        event.listen(engine, "connect", _prepare_here)
        _LISTENING.add(engine)


_listen_pipelined = listen_pipelined


def _prepare_here(dbapi_connection, record) -> None:
    """A new connection: :class:`_RoundTrip` prepares its statements on it, and psycopg
    prepares none of its own.

    psycopg forgets what it prepared on a rollback (and on a ``DROP`` or ``ALTER``) and
    has the server forget it too, with ``DEALLOCATE ALL``: every prepared statement of
    the connection, those of :class:`_RoundTrip` as well, which would then be sent by a
    name the server no longer knows.  With psycopg's preparing off
    (``prepare_threshold = None``) it has nothing to forget and sends no
    ``DEALLOCATE``.  The statements that do not go through :class:`_RoundTrip` are then
    parsed at each execution, as psycopg parses a statement until its sixth.  A
    connection made before this listener (an engine not configured so) prepares
    nothing here."""
    dbapi_connection.prepare_threshold = None
    record.info[_PREPARED] = {}


def _send_before_next(connection, _cursor, _statement, _params, _context, _many) -> None:
    """A statement after held ones: they go first, in order."""
    if _HELD in connection.info:
        _send(connection)


def _driver_begins_again(connection) -> None:
    """psycopg sends the ``BEGIN`` of a transaction again (see :func:`_pipeline`)."""
    pool_entry = connection.connection
    if pool_entry.info.get(_OWN_BEGIN):
        _driver_begins(pool_entry.dbapi_connection, pool_entry.info)


def _driver_begins(dbapi_connection, info: dict) -> None:
    """psycopg's autocommit off again, once no transaction is open (a closed or broken
    connection is left as it is: the pool discards it)."""
    if not dbapi_connection.closed and dbapi_connection.info.transaction_status == _IDLE:
        dbapi_connection.autocommit = False
        info.pop(_OWN_BEGIN, None)


def _drop_on_rollback(connection) -> None:
    if connection.invalidated:  # (its DBAPI connection is gone, and what it held with it)
        return
    _dropped(connection.info.pop(_HELD, ()))


def _dropped(entries) -> None:
    for entry in entries:
        entry.dropped = True


def _drop_on_checkin(dbapi_connection, record) -> None:
    if record is not None:
        _dropped(record.info.pop(_HELD, ()))
        if record.info.get(_OWN_BEGIN) and dbapi_connection is not None:
            _driver_begins(dbapi_connection, record.info)
