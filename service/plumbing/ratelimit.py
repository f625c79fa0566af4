"""Per-client rate limiting of the API, answered with 429 and ``Retry-After``.

The ``limits`` library counts; this module says what is counted and how a refusal looks.
The client is the signed-in user (whatever token or cookie it uses), else the remote
address: so a stranger cycling through invented tokens is counted by address.  Limits
come from ``config.rate_limit`` (``"120 per minute"``, several separated by ``;``; empty
turns limiting off) and hold for the whole API together (an *application* limit, not one
count per endpoint), over a moving window: in memory for the embedded single-process
default, in Redis when ``config.redis_url`` is set, so that every web process of a
deployment shares one count.  Pages are not counted, nor paths no endpoint serves.

A broken counter store must not take the API down with it: if Redis fails, the request
is let through and the failure logged.

This used to be Flask-Limiter, which re-read and re-sorted its limits, scopes and
exemptions on every request (about a tenth of a command's CPU with the token lookup
left out), and whose memory store started a timer thread to expire old entries for every
request that came more than 10 ms after the last.  :class:`AppLimiter` does only what
Capua asks of it, and :class:`SweptMemoryStorage` sweeps in the request itself, at most
once a second.
"""

from __future__ import annotations

import logging
import math
import time
from typing import Optional

from flask import Flask, request
from limits import RateLimitItem, parse_many
from limits.storage import MemoryStorage, storage_from_string
from limits.strategies import MovingWindowRateLimiter

from service.plumbing import requester
from service.plumbing.config import Config
from service.plumbing.errors import ServiceError, TooManyRequests
from service.plumbing.http_errors import error_response, is_api_request

log = logging.getLogger(__name__)

EXTENSION = "capua.ratelimit"
KEY_PREFIX = "capua-limits"
#: How often the in-memory store drops expired entries, in seconds.
SWEEP_EVERY = 1.0


class SweptMemoryStorage(MemoryStorage):
    """``memory://`` without a timer thread per request: expired entries are swept by the
    request that finds the last sweep a second old.  A moving window never counts an
    expired entry anyway (it compares timestamps); the sweep only bounds the memory."""

    STORAGE_SCHEME = ["capua-memory"]

    def __init__(self, uri: Optional[str] = None, wrap_exceptions: bool = False, **options) -> None:
        super().__init__(uri, wrap_exceptions=wrap_exceptions, **options)
        self._next_sweep = 0.0

    def _MemoryStorage__schedule_expiry(self) -> None:  # the base class's private hook, replaced
        now = time.monotonic()
        if now >= self._next_sweep:
            self._next_sweep = now + SWEEP_EVERY
            self._MemoryStorage__expire_events()


class AppLimiter:
    """The API's limits, counted per client over a moving window in ``storage_uri``."""

    def __init__(self, limits: list[RateLimitItem], storage_uri: str) -> None:
        self.limits = sorted(limits)
        self.storage = storage_from_string(storage_uri)
        self.window = MovingWindowRateLimiter(self.storage)

    def check(self) -> None:
        """Count this request against every limit; :class:`TooManyRequests` for the first
        one it exceeds.  A request no endpoint serves, or not to the API, is not counted."""
        if request.endpoint is None or not is_api_request():
            return
        key = client_key()
        for limit in self.limits:
            try:
                allowed = self.window.hit(limit, KEY_PREFIX, key)
                reset_at = None if allowed else self.window.get_window_stats(limit, KEY_PREFIX, key).reset_time
            except Exception:  # the counter store is down: let the request through
                log.exception("rate limit store failed; the request is let through")
                return
            if not allowed:
                # reset_at is rounded up to a whole second: never past the window
                wait = max(1, min(math.ceil(reset_at - time.time()), limit.get_expiry()))
                raise TooManyRequests(f"Too many requests; retry in {wait} seconds.",
                                      details={"retry_after": wait}, headers={"Retry-After": str(wait)})


def limiter_for(config: Config) -> Optional[AppLimiter]:
    """The app's limiter; ``None`` when ``config.rate_limit`` is empty, ``ValueError``
    naming the setting when it cannot be read."""
    spec = config.rate_limit.strip()
    if not spec:
        return None
    try:
        limits = parse_many(spec)
    except ValueError:
        raise ValueError(f"CAPUA_RATE_LIMIT={config.rate_limit!r} is not a rate limit "
                         "(write e.g. '120 per minute' or '10/second; 500/hour')") from None
    return AppLimiter(limits, config.redis_url or "capua-memory://")


def init_app(app: Flask) -> None:
    """Count every request under ``/api/`` (before sign-in is enforced)."""
    limiter = limiter_for(app.extensions["capua.config"])
    if limiter is None:
        return
    app.extensions[EXTENSION] = limiter
    app.before_request(limiter.check)
    app.register_error_handler(TooManyRequests, error_response)


def client_key() -> str:
    """The signed-in user, else the remote address."""
    try:
        user_id = requester.current_user_id()
    except ServiceError:
        user_id = None
    if user_id is not None:
        return f"user:{user_id}"
    return f"addr:{request.remote_addr or 'unknown'}"
