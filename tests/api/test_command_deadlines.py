"""The deadlines a command opens are handed to the worker after its commit, by row id.

On PostgreSQL those ids come back only with the COMMIT (the open decisions' upsert
travels with it: :func:`service.play.games.refresh_open_decisions`); they must still be
the ids of the rows written (and a change that is not committed hands nothing over:
``tests/api/test_lost_race.py``).
"""

from __future__ import annotations

import datetime as dt

import pytest
from sqlalchemy import select

from service.plumbing import database, dispatch
from service.plumbing.db import OpenDecision
from tests.api.players import blocking, create_game


class _Recording:
    """A dispatcher that keeps the deadlines handed to it."""

    def __init__(self) -> None:
        self.deadlines: list[tuple[int, dt.datetime]] = []

    def mail(self, config, ids) -> None:
        pass

    def webhooks(self, config, ids) -> None:
        pass

    def notifications(self, config, user_ids, deadlines) -> None:
        self.deadlines.extend(deadlines)

    def bots(self, config, game_ids) -> None:
        pass


@pytest.fixture
def handed(monkeypatch) -> _Recording:
    recording = _Recording()
    for mode in (dispatch.EMBEDDED, dispatch.CELERY):
        monkeypatch.setitem(dispatch._dispatchers, mode, recording)
    return recording


def _command(client, game_id: str) -> dict:
    listing = client.get(f"games/{game_id}/decisions").get_json()
    option = blocking(listing["decisions"])[0]["options"][0]
    return {"type": option["type"], "args": option["args"], "expected_version": listing["version"]}


def opened_at(app, game_id: str, version: int) -> set[tuple[int, dt.datetime]]:
    with database.sessions(app)() as s:
        return {(row_id, at) for row_id, at in s.execute(
            select(OpenDecision.id, OpenDecision.deadline_at).where(
                OpenDecision.game_id == game_id, OpenDecision.opened_version == version,
                OpenDecision.deadline_at.is_not(None)))}


def test_a_commands_new_deadlines_are_handed_over_with_their_row_ids(app, ann, handed):
    game = create_game(ann, game_type="pax", seats=2, bot_seats=[1])
    for _turn in range(3):
        handed.deadlines.clear()
        answer = ann.post(f"games/{game['id']}/commands", json=_command(ann, game["id"]), idempotent=True)
        assert answer.status_code == 200, answer.get_json()
        opened = opened_at(app, game["id"], answer.get_json()["version"])
        assert opened, "the command opened a decision with a deadline"
        assert set(handed.deadlines) == opened
        assert len(handed.deadlines) == len(opened)
