"""Every refusal leaves Capua in the one error shape of :mod:`service.plumbing.errors`.

Four kinds of failure reach these handlers: our own :class:`~service.plumbing.errors.ServiceError`,
an engine :class:`~engine.core.errors.RuleViolation` that a service function let through,
werkzeug's HTTP exceptions (unknown route, wrong method, oversized body, and the
validation errors webargs raises for flask-smorest), and anything unexpected.  Each is
turned into a :class:`ServiceError` first, so there is exactly one place that renders an
error: JSON under ``/api/``, a small HTML page elsewhere (the web pages share the site).

An unexpected exception is logged with an incident id and answered with a 500 that
names only that id: the client learns nothing about the code, the log has everything.
"""

from __future__ import annotations

import http
import re
import secrets
from typing import Any, Mapping

from flask import Flask, Response, current_app, jsonify, render_template, request
from werkzeug.exceptions import HTTPException

from engine.core.errors import RuleViolation
from service.plumbing.errors import InvalidInput, ServiceError, from_rule_violation

#: Machine-readable codes for the HTTP errors werkzeug raises on its own.
_HTTP_CODES: Mapping[int, str] = {
    400: "bad_request",
    401: "unauthorized",
    403: "forbidden",
    404: "not_found",
    405: "method_not_allowed",
    406: "not_acceptable",
    409: "conflict",
    411: "length_required",
    412: "precondition_failed",
    413: "payload_too_large",
    414: "uri_too_long",
    415: "unsupported_media_type",
    416: "range_not_satisfiable",
    422: "invalid_input",
    428: "precondition_required",
    429: "too_many_requests",
    431: "headers_too_large",
    500: "internal_error",
    501: "not_implemented",
    503: "unavailable",
}

#: Messages for werkzeug's errors: its own descriptions are written for HTML pages.
_HTTP_MESSAGES: Mapping[int, str] = {
    404: "There is nothing at this address.",
    405: "This address does not accept that method.",
    413: "The request body is too large.",
    500: "Something went wrong on our side; the incident is logged.",
}

#: Headers of a werkzeug error worth passing on (``Allow`` on a 405, ``Retry-After``...).
_KEPT_HEADERS = ("Allow", "Retry-After", "WWW-Authenticate")


def register(app: Flask) -> None:
    """Install the handlers; ``service.api`` routes flask-smorest's handler here too."""
    app.register_error_handler(ServiceError, handle_service_error)
    app.register_error_handler(RuleViolation, handle_rule_violation)
    app.register_error_handler(HTTPException, handle_http_exception)
    app.register_error_handler(Exception, handle_unexpected)


def is_api_request() -> bool:
    """API clients get JSON; everything else on the site is a page for a browser."""
    path = request.path
    return path == "/api" or path.startswith("/api/")


def error_response(err: ServiceError) -> Response:
    """Render ``err`` as JSON (API) or as the HTML error page (anything else)."""
    if is_api_request():
        response = jsonify(err.to_json())
        response.status_code = err.status
    else:
        html = render_template("error.html", status=err.status, code=err.code, message=err.message,
                               phrase=_phrase(err.status))
        response = current_app.response_class(html, status=err.status, mimetype="text/html")
    for name, value in err.headers.items():
        response.headers[name] = value
    if err.status == 401 and "WWW-Authenticate" not in response.headers:
        response.headers["WWW-Authenticate"] = 'Bearer realm="capua"'
    response.headers["Cache-Control"] = "no-store"
    return response


def handle_service_error(err: ServiceError) -> Response:
    return error_response(err)


def handle_rule_violation(err: RuleViolation) -> Response:
    return error_response(from_rule_violation(err))


def handle_http_exception(err: HTTPException) -> Any:
    # Routing redirects (a missing trailing slash) are HTTPExceptions too, not errors.
    if err.code is None or err.code < 400:
        return err
    if err.code == 500:
        return handle_unexpected(getattr(err, "original_exception", None) or err)
    return error_response(service_error_from_http(err))


def service_error_from_http(err: HTTPException) -> ServiceError:
    """The service error for a werkzeug exception, keeping webargs' field messages."""
    status = int(err.code or 500)
    data = getattr(err, "data", None) or {}
    messages = data.get("messages") if isinstance(data, Mapping) else None
    headers = {k: v for k, v in err.get_headers() if k in _KEPT_HEADERS}
    if isinstance(data, Mapping) and isinstance(data.get("headers"), Mapping):
        headers.update(data["headers"])
    if status == 400 and messages is not None:
        return ServiceError("The request body is not valid JSON.", code="bad_json", status=400, headers=headers)
    if status == 422 and messages is not None:
        return InvalidInput("The request does not fit the schema; see details.fields.",
                            details={"fields": messages}, headers=headers)
    details: dict[str, Any] = {}
    if status == 413:
        details["max_bytes"] = current_app.config.get("MAX_CONTENT_LENGTH")
    if status == 405 and getattr(err, "valid_methods", None):
        details["allowed"] = sorted(err.valid_methods)
    message = _HTTP_MESSAGES.get(status) or _phrase(status) or "The request was refused."
    return ServiceError(message, code=_HTTP_CODES.get(status) or _snake(_phrase(status)),
                        status=status, details=details, headers=headers)


def handle_unexpected(err: BaseException) -> Response:
    """Log the failure with an incident id and answer 500 revealing only that id."""
    incident = secrets.token_hex(8)
    current_app.logger.error("unhandled error, incident %s, %s %s", incident, request.method, request.path,
                             exc_info=err)
    return error_response(ServiceError(_HTTP_MESSAGES[500], code="internal_error", status=500,
                                       details={"incident": incident}))


def _phrase(status: int) -> str:
    try:
        return http.HTTPStatus(status).phrase
    except ValueError:
        return ""


def _snake(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "_", text.lower()).strip("_") or "error"
