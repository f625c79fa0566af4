"""A token seen live is read again with a change's first statement (``identity.auth``): a
token revoked since, in this process or another, is refused on the very next request and
the request changes nothing, whether it sent statements or none."""

from __future__ import annotations

import random

import pytest
from sqlalchemy import update

from service.plumbing import database
from service.plumbing.db import ApiToken, Game, utcnow
from tests.api.players import blocking, choose, create_game
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
