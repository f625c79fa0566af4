"""Fixtures of the API tests: the app over the test database, users with API tokens,
and a small client that speaks to ``/api/v1`` as one of them."""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from typing import Any, Callable, Optional

import pytest
from sqlalchemy import func, select

from service.identity import auth
from service.plumbing.db import StoredEvent
from service.plumbing import database

API = "/api/v1"


@pytest.fixture
def config_overrides(config_overrides) -> dict:
    """The shared settings, with a rate limit no functional test reaches."""
    return {**config_overrides, "rate_limit": "100000 per minute"}


@dataclass
class ApiClient:
    """A Flask test client speaking as one bearer token (or anonymously)."""

    flask_client: Any
    token: Optional[str] = None
    user_id: Optional[int] = None
    email: Optional[str] = None
    #: called with ``(client, method, url, response)`` after every request (the leak scan)
    observer: Optional[Callable[..., None]] = None

    def headers(self, extra: Optional[dict] = None) -> dict:
        headers = {}
        if self.token is not None:
            headers["Authorization"] = f"Bearer {self.token}"
        headers.update(extra or {})
        return headers

    def request(self, method: str, path: str, *, json: Any = None, headers: Optional[dict] = None,
                idempotent: bool = False, **kwargs: Any):
        url = path if path.startswith("/") else f"{API}/{path}"
        extra = dict(headers or {})
        if idempotent:
            extra.setdefault("Idempotency-Key", str(uuid.uuid4()))
        response = self.flask_client.open(url, method=method, json=json, headers=self.headers(extra), **kwargs)
        if self.observer is not None:
            self.observer(self, method, url, response)
        return response

    def get(self, path: str, **kwargs: Any):
        return self.request("GET", path, **kwargs)

    def post(self, path: str, **kwargs: Any):
        return self.request("POST", path, **kwargs)

    def delete(self, path: str, **kwargs: Any):
        return self.request("DELETE", path, **kwargs)


@pytest.fixture
def anonymous(app) -> ApiClient:
    return ApiClient(app.test_client())


@pytest.fixture
def make_client(app) -> Callable[[str], ApiClient]:
    """``make_client("ann")``: a user ``ann@example.org`` with a fresh API token."""
    sessions = database.sessions(app)

    def make(name: str) -> ApiClient:
        with sessions() as s:
            user = auth.get_or_create_user(s, f"{name}@example.org")
            user.display_name = name.capitalize()
            _token, raw = auth.create_api_token(s, user, f"{name}'s test token")
            s.commit()
            return ApiClient(app.test_client(), token=raw, user_id=user.id, email=user.email)

    return make


@pytest.fixture
def ann(make_client) -> ApiClient:
    return make_client("ann")


@pytest.fixture
def bob(make_client) -> ApiClient:
    return make_client("bob")


@pytest.fixture
def count_rows(app) -> Callable[[Any], int]:
    """``count_rows(StoredEvent)``: rows of a table, read in a session of its own."""
    sessions = database.sessions(app)

    def count(model: Any) -> int:
        with sessions() as s:
            return int(s.scalar(select(func.count()).select_from(model)))

    return count


@pytest.fixture
def event_count(count_rows) -> Callable[[], int]:
    return lambda: count_rows(StoredEvent)

