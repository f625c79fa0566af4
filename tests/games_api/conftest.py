from tests.api.conftest import ann, bob, config_overrides, make_client  # noqa: F401 - fixtures
