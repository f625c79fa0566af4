"""Rate limiting: per client, 429 in the error shape with ``Retry-After``."""

from __future__ import annotations

import os
import uuid

import pytest
import redis

from service.config import load_config
from service.ratelimit import RateLimit
from tests.api.support import assert_error


@pytest.fixture
def config_overrides(config_overrides) -> dict:
    return {**config_overrides, "rate_limit": "3 per minute"}


def test_the_fourth_request_in_a_minute_is_429(ann):
    for _ in range(3):
        assert ann.get("me").status_code == 200
    response = ann.get("me")
    error = assert_error(response, 429, "too_many_requests")
    wait = int(response.headers["Retry-After"])
    assert 1 <= wait <= 60
    assert error["details"]["retry_after"] == wait


def test_clients_are_counted_separately(ann, bob):
    for _ in range(3):
        ann.get("me")
    assert ann.get("me").status_code == 429
    assert bob.get("me").status_code == 200


def test_a_user_is_one_client_whatever_token_it_uses(ann, app):
    second = ann.post("tokens", json={"name": "second"}).get_json()["token"]
    ann.get("me")
    ann.get("me")
    ann.token = second
    assert ann.get("me").status_code == 429


def test_invented_tokens_are_counted_by_address(anonymous):
    statuses = [anonymous.get("me", headers={"Authorization": f"Bearer capua_{uuid.uuid4().hex}{i}"}).status_code
                for i in range(4)]
    assert statuses == [401, 401, 401, 429]


def test_pages_are_not_limited_by_the_api_limit(anonymous):
    for _ in range(5):
        assert anonymous.get("/api/v1/docs").status_code in (200, 429)
    assert anonymous.get("/").status_code != 429


def test_unreadable_limit_names_the_setting(tmp_path):
    config = load_config({"instance_dir": str(tmp_path), "rate_limit": "lots please"}, environ={})
    with pytest.raises(ValueError, match="CAPUA_RATE_LIMIT"):
        RateLimit.from_config(config)


def test_empty_limit_turns_limiting_off(tmp_path):
    config = load_config({"instance_dir": str(tmp_path), "rate_limit": ""}, environ={})
    assert RateLimit.from_config(config) is None


def _redis_url() -> str:
    """``CAPUA_TEST_REDIS_URL`` (CI sets it, and then Redis must answer); locally the
    default Redis is used if it answers, else the test is skipped."""
    url = os.environ.get("CAPUA_TEST_REDIS_URL")
    try:
        redis.Redis.from_url(url or "redis://127.0.0.1:6379/15", socket_connect_timeout=0.5).ping()
    except redis.RedisError as err:
        if url:
            pytest.fail(f"CAPUA_TEST_REDIS_URL={url} does not answer: {err}", pytrace=False)
        pytest.skip("no Redis on 127.0.0.1:6379 and CAPUA_TEST_REDIS_URL is not set")
    return url or "redis://127.0.0.1:6379/15"


def test_redis_storage_is_shared_between_processes(tmp_path):
    """Two apps (two web processes) with the same Redis count one client together."""
    url = _redis_url()
    config = load_config({"instance_dir": str(tmp_path), "rate_limit": "2 per minute", "redis_url": url},
                         environ={})
    one, two = RateLimit.from_config(config), RateLimit.from_config(config)
    client = f"user:test-{uuid.uuid4().hex}"
    assert one.hit(client) is None
    assert two.hit(client) is None
    wait = one.hit(client)
    assert wait is not None and 1 <= wait <= 60
