"""The one reader of JSON that a client sent: API bodies, page forms (an option's
command, a standing order's rule, a schema form's field), action-link forms, query
parameters.  Nothing a client sends reaches ``json.loads`` any other way.

* more than :data:`MAX_BYTES` -> 413 ``too_large``;
* unreadable JSON (syntax, encoding, ``NaN``/``Infinity``) -> 400 ``bad_json``;
* nested deeper than :data:`MAX_DEPTH` -> 422 ``too_deep``, found by counting brackets
  before parsing, so the parser never recurses on a client's depth;
* a string (or key) that PostgreSQL or UTF-8 cannot store (NUL, lone surrogates) -> 422
  ``invalid_text``.

It also refuses, for every request, a NUL in a query parameter or a form field
(:func:`refuse_nul_in_request`): no text of ours may hold one, and PostgreSQL cannot.
"""

from __future__ import annotations

import json
from typing import Any, Union

from flask import Flask, request

from service.plumbing.errors import BadRequest, InvalidInput, ServiceError

#: Deeper than any command of any game needs; keeps storage and serialisers far from
#: Python's recursion limit.
MAX_DEPTH = 32
#: The largest JSON document read (the whole request is bounded at 256 KiB as well).
MAX_BYTES = 256 * 1024


class BadJson(BadRequest):
    code = "bad_json"


class TooLarge(ServiceError):
    status = 413
    code = "too_large"


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def read_json(data: Union[str, bytes], *, what: str = "The request body") -> Any:
    """``data`` read strictly as JSON; raise :class:`BadJson`, :class:`TooLarge` or
    :class:`InvalidInput` (all :class:`ServiceError`, answered 4xx)."""
    if len(data) > MAX_BYTES:
        raise TooLarge(f"{what} is larger than {MAX_BYTES // 1024} KiB.")
    if isinstance(data, bytes):
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            raise BadJson(f"{what} is not valid JSON.") from None
    else:
        text = data
    check_depth(text)
    try:
        value = json.loads(text, parse_constant=_refuse_constant)
    except (ValueError, RecursionError):
        raise BadJson(f"{what} is not valid JSON.") from None
    check_storable(value)
    return value


_BODY = "capua.json_body"


def read_request_json(req: Any) -> Any:
    """The body of ``req`` read by :func:`read_json`, read once per request: the
    idempotency fingerprint and the arguments' parser both want it."""
    held = req.environ.get(_BODY)
    if held is None:
        held = req.environ[_BODY] = (read_json(req.get_data(cache=True)),)
    return held[0]


def check_depth(text: str) -> None:
    """Refuse JSON text nested deeper than :data:`MAX_DEPTH`, before it is parsed."""
    if text.count("[") + text.count("{") <= MAX_DEPTH:
        return
    depth, in_string, escaped = 0, False, False
    for char in text:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            if depth > MAX_DEPTH:
                raise InvalidInput(f"JSON nested deeper than {MAX_DEPTH} levels.", code="too_deep")
        elif char in "]}":
            depth -= 1


def check_storable(value: Any) -> None:
    """Refuse values nested too deep or holding text that cannot be stored.

    Iterative on purpose: the point is to never recurse on attacker-controlled depth.
    """
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, (dict, list)):
            if depth > MAX_DEPTH:
                raise InvalidInput(f"JSON nested deeper than {MAX_DEPTH} levels.", code="too_deep")
            children = list(item.items()) if isinstance(item, dict) else [(None, v) for v in item]
            for key, child in children:
                if key is not None:
                    check_text(key)
                stack.append((child, depth + 1))
        elif isinstance(item, str):
            check_text(item)


def check_text(text: str) -> None:
    if "\x00" in text:
        raise InvalidInput("Text must not contain NUL characters.", code="invalid_text")
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise InvalidInput("Text must be valid Unicode (no lone surrogates).", code="invalid_text") from None


def refuse_nul_in_request() -> None:
    """A NUL in any query parameter (name or value) or form field is a 400.

    Runs before every request, so what a request without a query or a form (an API
    command) does not need is not parsed: the query only when there is one, the content
    type only for a method that may carry a form."""
    req = request._get_current_object()
    if req.environ.get("QUERY_STRING") and (
            "\x00" in req.query_string.decode("latin-1")
            or any("\x00" in key or "\x00" in value for key, value in req.args.items(multi=True))):
        raise BadRequest("A query parameter holds a NUL character.", code="invalid_text")
    if req.method in _FORM_METHODS and req.mimetype in _FORM_TYPES:
        if any("\x00" in key or "\x00" in value for key, value in req.form.items(multi=True)):
            raise BadRequest("A form field holds a NUL character.", code="invalid_text")


_FORM_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})
_FORM_TYPES = frozenset({"application/x-www-form-urlencoded", "multipart/form-data"})


def init_app(app: Flask) -> None:
    app.before_request(refuse_nul_in_request)
