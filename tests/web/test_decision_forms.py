"""Decisions become forms generically: a schema's fields are drawn and read back typed."""

from __future__ import annotations

import pytest
from werkzeug.datastructures import MultiDict

from service.plumbing.errors import InvalidInput
from service.web import pages

SCHEMA = {
    "type": "object",
    "properties": {
        "amount": {"type": "integer", "minimum": 0, "maximum": 9},
        "secret": {"type": "boolean"},
        "house": {"type": "string", "enum": ["batiatus", "glaber"]},
        "note": {"type": "string"},
        "cards": {"type": "array", "items": {"enum": ["c1", "c2", "c3"]}, "uniqueItems": True, "maxItems": 2},
        "target": {"enum": [1, 2]},
        "extra": {"type": "array", "items": {"type": "integer"}},
    },
    "required": ["amount", "house"],
}
CARDS = {"c1": {"id": "c1", "category": "army", "name": "Legio I"}}


def fields(defaults=None):
    return {f["name"]: f for f in pages._schema_fields(SCHEMA, defaults or {}, CARDS)}


def test_each_argument_gets_a_field_of_its_kind():
    f = fields({"amount": 3, "cards": ["c1"]})
    assert {name: field["kind"] for name, field in f.items()} == {
        "amount": "integer", "secret": "boolean", "house": "select", "note": "string", "cards": "multi",
        "target": "select", "extra": "json"}
    assert (f["amount"]["min"], f["amount"]["max"], f["amount"]["value"], f["amount"]["required"]) == (0, 9, 3, True)
    assert f["cards"]["choices"][0] == ('"c1"', "Legio I"), "card ids are shown by name"
    assert f["cards"]["chosen"] == {'"c1"'}


def test_a_filled_form_reads_back_typed():
    form = MultiDict([("arg.amount", "4"), ("arg.secret", "1"), ("arg.house", '"glaber"'), ("arg.note", "hi"),
                      ("arg.cards", '"c1"'), ("arg.cards", '"c3"'), ("arg.target", "2"), ("arg.extra", "[1, 2]")])
    assert pages._args_from_form(pages._schema_fields(SCHEMA, {}, {}), form) == {
        "amount": 4, "secret": True, "house": "glaber", "note": "hi", "cards": ["c1", "c3"], "target": 2,
        "extra": [1, 2]}


def test_empty_fields_are_left_out_and_unchecked_boxes_are_false():
    assert pages._args_from_form(pages._schema_fields(SCHEMA, {}, {}), MultiDict()) == {"secret": False, "cards": []}


@pytest.mark.parametrize("form", [{"arg.amount": "four"}, {"arg.extra": "[1,"}, {"arg.house": "glaber"}])
def test_unreadable_values_are_explained(form):
    with pytest.raises(InvalidInput) as err:
        pages._args_from_form(pages._schema_fields(SCHEMA, {}, {}), MultiDict(form))
    assert err.value.code == "bad_form"


def test_a_schema_that_is_not_an_object_is_one_json_field():
    only = pages._schema_fields({"type": "array", "items": {"type": "integer"}}, {}, {})
    assert [f["kind"] for f in only] == ["json"]
    assert pages._args_from_form(only, MultiDict({"arg.__json__": "[1, 2]"})) == [1, 2]


def test_option_labels_name_the_visible_cards():
    decision = {"id": "d", "prompt": "Sell?", "version": 3,
                "options": [{"type": "sell_cards", "args": {"cards": ["c1", "c9"]}}]}
    form = pages._decision_form(decision, None, {"c1": "Legio I"}, {}, "en", "UTC")
    assert [o["label"] for o in form["options"]] == ["Sell cards — cards: Legio I, c9"]
