"""An id no column can hold is a 404, never a database error (issue 14, item 3): the path
converters are bounded to their columns, 32-bit ``Integer`` ids to 2**31-1, 64-bit ones
to 2**63-1.  Run with ``CAPUA_TEST_DATABASES=postgresql``, where a 2**40 sent to a 32-bit
column is an error rather than "no such row"."""

from __future__ import annotations

import pytest

from service.plumbing.converters import MAX_INT32, MAX_INT64
from tests.api.support import assert_error
from tests.web.support import csrf_from, sign_in_with

@pytest.fixture
def config_overrides(config_overrides) -> dict:
    """Webhooks may point at this machine (no name is resolved by these tests)."""
    return {**config_overrides, "webhooks_allow_private": True}


BIG = [2**31, 2**40, MAX_INT64, MAX_INT64 + 1, 10**30]

API_PATHS = [
    ("DELETE", "tokens/{id}"),
    ("GET", "standing-orders/{id}"),
    ("PATCH", "standing-orders/{id}"),
    ("DELETE", "standing-orders/{id}"),
    ("GET", "webhooks/{id}"),
    ("PATCH", "webhooks/{id}"),
    ("DELETE", "webhooks/{id}"),
    ("GET", "webhooks/{id}/secret"),
    ("POST", "webhooks/{id}/rotate-secret"),
    ("POST", "webhooks/{id}/test"),
    ("GET", "webhooks/{id}/deliveries"),
    ("GET", "webhooks/{id}/deliveries/1"),
    ("POST", "webhooks/{id}/deliveries/1/redeliver"),
    ("DELETE", "me/vacation/periods/{id}"),
]


@pytest.mark.parametrize("method, path", API_PATHS)
@pytest.mark.parametrize("big", BIG)
def test_a_32_bit_id_beyond_its_column_is_404(ann, method, path, big):
    body = {} if method in {"PATCH", "POST"} else None
    assert_error(ann.request(method, path.format(id=big), json=body), 404)


@pytest.mark.parametrize("method, path", API_PATHS)
def test_the_largest_32_bit_id_is_looked_up_and_not_found(ann, method, path):
    body = {} if method in {"PATCH", "POST"} else None
    assert ann.request(method, path.format(id=MAX_INT32), json=body).status_code in (404, 422)


@pytest.mark.parametrize("big", [2**40, MAX_INT64])
def test_64_bit_positions_are_looked_up(ann, big):
    endpoint = ann.post("webhooks", json={"url": "http://127.0.0.1:9/hook"})
    assert endpoint.status_code == 201, endpoint.get_data(as_text=True)
    assert_error(ann.get(f"webhooks/{endpoint.get_json()['id']}/deliveries/{big}"), 404)
    assert_error(ann.get(f"webhooks/{endpoint.get_json()['id']}/deliveries/{MAX_INT64 + 1}"), 404)


@pytest.mark.parametrize("path", ["/settings/webhooks/{id}", "/settings/tokens/{id}/revoke",
                                  "/settings/vacation/{id}/delete", "/settings/standing-orders/{id}/delete",
                                  "/settings/webhooks/{id}/delete"])
@pytest.mark.parametrize("big", [2**40, 10**30])
def test_pages_with_ids_beyond_their_column_are_404(app, path, big):
    client = app.test_client()
    sign_in_with(app, client, "ann@example.org")
    token = csrf_from(client.get("/settings").data)
    url = path.format(id=big)
    answer = client.get(url) if path == "/settings/webhooks/{id}" else client.post(url, data={"csrf_token": token})
    assert answer.status_code == 404
    small = client.get(path.format(id=MAX_INT32)) if path == "/settings/webhooks/{id}" \
        else client.post(path.format(id=MAX_INT32), data={"csrf_token": token})
    assert small.status_code in (303, 404, 422), "the route exists: an id that fits is looked up"
