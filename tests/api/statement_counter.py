"""Count the SQL statements, ORM flushes and committed transactions of a block of code."""

from __future__ import annotations

from collections import Counter
from typing import Any

from sqlalchemy import event
from sqlalchemy.engine import Engine
from sqlalchemy.orm import Session


class StatementCounter:
    """``with StatementCounter(engine) as c: ...`` then ``c.figures()``.

    Statements are those sent on ``engine`` (transaction control not included), flushes
    are every ORM session's flushes that wrote something, transactions the commits and
    rollbacks of connections of ``engine``.  ``by_table`` says what the statements were.
    """

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.statements: list[str] = []
        self.flushes = 0
        self.commits = 0
        self.rollbacks = 0

    def _on_execute(self, _conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        self.statements.append(statement)

    def _on_flush(self, _session: Any, _context: Any) -> None:
        self.flushes += 1

    def _on_commit(self, _conn: Any) -> None:
        self.commits += 1

    def _on_rollback(self, _conn: Any) -> None:
        self.rollbacks += 1

    def __enter__(self) -> "StatementCounter":
        event.listen(self.engine, "before_cursor_execute", self._on_execute)
        event.listen(self.engine, "commit", self._on_commit)
        event.listen(self.engine, "rollback", self._on_rollback)
        event.listen(Session, "after_flush", self._on_flush)
        return self

    def __exit__(self, *_exc: Any) -> None:
        event.remove(self.engine, "before_cursor_execute", self._on_execute)
        event.remove(self.engine, "commit", self._on_commit)
        event.remove(self.engine, "rollback", self._on_rollback)
        event.remove(Session, "after_flush", self._on_flush)

    def by_kind(self) -> Counter:
        """``{"SELECT users": 5, "INSERT events": 3, ...}``."""
        kinds: Counter = Counter()
        for statement in self.statements:
            words = statement.replace("\n", " ").split()
            verb = words[0].upper() if words else "?"
            table = "?"
            upper = [w.upper() for w in words]
            for marker in ("FROM", "INTO", "UPDATE"):
                if marker in upper[:-1]:
                    table = words[upper.index(marker) + 1].strip('"(')
                    break
            kinds[f"{verb} {table}"] += 1
        return kinds

    def figures(self) -> dict:
        return {"statements": len(self.statements), "flushes": self.flushes,
                "transactions": self.commits + self.rollbacks, "by_kind": dict(self.by_kind())}
