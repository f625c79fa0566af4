"""One bounded JSON reader for everything a client sends, and no NUL in a query or a form
(issue 14, item 4): deep, huge or unstorable JSON is a clear 4xx on every page and API
call that reads JSON, never a ``RecursionError`` 500, and nothing changes."""

from __future__ import annotations

import json

import pytest
from sqlalchemy import func, select

from service import demo
from service.identity import auth
from service.plumbing.db import StandingOrder, StoredEvent
from service.plumbing.errors import InvalidInput
from service.plumbing.json_input import MAX_BYTES, MAX_DEPTH, BadJson, TooLarge, read_json
from service.web import schema_forms
from tests.web.support import csrf_from, sign_in_with

DEEP = ["[" * 100_000, "[" * 100_000 + "]" * 100_000, '{"a": ' * 2_000 + "1" + "}" * 2_000,
        json.dumps({"type": "pass", "args": {"x": json.loads("[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1))}})]


@pytest.mark.parametrize("text", DEEP)
def test_deep_json_is_refused_before_it_is_parsed(text):
    with pytest.raises(InvalidInput) as refused:
        read_json(text)
    assert refused.value.code == "too_deep" and refused.value.status == 422


def test_brackets_inside_strings_are_text():
    assert read_json(json.dumps({"note": "[" * 1_000 + '\\"{' * 100})) == {"note": "[" * 1_000 + '\\"{' * 100}
    nested = "[" * MAX_DEPTH + "]" * MAX_DEPTH
    assert read_json(nested) == json.loads(nested)


@pytest.mark.parametrize("text, error", [
    ("{", BadJson), ("NaN", BadJson), ('{"a": Infinity}', BadJson), (b"\xff", BadJson),
    ('"a\\u0000b"', InvalidInput), ('{"a\\u0000": 1}', InvalidInput), ('"\\ud800"', InvalidInput),
    (" " * (MAX_BYTES + 1), TooLarge),
])
def test_unreadable_unstorable_and_huge_json(text, error):
    with pytest.raises(error):
        read_json(text)


def test_a_json_field_of_a_schema_form_is_read_the_same_way():
    fields = [{"name": "x", "label": "X", "kind": "json"}]
    assert schema_forms.values_from_form(fields, {"arg.x": "[1, 2]"}) == {"x": [1, 2]}
    for text in ("[" * 100_000, '"\\u0000"'):
        with pytest.raises(InvalidInput):
            schema_forms.values_from_form(fields, {"arg.x": text})


@pytest.fixture
def player(app, demo_game):
    client = app.test_client()
    sign_in_with(app, client, demo.DEMO_EMAIL)
    return client


def _events(web_sessions) -> int:
    with web_sessions() as s:
        return s.scalar(select(func.count()).select_from(StoredEvent))


@pytest.mark.parametrize("command", DEEP + ['{"type": "pass\\u0000", "args": {}}'])
def test_the_confirm_page_of_a_choice(player, demo_game, command):
    answer = player.get(f"/games/{demo_game}/choose", query_string={"command": command, "version": "1"})
    assert answer.status_code == 400


@pytest.mark.parametrize("command", DEEP + ['{"type": "pass\\u0000", "args": {}}'])
def test_the_answer_form_of_a_game(player, demo_game, web_sessions, command):
    before = _events(web_sessions)
    token = csrf_from(player.get(f"/games/{demo_game}").data)
    answer = player.post(f"/games/{demo_game}/act", data={"csrf_token": token, "version": "1", "command": command})
    assert 400 <= answer.status_code < 500
    assert _events(web_sessions) == before


@pytest.mark.parametrize("rule", DEEP + ['{"when": "\\u0000"}'])
def test_the_standing_order_form(player, web_sessions, rule):
    token = csrf_from(player.get("/settings/standing-orders").data)
    answer = player.post("/settings/standing-orders", data={"csrf_token": token, "rule": rule, "name": "deep"})
    assert answer.status_code in (413, 422)
    with web_sessions() as s:
        assert s.scalar(select(func.count()).select_from(StandingOrder)) == 0


@pytest.mark.parametrize("path", ["/api/v1/standing-orders?game_id=a%00b", "/api/v1/games?status=%00",
                                  "/api/v1/games/types?a%00=1", "/games?x=%00", "/rules?lang=de%00"])
def test_a_nul_in_any_query_parameter_is_400(app, web_sessions, path):
    with web_sessions() as s:
        _row, raw = auth.create_api_token(s, auth.get_or_create_user(s, "ann@example.org"), "t")
        s.commit()
    answer = app.test_client().get(path, headers={"Authorization": f"Bearer {raw}"})
    assert answer.status_code == 400


def test_a_nul_in_a_form_field_is_400_and_changes_nothing(player, web_sessions):
    token = csrf_from(player.get("/settings").data)
    answer = player.post("/settings", data={"csrf_token": token, "display_name": "Ann\x00"})
    assert answer.status_code == 400
    with web_sessions() as s:
        assert "\x00" not in (auth.get_or_create_user(s, demo.DEMO_EMAIL).display_name or "")


def test_api_bodies_use_the_same_reader(app, web_sessions):
    with web_sessions() as s:
        _row, raw = auth.create_api_token(s, auth.get_or_create_user(s, "ann@example.org"), "t")
        s.commit()
    client = app.test_client()
    headers = {"Authorization": f"Bearer {raw}", "Content-Type": "application/json"}
    assert client.post("/api/v1/standing-orders", data="[" * 100_000, headers=headers).status_code == 422
    assert client.post("/api/v1/standing-orders", data=" " * (MAX_BYTES + 1), headers=headers).status_code == 413
