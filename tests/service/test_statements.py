"""``service.plumbing.statements``: writes held for the commit keep their order, their
transaction and their errors."""

from __future__ import annotations

import pytest
from sqlalchemy import bindparam, func, select
from sqlalchemy.exc import IntegrityError

from service.plumbing.db import IdempotencyKey, utcnow
from service.plumbing.statements import defer, run
from tests.api.statement_counter import StatementCounter

_KEYS = IdempotencyKey.__table__
_INSERT = _KEYS.insert()


def _key(key: str) -> dict:
    return {"principal": "user:1", "key": key, "request_hash": "h", "status_code": 0, "response_body": "",
            "response_headers": {}, "created_at": utcnow()}


def _count(session) -> int:
    return session.scalar(select(func.count()).select_from(_KEYS))


class Refused(Exception):
    pass


def test_a_held_write_is_written_before_the_next_statement(session):
    defer(session, _INSERT, [_key("a"), _key("b")])
    assert _count(session) == 2


def test_a_statement_run_after_held_writes_sees_them_and_returns_its_rows(session):
    defer(session, _INSERT, _key("a"))
    claimed = run(session, _INSERT.returning(_KEYS.c.key, _KEYS.c.response_headers, _KEYS.c.created_at),
                  [_key("b"), _key("c")])
    rows = sorted(tuple(row) for row in claimed)
    assert [row[:2] for row in rows] == [("b", {}), ("c", {})]
    assert all(row[2].tzinfo is not None for row in rows)
    assert _count(session) == 3


def test_held_writes_commit_with_the_transaction_and_are_counted(session, session_factory):
    with StatementCounter(session.get_bind()) as counter:
        defer(session, _INSERT, _key("a"))
        defer(session, _KEYS.update().where(_KEYS.c.key == bindparam("which")).values(status_code=200),
              {"which": "a"})
        session.commit()
    assert [s.split()[0] for s in counter.statements] == ["INSERT", "UPDATE"]
    assert counter.commits == 1
    with session_factory() as other:
        assert other.scalar(select(IdempotencyKey.status_code).where(IdempotencyKey.key == "a")) == 200


def test_a_rollback_drops_held_writes(session):
    defer(session, _INSERT, _key("a"))
    session.rollback()
    assert _count(session) == 0
    session.commit()
    assert _count(session) == 0


def test_a_held_write_that_fails_raises_what_its_caller_makes_of_it(session):
    defer(session, _INSERT, _key("a"))
    session.commit()
    with pytest.raises(Refused):  # at once on SQLite, with the commit on PostgreSQL
        defer(session, _INSERT, _key("a"),
              on_error=lambda error: Refused() if isinstance(error, IntegrityError) else error)
        session.commit()
    session.rollback()
    assert _count(session) == 1
