"""Webhook payloads show a player only what that player may see.

A whole PAX game (three humans, a bot) is played through the API while four webhooks
listen: Ann's and Bob's for all their games, Cat's for this game, and Dan's (who holds
no seat) for this game.  After every round everything due is delivered to a loopback
receiver, each body's signature is verified with the ``standardwebhooks`` library, and
the body is scanned exactly as ``tests/api/test_leaks.py`` scans API answers: private
keys only about the receiving seat, no card id that is secret from that seat.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from sqlalchemy import select

from service.plumbing.db import WebhookDelivery
from tests.api.players import create_game, play_to_end
from tests.api.test_leaks import LeakScanner, Secrets
from tests.webhooks.support import deliver_all, subscribe, verified


@dataclass
class _Reader:
    email: str


class _Body:
    mimetype = "application/json"
    status_code = 200

    def __init__(self, body: dict) -> None:
        self.body = body

    def get_json(self) -> dict:
        return self.body


def test_no_webhook_payload_leaks_hidden_information(app, make_client, receiver, sessions, app_config):
    rng = random.Random(20261126)
    ann, bob, cat, dan = (make_client(n) for n in ("ann", "bob", "cat", "dan"))
    hooks = {"ann": subscribe(ann, receiver.url("/ann")), "bob": subscribe(bob, receiver.url("/bob"))}
    game = create_game(ann, game_type="pax", seats=4, my_seat=0, invites=["bob@example.org", "cat@example.org"],
                       bot_seats=[3])
    hooks["cat"] = subscribe(cat, receiver.url("/cat"), game_id=game["id"])
    hooks["dan"] = subscribe(dan, receiver.url("/dan"), game_id=game["id"])
    assert bob.post(f"games/{game['id']}/join").status_code == 200
    assert cat.post(f"games/{game['id']}/join").status_code == 200

    secrets = Secrets(app, game["id"])
    seat_of = {"ann@example.org": 0, "bob@example.org": 1, "cat@example.org": 2, "dan@example.org": None}
    scanner = LeakScanner(secrets, seat_of)
    seen = {"count": 0}
    types: dict[str, set[str]] = {name: set() for name in hooks}

    def scan_deliveries(_round: int) -> None:
        deliver_all(sessions, app_config)
        fresh = receiver.requests[seen["count"]:]
        seen["count"] = len(receiver.requests)
        for request in fresh:
            name = request.path.strip("/")
            payload = verified(request, hooks[name]["secret"])
            types[name].add(payload["type"])
            data = dict(payload["data"])
            assert data.pop("seat") == seat_of[f"{name}@example.org"]
            # Scanned without the top-level seat, so every object inside must name its own.
            scanner(_Reader(f"{name}@example.org"), "POST", f"/api/v1/games/{game['id']}",
                    _Body({**payload, "data": data}))

    final = play_to_end(game["id"], [ann, bob, cat], rng, between=scan_deliveries)
    scan_deliveries(-1)

    assert final["status"] == "finished" and secrets.ended
    for name in ("ann", "bob"):
        assert types[name] >= {"game.started", "game.events", "decision.opened", "game.finished"}
    assert types["cat"] >= {"game.events", "decision.opened", "game.finished"}
    assert types["dan"] == {"game.started", "game.events", "game.finished"}  # a spectator owes no decisions
    assert scanner.scanned > 200 and scanner.checked_ids > 1000
    with sessions() as s:
        statuses = set(s.scalars(select(WebhookDelivery.status)))
    assert statuses == {"succeeded"}
