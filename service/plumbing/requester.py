"""Who is asking: the id of the signed-in user of this request, as identity tells it.

Plumbing that keys things by the requester (idempotency keys, rate limits) asks here.
Identity registers its lookup when the app starts (:func:`service.identity.auth.init_app`),
so plumbing never imports identity.  Without a registered lookup nobody is signed in.

Identity may also leave the check of a bearer token to the request's idempotency claim
(:func:`check_in_claim`): the claim's one statement then inserts its row only while the
token is live, so a command whose token this process has seen live reads the token in
no statement of its own.
"""

from __future__ import annotations

from typing import Any, Callable, Optional, Protocol

from flask import Flask, current_app, g
from sqlalchemy.orm import Session

EXTENSION = "capua.current_user"
#: ``g`` key of the token check this request's idempotency claim carries.
_IN_CLAIM = "capua_token_in_claim"


def register(app: Flask, lookup: Callable[[], Any]) -> None:
    """``lookup()`` returns this request's user (with an ``id``) or ``None``."""
    app.extensions[EXTENSION] = lookup


def current_user_id() -> Optional[int]:
    lookup = current_app.extensions.get(EXTENSION)
    user = lookup() if lookup is not None else None
    return user.id if user is not None else None


class TokenCheck(Protocol):
    """A bearer token the idempotency claim checks: the claim inserts its row only if the
    token of ``token_hash`` is unrevoked.  A row back proves the token live (``live()``);
    no row back means the key is held or the token revoked, which ``settle(session)``
    tells apart (in a transaction the claim no longer holds): it raises ``Unauthorized``
    if the token is revoked, and returns if the key is held."""

    token_hash: str

    def live(self) -> None: ...

    def settle(self, session: Session) -> None: ...


def check_in_claim(check: TokenCheck) -> None:
    """Have this request's idempotency claim check the bearer token (identity asks this
    only of a view that claims its ``Idempotency-Key`` before it sends anything else)."""
    setattr(g, _IN_CLAIM, check)


def token_check() -> Optional[TokenCheck]:
    """The token check this request's idempotency claim carries, if any."""
    return g.get(_IN_CLAIM)
