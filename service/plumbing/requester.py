"""Who is asking: the id of the signed-in user of this request, as identity tells it.

Plumbing that keys things by the requester (idempotency keys, rate limits) asks here.
Identity registers its lookup when the app starts (:func:`service.identity.auth.init_app`),
so plumbing never imports identity.  Without a registered lookup nobody is signed in.
"""

from __future__ import annotations

from typing import Any, Callable, Optional

from flask import Flask, current_app

EXTENSION = "capua.current_user"


def register(app: Flask, lookup: Callable[[], Any]) -> None:
    """``lookup()`` returns this request's user (with an ``id``) or ``None``."""
    app.extensions[EXTENSION] = lookup


def current_user_id() -> Optional[int]:
    lookup = current_app.extensions.get(EXTENSION)
    user = lookup() if lookup is not None else None
    return user.id if user is not None else None
