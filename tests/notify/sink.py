"""A real SMTP server on loopback (aiosmtpd) that keeps what it receives.

Messages are counted by ``Message-ID``, which is how the tests tell "sent twice" from
"two messages".  ``hold_rcpt``/``hold_data`` make the server stop answering at that
point of the conversation until released, so a test can kill a sender mid-delivery.
"""

from __future__ import annotations

import asyncio
import email
import email.policy
import socket
import threading
from collections import Counter
from email.message import EmailMessage
from typing import Optional

import pytest
from aiosmtpd.controller import Controller
from aiosmtpd.smtp import AuthResult, LoginPassword


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class SinkHandler:
    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.messages: list[EmailMessage] = []
        self.arrived = threading.Condition(self.lock)
        self.reply_to_rcpt: dict[str, str] = {}
        self.hold_rcpt = threading.Event()
        self.hold_data = threading.Event()
        self.holding = threading.Event()
        self.release = threading.Event()

    async def _wait_release(self) -> None:
        self.holding.set()
        while not self.release.is_set():
            await asyncio.sleep(0.02)

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        if address in self.reply_to_rcpt:
            return self.reply_to_rcpt[address]
        if self.hold_rcpt.is_set():
            self.hold_rcpt.clear()
            await self._wait_release()
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):
        message = email.message_from_bytes(envelope.content, policy=email.policy.default)
        with self.arrived:
            self.messages.append(message)
            self.arrived.notify_all()
        if self.hold_data.is_set():
            self.hold_data.clear()
            await self._wait_release()
        return "250 Message accepted for delivery"

    # ------------------------------------------------------------------ reading

    def received(self) -> list[EmailMessage]:
        with self.lock:
            return list(self.messages)

    def by_message_id(self) -> Counter:
        with self.lock:
            return Counter(str(m["Message-ID"]) for m in self.messages)

    def wait_for(self, count: int, timeout: float = 30.0) -> bool:
        with self.arrived:
            return self.arrived.wait_for(lambda: len(self.messages) >= count, timeout)


class SmtpSink:
    """``SmtpSink().start()``: a server on 127.0.0.1 at ``.port`` until ``stop()``."""

    def __init__(self, *, login: Optional[tuple[str, str]] = None, tls_context=None) -> None:
        self.handler = SinkHandler()
        self.port = free_port()
        kwargs = {}
        if login is not None:
            user, password = login

            def authenticator(server, session, envelope, mechanism, auth_data):
                ok = isinstance(auth_data, LoginPassword) and auth_data.login.decode() == user \
                    and auth_data.password.decode() == password
                return AuthResult(success=ok)

            kwargs.update(authenticator=authenticator, auth_required=True, auth_require_tls=tls_context is not None)
        if tls_context is not None:
            kwargs.update(tls_context=tls_context, require_starttls=True)
        self.controller = Controller(self.handler, hostname="127.0.0.1", port=self.port, **kwargs)

    def start(self) -> "SmtpSink":
        self.controller.start()
        return self

    def stop(self) -> None:
        self.handler.release.set()
        self.controller.stop()

    def __getattr__(self, name):
        return getattr(self.handler, name)


def smtp_settings(sink: "SmtpSink") -> dict:
    """Configuration that sends the app's mail to ``sink`` over plain SMTP."""
    return {"mail_backend": "smtp", "smtp_host": "127.0.0.1", "smtp_port": sink.port, "smtp_security": "none",
            "mail_from": "Capua <capua@capua.test>"}


@pytest.fixture
def smtp_sink():
    """A running :class:`SmtpSink`, stopped after the test."""
    sink = SmtpSink().start()
    yield sink
    sink.stop()
