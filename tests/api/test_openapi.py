"""The OpenAPI document and the docs page that renders it, offline."""

from __future__ import annotations

import re

import pytest

EXPECTED_OPERATIONS = {
    ("post", "/api/v1/games"), ("get", "/api/v1/games"), ("get", "/api/v1/games/{game_id}"),
    ("post", "/api/v1/games/{game_id}/join"), ("get", "/api/v1/games/{game_id}/decisions"),
    ("post", "/api/v1/games/{game_id}/commands"), ("get", "/api/v1/games/{game_id}/events"),
    ("get", "/api/v1/games/{game_id}/states/{seq}"), ("get", "/api/v1/games/{game_id}/summary"),
    ("get", "/api/v1/games/types"),
    ("post", "/api/v1/auth/magic-link"), ("get", "/api/v1/tokens"), ("post", "/api/v1/tokens"),
    ("delete", "/api/v1/tokens/{token_id}"), ("get", "/api/v1/me"),
}
#: Table talk, webhooks, standing orders and the inbound-mail endpoint.
EXPECTED_OPERATIONS |= {
    ("get", "/api/v1/games/{game_id}/messages"), ("post", "/api/v1/games/{game_id}/messages"),
    ("post", "/api/v1/inbound/mail"),
    ("get", "/api/v1/webhooks"), ("post", "/api/v1/webhooks"), ("get", "/api/v1/webhooks/event-types"),
    ("get", "/api/v1/webhooks/{endpoint_id}"), ("patch", "/api/v1/webhooks/{endpoint_id}"),
    ("delete", "/api/v1/webhooks/{endpoint_id}"), ("get", "/api/v1/webhooks/{endpoint_id}/secret"),
    ("post", "/api/v1/webhooks/{endpoint_id}/rotate-secret"), ("post", "/api/v1/webhooks/{endpoint_id}/test"),
    ("get", "/api/v1/webhooks/{endpoint_id}/deliveries"),
    ("get", "/api/v1/webhooks/{endpoint_id}/deliveries/{delivery_id}"),
    ("post", "/api/v1/webhooks/{endpoint_id}/deliveries/{delivery_id}/redeliver"),
    ("get", "/api/v1/standing-orders"), ("post", "/api/v1/standing-orders"),
    ("get", "/api/v1/standing-orders/{order_id}"), ("patch", "/api/v1/standing-orders/{order_id}"),
    ("delete", "/api/v1/standing-orders/{order_id}"), ("post", "/api/v1/standing-orders/presets"),
    ("get", "/api/v1/games/{game_id}/clock"), ("post", "/api/v1/games/{game_id}/pause"),
    ("post", "/api/v1/games/{game_id}/resume"), ("post", "/api/v1/games/{game_id}/deadlines/extend"),
    ("post", "/api/v1/games/{game_id}/return"),
    ("get", "/api/v1/me/notifications"), ("patch", "/api/v1/me/notifications"),
    ("get", "/api/v1/me/notifications/games"), ("get", "/api/v1/me/notifications/games/{game_id}"),
    ("patch", "/api/v1/me/notifications/games/{game_id}"), ("delete", "/api/v1/me/notifications/games/{game_id}"),
    ("get", "/api/v1/me/vacation"), ("post", "/api/v1/me/vacation/periods"),
    ("delete", "/api/v1/me/vacation/periods/{vacation_id}"),
}
PUBLIC = {("get", "/api/v1/games/types"), ("post", "/api/v1/auth/magic-link"), ("post", "/api/v1/inbound/mail")}


@pytest.fixture
def spec(anonymous):
    response = anonymous.get("/api/v1/openapi.json")
    assert response.status_code == 200
    return response.get_json()


def _operations(spec):
    for path, item in spec["paths"].items():
        for method, op in item.items():
            if method in {"get", "post", "put", "patch", "delete"}:
                yield method, path, op


def _resolve(spec, ref):
    node = spec
    for part in ref.lstrip("#/").split("/"):
        node = node[part]
    return node


def test_every_endpoint_is_documented(spec):
    assert {(m, p) for m, p, _ in _operations(spec)} == EXPECTED_OPERATIONS
    assert spec["openapi"].startswith("3.")


def test_bearer_auth_is_the_default_security(spec):
    schemes = spec["components"]["securitySchemes"]
    assert schemes["bearerAuth"] == {**schemes["bearerAuth"], "type": "http", "scheme": "bearer"}
    assert {"bearerAuth": []} in spec["security"]
    for method, path, op in _operations(spec):
        if (method, path) in PUBLIC:
            assert op["security"] == []
        else:
            assert "security" not in op
            assert "401" in op["responses"]


def test_every_error_response_has_the_one_error_shape(spec):
    error_schema = spec["components"]["schemas"]["Error"]
    assert error_schema["properties"]["error"]["$ref"].endswith("/ErrorBody")
    assert set(spec["components"]["schemas"]["ErrorBody"]["required"]) == {"status", "code", "message", "details"}
    for method, path, op in _operations(spec):
        codes = set(op["responses"])
        assert {"429", "500"} <= codes, (method, path)
        if "requestBody" in op:
            assert {"400", "413", "415", "422"} <= codes, (method, path)
        if method in {"post", "delete"}:
            assert any(p.get("name") == "Idempotency-Key" for p in op.get("parameters", [])), (method, path)
        for code, response in op["responses"].items():
            if code[0] in "45" or code == "default":
                resolved = _resolve(spec, response["$ref"]) if "$ref" in response else response
                schema = resolved["content"]["application/json"]["schema"]
                assert schema["$ref"].endswith("/Error"), (method, path, code)


def test_every_reference_resolves(spec):
    text = repr(spec)
    for ref in set(re.findall(r"'\$ref': '([^']+)'", text)):
        _resolve(spec, ref)


def test_docs_page_works_offline(anonymous, spec):
    page = anonymous.get("/api/v1/docs")
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    assert "http://" not in html.replace('xmlns="http://', "") and "https://" not in html, "no CDN, nothing remote"
    assert "script-src 'self'" in page.headers["Content-Security-Policy"]
    assert "<script>" not in html, "no inline script: the CSP forbids it"
    for src in re.findall(r'(?:src|href)="(/api/v1/docs/assets/[^"]+)"', html):
        asset = anonymous.get(src)
        assert asset.status_code == 200, src
        assert len(asset.get_data()) > 100
    assert "/api/v1/docs/assets/swagger-ui-bundle.js" in html
    for method, path, _op in _operations(spec):
        assert path in html  # the server-rendered reference, readable without JavaScript


def test_unknown_docs_asset_is_404(anonymous):
    for name in ["index.html", "..%2F..%2Fapp.py", "swagger-ui.js.map", "docs.py"]:
        assert anonymous.get(f"/api/v1/docs/assets/{name}").status_code == 404
