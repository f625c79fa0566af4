"""The floor: one single-row INSERT + COMMIT on the same database, through the same engine.

Every latency Capua reports is divided by this, so the figures mean something on any machine:
a command that costs 3x the floor does about three commits' worth of work.
"""

from __future__ import annotations

from sqlalchemy import Column, Integer, MetaData, String, Table, insert

from bench.common import summarize, time_each
from service.plumbing.db import make_engine


def measure_floor(database_url: str, n: int = 400) -> dict:
    engine = make_engine(database_url)
    meta = MetaData()
    table = Table("bench_floor", meta, Column("id", Integer, primary_key=True), Column("payload", String(200)))
    meta.drop_all(engine, checkfirst=True)
    meta.create_all(engine)
    payload = "x" * 120

    def one() -> None:
        with engine.begin() as conn:
            conn.execute(insert(table).values(payload=payload))

    for _ in range(20):  # warm the pool and the file
        one()
    samples = time_each(one, n, progress=f"floor INSERT+COMMIT ({engine.dialect.name})")
    meta.drop_all(engine)
    engine.dispose()
    return summarize(samples)
