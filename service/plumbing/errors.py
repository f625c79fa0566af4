"""One error shape for every answer Capua refuses.

Every error leaves the service as::

    {"error": {"status": 409, "code": "illegal_command", "message": "...", "details": {...}}}

``code`` is machine-readable and stable.  Rule violations from the engine map to 409
(``bad_arguments`` to 422); stale versions to 412; everything unexpected to a logged 500
that reveals nothing (and a test makes sure no input reaches it).
"""

from __future__ import annotations

from typing import Any, Mapping, Optional

from engine.core.errors import BadArguments, RuleViolation


class ServiceError(Exception):
    status = 400
    code = "bad_request"

    def __init__(self, message: str, *, code: Optional[str] = None, details: Optional[Mapping[str, Any]] = None,
                 status: Optional[int] = None, headers: Optional[Mapping[str, str]] = None) -> None:
        super().__init__(message)
        self.message = message
        if code:
            self.code = code
        if status:
            self.status = status
        self.details = dict(details or {})
        self.headers = dict(headers or {})

    def to_json(self) -> dict:
        return {"error": {"status": self.status, "code": self.code, "message": self.message, "details": self.details}}


class BadRequest(ServiceError):
    """Malformed request: unreadable JSON, missing body."""

    status = 400
    code = "bad_request"


class Unauthorized(ServiceError):
    status = 401
    code = "unauthorized"


class Forbidden(ServiceError):
    status = 403
    code = "forbidden"


class NotFound(ServiceError):
    status = 404
    code = "not_found"


class Conflict(ServiceError):
    """A rule violation or a lost race: the request was understood and refused."""

    status = 409
    code = "conflict"


class LostRace(Conflict):
    code = "lost_race"


class StaleVersion(ServiceError):
    """The client's expected version is not the game's version: reload and retry."""

    status = 412
    code = "stale_version"


class InvalidInput(ServiceError):
    """Well-formed but invalid input (wrong types, out of bounds, unknown game...)."""

    status = 422
    code = "invalid_input"


class TooManyRequests(ServiceError):
    status = 429
    code = "too_many_requests"


def from_rule_violation(err: RuleViolation) -> ServiceError:
    """The service error for an engine refusal: 422 for bad arguments, else 409."""
    if isinstance(err, BadArguments):
        return InvalidInput(err.message, code=err.code)
    return Conflict(err.message, code=err.code)
