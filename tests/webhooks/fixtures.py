"""Fixtures shared by the webhook, table-talk and standing-order tests: the API client
fixtures, the count game, a loopback webhook receiver, settings that let webhooks reach it
with a fast retry schedule and turn replies by mail on, and the worker helpers."""

from __future__ import annotations

from service.plumbing import database

import pytest

from engine import registry
from tests.api.conftest import ann, anonymous, bob, count_rows, event_count, make_client  # noqa: F401 (re-exported)
from tests.service import fake_game
from tests.webhooks.receiver import start_receiver


@pytest.fixture(autouse=True)
def count_game_registered(monkeypatch):
    """The fake "count" game of the service tests, registered like a real one."""
    monkeypatch.setitem(registry._GAMES, fake_game.NAME, "tests.service.fake_game:RULES")
    return fake_game.RULES


@pytest.fixture
def config_overrides(config_overrides) -> dict:
    return {**config_overrides, "rate_limit": "100000 per minute", "webhooks_allow_private": True,
            "webhook_retry_schedule": "1s,2s,3s", "inbound_mail_domain": "reply.capua.test",
            "inbound_mail_secret": "inbound-secret-for-tests"}


@pytest.fixture
def receiver():
    r = start_receiver()
    yield r
    r.server.shutdown()
    r.server.server_close()


@pytest.fixture
def sessions(app):
    return database.sessions(app)


@pytest.fixture
def app_config(app):
    return app.extensions["capua.config"]


@pytest.fixture
def stop_workers(app_config):
    """Stops any in-process worker a test started for the test database."""
    from service import inprocess

    yield
    inprocess.stop(app_config)


@pytest.fixture
def worker_runtime(monkeypatch, app_config, sessions):
    """The Celery tasks, run directly, on the test database."""
    from worker import tasks

    monkeypatch.setattr(tasks, "runtime", lambda: tasks.Runtime(config=app_config, sessions=sessions))


__all__ = ["ann", "anonymous", "bob", "count_rows", "event_count", "make_client", "count_game_registered",
           "config_overrides", "receiver", "sessions", "app_config", "stop_workers", "worker_runtime"]
