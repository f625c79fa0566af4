"""The REST API under ``/api/v1``: flask-smorest blueprints, one per resource.

``register(app)`` configures flask-smorest, which generates the OpenAPI document at
``/api/v1/openapi.json`` from the marshmallow schemas and the views' decorators; adds
the browsable docs at ``/api/v1/docs`` (served from this machine, no CDN); and turns
on rate limiting.  Errors are rendered by :mod:`service.plumbing.http_errors`, flask-smorest's own
handler included, so every refusal has the one shape.

The API is blueprints and schemas only: each view parses, calls one function of a room
below (:mod:`service.play`, :mod:`service.notify`, :mod:`service.identity`) and shapes
the answer.  May import those rooms, :mod:`service.words` and :mod:`service.plumbing`;
never :mod:`service.web`.
"""

from __future__ import annotations

import http
from typing import Any

from flask import Flask, request
from flask_smorest import Api
from werkzeug.routing import BaseConverter

from service.api.blueprint import PREFIX
from service.api.schemas import ErrorSchema
from service.plumbing import converters, http_errors, ratelimit

API_DESCRIPTION = """\
Capua plays Roman board games by email and over this API.

**Authentication.** Send a personal API token as `Authorization: Bearer capua_...` (create
one with `POST /api/v1/tokens` while signed in, or on the web pages); a browser session
cookie works too. Anonymous clients may only list game types, read these docs and ask
for a sign-in link.

**Playing.** `GET /games/{id}/decisions` lists what you must decide, each decision with
its legal `options` (or a JSON `schema` of the arguments), a `default` and a deadline.
Answer with `POST /games/{id}/commands` `{"type", "args", "expected_version"}`
(or `If-Match: "<version>"`). Send an `Idempotency-Key` header with every mutating
request: a retry then returns the first answer and changes nothing.

**Errors** all have one shape, `{"error": {"status", "code", "message", "details"}}`:
400 `bad_json`; 401 `unauthorized`; 403 `not_seated`, `not_your_seat`; 404 `not_found`,
`no_such_version`, `token_not_found`; 409 rule violations (`illegal_command`,
`not_your_decision`, `no_such_decision`, `game_over`...), seating (`game_started`,
`seat_taken`, `already_seated`...), `lost_race`, `idempotency_key_in_use`; 412
`stale_version`; 413 `payload_too_large`; 415 `unsupported_media_type`; 422
`invalid_input` (with `details.fields`), `bad_arguments`, `invalid_options`,
`idempotency_key_reused`, `invalid_idempotency_key`, `invalid_if_match`; 429
`too_many_requests` (with `Retry-After`); 500 `internal_error` (with an incident id).

**Text** is Unicode without NUL characters (U+0000) anywhere: in a JSON body, a query or a form
such text is refused with 400 or 422 `invalid_text`.
"""


class CapuaApi(Api):
    """flask-smorest's Api with Capua's error shape, in the document and on the wire."""

    ERROR_SCHEMA = ErrorSchema

    def handle_http_exception(self, error: Any) -> Any:
        return http_errors.handle_http_exception(error)

    @staticmethod
    def status_response_name(status: int) -> str:
        """The component response flask-smorest registers for ``status`` (``NOT_FOUND``...)."""
        return http.HTTPStatus(status).name


class GameIdConverter(BaseConverter):
    """Game ids are short url-safe strings; anything else cannot be a game (404)."""

    regex = r"[A-Za-z0-9_-]{1,32}"


def register(app: Flask) -> None:
    from service.api import (
        deadlines,
        docs,
        game_types,
        games,
        magic_links,
        me,
        messages,
        notifications,
        standing_orders,
        tokens,
        webhooks,
    )

    app.config.update(
        API_TITLE="Capua",
        API_VERSION="v1",
        OPENAPI_VERSION="3.0.3",
        OPENAPI_URL_PREFIX=PREFIX,
        OPENAPI_JSON_PATH="openapi.json",
        API_SPEC_OPTIONS={
            "info": {"description": API_DESCRIPTION},
            "servers": [{"url": "/"}],
            "components": {
                "securitySchemes": {
                    "bearerAuth": {"type": "http", "scheme": "bearer",
                                   "description": "A personal API token (`capua_...`)."},
                    "sessionCookie": {"type": "apiKey", "in": "cookie", "name": "session",
                                      "description": "The web pages' session, after a magic-link sign-in."},
                },
            },
            "security": [{"bearerAuth": []}, {"sessionCookie": []}],
        },
    )
    app.url_map.converters["game_id"] = GameIdConverter
    converters.register(app)
    api = CapuaApi(app)
    api.register_converter(GameIdConverter, lambda _c: {"type": "string", "pattern": GameIdConverter.regex,
                                                        "maxLength": 32})
    for converter in (converters.Int64Converter, converters.Int32Converter):
        api.register_converter(converter, lambda _c, top=converter.maximum: {"type": "integer", "minimum": 0,
                                                                             "maximum": top})
    for blueprint in (game_types.blp, games.blp, magic_links.blp, tokens.blp, me.blp, messages.blp, messages.inbound,
                      webhooks.blp, standing_orders.blp, deadlines.blp, notifications.blp):
        api.register_blueprint(blueprint, url_prefix=PREFIX + blueprint.url_prefix)
    docs.register(app, api)
    ratelimit.init_app(app)
    app.after_request(_no_store_by_default)


def _no_store_by_default(response: Any) -> Any:
    """API answers are per user and change with every move: never cache them unasked."""
    headers = response.headers
    if request.path.startswith("/api/") and "Cache-Control" not in headers:
        headers.add("Cache-Control", "no-store")  # (absent: added, without ``set``'s scan for others)
    return response
