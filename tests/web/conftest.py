"""Fixtures of the web tests: a browser-like client and the sign-in flow.

The app, database and settings fixtures come from ``tests/conftest.py``.
"""

from __future__ import annotations

import pytest

from engine import registry
from service import demo, inprocess
from service.identity import auth
from service.play import games
from service.plumbing import database
from tests.service import fake_game
from tests.web.support import sign_in_with


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def web_config(app):
    return app.extensions["capua.config"]


@pytest.fixture
def web_sessions(app):
    """Sessions on the app's own engine (what the views and workers use)."""
    return database.sessions(app)


@pytest.fixture
def sign_in(app, client):
    """``sign_in("ann@example.org", next="/games")`` signs the ``client`` in by magic link."""
    return lambda address, next="/": sign_in_with(app, client, address, next)


@pytest.fixture
def stop_workers(config):
    """Stops any in-process worker a test started for the test database."""
    yield
    inprocess.stop(config)


@pytest.fixture
def running_game(monkeypatch, app, web_sessions, web_config) -> str:
    """A running two-seat count game: ann created it, bob joined."""
    monkeypatch.setitem(registry._GAMES, fake_game.NAME, "tests.service.fake_game:RULES")
    with web_sessions() as s:
        ann = auth.get_or_create_user(s, "ann@example.org")
        bob = auth.get_or_create_user(s, "bob@example.org")
        game = games.create_game(s, web_config, creator=ann, game_type=fake_game.NAME, options={"target": 8},
                                 seats=2, invites=["bob@example.org"])
        s.commit()
        games.join_game(s, web_config, game.id, bob)
        s.commit()
        return game.id


@pytest.fixture
def demo_game(app, web_sessions, web_config):
    """The demo's PAX game: the demo player against three bots."""
    with web_sessions() as s:
        _user, game = demo.create_demo_game(s, web_config)
        s.commit()
        return game.id
