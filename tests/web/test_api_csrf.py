"""A signed-in browser's cookie is no API credential for another site: a cookie-authenticated
mutating API call needs the session's CSRF header or a same-origin request, and a body that
is not JSON is refused even when it is empty (issue 14, item 2)."""

from __future__ import annotations

import pytest
from sqlalchemy import func, select

from service.identity import auth
from service.play import deadlines
from service.plumbing.db import ApiToken
from tests.web.support import sign_in_with

CROSS_SITE = [
    {"Origin": "https://evil.example", "Sec-Fetch-Site": "cross-site"},
    {"Origin": "https://evil.example"},
    {"Origin": "null"},
    {"Sec-Fetch-Site": "same-site"},
    {},
]


@pytest.fixture
def ann(app):
    client = app.test_client()
    sign_in_with(app, client, "ann@example.org")
    return client


def _tokens(web_sessions) -> int:
    with web_sessions() as s:
        return s.scalar(select(func.count(ApiToken.id)))


@pytest.mark.parametrize("headers", CROSS_SITE)
@pytest.mark.parametrize("body", [{"name": "stolen"}, {}])
def test_a_cross_site_form_cannot_create_a_token(ann, web_sessions, headers, body):
    before = _tokens(web_sessions)
    answer = ann.post("/api/v1/tokens", data=body, headers=headers)  # application/x-www-form-urlencoded
    assert answer.status_code == 403 and answer.get_json()["error"]["code"] == "csrf_failed"
    assert _tokens(web_sessions) == before


@pytest.mark.parametrize("headers", CROSS_SITE)
def test_a_cross_site_form_cannot_pause_a_game(ann, web_sessions, running_game, headers):
    answer = ann.post(f"/api/v1/games/{running_game}/pause", data={}, headers=headers)
    assert answer.status_code == 403 and answer.get_json()["error"]["code"] == "csrf_failed"
    with web_sessions() as s:
        assert not deadlines.clock_view(s, running_game)["paused"]


def test_a_text_plain_form_is_refused_too(ann, web_sessions):
    answer = ann.post("/api/v1/tokens", data='{"name": "x"}', content_type="text/plain",
                      headers={"Origin": "https://evil.example"})
    assert answer.status_code == 403
    assert _tokens(web_sessions) == 0


def test_capuas_own_pages_may_call_the_api_with_the_cookie(ann, running_game, web_sessions):
    with ann.session_transaction() as cookie:
        token = cookie["csrf_token"]
    assert ann.post("/api/v1/tokens", json={"name": "by header"}, headers={"X-CSRF-Token": token}).status_code == 201
    assert ann.post("/api/v1/tokens", json={"name": "fetch"}, headers={"Sec-Fetch-Site": "same-origin"}).status_code == 201
    assert ann.post(f"/api/v1/games/{running_game}/pause", json={},
                    headers={"Origin": "http://localhost"}).status_code == 200
    assert ann.post("/api/v1/tokens", json={"name": "x"}, headers={"X-CSRF-Token": "wrong"}).status_code == 403


def test_a_bearer_token_needs_no_csrf_proof(app, web_sessions):
    with web_sessions() as s:
        _row, raw = auth.create_api_token(s, auth.get_or_create_user(s, "cat@example.org"), "t")
        s.commit()
    answer = app.test_client().post("/api/v1/tokens", json={"name": "bot"}, headers={"Authorization": f"Bearer {raw}"})
    assert answer.status_code == 201


@pytest.mark.parametrize("content_type", ["application/x-www-form-urlencoded", "multipart/form-data; boundary=x",
                                          "text/plain"])
def test_an_empty_body_does_not_skip_the_content_type_check(app, web_sessions, running_game, content_type):
    with web_sessions() as s:
        _row, raw = auth.create_api_token(s, auth.get_or_create_user(s, "ann@example.org"), "t")
        s.commit()
    headers = {"Authorization": f"Bearer {raw}", "Content-Type": content_type}
    answer = app.test_client().post(f"/api/v1/games/{running_game}/pause", data=b"", headers=headers)
    assert answer.status_code == 415 and answer.get_json()["error"]["code"] == "unsupported_media_type"
    with web_sessions() as s:
        assert not deadlines.clock_view(s, running_game)["paused"]
    without = app.test_client().post(f"/api/v1/games/{running_game}/pause", headers={"Authorization": f"Bearer {raw}"})
    assert without.status_code == 200
