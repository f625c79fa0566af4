"""``service.plumbing.statements``: statements run on the driver read back what SQLAlchemy
would; writes held for the commit, and statements sent ahead, keep their order, their
transaction and their errors; the ``BEGIN`` sent in the pipeline opens a real transaction."""

from __future__ import annotations

import pytest
from sqlalchemy import bindparam, func, select, text
from sqlalchemy.exc import DBAPIError, IntegrityError

from service.plumbing.db import IdempotencyKey, make_engine, make_sessionmaker, utcnow
from service.plumbing.statements import JsonText, _numbered, ahead, defer, run
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


def test_a_read_on_the_driver_gives_what_sqlalchemy_gives(session):
    defer(session, _INSERT, [_key("a"), _key("b")])
    query = (select(_KEYS.c.key, _KEYS.c.response_headers, _KEYS.c.created_at)
             .where(_KEYS.c.principal == bindparam("principal"), _KEYS.c.status_code == 0)  # (a literal too)
             .order_by(_KEYS.c.key))
    on_driver = run(session, query, {"principal": "user:1"}).all()
    assert on_driver == [tuple(row) for row in session.execute(query, {"principal": "user:1"})]
    assert [row[:2] for row in on_driver] == [("a", {}), ("b", {})]
    assert all(row[2].tzinfo is not None for row in on_driver)


def test_the_first_statement_opens_a_transaction_that_rolls_back(session, session_factory):
    run(session, _INSERT.returning(_KEYS.c.id), _key("a"))
    with session_factory() as other:  # not committed: nobody else sees it
        assert _count(other) == 0
    session.rollback()
    assert _count(session) == 0
    # the next transaction on the same connection, begun through SQLAlchemy, is one too
    session.execute(_INSERT, _key("b"))
    session.rollback()
    assert _count(session) == 0
    run(session, _INSERT.returning(_KEYS.c.id), _key("c"))
    session.commit()
    with session_factory() as other:
        assert other.scalar(select(_KEYS.c.key)) == "c"


def test_a_statement_sent_ahead_answers_and_its_check_stops_the_next_statement(session):
    defer(session, _INSERT, _key("a"))
    session.commit()
    claim = ahead(session, _INSERT.returning(_KEYS.c.id), _key("b"))
    assert claim.rows().scalar() is not None and claim.sent
    with pytest.raises(Refused):  # at once on SQLite, with the next statement on PostgreSQL
        ahead(session, _insert_unless_held(session), _key("a"), check=_refused_if_empty)
        run(session, select(_KEYS.c.key).where(_KEYS.c.key == bindparam("which")), {"which": "a"})


def test_a_held_write_with_a_check_is_judged_before_the_commit(session):
    defer(session, _INSERT, _key("a"))
    session.commit()
    moved = _KEYS.update().where(_KEYS.c.key == bindparam("which")).values(status_code=bindparam("status"))
    with pytest.raises(Refused):  # at once on SQLite, before the COMMIT on PostgreSQL
        defer(session, _INSERT, _key("b"))
        defer(session, moved, {"which": "nobody", "status": 200}, check=_refused_unless_one)
        session.commit()
    session.rollback()
    assert _count(session) == 1


def _insert_unless_held(session):
    from service.plumbing.statements import dialect_insert

    return (dialect_insert(session.get_bind().dialect.name)(_KEYS)
            .on_conflict_do_nothing(index_elements=["principal", "key"]).returning(_KEYS.c.id))


def _refused_if_empty(rows) -> None:
    if rows.scalar() is None:
        raise Refused()


def _refused_unless_one(rows) -> None:
    if rows.rowcount != 1:
        raise Refused()


def test_a_held_list_of_rows_is_one_statement_whose_failure_its_caller_names(session):
    with StatementCounter(session.get_bind()) as counter:
        defer(session, _INSERT, [_key("a"), _key("b"), _key("c")])
        session.commit()
    assert len(counter.statements) == 1 and counter.statements[0].count("), (") == 2  # three rows
    assert _count(session) == 3
    with pytest.raises(Refused):  # a duplicate in the middle fails the one statement
        defer(session, _INSERT, [_key("d"), _key("b"), _key("e")],
              on_error=lambda error: Refused() if isinstance(error, IntegrityError) else error)
        session.commit()
    session.rollback()
    assert _count(session) == 3


def test_json_text_is_stored_as_given_and_reads_back_as_the_value(session):
    defer(session, _INSERT, [{**_key("a"), "response_headers": JsonText('{"x": [1, 2]}')}, _key("b")])
    session.commit()
    headers = dict(session.execute(select(_KEYS.c.key, _KEYS.c.response_headers)).all())
    assert headers == {"a": {"x": [1, 2]}, "b": {}}


def test_a_long_list_of_rows_is_written_whole(session):
    # (20 rows of 7 columns: one statement of 140 parameters)
    with StatementCounter(session.get_bind()) as counter:
        defer(session, _INSERT, [_key(f"k{i}") for i in range(20)])
        session.commit()
    assert len(counter.statements) == 1
    assert sorted(session.scalars(select(_KEYS.c.key))) == sorted(f"k{i}" for i in range(20))


@pytest.fixture
def one_connection(clean_database, database_url):
    """A session whose transactions all run on one connection (PostgreSQL only), so
    that what the server prepared on it can be compared from one transaction to the next."""
    if not database_url.startswith("postgresql"):
        pytest.skip("SQLite prepares nothing on a server: its statements are function calls")
    engine = make_engine(database_url, pool_size=1, max_overflow=0)
    with make_sessionmaker(engine)() as session:
        yield session
        session.rollback()
    engine.dispose()


def _prepared_here(session) -> set[str]:
    """The names of the statements prepared on ``session``'s connection, as its server
    lists them."""
    return set(session.scalars(select(text("name")).select_from(text("pg_prepared_statements"))))


def test_a_round_trip_prepares_its_statements_once_and_they_outlive_rollbacks(one_connection):
    session = one_connection
    claim = _INSERT.returning(_KEYS.c.id)
    run(session, claim, _key("a"))
    for _ in range(6):  # (psycopg prepares a statement of its own at its sixth execution...)
        prepared = _prepared_here(session)
    assert any(name.startswith("capua_") for name in prepared)
    session.rollback()  # (... and would then have the server forget every statement here)
    for key in ("b", "c"):
        run(session, claim, _key(key))
        session.commit()
    with pytest.raises(IntegrityError):  # a failed round trip: the transaction rolls back
        run(session, claim, _key("b"))
    session.rollback()
    assert _prepared_here(session) == prepared  # (the same statements, none prepared again)
    run(session, claim, _key("d"))
    session.commit()
    assert sorted(session.scalars(select(_KEYS.c.key))) == ["b", "c", "d"]
    assert session.connection().connection.dbapi_connection.prepare_threshold is None


def test_a_statement_after_a_failed_one_in_its_round_trip_is_prepared_when_next_sent(one_connection):
    session = one_connection
    defer(session, _INSERT, _key("a"))
    session.commit()
    fresh = (_KEYS.update().where(_KEYS.c.key == bindparam("which"), _KEYS.c.request_hash == bindparam("hash"))
             .values(status_code=bindparam("code"), response_body=bindparam("body")))
    values = {"which": "a", "hash": "h", "body": "only here"}
    before = _prepared_here(session)
    with pytest.raises(IntegrityError):  # the UPDATE's PREPARE, after the failing INSERT, is skipped
        defer(session, _INSERT, _key("a"))
        defer(session, fresh, {**values, "code": 201})
        session.commit()
    session.rollback()
    assert _prepared_here(session) == before
    defer(session, fresh, {**values, "code": 202})
    session.commit()
    assert session.scalar(select(_KEYS.c.status_code)) == 202
    assert len(_prepared_here(session) - before) == 1


def test_psycopg_placeholders_become_numbered_parameters():
    query, names = _numbered("SELECT %(a)s, %(b)s, %(a)s WHERE x LIKE 'y%%'", "utf-8")
    assert (query, names) == (b"SELECT $1, $2, $1 WHERE x LIKE 'y%'", ("a", "b"))
    assert _numbered("VALUES (%s, %s), (%s, %s)", "utf-8") == (b"VALUES ($1, $2), ($3, $4)", None)


def test_a_round_trip_on_a_connection_the_server_dropped_fails_and_the_next_transaction_runs(one_connection,
                                                                                            database_url):
    session = one_connection
    claim = _INSERT.returning(_KEYS.c.id)
    run(session, claim, _key("a"))
    session.commit()
    backend = session.scalar(select(func.pg_backend_pid()))
    session.commit()
    with make_engine(database_url).connect() as admin:
        admin.execute(select(func.pg_terminate_backend(backend)))
    with pytest.raises(DBAPIError):
        run(session, claim, _key("b"))
    session.rollback()
    run(session, claim, _key("c"))  # (on a new connection: the pool dropped the dead one)
    session.commit()
    assert sorted(session.scalars(select(_KEYS.c.key))) == ["a", "c"]
