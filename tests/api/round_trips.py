"""Count the round trips a block of code makes to PostgreSQL, from libpq's own trace."""

from __future__ import annotations

import tempfile
from typing import Any

from sqlalchemy import event
from sqlalchemy.engine import Engine


class RoundTripCounter:
    """``with RoundTripCounter(engine) as c: ...`` then ``c.round_trips``.

    Every psycopg connection of ``engine`` that begins a transaction inside the block has
    libpq write each protocol message it sends (``F``) and receives (``B``) to a file; a
    round trip is a run of sent messages answered by received ones (one wait for the
    server), whatever the statements: ``BEGIN``, a pipeline of several statements and its
    sync, or the ``COMMIT``.  ``messages`` lists what was sent, per round trip.
    """

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self._traced: dict[int, tuple[Any, Any]] = {}  # id(dbapi connection): (connection, file)
        self.round_trips = 0
        self.messages: list[list[str]] = []

    def _on_begin(self, connection: Any) -> None:
        dbapi = connection.connection.dbapi_connection
        if id(dbapi) not in self._traced:
            from psycopg import pq

            trace = tempfile.TemporaryFile(mode="w+")
            dbapi.pgconn.trace(trace.fileno())
            dbapi.pgconn.set_trace_flags(pq.Trace.SUPPRESS_TIMESTAMPS | pq.Trace.REGRESS_MODE)
            self._traced[id(dbapi)] = (dbapi, trace)

    def __enter__(self) -> "RoundTripCounter":
        assert self.engine.dialect.driver == "psycopg", "libpq's trace is psycopg's"
        event.listen(self.engine, "begin", self._on_begin)
        return self

    def __exit__(self, *_exc: Any) -> None:
        event.remove(self.engine, "begin", self._on_begin)
        for dbapi, trace in self._traced.values():
            dbapi.pgconn.untrace()
            trace.seek(0)
            sent: list[str] = []
            for line in trace:
                if not line.startswith(("F\t", "B\t")):
                    continue  # (the rest of a message whose SQL spans lines)
                direction, _length, message = (line.split("\t") + ["", ""])[:3]
                if direction == "F":
                    sent.append(message.split()[0] if message.strip() else message)
                elif sent:
                    self.messages.append(sent)
                    sent = []
            trace.close()
        self.round_trips = len(self.messages)
