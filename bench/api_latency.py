"""Command latency through the REST API, against a real server on loopback.

A PAX game (one scripted human, bots in the other seats) is played through
``POST /api/v1/games/{id}/commands`` over a kept-alive HTTP connection to a threaded
WSGI server; each command is timed from request to answer.  The answer includes the bot
moves the command triggered, so this is the cost a player's client really sees.
"""

from __future__ import annotations

from service.plumbing import database

import http.client
import json
import logging
import tempfile
import threading
import uuid
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Iterator

from flask import Flask
from werkzeug.serving import make_server

from bench.common import summarize


@dataclass
class Server:
    host: str
    port: int
    token: str  # bearer token of bench@capua.local
    app: Flask


@contextmanager
def running_server(database_url: str, *, snapshot_every: int = 100) -> Iterator[Server]:
    """A Capua server on a fresh database, on loopback, in a thread of this process."""
    from service.identity import auth
    from service.app import create_app
    from service.plumbing.db import Base, make_engine
    from service.plumbing.schema_upgrade import upgrade

    engine = make_engine(database_url)
    Base.metadata.drop_all(engine)
    with engine.begin() as conn:
        conn.exec_driver_sql("DROP TABLE IF EXISTS alembic_version")
    engine.dispose()
    upgrade(database_url)
    with tempfile.TemporaryDirectory() as tmp:
        app = create_app({
            "database_url": database_url, "instance_dir": tmp, "rate_limit": "1000000 per minute",
            "snapshot_every": snapshot_every, "dev_pages": False,
            # bots answer inside the command (a searching level answers in the worker, which
            # this server does not run on PostgreSQL): the command path is what is measured
            "bot_level": "random",
        })
        with app.app_context():
            from service.plumbing.database import session

            s = session()
            user = auth.get_or_create_user(s, "bench@capua.local")
            s.flush()
            _, token = auth.create_api_token(s, user, "bench")
            s.commit()
        logging.getLogger("werkzeug").setLevel(logging.ERROR)  # no line per request
        server = make_server("127.0.0.1", 0, app, threaded=True)
        thread = threading.Thread(target=server.serve_forever, daemon=True)
        thread.start()
        try:
            yield Server("127.0.0.1", server.server_port, token, app)
        finally:
            server.shutdown()
            thread.join()
            database.dispose(app)


class Client:
    def __init__(self, host: str, port: int, token: str) -> None:
        self.conn = http.client.HTTPConnection(host, port, timeout=60)
        self.headers = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}

    def call(self, method: str, path: str, body: dict | None = None, **headers: str) -> tuple[int, dict]:
        self.conn.request(method, path, body=json.dumps(body) if body is not None else None,
                          headers={**self.headers, **headers})
        response = self.conn.getresponse()
        data = response.read()
        return response.status, (json.loads(data) if data else {})


def _new_game(client: Client, seats: int) -> tuple[str, int]:
    status, game = client.call("POST", "/api/v1/games", {
        "game_type": "pax", "seats": seats, "bot_seats": list(range(1, seats)), "options": {},
    }, **{"Idempotency-Key": uuid.uuid4().hex})
    assert status == 201, (status, game)
    return game["id"], game["version"]


def measure_command_latency(database_url: str, commands: int = 300, seats: int = 2) -> dict:
    """p50/p99 of answering one decision through the API, over ``commands`` commands."""
    import time

    samples: list[float] = []
    with running_server(database_url) as server:
        client = Client(server.host, server.port, server.token)
        game_id, _ = _new_game(client, seats)
        while len(samples) < commands:
            status, listing = client.call("GET", f"/api/v1/games/{game_id}/decisions")
            decisions = [d for d in listing.get("decisions", []) if d["mode"] != "free"]
            if status != 200 or not decisions:
                game_id, _ = _new_game(client, seats)
                continue
            decision = decisions[0]
            choice = decision["options"][0] if decision.get("options") else decision["default"]
            body = {"type": choice["type"], "args": choice["args"], "expected_version": decision["version"]}
            t0 = time.perf_counter()
            status, answer = client.call("POST", f"/api/v1/games/{game_id}/commands", body,
                                         **{"Idempotency-Key": uuid.uuid4().hex})
            samples.append(time.perf_counter() - t0)
            assert status == 200, (status, answer)
            if len(samples) % max(1, commands // 10) == 0:
                print(f"\r  API commands: {len(samples)}/{commands}", end="", flush=True)
        print()
    return summarize(samples)
