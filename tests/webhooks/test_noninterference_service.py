"""The service adds no interference: with two hidden deals and the same public moves, another
player and a spectator observe exactly the same through the API, their mail and their webhooks.

Two games of Bell with hands (``tests/notify/bell_game.py``) are dealt differently through the
test chance source of the app's configuration: Bob holds an objection token in one world and
none in the other (nobody else's tokens change).  Ann rings, the window asks Bob and Cat, and
everybody passes, in both worlds.  Bob keeps a standing order "object, else pass" that did not
ask to read his hand: it must answer the same way, at the same moment, in both worlds (it stays
quiet: objecting needs a token), and Cat's single-option window is asked in both (private).
After every step, what Cat and Dan (a spectator with a webhook on the game) can observe --
the game, Cat's decisions, the events and views as each sees them, the deadlines, Cat's
notifications and both webhooks' payloads -- is recorded; the two worlds' records must match
once the game ids and the moments are taken out.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from sqlalchemy import select

from engine import registry
from service.plumbing.db import Notification, WebhookDelivery
from tests.notify import bell_game
from tests.webhooks.support import subscribe

#: Bob's tokens in each world; everybody else holds none.
WORLDS = {"bob holds a token": 1, "bob holds none": 0}
OBJECT_ELSE_PASS = {"name": "Object, else pass", "match": {"mode": "interrupt"},
                    "answer": [{"type": "object"}, {"type": "pass"}]}


def deal(game, request) -> dict:
    bob = WORLDS[game.title]
    return {"seat0": 0, "seat1": bob, "seat2": 0}


@pytest.fixture(autouse=True)
def bell(monkeypatch):
    monkeypatch.setitem(registry._GAMES, bell_game.NAME, "tests.notify.bell_game:RULES")


@pytest.fixture
def config_overrides(config_overrides) -> dict:
    return {**config_overrides, "test_chance": deal, "notify_coalesce_seconds": 0}


_MOMENT = re.compile(r"\d{4}-\d\d-\d\dT[0-9:.+]+Z?")


def _plain(value: Any, game_id: str) -> Any:
    """``value`` with the game's id, its title (which names the world) and every moment taken
    out: they differ between the worlds by construction."""
    if isinstance(value, dict):
        return {k: _plain(v, game_id) for k, v in value.items() if k not in ("id", "msg_id", "title")}
    if isinstance(value, (list, tuple)):
        return [_plain(v, game_id) for v in value]
    if isinstance(value, str):
        return _MOMENT.sub("<moment>", value.replace(game_id, "<game>"))
    return value


def _play(world: str, clients: dict, sessions, receiver) -> list:
    ann, bob, cat, dan = (clients[n] for n in ("ann", "bob", "cat", "dan"))
    created = ann.post("games", json={"game_type": "bell", "seats": 3, "my_seat": 0, "title": world,
                                      "options": {"rings": 2, "hands": True},
                                      "invites": ["bob@example.org", "cat@example.org"]}, idempotent=True)
    assert created.status_code == 201, created.get_json()
    game_id = created.get_json()["id"]
    subscribe(cat, receiver.url("/cat"), game_id=game_id)
    subscribe(dan, receiver.url("/dan"), game_id=game_id)
    for client in (bob, cat):
        assert client.post(f"games/{game_id}/join", idempotent=True).status_code == 200
    assert bob.post("standing-orders", json={**OBJECT_ELSE_PASS, "game_id": game_id}, idempotent=True).status_code == 201
    record: list = []

    def observe(step: str) -> None:
        seen: dict[str, Any] = {"step": step}
        for name, client in (("cat", cat), ("dan", dan)):
            seen[name] = {what: client.get(f"games/{game_id}{path}").get_json()
                          for what, path in (("game", ""), ("events", "/events"), ("clock", "/clock"))}
        seen["cat"]["decisions"] = cat.get(f"games/{game_id}/decisions").get_json()
        with sessions() as s:
            seen["cat notifications"] = [(n.kind, n.seat) for n in s.scalars(
                select(Notification).where(Notification.game_id == game_id,
                                           Notification.user_id == cat.user_id).order_by(Notification.id))]
            bodies = [json.loads(d.payload) for d in s.scalars(select(WebhookDelivery).order_by(WebhookDelivery.id))]
            seen["webhooks"] = [(b["type"], b["data"]) for b in bodies if b["data"].get("game_id") == game_id]
        record.append(_plain(seen, game_id))

    observe("started")
    for ring in range(2):
        assert ann.post(f"games/{game_id}/commands", json={"type": "ring", "args": {"loud": True}},
                        idempotent=True).status_code == 200
        observe(f"ring {ring}")
        for name, client in (("bob", bob), ("cat", cat)):
            owed = [d for d in client.get(f"games/{game_id}/decisions").get_json()["decisions"] if d["mode"] != "free"]
            assert [d["prompt_key"] for d in owed] == ["window"], f"{name} is asked in {world}"
            answered = client.post(f"games/{game_id}/commands", json={"type": "pass", "args": {}}, idempotent=True)
            assert answered.status_code == 200, answered.get_json()
            observe(f"ring {ring}: {name} passed")
    assert ann.get(f"games/{game_id}").get_json()["status"] == "finished"
    return record, game_id


def test_another_player_and_a_spectator_observe_the_same_whatever_bob_holds(make_client, sessions, receiver):
    clients = {name: make_client(name) for name in ("ann", "bob", "cat", "dan")}
    (holding, first), (empty, second) = (_play(world, clients, sessions, receiver) for world in WORLDS)
    assert len(holding) == len(empty) == 7
    for seen_holding, seen_empty in zip(holding, empty):
        assert seen_holding == seen_empty, seen_holding["step"]
    assert holding[-1]["webhooks"] and holding[-1]["cat notifications"], "there was something to compare"
    # The worlds did differ, for Bob: he saw his own token.
    bob = clients["bob"]
    assert [bob.get(f"games/{g}").get_json()["board"]["my_tokens"] for g in (first, second)] == [1, 0]
