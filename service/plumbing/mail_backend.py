"""What a mail backend is: the protocol the outbox sends through, and the one error a
backend raises to say a message will never be accepted.

Its own module so that the outbox (:mod:`service.plumbing.mail`) and each transport
(:mod:`service.plumbing.smtp`) both build on it without importing each other.
"""

from __future__ import annotations

import contextlib
import time
from contextvars import ContextVar
from email.message import EmailMessage
from typing import Iterator, Optional, Protocol


class MailBackend(Protocol):
    def send(self, message: EmailMessage, key: str) -> None:
        """Send ``message``; ``key`` is stable per outbox row. Raise on failure."""


#: The ``time.monotonic()`` by which the send under way must be over (its lease ends
#: soon after): set by the outbox around each send, honoured by transports that wait.
_SEND_BY: ContextVar[Optional[float]] = ContextVar("capua_mail_send_by", default=None)


class LeaseSpent(TimeoutError):
    """The send's lease runs out before the next step could be answered: the step is not
    taken (in particular not the one that hands over the message), so the message can be
    sent again safely by whoever claims it next."""


@contextlib.contextmanager
def send_by(deadline: float) -> Iterator[None]:
    """Sends within the block must be over by ``deadline`` (``time.monotonic()``)."""
    token = _SEND_BY.set(deadline)
    try:
        yield
    finally:
        _SEND_BY.reset(token)


def time_left(at_most: float) -> float:
    """Seconds the send under way may still wait for one step: ``at_most``, or less as its
    lease runs out.  Raises :class:`LeaseSpent` when nothing is left."""
    deadline = _SEND_BY.get()
    if deadline is None:
        return at_most
    left = deadline - time.monotonic()
    if left <= 0:
        raise LeaseSpent("the mail's lease ran out before the send was over")
    return min(at_most, left)


class PermanentMailError(Exception):
    """A backend's word that this message will never be accepted (an SMTP 5xx reply):
    the row is marked ``failed`` at once instead of being retried."""
