"""The browsable API docs at ``/api/v1/docs``, served entirely from this machine.

Swagger UI's files come from the ``swagger-ui-bundle`` package (no CDN: the docs work on
a laptop with no network), its start-up script from ``service/web/static/apidocs`` (so the
page needs no inline script and can send a strict Content-Security-Policy).  The page
also renders a plain reference of every operation and schema on the server, from the
same OpenAPI document: readable with JavaScript off, and hidden once Swagger UI starts.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from flask import Blueprint, Flask, abort, render_template, send_from_directory, url_for
from swagger_ui_bundle import swagger_ui_path

from service.api.blueprint import PREFIX

_OWN_ASSETS = Path(__file__).resolve().parent.parent / "web" / "static" / "apidocs"
#: Asset name -> folder.  Only these names are served; anything else is a 404.
ASSETS = {
    "swagger-ui-bundle.js": Path(swagger_ui_path),
    "swagger-ui.css": Path(swagger_ui_path),
    "favicon-32x32.png": Path(swagger_ui_path),
    "docs.js": _OWN_ASSETS,
    "docs.css": _OWN_ASSETS,
}
_METHODS = ("get", "post", "put", "patch", "delete")
_CSP = ("default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
        "connect-src 'self'; font-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'")

bp = Blueprint("api-docs-page", __name__, url_prefix=PREFIX)


def register(app: Flask, api: Any) -> None:
    app.extensions["capua.api"] = api
    app.register_blueprint(bp)


@bp.get("/docs")
def docs_page():
    from flask import current_app

    spec = current_app.extensions["capua.api"].spec.to_dict()
    html = render_template("api/docs.html", spec=spec, operations=_operations(spec),
                           schemas=spec.get("components", {}).get("schemas", {}),
                           spec_url=url_for("api-docs.openapi_json"), asset=_asset_url)
    response = current_app.response_class(html, mimetype="text/html")
    response.headers["Content-Security-Policy"] = _CSP
    response.headers["Cache-Control"] = "no-cache"
    return response


@bp.get("/docs/assets/<name>")
def docs_asset(name: str):
    folder = ASSETS.get(name)
    if folder is None:
        abort(404)
    response = send_from_directory(folder, name, max_age=3600)
    response.headers["X-Content-Type-Options"] = "nosniff"
    return response


def _asset_url(name: str) -> str:
    return url_for("api-docs-page.docs_asset", name=name)


def _operations(spec: dict) -> list[dict]:
    """Every operation of ``spec`` grouped for the server-rendered reference, in tag order."""
    tags = [t["name"] for t in spec.get("tags", [])]
    ops: list[dict] = []
    for path, item in spec.get("paths", {}).items():
        common = item.get("parameters", [])
        for method in _METHODS:
            op = item.get(method)
            if op is None:
                continue
            body = op.get("requestBody", {}).get("content", {}).get("application/json", {}).get("schema", {})
            ops.append({
                "tag": (op.get("tags") or [""])[0],
                "method": method.upper(),
                "path": path,
                "summary": op.get("summary", ""),
                "description": op.get("description", ""),
                "parameters": [_resolve(spec, p) for p in common + op.get("parameters", [])],
                "body": _ref_name(body),
                "responses": [
                    (code, _resolve(spec, r).get("description", ""), _ref_name(_response_schema(spec, r)))
                    for code, r in op.get("responses", {}).items()
                ],
                "public": op.get("security") == [],
            })
    order = {name: i for i, name in enumerate(tags)}
    ops.sort(key=lambda o: (order.get(o["tag"], len(order)), o["path"], _METHODS.index(o["method"].lower())))
    return ops


def _resolve(spec: dict, obj: dict) -> dict:
    ref = obj.get("$ref") if isinstance(obj, dict) else None
    if not ref:
        return obj
    node: Any = spec
    for part in ref.lstrip("#/").split("/"):
        node = node.get(part, {})
    return node


def _response_schema(spec: dict, response: dict) -> dict:
    return _resolve(spec, response).get("content", {}).get("application/json", {}).get("schema", {})


def _ref_name(schema: dict) -> str:
    ref = schema.get("$ref", "") if isinstance(schema, dict) else ""
    return ref.rsplit("/", 1)[-1] if ref else ""
