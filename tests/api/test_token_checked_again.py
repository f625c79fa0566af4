"""A token seen live is read again with a change's first statement (``identity.auth``), or
within the idempotency key's claim (a command with a key): a token revoked since, in this
process or another, is refused on the very next request and the request changes nothing,
whether it sent statements or none."""

from __future__ import annotations

import datetime as dt
import hashlib
import random
import time

import pytest
from sqlalchemy import func, select, update

from service.identity import auth
from service.plumbing import database
from service.plumbing.db import ApiToken, Game, IdempotencyKey, utcnow
from tests.api.players import blocking, choose, create_game
from tests.api.statement_counter import StatementCounter
from tests.api.support import assert_error


def _revoke_behind_the_process(app, user_id: int) -> None:
    """Revoke the user's tokens as another process would: in the database, nothing in
    this process told."""
    with database.sessions(app)() as s:
        s.execute(update(ApiToken).where(ApiToken.user_id == user_id).values(revoked_at=utcnow()))
        s.commit()


@pytest.mark.parametrize("idempotent", [True, False], ids=["with a key", "without"])
def test_a_token_revoked_since_its_last_change_is_refused_and_changes_nothing(app, ann, idempotent):
    game = create_game(ann, game_type="pax", seats=2, bot_seats=[1], my_seat=0)  # (a change: the token is seen)
    listing = ann.get(f"games/{game['id']}/decisions").get_json()
    command_type, args = choose(blocking(listing["decisions"])[0], random.Random(3))
    _revoke_behind_the_process(app, ann.user_id)
    refused = ann.post(f"games/{game['id']}/commands", idempotent=idempotent,
                       json={"type": command_type, "args": args, "expected_version": listing["version"]})
    assert_error(refused, 401, "unauthorized")
    with database.sessions(app)() as s:
        assert s.get(Game, game["id"]).version == listing["version"]


def test_a_revoked_token_is_refused_by_a_change_that_sends_no_statement(app, ann):
    create_game(ann, game_type="pax", seats=2, bot_seats=[1], my_seat=0)  # (a change: the token is seen)
    _revoke_behind_the_process(app, ann.user_id)
    refused = ann.post("games/nosuchgame/commands", data="not json", content_type="application/json",
                       idempotent=True)
    assert_error(refused, 401, "unauthorized")
    assert_error(ann.get("me"), 401, "unauthorized")


def _first_command(client, game_id: str) -> tuple[dict, dict]:
    """(the body of a command answering the first open decision, its answer when sent)."""
    listing = client.get(f"games/{game_id}/decisions").get_json()
    command_type, args = choose(blocking(listing["decisions"])[0], random.Random(3))
    body = {"type": command_type, "args": args, "expected_version": listing["version"]}
    answered = client.post(f"games/{game_id}/commands", json=body, idempotent=True)
    assert answered.status_code == 200, answered.get_json()
    return body, answered.get_json()


def _next_body(answer: dict) -> dict:
    command_type, args = choose(blocking(answer["decisions"])[0], random.Random(4))
    return {"type": command_type, "args": args, "expected_version": answer["version"]}


def _stored_keys(app) -> int:
    with database.sessions(app)() as s:
        return s.scalar(select(func.count()).select_from(IdempotencyKey))


def test_a_command_checks_a_token_seen_live_in_its_claim_and_one_revoked_since_is_refused(app, ann):
    game = create_game(ann, game_type="pax", seats=2, bot_seats=[1], my_seat=0)
    _body, answer = _first_command(ann, game["id"])
    with StatementCounter(database.engine(app)) as counted:
        answered = ann.post(f"games/{game['id']}/commands", json=_next_body(answer), idempotent=True)
    assert answered.status_code == 200, answered.get_json()
    reading_tokens = [sql for sql in counted.statements if "api_tokens" in sql]
    assert len(reading_tokens) == 1 and "idempotency_keys" in reading_tokens[0], counted.statements
    answer = answered.get_json()
    keys = _stored_keys(app)
    _revoke_behind_the_process(app, ann.user_id)
    refused = ann.post(f"games/{game['id']}/commands", json=_next_body(answer), idempotent=True)
    assert_error(refused, 401, "unauthorized")
    with database.sessions(app)() as s:
        assert s.get(Game, game["id"]).version == answer["version"]
    assert _stored_keys(app) == keys
    assert_error(ann.get("me"), 401, "unauthorized")


def test_a_retry_of_an_answered_key_is_refused_not_replayed_once_its_token_is_revoked(app, ann):
    game = create_game(ann, game_type="pax", seats=2, bot_seats=[1], my_seat=0)
    _body, answer = _first_command(ann, game["id"])
    body, key = _next_body(answer), {"Idempotency-Key": "the second command"}
    assert ann.post(f"games/{game['id']}/commands", json=body, headers=key).status_code == 200
    replayed = ann.post(f"games/{game['id']}/commands", json=body, headers=key)
    assert replayed.status_code == 200 and replayed.headers["Idempotent-Replayed"] == "true"
    _revoke_behind_the_process(app, ann.user_id)
    assert_error(ann.post(f"games/{game['id']}/commands", json=body, headers=key), 401, "unauthorized")


def test_a_revoked_token_with_a_malformed_key_is_refused_as_revoked(app, ann):
    game = create_game(ann, game_type="pax", seats=2, bot_seats=[1], my_seat=0)
    body, _answer = _first_command(ann, game["id"])
    _revoke_behind_the_process(app, ann.user_id)
    refused = ann.post(f"games/{game['id']}/commands", json=body, headers={"Idempotency-Key": "k" * 300})
    assert_error(refused, 401, "unauthorized")


def test_a_token_checked_in_claims_still_marks_its_use_once_a_minute(app, ann):
    game = create_game(ann, game_type="pax", seats=2, bot_seats=[1], my_seat=0)
    _body, answer = _first_command(ann, game["id"])
    token_hash = hashlib.sha256(ann.token.encode()).hexdigest()
    long_ago = utcnow() - dt.timedelta(minutes=2)

    def set_last_used(when):
        with database.sessions(app)() as s:
            s.execute(update(ApiToken).where(ApiToken.token_hash == token_hash).values(last_used_at=when))
            s.commit()

    def last_used():
        with database.sessions(app)() as s:
            return s.scalar(select(ApiToken.last_used_at).where(ApiToken.token_hash == token_hash))

    set_last_used(long_ago)  # (the process saw it used within the minute: not written yet)
    answered = ann.post(f"games/{game['id']}/commands", json=_next_body(answer), idempotent=True)
    assert answered.status_code == 200, answered.get_json()
    assert last_used() == long_ago
    found, _due = auth._SEEN[token_hash]
    auth._SEEN[token_hash] = (found, time.monotonic() - 1)  # a minute later, as the process tells time
    answered = ann.post(f"games/{game['id']}/commands", json=_next_body(answered.get_json()), idempotent=True)
    assert answered.status_code == 200, answered.get_json()
    assert last_used() > long_ago
