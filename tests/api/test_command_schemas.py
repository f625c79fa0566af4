"""The command's schemas take their short ways only where marshmallow would do the same.

:class:`CommandSchema` loads a plainly valid body without marshmallow and
:class:`CommandResultSchema` dumps through a compiled dumper; both must give exactly what
marshmallow gives (and every refusal stays marshmallow's).
"""

from __future__ import annotations

import datetime as dt

import pytest
from marshmallow import Schema, ValidationError

from engine import registry
from service.api.schemas import (
    MAX_INT64,
    CommandResultSchema,
    CommandSchema,
    DecisionSchema,
    compiled_dumper,
    plain_command,
)
from tests.bots.positions import advance_randomly

AT = dt.datetime(2026, 11, 28, 1, 2, 3, 456789, tzinfo=dt.timezone.utc)


def _answers() -> list[dict]:
    """Answers shaped as ``command_answer`` shapes them, from real decisions of every game."""
    out = []
    for game, seats in (("pax", 2), ("rom", 3), ("spartacus", 3)):
        rules = registry.get(game)
        for steps in (0, 7, 23):
            state = advance_randomly(game, seats, 17, steps)
            decisions = [{**d.to_json(), "deadline_at": AT if i % 2 else None, "version": steps}
                         for i, d in enumerate(rules.pending(state).decisions)]
            out.append({"version": steps, "decisions": decisions, "outcome": None,
                        "events": [{"seq": 1, "type": "T", "data": {"a": [1, {"b": None}]}, "at": AT},
                                   {"seq": 2, "type": "U", "data": {}, "at": None}]})
    out.append({"version": 3, "events": [], "decisions": [], "outcome": {"winner": 1}})
    out.append({"version": 4, "events": [], "decisions": [None, {"id": "x", "seat": 0}]})  # keys left out
    return out


@pytest.mark.parametrize("answer", _answers())
def test_the_compiled_dump_is_marshmallows(answer):
    schema = CommandResultSchema()
    assert schema.dump(answer) == Schema.dump(schema, answer)


def test_every_field_type_of_the_answer_is_compiled():
    assert compiled_dumper(CommandResultSchema) is not None
    assert compiled_dumper(DecisionSchema) is not None


BODIES = [
    {"type": "play", "args": {"card": 3}, "expected_version": 7},
    {"type": "play"},
    {"type": "play", "args": {}, "expected_version": None, "seat": None},
    {"type": "p" * 64, "args": {"k" * 64: [1]}, "expected_version": MAX_INT64, "seat": 15},
    {"type": "play", "expected_version": 0, "seat": 0},
    # refused, each by marshmallow in its own words
    {"type": ""}, {"type": "p" * 65}, {"type": 3}, {}, {"args": {}},
    {"type": "play", "args": {"k" * 65: 1}}, {"type": "play", "args": []}, {"type": "play", "args": None},
    {"type": "play", "expected_version": -1}, {"type": "play", "expected_version": True},
    {"type": "play", "expected_version": 1.0}, {"type": "play", "expected_version": "3"},
    {"type": "play", "expected_version": MAX_INT64 + 1}, {"type": "play", "seat": 16},
    {"type": "play", "seat": False}, {"type": "play", "extra": 1}, [], "play", None,
]


@pytest.mark.parametrize("body", BODIES)
def test_a_command_body_loads_as_marshmallow_loads_it(body):
    schema = CommandSchema()
    try:
        expected = Schema.load(schema, body)
    except ValidationError as err:
        assert plain_command(body) is None
        with pytest.raises(ValidationError) as again:
            schema.load(body)
        assert again.value.messages == err.messages
    else:
        assert schema.load(body) == expected
        assert plain_command(body) == expected


def _owed_body(ann, game_id: str) -> dict:
    listing = ann.get(f"games/{game_id}/decisions").get_json()
    owed = [d for d in listing["decisions"] if d["mode"] != "free"][0]
    choice = owed["options"][0] if owed.get("options") else owed["default"]
    return {"type": choice["type"], "args": choice["args"], "expected_version": listing["version"]}


def test_a_plain_command_takes_the_short_way_and_answers_as_the_schemas_would(ann, monkeypatch):
    """The command route serves a plainly valid body without webargs (its parser is never
    asked), and its answer is encoded as the app's JSON encodes every answer."""
    from flask import json as flask_json

    from service.api.body import JsonBodyParser
    from tests.api.players import create_game

    game = create_game(ann, game_type="pax", seats=2, bot_seats=[1], my_seat=0)
    body = _owed_body(ann, game["id"])

    def not_asked(*args, **kwargs):
        raise AssertionError("the plain path went through webargs")

    monkeypatch.setattr(JsonBodyParser, "parse", not_asked)
    response = ann.post(f"games/{game['id']}/commands", json=body, idempotent=True)
    assert response.status_code == 200, response.get_json()
    answer = response.get_json()
    assert set(answer) <= {"version", "events", "decisions", "outcome"}
    assert response.headers["ETag"] == f'"{answer["version"]}"'
    assert response.mimetype == "application/json"
    with ann.flask_client.application.app_context():
        expected = flask_json.jsonify(answer).get_data(as_text=True)
    assert response.get_data(as_text=True) == expected


@pytest.mark.parametrize("body", [{"type": "play", "extra": 1}, {"type": "play", "expected_version": "3"}, {}])
def test_a_command_body_the_plain_path_does_not_take_is_refused_by_marshmallow(ann, body):
    from tests.api.players import create_game
    from tests.api.support import assert_error

    game = create_game(ann, game_type="pax", seats=2, bot_seats=[1], my_seat=0)
    refused = ann.post(f"games/{game['id']}/commands", json=body, idempotent=True)
    error = assert_error(refused, 422, "invalid_input")
    with pytest.raises(ValidationError) as marshmallows:
        Schema.load(CommandSchema(), body)
    assert error["details"]["fields"]["json"] == marshmallows.value.messages
