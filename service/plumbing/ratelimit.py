"""Per-client rate limiting of the API, answered with 429 and ``Retry-After``.

Flask-Limiter counts; this module says what is counted and how a refusal looks.  The
client is the signed-in user (whatever token or cookie it uses), else the remote address:
so a stranger cycling through invented tokens is counted by address.  Limits come from
``config.rate_limit`` (``"120 per minute"``, several separated by ``;``; empty turns
limiting off) and hold for the whole API together (an *application* limit, not one count
per endpoint), over a moving window: in memory for the embedded single-process default,
in Redis when ``config.redis_url`` is set, so that every web process of a deployment
shares one count.  Pages are not counted.

A broken counter store must not take the API down with it: if Redis fails, the request
is let through and the failure logged (Flask-Limiter's ``swallow_errors``).
"""

from __future__ import annotations

import math
import time
from typing import Optional

from flask import Flask, current_app
from flask_limiter import Limiter, RateLimitExceeded
from limits import parse_many

from service.plumbing import requester
from service.plumbing.config import Config
from service.plumbing.errors import ServiceError, TooManyRequests
from service.plumbing.http_errors import error_response, is_api_request

EXTENSION = "capua.ratelimit"
KEY_PREFIX = "capua-limits"


def limiter_for(config: Config) -> Optional[Limiter]:
    """The app's limiter; ``None`` when ``config.rate_limit`` is empty, ``ValueError``
    naming the setting when it cannot be read."""
    spec = config.rate_limit.strip()
    if not spec:
        return None
    try:
        parse_many(spec)
    except ValueError:
        raise ValueError(f"CAPUA_RATE_LIMIT={config.rate_limit!r} is not a rate limit "
                         "(write e.g. '120 per minute' or '10/second; 500/hour')") from None
    return Limiter(
        client_key,
        application_limits=[spec],
        application_limits_exempt_when=lambda: not is_api_request(),
        strategy="moving-window",
        storage_uri=config.redis_url or "memory://",
        key_prefix=KEY_PREFIX,
        swallow_errors=True,
        headers_enabled=False,
    )


def init_app(app: Flask) -> None:
    """Count every request under ``/api/`` (before sign-in is enforced)."""
    limiter = limiter_for(app.extensions["capua.config"])
    if limiter is None:
        return
    limiter.init_app(app)
    app.extensions[EXTENSION] = limiter
    app.register_error_handler(RateLimitExceeded, _too_many_requests)


def client_key() -> str:
    """The signed-in user, else the remote address."""
    from flask import request

    try:
        user_id = requester.current_user_id()
    except ServiceError:
        user_id = None
    if user_id is not None:
        return f"user:{user_id}"
    return f"addr:{request.remote_addr or 'unknown'}"


def _too_many_requests(_err: RateLimitExceeded):
    """Capua's error shape, with the seconds until the window lets the client in again."""
    limiter: Limiter = current_app.extensions[EXTENSION]
    breached = limiter.current_limit
    wait = 1
    if breached is not None:  # reset_at is rounded up to a whole second: never past the window
        wait = max(1, min(math.ceil(breached.reset_at - time.time()), breached.limit.get_expiry()))
    return error_response(TooManyRequests(f"Too many requests; retry in {wait} seconds.",
                                          details={"retry_after": wait}, headers={"Retry-After": str(wait)}))
