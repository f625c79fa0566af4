"""Fixtures of the web tests: a browser-like client and the sign-in flow.

The app, database and settings fixtures come from ``tests/conftest.py``.
"""

from __future__ import annotations

import pytest

from service import inprocess
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
    return app.extensions["capua.db"].sessions


@pytest.fixture
def sign_in(app, client):
    """``sign_in("ann@example.org", next="/games")`` signs the ``client`` in by magic link."""
    return lambda address, next="/": sign_in_with(app, client, address, next)


@pytest.fixture
def stop_workers(config):
    """Stops any in-process worker a test started for the test database."""
    yield
    inprocess.stop(config)

