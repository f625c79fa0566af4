"""Fixtures of the webhook tests (shared with the table-talk and standing-order tests)."""

from tests.webhooks.fixtures import *  # noqa: F401,F403
