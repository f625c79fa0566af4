"""What a notification row says of one decision (:func:`decision_payload`): its fields in
their order, the cards its options name and the named answers it offers, whichever of
them a decision has."""

from __future__ import annotations

import datetime as dt
import json

from service.notify.notifications import cards_named_by, decision_payload

DEADLINE = dt.datetime(2026, 11, 28, 15, 0, tzinfo=dt.timezone.utc)

TAKE = {
    "id": "assign:3", "seat": 0, "mode": "blocking", "prompt": "Assign", "prompt_key": "assign",
    "prompt_args": {}, "context": {}, "command_type": "AssignCard", "default": {"type": "AssignCard", "args": {}},
    "options": [{"type": "AssignCard", "args": {"card": "c12", "to": "hand"}},
                {"type": "AssignCard", "args": {"card": 7, "push": "c3"}},
                {"type": "AssignCard", "args": {}}, {"type": "Pass"}],
}
PLAN = {
    "id": "fight_plan:1", "seat": 1, "mode": "free", "prompt": "Plan", "prompt_key": "fight_plan",
    "context": {"presets": {"close_in": {"stance": "close"}, "broken": "not a mapping"}},
    "command_type": "SetFightPlan", "schema": {"type": "object"}, "default": {"type": "SetFightPlan", "args": {}},
}


def test_a_decisions_options_name_their_cards_and_pushed_cards_as_text():
    assert cards_named_by(TAKE) == {"c12", "7", "c3"}
    assert cards_named_by(PLAN) == set()


def test_a_decision_is_told_with_the_cards_its_options_name_in_a_fixed_order():
    payload = decision_payload(TAKE, {"c12": "Ostia", "c3": "Ravenna", "c99": "Hidden"}, DEADLINE,
                               {"keys": ["pass"]})
    assert json.dumps(payload) == json.dumps({
        "id": "assign:3", "mode": "blocking", "prompt": "Assign", "prompt_key": "assign", "prompt_args": {},
        "command_type": "AssignCard", "options": TAKE["options"], "schema": None, "default": TAKE["default"],
        "deadline_at": "2026-11-28T15:00:00+00:00", "cards": {"c12": "Ostia", "c3": "Ravenna"}, "answers": [],
        "presets": {"keys": ["pass"]},
    })
    assert decision_payload(TAKE, {"c12": "Ostia"}, None, referenced={"c12"}) == {
        **payload, "deadline_at": None, "cards": {"c12": "Ostia"}, "presets": None}
    assert decision_payload(TAKE, {}, None)["cards"] == {}


def test_a_decisions_named_answers_ride_along_as_commands():
    payload = decision_payload(PLAN, {}, None)
    assert payload["answers"] == [{"key": "close_in", "command": {"type": "SetFightPlan", "args": {"stance": "close"}}}]
    assert payload["prompt_args"] == {} and payload["options"] is None and payload["schema"] == {"type": "object"}
    assert decision_payload({**PLAN, "context": None}, {}, None)["answers"] == []
