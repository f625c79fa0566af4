"""The SMTP mail backend: hands each outbox message to a mail server.

Settings: ``CAPUA_SMTP_HOST``/``PORT``, ``CAPUA_SMTP_SECURITY`` (``starttls``: the
connection must be upgraded, and a server that cannot is an error rather than a
plain-text fallback; ``ssl``: TLS from the first byte; ``none``), optional
``CAPUA_SMTP_USERNAME``/``PASSWORD`` and ``CAPUA_SMTP_TIMEOUT_SECONDS``.

A worker keeps one connection per thread and reuses it (opening one per message costs
more round trips than the message itself).  A connection the server closed while idle
is noticed at ``MAIL FROM``, before any part of the message went out, and reopened
once; a failure after that point is left to the outbox's retry, with the same
``Message-ID``.

Failures are sorted the way RFC 5321 sorts replies: a 5xx reply to the sender, the
recipient or the data is permanent (:class:`~service.plumbing.mail_backend.PermanentMailError`: the
message will never be accepted, retrying only annoys the server); everything else
(4xx, timeouts, refused or dropped connections) is transient.
"""

from __future__ import annotations

import email.policy
import email.utils
import smtplib
import ssl
import threading
import time
from dataclasses import dataclass
from email.message import EmailMessage
from typing import Optional

from service.plumbing.config import Config
from service.plumbing.mail_backend import PermanentMailError, time_left

#: A connection idle longer than this is checked with NOOP before use.
IDLE_CHECK_SECONDS = 30.0

_local = threading.local()


@dataclass(frozen=True)
class SmtpBackend:
    host: str
    port: int
    security: str
    username: str
    password: str
    timeout: float
    sender: str

    @classmethod
    def from_config(cls, config: Config) -> "SmtpBackend":
        return cls(host=config.smtp_host, port=config.smtp_port, security=config.smtp_security,
                   username=config.smtp_username, password=config.smtp_password,
                   timeout=float(config.smtp_timeout_seconds),
                   sender=email.utils.parseaddr(config.mail_from)[1] or "capua@localhost")

    # ------------------------------------------------------------------ connections

    def _open(self) -> smtplib.SMTP:
        context = ssl.create_default_context()
        if self.security == "ssl":
            conn: smtplib.SMTP = smtplib.SMTP_SSL(self.host, self.port, timeout=time_left(self.timeout),
                                                  context=context)
        else:
            conn = smtplib.SMTP(self.host, self.port, timeout=time_left(self.timeout))
        try:
            conn.ehlo()
            if self.security == "starttls":
                conn.starttls(context=context)
                conn.ehlo()
            if self.username:
                self._step(conn)
                conn.login(self.username, self.password)
        except BaseException:
            _close(conn)
            raise
        return conn

    def _connection(self) -> smtplib.SMTP:
        held = getattr(_local, "connections", None)
        if held is None:
            held = _local.connections = {}
        entry = held.get(self)
        if entry is not None:
            conn, last_used = entry
            if time.monotonic() - last_used > IDLE_CHECK_SECONDS:
                try:
                    self._step(conn)
                    if conn.noop()[0] != 250:
                        raise smtplib.SMTPServerDisconnected("NOOP refused")
                except (smtplib.SMTPException, OSError):
                    self.drop()
                    entry = None
        if entry is None:
            conn = self._open()
            held[self] = (conn, time.monotonic())
        return held[self][0]

    def drop(self) -> None:
        """Forget (and close) this thread's connection."""
        held = getattr(_local, "connections", None) or {}
        entry = held.pop(self, None)
        if entry is not None:
            _close(entry[0])

    def _step(self, conn: smtplib.SMTP, waits: int = 1) -> None:
        """Before each command: each of its ``waits`` socket waits may take ``timeout``, or
        a share of what is left of the send's lease (:func:`~service.plumbing.mail_backend.time_left`
        raises when nothing is, and the command is not sent)."""
        wait = time_left(self.timeout) / waits
        if conn.sock is not None:
            conn.sock.settimeout(wait)

    # ------------------------------------------------------------------ sending

    def send(self, message: EmailMessage, key: str) -> None:
        recipients = [addr for _name, addr in email.utils.getaddresses(message.get_all("To", []))]
        data = message.as_bytes(policy=email.policy.SMTP)
        try:
            conn = self._connection()
            try:
                self._step(conn)
                code, reply = conn.mail(self.sender)
            except smtplib.SMTPServerDisconnected:
                # Closed while idle: nothing of this message went out yet, so reopen once.
                self.drop()
                conn = self._connection()
                self._step(conn)
                code, reply = conn.mail(self.sender)
            if code != 250:
                _reset(conn)
                raise smtplib.SMTPSenderRefused(code, reply, self.sender)
            for rcpt in recipients:
                self._step(conn)
                code, reply = conn.rcpt(rcpt)
                if code not in (250, 251):
                    _reset(conn)
                    raise smtplib.SMTPRecipientsRefused({rcpt: (code, reply)})
            # The server accepts the message with its answer to the data: that answer must
            # come before the lease ends, or another worker could already be sending it.
            self._step(conn, waits=3)  # DATA, the message, and the answer to each
            code, reply = conn.data(data)
            if code != 250:
                _reset(conn)
                raise smtplib.SMTPDataError(code, reply)
            held = getattr(_local, "connections", {})
            if self in held:
                held[self] = (conn, time.monotonic())
        except smtplib.SMTPRecipientsRefused as err:
            if all(code >= 500 for code, _reply in err.recipients.values()):
                raise PermanentMailError(f"recipient refused: {_reply_text(err.recipients)}") from err
            raise
        except smtplib.SMTPResponseException as err:
            if err.smtp_code >= 500 and not isinstance(err, smtplib.SMTPAuthenticationError):
                raise PermanentMailError(f"{err.smtp_code} {_text(err.smtp_error)}") from err
            self.drop()
            raise
        except (smtplib.SMTPException, OSError):
            self.drop()
            raise


def _reset(conn: smtplib.SMTP) -> None:
    try:
        conn.rset()
    except (smtplib.SMTPException, OSError):
        pass


def _close(conn: smtplib.SMTP) -> None:
    try:
        conn.quit()
    except (smtplib.SMTPException, OSError):
        try:
            conn.close()
        except OSError:
            pass


def _text(value: Optional[bytes | str]) -> str:
    if isinstance(value, bytes):
        return value.decode("utf-8", "replace")
    return str(value or "")


def _reply_text(recipients: dict) -> str:
    return "; ".join(f"{rcpt}: {code} {_text(reply)}" for rcpt, (code, reply) in recipients.items())
