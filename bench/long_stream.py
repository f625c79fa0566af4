"""Does a long game cost more to play than a short one?

A Spartacus game lets two dominus give each other gold at any time (a free action that
never blocks anyone), so two players trading one gold piece back and forth grow one real
game's stream to 10,000 events.  The same API command (a gift) is timed when the game
holds about 10 events and in a game of about 10,000, the two taking turns.  Snapshots (every
``CAPUA_SNAPSHOT_EVERY`` events) should make the two figures nearly equal.
"""

from __future__ import annotations

import time
import uuid

from bench.api_latency import Client, running_server
from bench.common import summarize


def _gift(client: Client, game_id: str, to: int) -> float:
    t0 = time.perf_counter()
    status, answer = client.call("POST", f"/api/v1/games/{game_id}/commands",
                                 {"type": "give_gold", "args": {"to": to, "amount": 1}},
                                 **{"Idempotency-Key": uuid.uuid4().hex})
    elapsed = time.perf_counter() - t0
    assert status == 200, (status, answer)
    return elapsed


def _until_both_may_give(players: list[Client], game_id: str) -> None:
    """Answer the players' blocking decisions with their defaults until both may give gold
    (nobody has gold while the houses are being chosen)."""
    for _ in range(500):
        ready = 0
        for client in players:
            _, listing = client.call("GET", f"/api/v1/games/{game_id}/decisions")
            decisions = listing.get("decisions", [])
            if any(d["command_type"] == "give_gold" for d in decisions):
                ready += 1
            blocking = [d for d in decisions if d["mode"] != "free"]
            if blocking and ready < len(players):
                d = blocking[0]
                client.call("POST", f"/api/v1/games/{game_id}/commands",
                            {"type": d["default"]["type"], "args": d["default"]["args"]},
                            **{"Idempotency-Key": uuid.uuid4().hex})
        if ready == len(players):
            return
    raise RuntimeError("the players never got gold to give")


def _new_game(app, a, b) -> str:
    """A 4-seat Spartacus game of ``a`` and ``b`` with two bots, both players ready to give gold."""
    from service.play import games
    from service.plumbing.database import session

    with app.app_context():
        s = session()
        game = games.create_game(s, app.extensions["capua.config"], creator=a, game_type="spartacus",
                                 options={}, seats=4, invites=[b.email], bot_seats=[2, 3])
        s.flush()
        games.join_game(s, app.extensions["capua.config"], game.id, b)
        s.commit()
        return game.id


def measure_long_stream(database_url: str, target: int = 10_000, samples: int = 100) -> dict:
    """Gift latency (through the API) in a game near event ``target`` and, at the same
    moments, in a short one (tens of events): the two games take turns gift by gift, so a
    change of the machine's load hits both alike."""
    from service.identity import auth
    from service.play import games
    from service.plumbing.database import session

    with running_server(database_url) as server:
        app = server.app
        with app.app_context():
            s = session()
            a = auth.get_or_create_user(s, "bench@capua.local")
            b = auth.get_or_create_user(s, "bench-b@capua.local")
            s.flush()
            _, token_b = auth.create_api_token(s, b, "bench")
            s.commit()
        alice, bob = Client(server.host, server.port, server.token), Client(server.host, server.port, token_b)
        long_id = _new_game(app, a, b)
        _until_both_may_give([alice, bob], long_id)
        _, view = alice.call("GET", f"/api/v1/games/{long_id}")
        version = view["version"]
        print(f"  growing a stream from {version} to {target} events ...")
        with app.app_context():
            config = app.extensions["capua.config"]
            s = session()
            users = {0: a, 1: b}
            seat = 0
            while version < target:
                result = games.submit_command(s, config, long_id, users[seat], command_type="give_gold",
                                              args={"to": 1 - seat, "amount": 1}, expected_version=None)
                s.commit()
                version = result.version
                seat = 1 - seat
                if version % 1000 < 2:
                    print(f"\r  events: {version}/{target}", end="", flush=True)
        print()
        short_id = _new_game(app, a, b)
        _until_both_may_give([alice, bob], short_id)
        _, view = alice.call("GET", f"/api/v1/games/{short_id}")
        start_version = view["version"]
        early, late = [], []
        for i in range(samples):
            giver, to = (alice, 1) if i % 2 == 0 else (bob, 0)
            early.append(_gift(giver, short_id, to))
            late.append(_gift(giver, long_id, to))
        _, view = alice.call("GET", f"/api/v1/games/{short_id}")
        end_version = view["version"]
    return {"start_version": start_version, "end_version": end_version, "early": summarize(early),
            "late": summarize(late), "late_version": version}
