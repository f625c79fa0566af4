"""Statements built once and run many times.

Building a SQLAlchemy statement and computing its cache key cost more than running a
small one; on a command's path, where a handful of statements run per request, that
building was most of the CPU the database work took.  The hot paths build their
statements once per dialect (the values travel as ``bindparam``), and this module holds
what they share.
"""

from __future__ import annotations

from typing import Any, Callable, Optional, Union

from sqlalchemy import CursorResult, Executable
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
