"""The blueprint every resource of the API is built on.

On top of flask-smorest's :class:`~flask_smorest.Blueprint` it adds what every Capua
resource shares, so each resource module only states what is particular to it:

* the strict JSON body parser (:mod:`service.api.body`);
* JSON only: a mutating request that names another content type is refused with 415
  even when its body is empty (a cross-site HTML form cannot send ``application/json``);
* sign-in: every view of a blueprint made with ``public=False`` answers 401 to an
  anonymous request *before* its arguments are parsed, so a stranger learns nothing
  about the API's validation either;
* documentation of the error answers (:meth:`ApiBlueprint.errors`) and of the headers
  Capua reads (``Idempotency-Key``, ``If-Match``, ``If-None-Match``), added to each
  operation of the generated OpenAPI document by a prepare-doc callback.
"""

from __future__ import annotations

import functools
import inspect
import json
from copy import deepcopy
from typing import Any, Callable, Optional

from flask import Flask, Response, current_app, request
from flask.json.provider import DefaultJSONProvider
from flask_smorest import Blueprint
from flask_smorest.utils import set_status_and_headers_in_response, unpack_tuple_response

from service.api.body import JsonBodyParser, UnsupportedMediaType, is_json_mimetype
from service.identity import auth
from service.plumbing.idempotency import idempotent
from service.plumbing.json_input import read_request_json

#: Where the API lives; every resource's blueprint is under it.
PREFIX = "/api/v1"

#: Error answers any operation may give: rate limiting and our own failure.
_ALWAYS = (429, 500)
#: Added to every operation that reads a JSON body.
_BODY_ERRORS = (400, 413, 415, 422)

HEADER_DOCS: dict[str, dict[str, Any]] = {
    "Idempotency-Key": {
        "in": "header",
        "name": "Idempotency-Key",
        "required": False,
        "schema": {"type": "string", "minLength": 1, "maxLength": 255, "pattern": "^[ -~]{1,255}$"},
        "description": (
            "Strongly recommended on every mutating request: a unique string per intended change "
            "(a UUID). A retry with the same key returns the first answer (header "
            "`Idempotent-Replayed: true`) and changes nothing; the same key with another request "
            "is refused with 422 `idempotency_key_reused`. Keys are kept for "
            "`CAPUA_IDEMPOTENCY_TTL_HOURS`."
        ),
    },
    "If-Match": {
        "in": "header",
        "name": "If-Match",
        "required": False,
        "schema": {"type": "string", "pattern": '^(\\*|(W/)?"[0-9]{1,19}")$', "example": '"42"'},
        "description": "The game version (ETag) the command was decided against; 412 if the game has moved on.",
    },
    "If-None-Match": {
        "in": "header",
        "name": "If-None-Match",
        "required": False,
        "schema": {"type": "string", "example": '"42"'},
        "description": "The ETag you hold; 304 Not Modified if the game is still at that version.",
    },
}


def _capua_doc(func: Callable) -> dict:
    func._apidoc = deepcopy(getattr(func, "_apidoc", {}))  # type: ignore[attr-defined]
    return func._apidoc.setdefault("capua", {"errors": [], "headers": []})  # type: ignore[attr-defined]


class ApiBlueprint(Blueprint):
    """A resource of the API; ``public=True`` for the few that anonymous clients may use,
    ``accepts_forms=True`` for the one that mail providers post forms to."""

    ARGUMENTS_PARSER = JsonBodyParser()

    def __init__(self, *args: Any, public: bool = False, accepts_forms: bool = False, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.public = public
        if not accepts_forms:
            self.before_request(_refuse_other_content_types)
        if not public:
            self.before_request(_require_signed_in)
        self._prepare_doc_cbks.append(self._prepare_capua_doc)

    @staticmethod
    def errors(*statuses: int) -> Callable[[Callable], Callable]:
        """Document the error answers a view gives beyond the ones every view may give."""

        def decorator(func: Callable) -> Callable:
            _capua_doc(func)["errors"].extend(statuses)
            return func

        return decorator

    @staticmethod
    def mutation(func: Callable) -> Callable:
        """Make ``func`` a mutating view: one commit, and idempotent under ``Idempotency-Key``.

        Put it above ``arguments``/``response`` so that it sees the final response and so
        that a request refused while parsing is never stored.
        """
        wrapped = idempotent(func)
        doc = _capua_doc(wrapped)
        doc["headers"].append("Idempotency-Key")
        doc["errors"].extend((409, 422))
        return wrapped

    @staticmethod
    def plain_path(plain: Callable[[Any], Optional[dict]], schema: type, status: int) -> Callable[[Callable], Callable]:
        """Serve a plainly valid JSON body without webargs' and flask-smorest's layers.

        Put it right above ``arguments``/``response`` (below ``mutation``).  When the
        request's JSON body is one that ``plain`` loads (what the ``arguments`` schema
        would load from it, else ``None``), the view is called with that, and its answer
        dumped by ``schema`` and encoded by the app's JSON provider, as the
        ``response`` decorator (``status``) would: the same answer, without parsing
        the body's location, the schema's generic loading, and two layers of wrappers
        on the path every client takes (a command).  Anything else (no body, another
        content type, a body ``plain`` does not take) goes through the decorators
        below as ever, so every refusal is theirs.  The OpenAPI document is theirs too.
        """

        def decorator(func: Callable) -> Callable:
            view = inspect.unwrap(func)
            dump = schema().dump

            @functools.wraps(func)
            def wrapper(*args: Any, **kwargs: Any) -> Any:
                req = request._get_current_object()
                loaded = None
                if req.content_length and is_json_mimetype(req.mimetype):
                    loaded = plain(read_request_json(req))
                if loaded is None:
                    return func(*args, **kwargs)
                result, status_code, headers = unpack_tuple_response(view(loaded, *args, **kwargs))
                if isinstance(result, Response):
                    set_status_and_headers_in_response(result, status_code, headers)
                    return result
                response = _json_response(current_app._get_current_object(), dump(result))
                _set_status_and_headers(response, status if status_code is None else status_code, headers)
                return response

            return wrapper

        return decorator

    @staticmethod
    def reads_headers(*names: str) -> Callable[[Callable], Callable]:
        """Document request headers the view honours (names from :data:`HEADER_DOCS`)."""

        def decorator(func: Callable) -> Callable:
            _capua_doc(func)["headers"].extend(names)
            return func

        return decorator

    def _prepare_capua_doc(self, doc: dict, doc_info: dict, *, api: Any, spec: Any, **_: Any) -> dict:
        info = doc_info.get("capua", {"errors": [], "headers": []})
        statuses: set[int] = set(_ALWAYS) | set(info["errors"])
        if not self.public:
            statuses.add(401)
        if "requestBody" in doc:
            statuses.update(_BODY_ERRORS)
        if doc_info.get("arguments"):
            statuses.add(422)
        responses = doc.setdefault("responses", {})
        for status in sorted(statuses):
            responses.setdefault(status, api.status_response_name(status))
        params = doc.setdefault("parameters", [])
        for name in dict.fromkeys(info["headers"]):
            params.append(dict(HEADER_DOCS[name]))
        if not params:
            del doc["parameters"]
        if self.public:
            doc["security"] = []
        return doc


def _json_response(app: Flask, obj: Any) -> Response:
    """``app.json.response(obj)``: the same bytes, encoded by a C encoder made once when
    the app's JSON provider is Flask's own with its usual settings (what
    :meth:`~flask.json.provider.DefaultJSONProvider.response` does out of debug mode:
    ASCII, sorted keys, no spaces, a newline after), where ``json.dumps`` with arguments
    makes an encoder, through five Python calls, for every answer.  Any other provider
    or setting answers as ever.  Only the check for circular containers is left out:
    an answer is a tree."""
    provider = app.json
    if (_COMPACT_ENCODER is None or provider.__class__ is not DefaultJSONProvider
            or not (provider.compact or (provider.compact is None and not app.debug))
            or provider.ensure_ascii is not True or provider.sort_keys is not True
            or provider.default is not DefaultJSONProvider.default
            or provider.mimetype != DefaultJSONProvider.mimetype):
        return provider.response(obj)
    return app.response_class(f"{''.join(_COMPACT_ENCODER(obj, 0))}\n", mimetype=provider.mimetype)


def _set_status_and_headers(response: Response, status: Any, headers: Any) -> None:
    """flask-smorest's ``set_status_and_headers_in_response``, with its common case taken
    the short way: a dict of text headers added one by one (what ``Headers.extend``
    does for it, through a generator of werkzeug's), and a status the response already
    has (an answer is made with 200) not set again."""
    if type(headers) is dict:
        add = response.headers.add
        for name, value in headers.items():
            if value.__class__ is not str:
                break
        else:
            for name, value in headers.items():
                add(name, value)
            headers = None
    if type(status) is int and status == response.status_code:
        status = None
    set_status_and_headers_in_response(response, status, headers)


def _compact_encoder() -> Optional[Callable[[Any, int], Any]]:
    """The C encoder of :func:`_json_response`: ``json.dumps(obj, default=...,
    ensure_ascii=True, sort_keys=True, separators=(",", ":"))`` as Flask calls it, made
    once (``None`` without the C accelerator)."""
    make_encoder = getattr(json.encoder, "c_make_encoder", None)
    if make_encoder is None:  # pragma: no cover - CPython has it
        return None
    return make_encoder(None, DefaultJSONProvider.default, json.encoder.encode_basestring_ascii, None,
                        ":", ",", True, False, True)


_COMPACT_ENCODER = _compact_encoder()


def _refuse_other_content_types() -> None:
    req = request._get_current_object()
    if req.method in _BODY_METHODS and req.content_type and not is_json_mimetype(req.mimetype):
        raise UnsupportedMediaType("Send the request body as application/json.",
                                   details={"content_type": req.mimetype[:100]})


_BODY_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})


def _require_signed_in() -> None:
    auth.require_requester()
