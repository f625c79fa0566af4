"""Per-client rate limiting of the API, answered with 429 and ``Retry-After``.

The client is the signed-in user (whatever token or cookie it uses), else the remote
address: so a stranger cycling through invented tokens is counted by address.  Limits
come from ``config.rate_limit`` (``"120 per minute"``, several separated by ``;``; empty
turns limiting off) and are counted with the `limits` library over a moving window, in
memory for the embedded single-process default and in Redis when ``config.redis_url`` is
set, so that every web process of a deployment shares one count.

A broken counter store must not take the API down with it: if Redis fails, the request
is let through and the failure logged.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from typing import Optional

from flask import Flask, current_app, request
from limits import RateLimitItem, parse_many
from limits.storage import Storage, storage_from_string
from limits.strategies import MovingWindowRateLimiter
from redis.exceptions import RedisError

from service import auth
from service.config import Config
from service.errors import ServiceError, TooManyRequests

EXTENSION = "capua.ratelimit"
_NAMESPACE = "capua-api"


@dataclass
class RateLimit:
    """The limits of one app and the store that counts them."""

    items: list[RateLimitItem]
    storage: Storage
    limiter: MovingWindowRateLimiter

    @classmethod
    def from_config(cls, config: Config) -> Optional["RateLimit"]:
        """``None`` when ``config.rate_limit`` is empty; ``ValueError`` naming the setting if unreadable."""
        spec = config.rate_limit.strip()
        if not spec:
            return None
        try:
            items = parse_many(spec)
        except ValueError:
            raise ValueError(f"CAPUA_RATE_LIMIT={config.rate_limit!r} is not a rate limit "
                             "(write e.g. '120 per minute' or '10/second; 500/hour')") from None
        if config.redis_url:
            storage = storage_from_string(config.redis_url, key_prefix="capua-limits")
        else:
            storage = storage_from_string("memory://")
        return cls(items=list(items), storage=storage, limiter=MovingWindowRateLimiter(storage))

    def hit(self, client: str) -> Optional[int]:
        """Count one request of ``client``; the seconds to wait if it is over a limit, else ``None``."""
        for item in self.items:
            if not self.limiter.hit(item, _NAMESPACE, client):
                reset_at, _remaining = self.limiter.get_window_stats(item, _NAMESPACE, client)
                return max(1, math.ceil(reset_at - time.time()))
        return None


def init_app(app: Flask) -> None:
    """Count every request under ``/api/`` (before sign-in is enforced)."""
    limit = RateLimit.from_config(app.extensions["capua.config"])
    if limit is None:
        return
    app.extensions[EXTENSION] = limit
    app.before_request(_check_rate_limit)


def client_key() -> str:
    """The signed-in user, else the remote address."""
    try:
        user = auth.current_user()
    except ServiceError:
        user = None
    if user is not None:
        return f"user:{user.id}"
    return f"addr:{request.remote_addr or 'unknown'}"


def _check_rate_limit() -> None:
    if not request.path.startswith("/api/"):
        return
    limit: RateLimit = current_app.extensions[EXTENSION]
    try:
        wait = limit.hit(client_key())
    except (OSError, RedisError) as err:
        current_app.logger.warning("rate limit store unavailable, request let through: %s", err)
        return
    if wait is not None:
        raise TooManyRequests(f"Too many requests; retry in {wait} seconds.",
                              details={"retry_after": wait}, headers={"Retry-After": str(wait)})
