"""Standing orders at the table: applied the moment a decision opens, as the player's own
answer, and never visible to anyone else."""

from __future__ import annotations

import json

from sqlalchemy import select

from service.plumbing.db import StandingOrder, StoredEvent
from tests.api.support import assert_error
from tests.webhooks.support import add, count_game

ADD_TWO = {"match": {"command_type": "add", "mode": "simultaneous"}, "answer": {"type": "add", "args": {"n": 2}}}


def _order(client, **body):
    response = client.post("standing-orders", json=body, idempotent=True)
    assert response.status_code == 201, response.get_json()
    return response.get_json()


def _owed(client, game_id):
    return [d for d in client.get(f"games/{game_id}/decisions").get_json()["decisions"] if d["mode"] != "free"]


def test_an_order_answers_as_the_player_the_moment_the_decision_opens(app, ann, bob, sessions):
    order = _order(ann, name="always two", game_type="count", **ADD_TWO)
    game_id = count_game(ann, bob)
    assert _owed(ann, game_id) == []  # answered when the game was dealt
    assert [d["command_type"] for d in _owed(bob, game_id)] == ["add"]
    version = ann.get(f"games/{game_id}").get_json()["version"]
    add(bob, game_id, 1)  # round 1 scores; round 2 opens and Ann's order answers it at once
    assert _owed(ann, game_id) == [] and len(_owed(bob, game_id)) == 1
    with sessions() as s:
        chosen = [(e.data, e.actor_user_id) for e in s.scalars(
            select(StoredEvent).where(StoredEvent.game_id == game_id, StoredEvent.type == "AmountChosen")
            .order_by(StoredEvent.seq))]
    assert chosen[0] == ({"seat": 0, "round": 1, "n": 2}, ann.user_id)
    assert chosen[1] == ({"seat": 1, "round": 1, "n": 1}, bob.user_id)
    assert chosen[2] == ({"seat": 0, "round": 2, "n": 2}, ann.user_id)
    shown = ann.get(f"standing-orders/{order['id']}").get_json()
    assert shown["uses"] == 2 and shown["last_used_game_id"] == game_id and shown["last_used_at"]
    # What Bob sees of it: an ordinary event, and nothing of the order anywhere.
    bobs_log = json.dumps(bob.get(f"games/{game_id}/events?after={version}").get_json())
    assert "always two" not in bobs_log and "standing" not in bobs_log
    assert bob.get("standing-orders").get_json()["standing_orders"] == []
    assert_error(bob.get(f"standing-orders/{order['id']}"), 404, "standing_order_not_found")
    assert_error(bob.request("PATCH", f"standing-orders/{order['id']}", json={"enabled": False}), 404)
    assert_error(bob.delete(f"standing-orders/{order['id']}"), 404)


def test_an_answer_the_rules_refuse_is_left_to_the_player(ann, bob):
    # The count game refuses adding 3 in the first round (a rule the schema cannot express).
    _order(ann, match={"command_type": "add"}, answer={"type": "add", "args": {"n": 3}})
    game_id = count_game(ann, bob)
    assert [d["command_type"] for d in _owed(ann, game_id)] == ["add"]
    add(ann, game_id, 1)
    add(bob, game_id, 1)
    assert _owed(ann, game_id) == []  # round 2: now 3 is legal and the order plays it


def test_orders_for_one_game_come_first_and_paused_orders_do_nothing(ann, bob, sessions):
    game_id = count_game(ann, bob)
    add(ann, game_id, 1)
    general = _order(ann, position=-5, **ADD_TWO)
    _order(ann, game_id=game_id, position=10, match={"command_type": "add"}, answer={"type": "add", "args": {"n": 1}})
    paused = _order(ann, game_id=game_id, position=0, enabled=False, match={"command_type": "add"},
                    answer={"type": "add", "args": {"n": 3}})
    listed = ann.get("standing-orders").get_json()["standing_orders"]
    assert [o["id"] for o in listed][-1] == general["id"]  # per-game orders first
    assert ann.get(f"standing-orders?game_id={game_id}").get_json()["standing_orders"][0]["id"] == paused["id"]
    add(bob, game_id, 1)
    with sessions() as s:
        last = s.scalars(select(StoredEvent).where(StoredEvent.type == "AmountChosen")
                         .order_by(StoredEvent.seq.desc())).first()
    assert last.data == {"seat": 0, "round": 2, "n": 1}
    assert ann.get(f"standing-orders/{general['id']}").get_json()["uses"] == 0


def test_a_condition_the_decision_cannot_answer_keeps_the_order_quiet(ann, bob):
    _order(ann, match={"command_type": "add"}, unless=[{"path": "prompt_args.target", "eq": "$me"}],
           answer={"default": True})
    game_id = count_game(ann, bob)
    assert len(_owed(ann, game_id)) == 1


def test_malformed_or_forged_orders_are_refused_and_change_nothing(ann, bob, make_client, count_rows):
    game_id = count_game(ann, bob)
    bad = ann.post("standing-orders", json={"match": {"mode": "free", "colour": 1}, "answer": {"type": 7},
                                            "if": [{"path": "x"}]})
    error = assert_error(bad, 422, "invalid_standing_order")
    assert {"match.mode", "match.colour", "answer[0].type", "if[0].path"} <= set(error["details"]["fields"])
    assert_error(ann.post("standing-orders", json={"answer": {"default": True}}), 422)
    assert_error(ann.post("standing-orders", json={**ADD_TWO, "game_type": "chess"}), 422, "invalid_standing_order")
    assert_error(ann.post("standing-orders", json={**ADD_TWO, "game_id": game_id, "game_type": "pax"}), 422)
    cat = make_client("cat")
    assert_error(cat.post("standing-orders", json={**ADD_TWO, "game_id": game_id}), 403, "not_seated")
    assert_error(cat.post("standing-orders", json={**ADD_TWO, "game_id": "nosuchgame"}), 404)
    assert_error(ann.post("standing-orders", json={**ADD_TWO, "user_id": bob.user_id}), 422)
    assert count_rows(StandingOrder) == 0
    order = _order(ann, **ADD_TWO)
    assert_error(ann.request("PATCH", f"standing-orders/{order['id']}", json={"answer": {"type": ""}}), 422,
                 "invalid_standing_order")
    assert ann.get(f"standing-orders/{order['id']}").get_json()["answer"] == [{"type": "add", "args": {"n": 2}}]
    changed = ann.request("PATCH", f"standing-orders/{order['id']}", json={"if": [{"has_option": "add"}]})
    assert changed.status_code == 200 and changed.get_json()["if"] == [{"has_option": "add"}]
    assert changed.get_json()["match"] == {"command_type": ["add"], "mode": ["simultaneous"]}  # normal form
