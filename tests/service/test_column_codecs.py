"""What a command's columns and answer are written as: the same text and bytes as the
library calls they stand in for (:mod:`service.plumbing.db`'s JSON and datetime
processors, :mod:`service.plumbing.rows`' changing rows, the API's answer encoder)."""

from __future__ import annotations

import datetime as dt
import decimal
import json
import random
import uuid

import flask
import pytest
from sqlalchemy import JSON, Column, Integer, MetaData, Table, text
from sqlalchemy.dialects import sqlite
from sqlalchemy.dialects.sqlite import DATETIME

from flask_smorest.utils import set_status_and_headers_in_response

from service.api.blueprint import _json_response, _set_status_and_headers
from service.plumbing.db import Game, Seat, UTCDateTime, make_engine, read_json, write_json
from service.plumbing.rows import changing_row

UTC = dt.timezone.utc

JSON_VALUES = [
    {}, [], "x", "é\u2028\U0001f600", 1.5, -0.0, 10**30, None, True, float("nan"), float("inf"),
    {"b": [1, {"z": None, "y": "Ann (A)"}], "a": {"0": "Bot B"}, 2: 3},
    [["turn:1", 0], ["draw:8:1", 1]],
    {"Content-Type": "application/json", "ETag": '"10"'},
]


@pytest.mark.parametrize("value", JSON_VALUES, ids=range(len(JSON_VALUES)))
def test_a_json_column_is_written_and_read_as_json_dumps_and_loads_would(value):
    written = write_json(value)
    assert written == json.dumps(value)
    assert repr(read_json(written)) == repr(json.loads(written))


@pytest.mark.parametrize("stored", [
    " {}", "{} ", "[1, 2]\n", '{"a":1}x', "", "NaN", "[1,2", '"\\ud83d"', b'{"a": 1}', b"[]", b"{}", b" {}",
    '{"é": ["\u2028"]}'.encode(), b"[\xed\xa0\xbd]", b'["\xed\xa0\xbd"]', b"{\x00\x00\x00", b"[\x00]\x00",
    "[1]".encode("utf-16-le"), "[1]".encode("utf-8-sig"), b"\xff", b"[\xff]", b'"x"', b"1", bytearray(b"[1]")])
def test_json_the_reader_does_not_take_plainly_is_answered_or_refused_by_json_loads(stored):
    def outcome(read):
        try:
            return "value", repr(read(stored))
        except Exception as error:  # noqa: BLE001 - the refusal itself is compared
            return type(error), str(error)

    assert outcome(read_json) == outcome(json.loads)


def _datetimes() -> list:
    rng = random.Random(17)
    values = [dt.datetime(1, 1, 1), dt.datetime(999, 12, 31, 23, 59, 59, 999999),
              dt.datetime(9999, 12, 31, 23, 59, 59, 999999, tzinfo=UTC), dt.datetime(2026, 3, 29, 1, 30)]
    for _ in range(2000):
        moment = dt.datetime(1970, 1, 1) + dt.timedelta(seconds=rng.uniform(-6e10, 2.5e11))
        if rng.random() < 0.3:
            moment = moment.replace(microsecond=0)
        kind = rng.random()
        if kind < 0.3:
            moment = moment.replace(tzinfo=UTC)
        elif kind < 0.6:
            try:
                moment = moment.replace(tzinfo=dt.timezone(dt.timedelta(minutes=rng.randint(-900, 900))))
                moment = moment.astimezone(dt.timezone(dt.timedelta(minutes=rng.randint(-900, 900))))
            except OverflowError:
                pass
        values.append(moment)
    return values


def test_a_utc_datetime_is_stored_and_read_on_sqlite_as_the_dialects_own_processors_would():
    dialect = sqlite.dialect()
    column = UTCDateTime()
    bind, result = column._cached_bind_processor(dialect), column._cached_result_processor(dialect, None)
    their_bind, their_result = DATETIME().bind_processor(dialect), DATETIME().result_processor(dialect, None)

    def stored(value):
        if value is not None and value.tzinfo is not None:
            value = value.astimezone(UTC)
        return their_bind(value)

    def read(value):
        value = their_result(value)
        return value if value is None or value.tzinfo is not None else value.replace(tzinfo=UTC)

    for value in [None, *_datetimes()]:
        assert bind(value) == stored(value), value
        if value is not None:
            assert result(bind(value)) == read(bind(value)) and result(bind(value)).tzinfo is UTC
    for text_ in [None, "2026-11-28", "2026-11-28 10:00", "2026-11-28T10:00:00", "2026-11-28 10:00:00+02:00",
                  "2026-11-28 10:00:00Z", "2026-11-28 10:00:00.123"]:
        mine, theirs = result(text_), read(text_)
        assert mine == theirs and (mine is None or mine.utcoffset() == theirs.utcoffset()), text_


def test_a_time_bound_again_on_sqlite_is_written_as_the_first_time():
    """The text of the time bound last is kept: the same object again gives it back, and
    an equal time of another offset (another object) gets its own text."""
    dialect = sqlite.dialect()
    bind = UTCDateTime()._cached_bind_processor(dialect)
    their_bind = DATETIME().bind_processor(dialect)

    def stored(value):
        if value is not None and value.tzinfo is not None:
            value = value.astimezone(UTC)
        return their_bind(value)

    values = _datetimes()[:300]
    for value in values:
        assert bind(value) == bind(value) == stored(value), value
    for a, b in zip(values, values[1:]):
        assert (bind(a), bind(b), bind(a)) == (stored(a), stored(b), stored(a))
    utc_time = dt.datetime(2026, 11, 29, 3, 0, tzinfo=UTC)
    same_moment_elsewhere = utc_time.astimezone(dt.timezone(dt.timedelta(hours=3)))
    naive = utc_time.replace(tzinfo=None)
    assert utc_time == same_moment_elsewhere
    assert [bind(v) for v in (utc_time, same_moment_elsewhere, naive, utc_time)] == \
        ["2026-11-29 03:00:00.000000"] * 4


def test_an_answers_time_repeated_is_the_same_text():
    from service.api.schemas import _iso

    utc_time = dt.datetime(2026, 11, 29, 3, 0, tzinfo=UTC)
    elsewhere = utc_time.astimezone(dt.timezone(dt.timedelta(hours=3)))
    assert [_iso(v) for v in (utc_time, utc_time, elsewhere, elsewhere, utc_time)] == [
        "2026-11-29T03:00:00+00:00", "2026-11-29T03:00:00+00:00", "2026-11-29T06:00:00+03:00",
        "2026-11-29T06:00:00+03:00", "2026-11-29T03:00:00+00:00"]


def test_a_utc_datetime_is_bound_on_postgresql_in_utc_as_ever():
    from sqlalchemy.dialects.postgresql import psycopg

    bind = UTCDateTime()._cached_bind_processor(psycopg.dialect())
    for value in [None, *_datetimes()]:
        expected = value.astimezone(UTC) if value is not None and value.tzinfo is not None else value
        bound = bind(value)
        assert bound == expected and (bound is None or bound.tzinfo is expected.tzinfo), value


def test_a_utc_datetime_and_json_round_trip_through_sqlite_as_the_default_text():
    table = Table("moments", MetaData(), Column("id", Integer, primary_key=True), Column("at", UTCDateTime()),
                  Column("data", JSON))
    engine = make_engine("sqlite://")
    moment = dt.datetime(2026, 11, 28, 15, 4, 5, 60, tzinfo=dt.timezone(dt.timedelta(hours=2)))
    data = {"b": ["é", 1.5], "a": None}
    with engine.connect() as connection:
        table.create(connection)
        connection.execute(table.insert(), {"id": 1, "at": moment, "data": data})
        assert connection.execute(text("SELECT at, data FROM moments")).one() == (
            "2026-11-28 13:04:05.000060", json.dumps(data))
        assert connection.execute(table.select()).one() == (1, moment, data)


ANSWERS = [{"version": 3, "events": [{"seq": 2, "type": "CardTaken", "data": {"seat": 1, "card": "c12"}}],
            "decisions": [], "outcome": None},
           {"t": dt.datetime(2020, 1, 1, tzinfo=UTC), "u": uuid.UUID(int=7), "d": decimal.Decimal("1.5"),
            "n": float("nan"), "é": "ü"},
           [], None, "x"]


@pytest.mark.parametrize("debug", [False, True])
def test_an_answer_is_encoded_to_the_bytes_flasks_provider_gives(debug):
    app = flask.Flask("codecs")
    app.debug = debug
    with app.app_context():
        for answer in ANSWERS:
            mine, flasks = _json_response(app, answer), app.json.response(answer)
            assert (mine.get_data(), mine.status, dict(mine.headers)) == (
                flasks.get_data(), flasks.status, dict(flasks.headers))


@pytest.mark.parametrize("status,headers", [
    (200, {"ETag": '"10"'}), (None, {"ETag": '"10"'}), (201, {"ETag": '"1"', "Location": "/x"}), (200, None),
    (200, {"Link": ["<a>", "<b>"]}), ("202 ACCEPTED", [("X-A", "1")]), (200, {"X-Count": 3})])
def test_an_answers_status_and_headers_are_set_as_flask_smorest_sets_them(status, headers):
    app = flask.Flask("codecs")
    with app.app_context():
        mine, theirs = app.json.response({}), app.json.response({})
        _set_status_and_headers(mine, status, headers)
        set_status_and_headers_in_response(theirs, status, headers)
        assert (mine.status, list(mine.headers.items())) == (theirs.status, list(theirs.headers.items()))


def test_a_changing_row_remembers_what_it_was_read_with():
    row_type = changing_row(Game)
    row = row_type(*range(len(row_type.fields)))
    assert [getattr(row, name) for name in row_type.fields] == list(range(len(row_type.fields)))
    assert row.changes() == {}
    row.version, row.status = 99, row.status
    assert row.changes() == {"version": 99}
    row.settled()
    assert row.changes() == {}
    seat = changing_row(Seat)(*range(3))  # fewer values than columns: those are set, the rest not
    assert (seat.id, seat.changes()) == (0, {})
