"""Who may call what: tokens, ``/me``, sign-in links, and 401 for everyone else."""

from __future__ import annotations

import pytest
from sqlalchemy import select

from service.plumbing.db import ApiToken, MailMessage
from service.plumbing import database
from tests.api.support import assert_error

SIGNED_IN_ONLY = [
    ("GET", "games"),
    ("POST", "games"),
    ("GET", "games/abc123"),
    ("POST", "games/abc123/join"),
    ("GET", "games/abc123/decisions"),
    ("POST", "games/abc123/commands"),
    ("GET", "games/abc123/events"),
    ("GET", "games/abc123/states/0"),
    ("GET", "tokens"),
    ("POST", "tokens"),
    ("DELETE", "tokens/1"),
    ("GET", "me"),
]


@pytest.mark.parametrize("method,path", SIGNED_IN_ONLY)
def test_anonymous_requests_get_401_before_any_validation(anonymous, method, path):
    response = anonymous.request(method, path, json={"junk": [1, 2, 3]})
    assert_error(response, 401, "unauthorized")
    assert response.headers["WWW-Authenticate"].startswith("Bearer")


@pytest.mark.parametrize("header", [
    "Bearer capua_thisTokenWasNeverIssuedByAnyoneAtAll",
    "Bearer not-even-a-capua-token",
    "Bearer ",
    "Basic YW5uOnNlY3JldA==",
    "capua_bare",
    "Bearer capua_" + "A" * 5000,
    "Bearer capua_\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9",
])
def test_bad_tokens_are_401(anonymous, header):
    response = anonymous.get("me", headers={"Authorization": header})
    assert_error(response, 401, "unauthorized")


def test_public_endpoints_ignore_a_bad_token(anonymous):
    response = anonymous.get("/api/v1/openapi.json", headers={"Authorization": "Bearer capua_nope"})
    assert response.status_code == 200


def test_me(ann):
    response = ann.get("me")
    assert response.status_code == 200
    body = response.get_json()
    assert body["email"] == "ann@example.org"
    assert body["id"] == ann.user_id
    assert body["display_name"] == "Ann"


def test_token_lifecycle(ann, app):
    created = ann.post("tokens", json={"name": "laptop"}, idempotent=True)
    assert created.status_code == 201
    body = created.get_json()
    raw = body["token"]
    assert raw.startswith("capua_") and body["prefix"] == raw[: len(body["prefix"])]
    assert created.headers["Location"].endswith("/api/v1/tokens")
    assert created.headers["Cache-Control"] == "no-store"

    listed = ann.get("tokens").get_json()["tokens"]
    assert {t["name"] for t in listed} == {"laptop", "ann's test token"}
    assert all("token" not in t for t in listed), "a listing must never show a raw token"

    ann.token = raw
    assert ann.get("me").status_code == 200
    revoked = ann.delete(f"tokens/{body['id']}", idempotent=True)
    assert revoked.status_code == 204
    assert_error(ann.get("me"), 401, "unauthorized")


def test_revoking_twice_is_fine_and_the_date_stays(ann, app):
    token_id = ann.post("tokens", json={"name": "t"}).get_json()["id"]
    assert ann.delete(f"tokens/{token_id}").status_code == 204
    first = next(t for t in ann.get("tokens").get_json()["tokens"] if t["id"] == token_id)["revoked_at"]
    assert ann.delete(f"tokens/{token_id}").status_code == 204
    second = next(t for t in ann.get("tokens").get_json()["tokens"] if t["id"] == token_id)["revoked_at"]
    assert first == second is not None


def test_another_users_token_is_not_found(ann, bob, app):
    token_id = bob.post("tokens", json={"name": "bob's"}).get_json()["id"]
    assert_error(ann.delete(f"tokens/{token_id}"), 404)
    with database.sessions(app)() as s:
        assert s.get(ApiToken, token_id).revoked_at is None


@pytest.mark.parametrize("token_id", ["0", "-1", "99999999999999999999999", "1.5", "abc", "..%2F..%2Fetc",
                                      "%00", "1%20OR%201=1"])
def test_odd_token_ids_are_404(ann, token_id):
    assert_error(ann.delete(f"tokens/{token_id}"), 404)


def test_token_name_too_long_is_422(ann):
    assert_error(ann.post("tokens", json={"name": "x" * 81}), 422, "invalid_input")


def _signin_mails(app, address):
    with database.sessions(app)() as s:
        return list(s.scalars(select(MailMessage).where(MailMessage.to_address == address)))


def test_magic_link_answers_the_same_for_known_and_unknown_addresses(anonymous, ann, app):
    known = anonymous.post("auth/magic-link", json={"email": "ann@example.org"})
    unknown = anonymous.post("auth/magic-link", json={"email": "Nobody.Yet@Example.org"})
    assert known.status_code == unknown.status_code == 202
    assert known.get_json() == unknown.get_json()
    assert len(_signin_mails(app, "ann@example.org")) == 1
    assert len(_signin_mails(app, "nobody.yet@example.org")) == 1


def test_magic_link_throttled_address_still_answers_the_same(anonymous, app):
    answers = {anonymous.post("auth/magic-link", json={"email": "flood@example.org"}).get_data() for _ in range(8)}
    assert len(answers) == 1
    assert len(_signin_mails(app, "flood@example.org")) < 8


def test_magic_link_with_foreign_next_url_still_links_home(anonymous, app):
    response = anonymous.post("auth/magic-link", json={"email": "eve@example.org", "next": "https://evil.example/"})
    assert response.status_code == 202
    (message,) = _signin_mails(app, "eve@example.org")
    assert "evil.example" not in message.text_body


@pytest.mark.parametrize("body", [{"email": "not an address"}, {"email": ""}, {}, {"email": ["a@b.org"]},
                                  {"email": "a@b.org", "extra": 1}])
def test_magic_link_refuses_malformed_requests(anonymous, body):
    assert_error(anonymous.post("auth/magic-link", json=body), 422)


def test_magic_link_speaks_a_new_address_in_the_asking_clients_language(anonymous, ann, app):
    anonymous.post("auth/magic-link", json={"email": "neu@example.org"}, headers={"Accept-Language": "de-DE,de"})
    anonymous.post("auth/magic-link", json={"email": "ann@example.org"}, headers={"Accept-Language": "ru"})
    (new,) = _signin_mails(app, "neu@example.org")
    assert new.subject == "Dein Anmeldelink für Capua" and "Öffne diesen Link" in new.text_body
    (known,) = _signin_mails(app, "ann@example.org")
    assert known.subject == "Your Capua sign-in link", "a known player's own setting, not the client's header"
