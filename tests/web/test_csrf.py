"""Every page form POST needs the session's CSRF token; the API takes bearer tokens (its cookie calls: test_api_csrf)."""

from __future__ import annotations

import pytest
from sqlalchemy import func, select

from service.plumbing.db import MailMessage
from tests.web.support import csrf_from, signed_in_email


@pytest.mark.parametrize("path, data", [
    ("/signin", {"email": "ann@example.org"}),
    ("/signout", {}),
    ("/auth/magic/anything", {}),
    ("/games/abc/act", {"version": "1", "command": "{}"}),
    ("/games/abc/join", {}),
])
@pytest.mark.parametrize("token", [None, "", "wrong"])
def test_page_posts_without_the_token_are_refused(client, web_sessions, path, data, token):
    client.get("/")  # a session with a CSRF token exists
    if token is not None:
        data = {**data, "csrf_token": token}
    answer = client.post(path, data=data)
    assert answer.status_code == 403
    assert b"csrf_failed" in answer.data
    with web_sessions() as s:
        assert s.scalar(select(func.count(MailMessage.id))) == 0


def test_a_token_from_another_session_is_refused(app, client):
    other = app.test_client()
    stolen = csrf_from(other.get("/signin").data)
    client.get("/signin")
    assert client.post("/signin", data={"email": "ann@example.org", "csrf_token": stolen}).status_code == 403


def test_a_post_without_any_session_is_refused(client):
    assert client.post("/signin", data={"email": "ann@example.org", "csrf_token": "x"}).status_code == 403


def test_signing_out_needs_the_token(client, sign_in):
    sign_in("ann@example.org")
    assert client.post("/signout").status_code == 403
    assert signed_in_email(client) == "ann@example.org"


def test_signing_in_renews_the_token(client, sign_in):
    before = csrf_from(client.get("/signin").data)
    sign_in("ann@example.org")
    assert csrf_from(client.get("/").data) != before


def test_api_posts_do_not_need_a_form_token(client):
    answer = client.post("/api/v1/auth/magic-link", json={"email": "ann@example.org"})
    assert answer.status_code != 403
