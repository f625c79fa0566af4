"""Rate limiting: per client, 429 in the error shape with ``Retry-After``."""

from __future__ import annotations

import os
import threading
import time
import uuid

import pytest
import redis

from service.plumbing.config import load_config
from flask import Flask

from service.plumbing import ratelimit
from service.plumbing.ratelimit import limiter_for
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


def test_counting_in_memory_starts_no_thread(ann, monkeypatch):
    """The memory store sweeps in the request: no timer thread per request (the library's
    own store started one for every request more than 10 ms after the last)."""
    started = []
    start = threading.Thread.start
    monkeypatch.setattr(threading.Thread, "start", lambda thread: (started.append(thread.name), start(thread))[1])
    for _ in range(3):
        time.sleep(0.02)
        assert ann.get("me").status_code == 200
    assert started == []


def test_unreadable_limit_names_the_setting(tmp_path):
    config = load_config({"instance_dir": str(tmp_path), "rate_limit": "lots please"}, environ={})
    with pytest.raises(ValueError, match="CAPUA_RATE_LIMIT"):
        limiter_for(config)


def test_empty_limit_turns_limiting_off(tmp_path):
    config = load_config({"instance_dir": str(tmp_path), "rate_limit": ""}, environ={})
    assert limiter_for(config) is None


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


def _web_process(config) -> Flask:
    """A bare web process with Capua's limiter and one API endpoint."""
    app = Flask(f"web-{uuid.uuid4().hex}")
    app.extensions["capua.config"] = config
    app.add_url_rule("/api/v1/ping", "ping", lambda: "pong")
    ratelimit.init_app(app)
    return app


def test_redis_storage_is_shared_between_processes(tmp_path):
    """Two apps (two web processes) with the same Redis count one client together."""
    url = _redis_url()
    config = load_config({"instance_dir": str(tmp_path), "rate_limit": "2 per minute", "redis_url": url},
                         environ={})
    address = {"REMOTE_ADDR": f"10.{uuid.uuid4().int % 250}.{uuid.uuid4().int % 250}.7"}
    one, two = _web_process(config).test_client(), _web_process(config).test_client()
    assert one.get("/api/v1/ping", environ_base=address).status_code == 200
    assert two.get("/api/v1/ping", environ_base=address).status_code == 200
    response = one.get("/api/v1/ping", environ_base=address)
    assert response.status_code == 429
    assert 1 <= int(response.headers["Retry-After"]) <= 60


def test_a_broken_counter_store_lets_requests_through(tmp_path):
    """Redis down: the API answers (and logs), it does not fail with the store."""
    config = load_config({"instance_dir": str(tmp_path), "rate_limit": "1 per minute",
                          "redis_url": "redis://127.0.0.1:1/0"}, environ={})
    client = _web_process(config).test_client()
    assert [client.get("/api/v1/ping").status_code for _ in range(3)] == [200, 200, 200]
