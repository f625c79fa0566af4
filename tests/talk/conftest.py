"""Fixtures of the table-talk tests: the shared ones, and a browser signed in by magic link."""

import pytest

from tests.webhooks.fixtures import *  # noqa: F401,F403


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def sign_in(app, client):
    from tests.web.support import sign_in_with

    return lambda address, next="/": sign_in_with(app, client, address, next)
