"""Fixtures of the standing-order tests (shared with the webhook tests)."""

from tests.webhooks.fixtures import *  # noqa: F401,F403
