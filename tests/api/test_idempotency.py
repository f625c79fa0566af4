"""``Idempotency-Key``: a retry gets the first answer and changes nothing.

Token creation is the mutating request used here: each execution makes a new token
with a new secret, so "the same answer" and "one change" are both easy to see.  The
game commands' idempotency is covered with the games (``test_games.py``).
"""

from __future__ import annotations

import datetime as dt
import threading
import time

import pytest
from sqlalchemy import select

from service.identity import auth
from service.plumbing.db import ApiToken, IdempotencyKey
from service.inprocess import default_jobs, purge_idempotency_keys
from service.plumbing.idempotency import purge_expired
from service.plumbing import database
from tests.api.support import assert_error


def _tokens(app, user_id):
    with database.sessions(app)() as s:
        return list(s.scalars(select(ApiToken).where(ApiToken.user_id == user_id)))


def test_retry_with_the_same_key_replays_the_first_answer(ann, app):
    key = {"Idempotency-Key": "create-laptop-token-1"}
    first = ann.post("tokens", json={"name": "laptop"}, headers=key)
    again = ann.post("tokens", json={"name": "laptop"}, headers=key)
    assert first.status_code == again.status_code == 201
    assert again.get_json() == first.get_json()
    assert again.headers["Idempotent-Replayed"] == "true"
    assert "Idempotent-Replayed" not in first.headers
    assert again.headers["Location"] == first.headers["Location"]
    assert again.headers["Content-Type"] == "application/json"
    assert len(_tokens(app, ann.user_id)) == 2  # the fixture's and one "laptop"


def test_the_same_json_written_differently_is_the_same_request(ann, app):
    key = {"Idempotency-Key": "k", "Content-Type": "application/json"}
    first = ann.post("tokens", data='{"name": "a"}', headers=key)
    again = ann.post("tokens", data='{ "name" :"a" }\n', headers=key)
    assert again.headers.get("Idempotent-Replayed") == "true"
    assert again.get_json() == first.get_json()


def test_reusing_a_key_for_another_request_is_422(ann, app):
    key = {"Idempotency-Key": "reused"}
    assert ann.post("tokens", json={"name": "one"}, headers=key).status_code == 201
    assert_error(ann.post("tokens", json={"name": "two"}, headers=key), 422, "idempotency_key_reused")
    first_id = next(t.id for t in _tokens(app, ann.user_id) if t.name == "one")
    assert_error(ann.delete(f"tokens/{first_id}", headers=key), 422, "idempotency_key_reused")
    assert {t.name for t in _tokens(app, ann.user_id)} == {"one", "ann's test token"}
    assert all(t.revoked_at is None for t in _tokens(app, ann.user_id))


def test_keys_belong_to_their_user(ann, bob, app):
    key = {"Idempotency-Key": "shared-by-accident"}
    a = ann.post("tokens", json={"name": "x"}, headers=key)
    b = bob.post("tokens", json={"name": "x"}, headers=key)
    assert a.status_code == b.status_code == 201
    assert "Idempotent-Replayed" not in b.headers
    assert a.get_json()["token"] != b.get_json()["token"]


def test_a_refusal_is_not_stored_so_the_fixed_request_may_reuse_the_key(ann, app):
    key = {"Idempotency-Key": "fix-and-retry"}
    assert_error(ann.post("tokens", json={"name": "x" * 100}, headers=key), 422)
    fixed = ann.post("tokens", json={"name": "x"}, headers=key)
    assert fixed.status_code == 201 and "Idempotent-Replayed" not in fixed.headers


@pytest.mark.parametrize("key", ["", "x" * 256, "tab\there", "caf\u00e9", "nul\x00"])
def test_malformed_keys_are_422_and_change_nothing(ann, app, key):
    before = len(_tokens(app, ann.user_id))
    try:
        response = ann.post("tokens", json={"name": "k"}, headers={"Idempotency-Key": key})
    except ValueError:  # the test client itself refuses a NUL in a header: so would any server
        return
    assert_error(response, 422, "invalid_idempotency_key")
    assert len(_tokens(app, ann.user_id)) == before


def test_a_key_of_255_characters_is_fine(ann):
    assert ann.post("tokens", json={"name": "k"}, headers={"Idempotency-Key": "k" * 255}).status_code == 201


def _age_keys(app, hours):
    with database.sessions(app)() as s:
        for row in s.scalars(select(IdempotencyKey)):
            row.created_at = row.created_at - dt.timedelta(hours=hours)
        s.commit()


def test_an_expired_key_is_ignored_and_purged(ann, app):
    key = {"Idempotency-Key": "old"}
    first = ann.post("tokens", json={"name": "t"}, headers=key).get_json()
    _age_keys(app, 25)
    second = ann.post("tokens", json={"name": "t"}, headers=key)
    assert second.status_code == 201 and "Idempotent-Replayed" not in second.headers
    assert second.get_json()["token"] != first["token"]
    with database.sessions(app)() as s:
        assert len(list(s.scalars(select(IdempotencyKey)))) == 1


def test_purge_expired_deletes_only_old_keys(ann, bob, app):
    ann.post("tokens", json={"name": "t"}, headers={"Idempotency-Key": "a"})
    bob.post("tokens", json={"name": "t"}, headers={"Idempotency-Key": "b"})
    _age_keys(app, 23)
    ann.post("tokens", json={"name": "t"}, headers={"Idempotency-Key": "c"})
    config = app.extensions["capua.config"]
    with database.sessions(app)() as s:
        assert purge_expired(s, config, dt.datetime.now(dt.timezone.utc)) == 0
        assert purge_expired(s, config, dt.datetime.now(dt.timezone.utc) + dt.timedelta(hours=2)) == 2
        s.commit()
        assert [r.key for r in s.scalars(select(IdempotencyKey))] == ["c"]


def test_the_request_path_never_purges_and_the_workers_sweep_does(ann, app):
    """A request claims its key in one statement and deletes nothing; the sweep (both
    workers run it) deletes what has expired."""
    ann.post("tokens", json={"name": "t"}, headers={"Idempotency-Key": "old"})
    _age_keys(app, 25)
    ann.post("tokens", json={"name": "t"}, headers={"Idempotency-Key": "new"})
    sessions = database.sessions(app)
    with sessions() as s:
        assert sorted(r.key for r in s.scalars(select(IdempotencyKey))) == ["new", "old"]
    assert purge_idempotency_keys(sessions, app.extensions["capua.config"]) == 1
    with sessions() as s:
        assert [r.key for r in s.scalars(select(IdempotencyKey))] == ["new"]
    assert any(getattr(job, "job", None) is purge_idempotency_keys for job in default_jobs())
    from worker.celery_app import app as celery_app

    assert celery_app.conf.beat_schedule["purge-idempotency-keys"]["task"] == "worker.tasks.purge_idempotency_keys"


def test_concurrent_duplicates_make_one_change_and_get_one_answer(ann, app, monkeypatch):
    """Two identical requests racing: the loser waits for the winner's commit, then
    replays its answer; it never runs the change and never answers 500."""
    real_create = auth.create_api_token
    started = threading.Event()

    def slow_create(session, user, name):
        started.set()
        result = real_create(session, user, name)
        time.sleep(0.4)  # hold the transaction open while the duplicate arrives
        return result

    monkeypatch.setattr(auth, "create_api_token", slow_create)
    answers: dict[str, object] = {}

    def send(label):
        client = app.test_client()
        answers[label] = client.post("/api/v1/tokens", json={"name": "raced"},
                                     headers={"Authorization": f"Bearer {ann.token}", "Idempotency-Key": "race-1"})

    first = threading.Thread(target=send, args=("first",))
    first.start()
    assert started.wait(5)
    second = threading.Thread(target=send, args=("second",))
    second.start()
    first.join(30)
    second.join(30)
    a, b = answers["first"], answers["second"]
    assert a.status_code == b.status_code == 201, (a.get_data(), b.get_data())
    assert a.get_json() == b.get_json()
    assert b.headers.get("Idempotent-Replayed") == "true"
    assert [t.name for t in _tokens(app, ann.user_id)].count("raced") == 1
