"""Personal API tokens and who ``current_user`` says is asking."""

from __future__ import annotations

import datetime as dt
import hashlib

import pytest
from flask import g
from sqlalchemy import select

from service.identity import auth
from service.plumbing.db import ApiToken, User
from service.plumbing.errors import NotFound, Unauthorized


def test_a_token_is_shown_once_and_stored_hashed(session, make_user):
    ann = make_user("ann")
    row, raw = auth.create_api_token(session, ann, "my bot")
    assert raw.startswith("capua_") and len(raw) > 40
    stored = session.scalar(select(ApiToken).where(ApiToken.id == row.id))
    assert stored.token_hash == hashlib.sha256(raw.encode()).hexdigest()
    assert raw not in {stored.token_hash, stored.prefix, stored.name}
    assert raw.startswith(stored.prefix) and len(stored.prefix) <= 16
    assert (stored.name, stored.user_id, stored.revoked_at) == ("my bot", ann.id, None)


def test_tokens_are_listed_newest_first(session, make_user):
    ann, bob = make_user("ann"), make_user("bob")
    first, _ = auth.create_api_token(session, ann, "one")
    second, _ = auth.create_api_token(session, ann, "two")
    auth.create_api_token(session, bob, "bob's")
    assert [t.id for t in auth.list_api_tokens(session, ann)] == [second.id, first.id]


def test_user_for_token_finds_the_owner_and_marks_use(session, make_user):
    ann = make_user("ann")
    row, raw = auth.create_api_token(session, ann)
    assert row.last_used_at is None
    assert auth.user_for_token(session, raw).id == ann.id
    assert row.last_used_at is not None
    assert auth.user_for_token(session, raw + "x") is None
    assert auth.user_for_token(session, "capua_" + "A" * 43) is None


def test_revoking(session, make_user):
    ann, bob = make_user("ann"), make_user("bob")
    row, raw = auth.create_api_token(session, ann)
    with pytest.raises(NotFound):
        auth.revoke_api_token(session, bob, row.id)
    with pytest.raises(NotFound):
        auth.revoke_api_token(session, ann, row.id + 1000)
    assert auth.user_for_token(session, raw) is not None
    auth.revoke_api_token(session, ann, row.id)
    first = row.revoked_at
    assert first is not None
    assert auth.user_for_token(session, raw) is None
    auth.revoke_api_token(session, ann, row.id)
    assert row.revoked_at == first


@pytest.fixture
def ann_token(web_sessions):
    with web_sessions() as s:
        ann = auth.get_or_create_user(s, "ann@example.org")
        row, raw = auth.create_api_token(s, ann, "test")
        s.commit()
        return ann.id, row.id, raw


def who(app, headers=None):
    with app.test_request_context("/api/v1/me", headers=headers or {}):
        user = auth.current_user()
        return user.email if user is not None else None


def test_bearer_token_identifies_its_owner(app, ann_token, web_sessions):
    assert who(app, {"Authorization": f"Bearer {ann_token[2]}"}) == "ann@example.org"
    assert who(app, {"Authorization": f"bearer   {ann_token[2]}  "}) == "ann@example.org"
    with web_sessions() as s:
        assert s.get(ApiToken, ann_token[1]).last_used_at is not None, "the use is committed even on a read"


@pytest.mark.parametrize("header", [
    "", "Bearer", "Bearer ", "Basic YW5uOnNlY3JldA==", "Bearer capua_", "Bearer capua_short",
    "Bearer " + "capua_" + "A" * 5000, "Bearer not-a-capua-token", "Token capua_" + "A" * 43,
    "Bearer capua_AAAAAAAAAAAAAAAAAAAAAAAAAAAA\x00", "Bearer capua_ÄÖÜäöüßÄÖÜäöüßÄÖÜäöüß",
])
def test_a_bad_authorization_header_is_nobody_and_never_raises(app, ann_token, header):
    assert who(app, {"Authorization": header}) is None


def test_a_revoked_token_is_nobody(app, ann_token, web_sessions):
    with web_sessions() as s:
        auth.revoke_api_token(s, s.get(User, ann_token[0]), ann_token[1])
        s.commit()
    assert who(app, {"Authorization": f"Bearer {ann_token[2]}"}) is None


def test_an_authorization_header_overrides_the_cookie(app, client, sign_in):
    sign_in("bob@example.org")
    page = client.get("/", headers={"Authorization": "Bearer capua_" + "A" * 43})
    assert b"bob@example.org" not in page.data


def test_current_user_is_looked_up_once_per_request(app, ann_token, monkeypatch):
    calls = []
    original = auth.requester_for_token
    monkeypatch.setattr(auth, "requester_for_token",
                        lambda s, raw, **kw: calls.append(raw) or original(s, raw, **kw))
    with app.test_request_context("/", headers={"Authorization": f"Bearer {ann_token[2]}"}):
        assert auth.current_requester() is auth.current_requester()
        assert auth.current_user() is auth.current_user()
        assert g.capua_user.email == g.capua_requester.email == "ann@example.org"
        assert g.capua_user.id == g.capua_requester.id
    assert len(calls) == 1


def test_require_user(app, ann_token):
    with app.test_request_context("/"):
        with pytest.raises(Unauthorized) as err:
            auth.require_user()
        assert "WWW-Authenticate" in err.value.headers
    with app.test_request_context("/", headers={"Authorization": f"Bearer {ann_token[2]}"}):
        assert auth.require_user().email == "ann@example.org"


def test_use_is_written_at_most_once_a_minute(session, make_user):
    ann = make_user("ann")
    row, raw = auth.create_api_token(session, ann)
    auth.user_for_token(session, raw)
    first = row.last_used_at
    auth.user_for_token(session, raw)
    assert row.last_used_at == first
    row.last_used_at = first - dt.timedelta(minutes=2)
    auth.user_for_token(session, raw)
    assert row.last_used_at > first - dt.timedelta(minutes=2)
