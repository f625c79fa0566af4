"""Every refusal has the one error shape, whatever produced it, and none is a 500."""

from __future__ import annotations

import json

import pytest

from engine.core.errors import IllegalCommand
from service.plumbing.errors import StaleVersion
from tests.api.support import assert_error


def test_unknown_api_route_is_json_404(ann):
    assert_error(ann.get("/api/v1/nothing-here"), 404, "not_found")
    assert_error(ann.get("/api/v2/games"), 404, "not_found")


def test_unknown_page_is_html_not_json(anonymous):
    response = anonymous.get("/no-such-page-anywhere")
    assert response.status_code == 404
    assert response.mimetype == "text/html"


def test_wrong_method_is_405_with_allow(ann):
    response = ann.request("PUT", "games")
    error = assert_error(response, 405, "method_not_allowed")
    assert "GET" in response.headers["Allow"] and "POST" in response.headers["Allow"]
    assert "POST" in error["details"]["allowed"]


def test_huge_body_is_413(ann, event_count):
    response = ann.post("tokens", data=b"{" + b" " * (300 * 1024) + b"}",
                        headers={"Content-Type": "application/json"})
    error = assert_error(response, 413, "payload_too_large")
    assert error["details"]["max_bytes"] == 256 * 1024


@pytest.mark.parametrize("content_type", ["text/plain", "application/x-www-form-urlencoded", "application/xml"])
def test_wrong_content_type_is_415(ann, content_type):
    response = ann.post("tokens", data=json.dumps({"name": "x"}), headers={"Content-Type": content_type})
    assert_error(response, 415, "unsupported_media_type")


def test_json_suffix_content_type_is_accepted(ann):
    response = ann.post("tokens", data=json.dumps({"name": "x"}),
                        headers={"Content-Type": "application/merge-patch+json"})
    assert response.status_code == 201


@pytest.mark.parametrize("body", [b"{", b"{'name': 'x'}", b"\xff\xfe\x00", b'{"name": NaN}',
                                  b'{"name": Infinity}', b"\xef\xbb\xbf{}"])
def test_unreadable_json_is_400_bad_json(ann, body):
    response = ann.post("tokens", data=body, headers={"Content-Type": "application/json"})
    assert_error(response, 400, "bad_json")


def test_json_nested_too_deep_is_422(ann):
    body = {"name": "x"}
    nested: dict = {}
    cursor = nested
    for _ in range(40):
        cursor["a"] = {}
        cursor = cursor["a"]
    body["extra"] = nested
    assert_error(ann.post("tokens", json=body), 422, "too_deep")
    unbalanced = ann.post("tokens", data=b"[" * 100_000, headers={"Content-Type": "application/json"})
    assert_error(unbalanced, 422, "too_deep")


@pytest.mark.parametrize("text", ["a\u0000b", "\ud800", "ok\udfffok"])
def test_text_that_cannot_be_stored_is_422(ann, text):
    raw = json.dumps({"name": text})  # escapes lone surrogates and NUL as \uXXXX
    response = ann.post("tokens", data=raw, headers={"Content-Type": "application/json"})
    assert_error(response, 422, "invalid_text")


def test_json_array_instead_of_object_is_422(ann):
    error = assert_error(ann.post("tokens", json=[{"name": "x"}]), 422, "invalid_input")
    assert "json" in error["details"]["fields"]


def test_unknown_field_is_422_naming_it(ann):
    error = assert_error(ann.post("tokens", json={"name": "x", "admin": True}), 422, "invalid_input")
    assert "admin" in error["details"]["fields"]["json"]


def test_wrong_type_is_422_naming_the_field(ann):
    error = assert_error(ann.post("tokens", json={"name": 12}), 422, "invalid_input")
    assert "name" in error["details"]["fields"]["json"]


def test_unicode_junk_in_valid_text_is_fine(ann):
    response = ann.post("tokens", json={"name": "☃ Ĉapua 🎲 \u202e"})
    assert response.status_code == 201
    assert response.get_json()["name"] == "☃ Ĉapua 🎲 \u202e"


def test_errors_are_not_cached(ann):
    assert ann.get("/api/v1/nothing").headers["Cache-Control"] == "no-store"


@pytest.fixture
def app_with_failing_routes(app):
    """Routes that fail in each way a service function can, added before any request."""

    def boom():
        raise RuntimeError("secret internals: password=hunter2")

    def rule():
        raise IllegalCommand("that card cannot be played now")

    def stale():
        raise StaleVersion("the game is at version 7, not 6", details={"current_version": 7})

    app.add_url_rule("/api/v1/_test/boom", "test_boom", boom)
    app.add_url_rule("/api/v1/_test/rule", "test_rule", rule)
    app.add_url_rule("/api/v1/_test/stale", "test_stale", stale)
    app.add_url_rule("/_test/boom", "test_page_boom", boom)
    return app


def test_unexpected_exception_is_500_revealing_nothing(app_with_failing_routes, caplog):
    client = app_with_failing_routes.test_client()
    response = client.get("/api/v1/_test/boom")
    error = assert_error(response, 500, "internal_error")
    text = response.get_data(as_text=True)
    assert "hunter2" not in text and "RuntimeError" not in text and "Traceback" not in text
    incident = error["details"]["incident"]
    assert any(incident in record.getMessage() for record in caplog.records)
    assert any(record.exc_info for record in caplog.records)


def test_unexpected_exception_on_a_page_is_an_html_500(app_with_failing_routes):
    response = app_with_failing_routes.test_client().get("/_test/boom")
    assert response.status_code == 500
    assert response.mimetype == "text/html"
    assert "hunter2" not in response.get_data(as_text=True)


def test_rule_violation_is_409_with_its_code(app_with_failing_routes):
    error = assert_error(app_with_failing_routes.test_client().get("/api/v1/_test/rule"), 409, "illegal_command")
    assert error["message"] == "that card cannot be played now"


def test_service_error_keeps_its_status_code_and_details(app_with_failing_routes):
    response = app_with_failing_routes.test_client().get("/api/v1/_test/stale")
    error = assert_error(response, 412, "stale_version")
    assert error["details"] == {"current_version": 7}
