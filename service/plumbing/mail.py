"""The one way Capua sends email: an outbox table, delivered after commit.

:func:`queue_mail` adds a ``mail_messages`` row in the caller's transaction, so a mail
exists exactly when the change that caused it was committed.  :func:`deliver` sends one
row and is idempotent: it claims the row with a conditional update (``pending`` ->
``sending``), so two workers handed the same id send it once, and a row already sent is a
no-op.  Who calls :func:`deliver` after a commit is decided by
:func:`notify_mail_committed` through :mod:`service.plumbing.dispatch`: the in-process
worker thread in the embedded mode (:mod:`service.inprocess`), the Celery task
``worker.tasks.deliver_mail`` when Redis is configured; both also sweep pending rows periodically, so a lost notification only
delays a mail.

Backends turn a finished :class:`email.message.EmailMessage` into a sent mail:
:class:`OutboxBackend` writes ``.eml`` files that ``/dev/outbox`` lists,
:class:`service.plumbing.smtp.SmtpBackend` hands them to a mail server.

A claim is a **lease** of ``CAPUA_MAIL_LEASE_SECONDS``: the send gives up before the lease
ends (every step of the SMTP conversation waits at most for what is left of it), so once
it has ended no live worker can still hand the message over.  A worker that dies between
its claim and recording the result leaves the row in ``sending``; :func:`reset_stuck`
(run by the sweeps every few seconds) puts it back to ``pending`` once the lease has
ended.  The ``Message-ID`` is derived from the row, so the one case where a
message may reach the server twice (the worker died after the server accepted the data
but before the row said ``sent``) hands over the same message twice, which receivers
recognise; see ``docs/notifications.md`` for the whole argument.
"""

from __future__ import annotations

import datetime as dt
import email.policy
import email.utils
import logging
import os
import re
import sys
import tempfile
import time
from dataclasses import dataclass
from email.message import EmailMessage
from email.parser import BytesParser
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Iterable, Mapping, Optional, Sequence, Union

from sqlalchemy import and_, or_, select, update
from sqlalchemy import text as sql
from sqlalchemy.orm import Session, sessionmaker

from service.plumbing import dispatch
from service.plumbing.config import Config
from service.plumbing.db import MailMessage, utcnow
from service.plumbing.mail_backend import MailBackend, PermanentMailError, send_by
from service.plumbing.smtp import SmtpBackend

if TYPE_CHECKING:
    from flask import Flask

log = logging.getLogger(__name__)

#: After this many failed attempts a message is marked ``failed`` and no longer retried.
MAX_ATTEMPTS = 8
#: The outbox file names this module writes (and the only ones ``/dev/outbox`` opens).
OUTBOX_FILE = re.compile(r"^\d{8}T\d{6}-\d+\.eml$")
_HEADER_UNSAFE = re.compile(r"[\r\n\x00]")
#: ``Session.info`` key of the ids queued in that session (see :func:`take_queued`).
_QUEUED = "capua.queued_mail"


class TransientMailError(Exception):
    """Sending failed and the message went back to ``pending``: try again later."""



#: A failed attempt is tried again after ``RETRY_FIRST_SECONDS``, doubling up to
#: ``RETRY_MAX_SECONDS`` (counted from the attempt's claim; see :func:`due_ids`).
RETRY_FIRST_SECONDS = 5
RETRY_MAX_SECONDS = 600


def lease(config: Config) -> dt.timedelta:
    """How long a claim holds a row: the sender must be done by then, and a claim older
    than this belongs to a dead worker (:func:`reset_stuck`)."""
    return dt.timedelta(seconds=config.mail_lease_seconds)


def _send_deadline(config: Config, claimed: float) -> float:
    """The ``time.monotonic()`` by which a send claimed at ``claimed`` must be over: a
    fifth of the lease (at most 3 s) before it ends, time for recording the outcome and
    for clocks of different machines that disagree a little."""
    seconds = config.mail_lease_seconds
    return claimed + seconds - min(3.0, seconds / 5)


def retry_delay(attempts: int) -> dt.timedelta:
    """How long after its last claim a message that failed ``attempts`` times waits."""
    return dt.timedelta(seconds=min(RETRY_MAX_SECONDS, RETRY_FIRST_SECONDS * 2 ** max(0, attempts - 1)))


# --------------------------------------------------------------------------- composing


def queue_mail(session: Session, *, to: str, subject: str, text: str, html: str = "", kind: str = "",
               headers: Optional[Mapping[str, str]] = None) -> MailMessage:
    """Add a message to the outbox in the caller's transaction; it is sent after commit.

    Header values must not contain line breaks: a value taken from user input could
    otherwise add headers of its own.
    """
    extra = {str(k): str(v) for k, v in (headers or {}).items()}
    for value in (to, subject, kind, *extra, *extra.values()):
        if _HEADER_UNSAFE.search(value):
            raise ValueError(f"line break in a mail header: {value!r}")
    message = MailMessage(to_address=to, subject=subject[:255], text_body=text, html_body=html or "",
                          kind=kind, headers=extra, status="pending", attempts=0, last_error="")
    session.add(message)
    session.flush()
    session.info.setdefault(_QUEUED, []).append(message.id)
    return message


def queue_mails(session: Session, messages: Sequence[Mapping[str, Any]]) -> list[MailMessage]:
    """:func:`queue_mail` for several messages (each a dict of its keyword arguments),
    written with one flush: the composer's batch inserts its mails in one round trip."""
    rows = []
    for m in messages:
        extra = {str(k): str(v) for k, v in (m.get("headers") or {}).items()}
        to, subject, kind = m["to"], m["subject"], m.get("kind", "")
        for value in (to, subject, kind, *extra, *extra.values()):
            if _HEADER_UNSAFE.search(value):
                raise ValueError(f"line break in a mail header: {value!r}")
        rows.append(MailMessage(to_address=to, subject=subject[:255], text_body=m["text"],
                                html_body=m.get("html") or "", kind=kind, headers=extra, status="pending",
                                attempts=0, last_error=""))
    if not rows:
        return []
    session.add_all(rows)
    session.flush()
    session.info.setdefault(_QUEUED, []).extend(r.id for r in rows)
    return rows


def take_queued(session: Session) -> list[int]:
    """Ids of the messages queued through ``session`` since the last call.

    A view calls it right after its commit and passes the ids to
    :func:`notify_mail_committed`.  Ids of a transaction that was rolled back may be among
    them; delivering those is a harmless no-op (there is no pending row to claim).
    """
    return session.info.pop(_QUEUED, [])


def build_email(config: Config, row: MailMessage) -> EmailMessage:
    """The RFC 5322 message for an outbox row: text, plus an HTML alternative if any.

    The ``Message-ID`` is derived from the row, so a message that had to be sent again
    (a worker died between sending and recording it) can be recognised as the same one.
    """
    msg = EmailMessage()
    msg["From"] = config.mail_from
    msg["To"] = row.to_address
    msg["Subject"] = row.subject
    msg["Date"] = email.utils.format_datetime(row.created_at)
    domain = email.utils.parseaddr(config.mail_from)[1].partition("@")[2] or "capua.invalid"
    msg["Message-ID"] = f"<capua-mail-{row.id}-{int(row.created_at.timestamp())}@{domain}>"
    msg["Auto-Submitted"] = "auto-generated"
    for name, value in (row.headers or {}).items():
        msg[name] = value
    msg.set_content(row.text_body)
    if row.html_body:
        msg.add_alternative(row.html_body, subtype="html")
    return msg


# --------------------------------------------------------------------------- backends


@dataclass(frozen=True)
class OutboxBackend:
    """Writes each message as ``<created>-<id>.eml`` into the outbox folder.

    The file is written under a temporary name and renamed into place, so a reader never
    sees half a message and sending the same row twice leaves one file.
    """

    directory: Path

    @classmethod
    def from_config(cls, config: Config) -> "OutboxBackend":
        return cls(Path(config.mail_outbox_dir))

    def send(self, message: EmailMessage, key: str) -> None:
        self.directory.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=self.directory, prefix=".sending-", suffix=".tmp")
        try:
            with os.fdopen(fd, "wb") as fh:
                fh.write(message.as_bytes(policy=email.policy.SMTP))
            os.replace(tmp, self.directory / f"{key}.eml")
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise


#: ``CAPUA_MAIL_BACKEND`` -> how to build that backend from the settings.
BACKENDS: dict[str, Callable[[Config], MailBackend]] = {
    "outbox": OutboxBackend.from_config,
    "smtp": SmtpBackend.from_config,
}


def backend_for(config: Config) -> MailBackend:
    try:
        factory = BACKENDS[config.mail_backend]
    except KeyError:
        raise ValueError(f"CAPUA_MAIL_BACKEND={config.mail_backend!r} is not available; "
                         f"choose one of {sorted(BACKENDS)}") from None
    return factory(config)


def outbox_key(row: MailMessage) -> str:
    return f"{row.created_at:%Y%m%dT%H%M%S}-{row.id}"


# --------------------------------------------------------------------------- delivering


def deliver(session_factory: sessionmaker, config: Config, message_id: int) -> bool:
    """Send outbox row ``message_id`` once; ``True`` if this call sent it.

    The claim is a conditional update from ``pending`` to ``sending`` committed before
    sending, so a duplicate task, a sweep and a notification racing for the same row
    send it once.  A failure puts the row back to ``pending`` and raises
    :class:`TransientMailError` (the sweep tries again after :func:`retry_delay`, the
    embedded worker after its own backoff) until :data:`MAX_ATTEMPTS`,
    after which the row is ``failed`` and ``False`` is returned; a
    :class:`PermanentMailError` fails it at once.
    """
    with session_factory() as session:
        started = time.monotonic()
        claimed = session.execute(
            update(MailMessage)
            .where(MailMessage.id == message_id, MailMessage.status == "pending")
            .values(status="sending", attempts=MailMessage.attempts + 1, claimed_at=utcnow())
        ).rowcount
        session.commit()
        if not claimed:
            return False
        row = session.get(MailMessage, message_id)
        try:
            _send_and_record(session, config, row, backend_for(config), _send_deadline(config, started))
        except Exception as err:
            return _send_failed(session, row, err)
        return True


def _send_and_record(session: Session, config: Config, row: MailMessage, backend: MailBackend,
                     deadline: float) -> None:
    """Hand a claimed row's message over and record it ``sent``, committed at once,
    message by message; raises what the backend raised, with the row as it was.

    A worker killed after the server accepted the message and before this commit leaves
    it unrecorded, and it is sent again when its lease ends: that window is kept as short
    as it can be.  On PostgreSQL the ``sent`` is written *before* the message is handed
    over, in a transaction that only the COMMIT is left of once the server has answered,
    and that COMMIT does not wait for the disk (``synchronous_commit`` off for it: a
    PostgreSQL crash in the next fraction of a second could forget it, and the message
    would go out again after its lease, which is the same at-least-once).  A row so
    written is locked until the answer, so no sweep could take it meanwhile either; and
    should the worker's machine vanish with the connection half open, PostgreSQL ends the
    transaction once it has been idle for the lease.  On SQLite a write would lock the
    whole database for the length of the send, so ``sent`` is written after the answer.
    """
    message = build_email(config, row)
    early = session.get_bind().dialect.name == "postgresql"
    if early:
        session.execute(sql("SELECT set_config('synchronous_commit', 'off', true), "
                            "set_config('idle_in_transaction_session_timeout', :ms, true)"),
                        {"ms": str(config.mail_lease_seconds * 1000)})
        _mark_sent(session, row)
    try:
        with send_by(deadline):
            backend.send(message, outbox_key(row))
    except BaseException:
        if early:
            session.rollback()
        raise
    if not early:
        _mark_sent(session, row)
    try:
        session.commit()
    except BaseException:
        session.rollback()
        raise


def _mark_sent(session: Session, row: MailMessage) -> None:
    row.status = "sent"
    row.sent_at = utcnow()
    row.last_error = ""
    row.claimed_at = None
    session.flush()


def _send_failed(session: Session, row: MailMessage, err: BaseException) -> bool:
    """Record a failed attempt: back to ``pending`` (raising :class:`TransientMailError`)
    or, after :data:`MAX_ATTEMPTS` or a permanent refusal, ``failed`` (returning ``False``)."""
    final = row.attempts >= MAX_ATTEMPTS or isinstance(err, PermanentMailError)
    row.status = "failed" if final else "pending"  # claimed_at stays: the retry waits from it
    row.last_error = f"{type(err).__name__}: {err}"[:2000]
    session.commit()
    if final:
        log.error("mail %s failed for good after %s attempts: %s", row.id, row.attempts, row.last_error)
        return False
    raise TransientMailError(f"mail {row.id}: {row.last_error}") from err


#: :func:`deliver_many` claims this many rows at a time: a worker that dies leaves at most
#: these waiting for their lease, however long the burst it was sending.
CLAIM_CHUNK = 10


def deliver_many(session_factory: sessionmaker, config: Config, message_ids: Iterable[int]) -> tuple[int, list[int]]:
    """:func:`deliver` for several rows over one backend connection, claimed
    :data:`CLAIM_CHUNK` at a time: ``(sent, ids that failed transiently)``.  What a
    composer calls for the mail it just queued.  Each message the server accepted is
    recorded at once (one commit each)."""
    ids = [int(i) for i in message_ids]
    sent, retry = 0, []
    backend = backend_for(config) if ids else None
    for start in range(0, len(ids), CLAIM_CHUNK):
        chunk_sent, chunk_retry = _deliver_chunk(session_factory, config, backend, ids[start:start + CLAIM_CHUNK])
        sent += chunk_sent
        retry.extend(chunk_retry)
    return sent, retry


def _deliver_chunk(session_factory: sessionmaker, config: Config, backend: MailBackend,
                   ids: list[int]) -> tuple[int, list[int]]:
    sent, retry = 0, []
    with session_factory() as session:
        started, stamp = time.monotonic(), utcnow()
        claimed = list(session.scalars(
            update(MailMessage)
            .where(MailMessage.id.in_(ids), MailMessage.status == "pending")
            .values(status="sending", attempts=MailMessage.attempts + 1, claimed_at=stamp)
            .returning(MailMessage.id)
        ))
        session.commit()
        rows = list(session.scalars(select(MailMessage).where(MailMessage.id.in_(claimed)).order_by(MailMessage.id)))
        while rows:
            if time.monotonic() - started > config.mail_lease_seconds / 2:
                # Half the lease is gone: renew it for the rows still to send, before
                # anyone could take them for a dead worker's.
                started, stamp, rows = _renew(session, rows, stamp)
                continue
            row = rows.pop(0)
            try:
                # A worker that dies after the server accepted a message leaves at most
                # that one message unrecorded (sent again later, with the same Message-ID).
                _send_and_record(session, config, row, backend, _send_deadline(config, started))
            except Exception:
                try:
                    _send_failed(session, row, sys.exc_info()[1])
                except TransientMailError as err:
                    log.warning("%s", err)
                    retry.append(row.id)
                continue
            sent += 1
    return sent, retry


def _renew(session: Session, rows: list[MailMessage], stamp: dt.datetime) -> tuple[float, dt.datetime, list[MailMessage]]:
    """A new lease on ``rows``, claimed at ``stamp`` by this worker; rows whose claim is no
    longer this one (a sweep took them) are left out.  Returns the new lease's start (monotonic
    and database time) and the rows it holds."""
    started, renewed = time.monotonic(), utcnow()
    held = set(session.scalars(
        update(MailMessage)
        .where(MailMessage.id.in_([r.id for r in rows]), MailMessage.status == "sending",
               MailMessage.claimed_at == stamp)
        .values(claimed_at=renewed)
        .returning(MailMessage.id)))
    session.commit()
    return started, renewed, [r for r in rows if r.id in held]


def reset_stuck(session_factory: sessionmaker, config: Config, now: Optional[dt.datetime] = None) -> list[int]:
    """Put back to ``pending`` the rows a dead worker left in ``sending``; returns their ids.

    A claim older than its lease (``CAPUA_MAIL_LEASE_SECONDS``) cannot belong to a live
    send: a send gives up before its lease ends.
    """
    now = now or utcnow()
    stale = now - lease(config)
    with session_factory() as session:
        # The ids come from the update itself: a row whose sender is recording it ``sent``
        # right now is locked, and once its commit is through, it no longer qualifies.
        ids = sorted(session.scalars(
            update(MailMessage)
            .where(MailMessage.status == "sending",
                   or_(MailMessage.claimed_at.is_(None), MailMessage.claimed_at < stale))
            .values(status="pending", claimed_at=None, last_error="the worker sending it stopped; sending again")
            .returning(MailMessage.id)))
        session.commit()
    if not ids:
        return []
    log.warning("mail %s was stuck with a dead worker; it goes out again", ids)
    return ids


def pending_ids(session_factory: sessionmaker, limit: int = 500) -> list[int]:
    """Ids of the oldest messages waiting to be sent."""
    with session_factory() as session:
        return list(session.scalars(
            select(MailMessage.id).where(MailMessage.status == "pending").order_by(MailMessage.id).limit(limit)
        ))


def due_ids(session_factory: sessionmaker, now: Optional[dt.datetime] = None, limit: int = 500) -> list[int]:
    """Ids of the pending messages that are due: a failed one once :func:`retry_delay` has
    passed since its last claim, a new one once the task its commit enqueued had
    :data:`RETRY_FIRST_SECONDS` to take it.  What the beat sweep enqueues."""
    now = now or utcnow()
    waited = [and_(MailMessage.attempts == n, MailMessage.claimed_at <= now - retry_delay(n))
              for n in range(1, MAX_ATTEMPTS + 1)]
    with session_factory() as session:
        return list(session.scalars(
            select(MailMessage.id).where(
                MailMessage.status == "pending",
                or_(and_(MailMessage.attempts == 0, MailMessage.created_at <= now - retry_delay(1)),
                    and_(MailMessage.attempts > 0, MailMessage.claimed_at.is_(None)), *waited))
            .order_by(MailMessage.id).limit(limit)))


def deliver_pending(session_factory: sessionmaker, config: Config) -> int:
    """Try every pending message once; returns how many were sent.

    A message that fails stays pending for the next round (its error is logged and
    recorded on the row), so one bad message never holds up the others.
    """
    sent = 0
    for message_id in pending_ids(session_factory, limit=1_000_000):
        try:
            sent += deliver(session_factory, config, message_id)
        except TransientMailError as err:
            log.warning("%s", err)
    return sent


def notify_mail_committed(app_or_config: Union["Flask", Config], ids: Iterable[int]) -> None:
    """Have the messages ``ids`` (just committed) delivered soon, without waiting for it.

    Whoever registered for the mode in :mod:`service.plumbing.dispatch` is told: the
    in-process worker in the embedded mode, a Celery task per id with Redis.  Failing to
    enqueue is logged and otherwise ignored: the row is committed and the periodic sweep
    sends it.
    """
    config = app_or_config if isinstance(app_or_config, Config) else app_or_config.extensions["capua.config"]
    dispatch.mail_committed(config, ids)


# --------------------------------------------------------------------------- reading the outbox


@dataclass(frozen=True)
class OutboxEntry:
    name: str
    to: str
    subject: str
    date: str
    text: str = ""
    html: str = ""


def list_outbox(config: Config, limit: int = 200) -> list[OutboxEntry]:
    """The newest messages in the local outbox folder, newest first (headers only)."""
    directory = Path(config.mail_outbox_dir)
    if not directory.is_dir():
        return []
    names = sorted((p.name for p in directory.iterdir() if OUTBOX_FILE.match(p.name)),
                   key=_outbox_sort_key, reverse=True)[:limit]
    parser = BytesParser(policy=email.policy.default)
    entries = []
    for name in names:
        with open(directory / name, "rb") as fh:
            msg = parser.parse(fh, headersonly=True)
        entries.append(OutboxEntry(name=name, to=str(msg["To"] or ""), subject=str(msg["Subject"] or ""),
                                   date=str(msg["Date"] or "")))
    return entries


def read_outbox(config: Config, name: str) -> Optional[OutboxEntry]:
    """One outbox message with its text and HTML bodies, or ``None``.

    ``name`` comes from a URL, so only names this module writes are opened: nothing
    outside the outbox folder can be read through it.
    """
    if not OUTBOX_FILE.match(name):
        return None
    path = Path(config.mail_outbox_dir) / name
    if not path.is_file():
        return None
    with open(path, "rb") as fh:
        msg = BytesParser(policy=email.policy.default).parse(fh)
    text = msg.get_body(preferencelist=("plain",))
    html = msg.get_body(preferencelist=("html",))
    return OutboxEntry(name=name, to=str(msg["To"] or ""), subject=str(msg["Subject"] or ""),
                       date=str(msg["Date"] or ""), text=text.get_content() if text else "",
                       html=html.get_content() if html else "")


def _outbox_sort_key(name: str) -> tuple[str, int]:
    stamp, _, rest = name.partition("-")
    return stamp, int(rest.split(".")[0])
