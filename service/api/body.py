"""Reading a request body as JSON, refusing everything a later layer would choke on.

webargs' own JSON loading treats a body with another content type as absent (so a
``text/plain`` body would be answered "field required") and lets ``json.loads`` raise
``RecursionError`` on a deeply nested body.  Here:

* a non-empty body that is not ``application/json`` (or ``+json``) -> 415;
* everything else as every JSON a client sends, by :mod:`service.plumbing.json_input`:
  unreadable -> 400 ``bad_json``, nested deeper than its ``MAX_DEPTH`` or holding text
  that cannot be stored -> 422, too large -> 413, before any schema or game sees it.

The same strict reading serves the idempotency fingerprint, so two bodies that mean the
same JSON are the same request.
"""

from __future__ import annotations

import functools
from typing import Any

import marshmallow as ma
from flask import Request
from webargs import core
from webargs.flaskparser import FlaskParser

from service.plumbing.errors import ServiceError
from service.plumbing.json_input import read_json, read_request_json


class UnsupportedMediaType(ServiceError):
    status = 415
    code = "unsupported_media_type"


def is_json_mimetype(mimetype: str) -> bool:
    return mimetype == "application/json" or (mimetype.startswith("application/") and mimetype.endswith("+json"))


def parse_json_bytes(data: bytes) -> Any:
    """Strictly parse a request body (:func:`service.plumbing.json_input.read_json`)."""
    return read_json(data)


class JsonBodyParser(FlaskParser):
    """The webargs parser of every Capua blueprint: strict JSON bodies, see module doc."""

    def _raw_load_json(self, req: Request) -> Any:
        data = req.get_data(cache=True)
        if not data:
            return core.missing
        if not is_json_mimetype(req.mimetype):
            raise UnsupportedMediaType("Send the request body as application/json.",
                                       details={"content_type": req.mimetype[:100]})
        return read_request_json(req)

    def _get_schema(self, argmap: Any, req: Request) -> ma.Schema:
        # webargs makes a schema class's instance on every request, and marshmallow
        # deep-copies the declared fields each time; a schema keeps nothing between
        # loads, so one instance per class serves every request.
        if isinstance(argmap, type) and issubclass(argmap, ma.Schema):
            return _instance_of(argmap)
        return super()._get_schema(argmap, req)


@functools.lru_cache(maxsize=None)
def _instance_of(schema_class: type) -> ma.Schema:
    return schema_class()
