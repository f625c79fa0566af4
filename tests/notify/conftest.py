"""Fixtures of the notification tests: a real SMTP server on loopback and an app that
sends its mail there, with no coalescing delay so every step can be observed."""

from __future__ import annotations

import pytest

from engine import registry
from service import inprocess
from service.plumbing import database
from tests.notify.sink import smtp_settings, smtp_sink  # noqa: F401 (the fixture)
from tests.service import fake_game


@pytest.fixture
def config_overrides(config_overrides, smtp_sink) -> dict:
    return {**config_overrides, **smtp_settings(smtp_sink), "notify_coalesce_seconds": 0,
            "rate_limit": "100000 per minute"}


@pytest.fixture(autouse=True)
def count_game(monkeypatch):
    """Registers the service tests' fake "count" game (a fast game with every kind of decision)."""
    monkeypatch.setitem(registry._GAMES, fake_game.NAME, "tests.service.fake_game:RULES")
    return fake_game.RULES


@pytest.fixture
def sessions(app):
    return database.sessions(app)


@pytest.fixture
def cfg(app):
    return app.extensions["capua.config"]


@pytest.fixture
def stop_workers(cfg):
    yield
    inprocess.stop(cfg)
