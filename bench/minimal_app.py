"""The floor as a web app: a minimal Flask app doing one single-row INSERT + COMMIT per request.

Served exactly as Capua is (gunicorn, the same engine options, kept-alive HTTP), so a
command's latency divided by this endpoint's is what Capua costs above a bare Flask write.
``CAPUA_DATABASE_URL`` names the database; :func:`create_table` makes its table before the
server starts (its workers would race to create it).
"""

from __future__ import annotations

import os

from flask import Flask, jsonify, request
from sqlalchemy import Column, Integer, MetaData, String, Table, event, insert

from service.plumbing.db import make_engine

_META = MetaData()
_TABLE = Table("bench_floor_web", _META, Column("id", Integer, primary_key=True), Column("payload", String(400)))


def create_table(database_url: str) -> None:
    engine = make_engine(database_url)
    _META.drop_all(engine, checkfirst=True)
    _META.create_all(engine)
    engine.dispose()


def create_app() -> Flask:
    engine = make_engine(os.environ["CAPUA_DATABASE_URL"])

    @event.listens_for(engine, "connect")
    def _prepare_as_psycopg_does(dbapi_connection, _record):
        # psycopg's own preparing (a statement prepared at its sixth execution), as a bare
        # app has it: Capua's engines turn it off for statements prepared their own way
        # (service.plumbing.statements), which this app does not use
        if hasattr(dbapi_connection, "prepare_threshold"):
            dbapi_connection.prepare_threshold = 5

    app = Flask("bench_floor_web")

    @app.post("/write")
    def write():
        body = request.get_json(silent=True) or {}
        with engine.begin() as conn:
            new_id = conn.execute(insert(_TABLE).values(payload=str(body)[:400])).inserted_primary_key[0]
        return jsonify({"id": new_id})

    return app
