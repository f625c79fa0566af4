"""The API tests of the arena use the API tests' clients (users with API tokens)."""

from tests.api.conftest import ann, bob, config_overrides, make_client  # noqa: F401 - fixtures
