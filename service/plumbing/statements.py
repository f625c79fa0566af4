"""Statements built once and run many times.

Building a SQLAlchemy statement and computing its cache key cost more than running a
small one; on a command's path, where a handful of statements run per request, that
building was most of the CPU the database work took.  The hot paths build their
statements once per dialect (the values travel as ``bindparam``), and this module holds
what they share.
"""

from __future__ import annotations

from typing import Callable

from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert


def dialect_insert(dialect: str) -> Callable:
    """The ``insert`` with ``ON CONFLICT`` of ``dialect`` (``"postgresql"``, else SQLite's)."""
    return pg_insert if dialect == "postgresql" else sqlite_insert
