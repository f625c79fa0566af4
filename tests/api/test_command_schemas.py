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
