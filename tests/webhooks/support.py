"""Helpers of the webhook tests: a count game between Ann and Bob, and draining the outbox."""

from __future__ import annotations

import json
from typing import Any

from standardwebhooks.webhooks import Webhook

from service.notify import webhook_delivery


def count_game(ann: Any, bob: Any, target: int = 30) -> str:
    """A running two-seat count game: Ann at seat 0, Bob at seat 1."""
    created = ann.post("games", json={"game_type": "count", "seats": 2, "options": {"target": target},
                                      "invites": ["bob@example.org"]}, idempotent=True)
    assert created.status_code == 201, created.get_json()
    game_id = created.get_json()["id"]
    assert bob.post(f"games/{game_id}/join").status_code == 200
    return game_id


def add(client: Any, game_id: str, n: int = 1) -> dict:
    version = client.get(f"games/{game_id}").get_json()["version"]
    response = client.post(f"games/{game_id}/commands", json={"type": "add", "args": {"n": n},
                                                               "expected_version": version}, idempotent=True)
    assert response.status_code == 200, response.get_json()
    return response.get_json()


def subscribe(client: Any, url: str, **body: Any) -> dict:
    response = client.post("webhooks", json={"url": url, **body}, idempotent=True)
    assert response.status_code == 201, response.get_json()
    return response.get_json()


def deliver_all(sessions, config, rounds: int = 5, **kwargs: Any) -> dict[str, int]:
    """Send everything due now, a few rounds (retries due at once go again)."""
    total: dict[str, int] = {}
    for _ in range(rounds):
        counts = webhook_delivery.deliver_due(sessions, config, **kwargs)
        for k, v in counts.items():
            total[k] = total.get(k, 0) + v
        if not counts:
            break
    return total


def verified(request, secret: str) -> dict:
    """The payload of a received request, after checking its signature with the
    ``standardwebhooks`` library (it raises on any mismatch)."""
    return Webhook(secret).verify(request.body, request.headers)


def payloads(receiver, path: str = "/hook") -> list[dict]:
    return [json.loads(r.body) for r in receiver.requests if r.path == path]
