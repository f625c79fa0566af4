"""Reading a request body as JSON, refusing everything a later layer would choke on.

webargs' own JSON loading treats a body with another content type as absent (so a
``text/plain`` body would be answered "field required") and lets ``json.loads`` raise
``RecursionError`` on a deeply nested body.  Here:

* a non-empty body that is not ``application/json`` (or ``+json``) -> 415;
* unreadable JSON (syntax, encoding, ``NaN``/``Infinity``, nesting too deep for the
  parser) -> 400 ``bad_json``;
* JSON nested deeper than :data:`MAX_DEPTH`, or holding a string that PostgreSQL or
  UTF-8 cannot store (NUL, lone surrogates) -> 422, before any schema or game sees it.

The same strict reading serves the idempotency fingerprint, so two bodies that mean the
same JSON are the same request.
"""

from __future__ import annotations

import json
from typing import Any

from flask import Request
from webargs import core
from webargs.flaskparser import FlaskParser

from service.errors import BadRequest, InvalidInput, ServiceError

#: Deeper than any command of any game needs; keeps storage and serialisers far from
#: Python's recursion limit.
MAX_DEPTH = 32


class UnsupportedMediaType(ServiceError):
    status = 415
    code = "unsupported_media_type"


class BadJson(BadRequest):
    code = "bad_json"


def is_json_mimetype(mimetype: str) -> bool:
    return mimetype == "application/json" or (mimetype.startswith("application/") and mimetype.endswith("+json"))


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def parse_json_bytes(data: bytes) -> Any:
    """Strictly parse ``data``; raise :class:`BadJson` or :class:`InvalidInput`."""
    try:
        value = json.loads(data.decode("utf-8"), parse_constant=_refuse_constant)
    except (ValueError, UnicodeDecodeError, RecursionError):
        raise BadJson("The request body is not valid JSON.") from None
    check_storable(value)
    return value


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
                    _check_text(key)
                stack.append((child, depth + 1))
        elif isinstance(item, str):
            _check_text(item)


def _check_text(text: str) -> None:
    if "\x00" in text:
        raise InvalidInput("Text must not contain NUL characters.", code="invalid_text")
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise InvalidInput("Text must be valid Unicode (no lone surrogates).", code="invalid_text") from None


class JsonBodyParser(FlaskParser):
    """The webargs parser of every Capua blueprint: strict JSON bodies, see module doc."""

    def _raw_load_json(self, req: Request) -> Any:
        data = req.get_data(cache=True)
        if not data:
            return core.missing
        if not is_json_mimetype(req.mimetype):
            raise UnsupportedMediaType("Send the request body as application/json.",
                                       details={"content_type": req.mimetype[:100]})
        return parse_json_bytes(data)
