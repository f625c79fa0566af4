"""Fixtures of the service tests: the fake "count" game registered like a real one."""

from __future__ import annotations

import secrets

import pytest

from engine import registry
from service.plumbing.db import Game, utcnow
from tests.service import fake_game


@pytest.fixture(autouse=True)
def count_game(monkeypatch):
    """Registers :mod:`tests.service.fake_game` as game type ``"count"``."""
    monkeypatch.setitem(registry._GAMES, fake_game.NAME, "tests.service.fake_game:RULES")
    return fake_game.RULES


@pytest.fixture
def bare_game(session):
    """A running two-seat count game row with no events, for store-level tests."""

    def make(target: int = 1_000_000, seats: int = 2) -> Game:
        now = utcnow()
        game = Game(id=secrets.token_urlsafe(9), game_type=fake_game.NAME, title="t",
                    options={"target": target}, seat_count=seats, status="running", version=0,
                    rules_version=fake_game.RULES.rules_version, clock_hours=24, created_at=now, updated_at=now)
        session.add(game)
        session.flush()
        return game

    return make
