"""What a mail backend is: the protocol the outbox sends through, and the one error a
backend raises to say a message will never be accepted.

Its own module so that the outbox (:mod:`service.plumbing.mail`) and each transport
(:mod:`service.plumbing.smtp`) both build on it without importing each other.
"""

from __future__ import annotations

from email.message import EmailMessage
from typing import Protocol


class MailBackend(Protocol):
    def send(self, message: EmailMessage, key: str) -> None:
        """Send ``message``; ``key`` is stable per outbox row. Raise on failure."""


class PermanentMailError(Exception):
    """A backend's word that this message will never be accepted (an SMTP 5xx reply):
    the row is marked ``failed`` at once instead of being retried."""
