"""Sending webhook messages: sign, POST, log, retry on schedule, disable what keeps failing.

:func:`deliver` takes one outbox row id and is idempotent: it claims the row with a
conditional update (``pending`` and due, or ``sending`` with an expired lease ->
``sending`` until a new lease), so a duplicate task, a sweep and a notification racing
for the same row send it once, and a worker that dies mid-send only delays it until
the lease runs out.  No database transaction stays open while the HTTP request runs.

Following the Standard Webhooks spec:

* headers ``webhook-id`` (the row's ``msg_...``, the same on every attempt),
  ``webhook-timestamp`` (this attempt, Unix seconds) and ``webhook-signature``
  (``v1,<base64 HMAC-SHA256 of "id.timestamp.body">``, one per live secret,
  space-separated, so a rotation never breaks a receiver);
* a ``2xx`` answer is success, anything else (redirects included, never followed) is a
  failure; failures are retried after the delays of ``CAPUA_WEBHOOK_RETRY_SCHEDULE``
  (5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h), each jittered by up to a fifth so a
  receiver that came back is not hit by every sender at once, and never sooner than a
  ``Retry-After`` the receiver sent;
* ``410 Gone`` disables the endpoint at once; so does a message that failed its whole
  schedule, and an address that turns out to be internal (see :mod:`service.plumbing.netguard`).
  The owner gets an email saying why, queued in the same transaction as the change.

Production runs :func:`deliver` in the Celery task ``worker.tasks.deliver_webhook`` with a
beat sweep (:func:`due_ids`); the embedded mode runs :class:`WebhookDeliveryJob` in the
in-process worker thread.  Retries are rows with a later ``next_attempt_at``, never long
task countdowns.
"""

from __future__ import annotations

import datetime as dt
import email.utils
import http.client
import logging
import random
import socket
import ssl
import time
import urllib.parse
from dataclasses import dataclass
from typing import Any, Callable, Iterable, Mapping, Optional

from sqlalchemy import and_, or_, select, update
from standardwebhooks import Webhook
from sqlalchemy.orm import Session, sessionmaker

from service.notify import webhooks
from service.notify.webhooks import signing_secrets
from service.plumbing import dispatch, mail, netguard
from service.plumbing.config import Config
from service.plumbing.db import User, WebhookAttempt, WebhookDelivery, WebhookEndpoint, utcnow
from service.words import i18n

log = logging.getLogger(__name__)

USER_AGENT = "Capua-Webhooks/1"
#: Bytes of a receiver's answer kept in the delivery log.
RESPONSE_EXCERPT_BYTES = 2048
#: A ``Retry-After`` is honoured up to this long; beyond it the schedule decides.
MAX_RETRY_AFTER_SECONDS = 24 * 3600
#: Each delay is multiplied by a random factor in ``1 ± JITTER``.
JITTER = 0.2


@dataclass(frozen=True)
class Answer:
    """What a receiver said: status, headers (lower-cased names), the start of its body."""

    status: int
    headers: Mapping[str, str]
    excerpt: str


Transport = Callable[[netguard.Target, bytes, Mapping[str, str], float], Answer]


# --------------------------------------------------------------------------- signing and sending


def sign(secret: str, message_id: str, timestamp: int, body: bytes) -> str:
    """The spec's symmetric signature (``v1,`` + base64 HMAC-SHA256 of ``id.timestamp.body``),
    made by the Standard Webhooks reference library that receivers verify with."""
    moment = dt.datetime.fromtimestamp(timestamp, tz=dt.timezone.utc)
    return Webhook(secret).sign(message_id, moment, body.decode("utf-8"))


def signed_headers(secrets_: Iterable[str], message_id: str, timestamp: int, body: bytes) -> dict[str, str]:
    return {
        "content-type": "application/json",
        "user-agent": USER_AGENT,
        "webhook-id": message_id,
        "webhook-timestamp": str(timestamp),
        "webhook-signature": " ".join(sign(s, message_id, timestamp, body) for s in secrets_),
    }


class _PinnedHTTPConnection(http.client.HTTPConnection):
    """Connects to an address checked beforehand, not to whatever the name resolves to now.

    This stops DNS rebinding: a receiver's name that resolved to a public address when
    :mod:`service.plumbing.netguard` checked it cannot point the connection at loopback or
    a private network a moment later.  HTTP libraries resolve the name again when they
    connect, which is why the connection is made here, to the pinned address.
    """

    def __init__(self, target: netguard.Target, timeout: float) -> None:
        super().__init__(target.host, target.port, timeout=timeout)
        self._address = target.address

    def connect(self) -> None:
        self.sock = socket.create_connection((self._address, self.port), self.timeout)


class _PinnedHTTPSConnection(http.client.HTTPSConnection):
    """Like :class:`_PinnedHTTPConnection`, with TLS checked against the URL's host name."""

    def __init__(self, target: netguard.Target, timeout: float) -> None:
        super().__init__(target.host, target.port, timeout=timeout, context=ssl.create_default_context())
        self._address = target.address

    def connect(self) -> None:
        sock = socket.create_connection((self._address, self.port), self.timeout)
        self.sock = self._context.wrap_socket(sock, server_hostname=self.host)


def post(target: netguard.Target, body: bytes, headers: Mapping[str, str], timeout: float) -> Answer:
    """POST ``body`` to ``target`` (its checked address); redirects are not followed."""
    cls = _PinnedHTTPSConnection if target.scheme == "https" else _PinnedHTTPConnection
    connection = cls(target, timeout)
    try:
        connection.request("POST", target.path, body=body, headers=dict(headers))
        response = connection.getresponse()
        excerpt = response.read(RESPONSE_EXCERPT_BYTES).decode("utf-8", "replace")
        return Answer(status=response.status, headers={k.lower(): v for k, v in response.getheaders()},
                      excerpt=excerpt)
    finally:
        connection.close()


def retry_after_seconds(value: Optional[str], now: dt.datetime) -> Optional[float]:
    """A ``Retry-After`` value (seconds or an HTTP date) in seconds from ``now``."""
    if not value:
        return None
    value = value.strip()
    if value.isdigit():
        return min(float(value), MAX_RETRY_AFTER_SECONDS)
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError, IndexError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=dt.timezone.utc)
    return min(max(0.0, (when - now).total_seconds()), MAX_RETRY_AFTER_SECONDS)


def jittered(delay: float, rng: Callable[[float, float], float] = random.uniform) -> float:
    return max(0.0, delay * rng(1 - JITTER, 1 + JITTER))


# --------------------------------------------------------------------------- delivering


def deliver(sessions: sessionmaker, config: Config, delivery_id: int, *, transport: Transport = post,
            now: Optional[dt.datetime] = None) -> str:
    """Attempt delivery ``delivery_id`` if it is due; returns what became of it:
    ``succeeded``, ``retry`` (pending again, for later), ``failed``, or ``skipped``
    (not due, or another worker has it)."""
    now = now or utcnow()
    lease = now + dt.timedelta(seconds=2 * config.webhook_timeout_seconds + 30)
    with sessions() as session:
        claimed = session.execute(
            update(WebhookDelivery)
            .where(WebhookDelivery.id == delivery_id, _claimable(now))
            .values(status="sending", locked_until=lease, attempts=WebhookDelivery.attempts + 1)
        ).rowcount
        session.commit()
        if not claimed:
            return "skipped"
        delivery = session.get(WebhookDelivery, delivery_id)
        endpoint = session.get(WebhookEndpoint, delivery.endpoint_id)
        if endpoint.status != "enabled":
            delivery.status, delivery.locked_until = "failed", None
            delivery.attempts -= 1
            delivery.last_error = f"not sent: the webhook is disabled ({endpoint.disabled_reason})"
            session.commit()
            return "failed"
        body = delivery.payload.encode("utf-8")
        headers = signed_headers(signing_secrets(endpoint, now), delivery.message_id, int(time.time()), body)
        url = endpoint.url
        session.commit()  # nothing is held open while the receiver takes its time

        started, clock = utcnow(), time.monotonic()
        answer: Optional[Answer] = None
        refused: Optional[str] = None
        error = ""
        try:
            target = netguard.resolve_checked(url, allow_private=config.webhooks_allow_private)
            answer = transport(target, body, headers, float(config.webhook_timeout_seconds))
        except netguard.AddressRefused as err:
            refused = error = f"refused: {err.message}"
        except (OSError, http.client.HTTPException, ssl.SSLError) as err:
            error = f"{type(err).__name__}: {err}"[:1000]
        session.add(WebhookAttempt(delivery_id=delivery.id, started_at=started,
                                   duration_ms=int((time.monotonic() - clock) * 1000),
                                   status_code=answer.status if answer else None, error=error,
                                   response_excerpt=answer.excerpt if answer else "", manual=False))
        delivery.locked_until = None
        delivery.last_status_code = answer.status if answer else None
        outcome = _settle(session, config, delivery, endpoint, answer, error, refused, now)
        session.commit()
        mail.notify_mail_committed(config, mail.take_queued(session))
        return outcome


def _settle(session: Session, config: Config, delivery: WebhookDelivery, endpoint: WebhookEndpoint,
            answer: Optional[Answer], error: str, refused: Optional[str], now: dt.datetime) -> str:
    """Record the attempt's outcome; the next attempt is scheduled from ``now``, the
    moment this attempt was made."""
    if answer is not None and 200 <= answer.status < 300:
        delivery.status, delivery.delivered_at, delivery.last_error = "succeeded", utcnow(), ""
        return "succeeded"
    if refused is not None:
        delivery.status, delivery.last_error = "failed", refused
        disable(session, config, endpoint, "address_refused",
                {"host": urllib.parse.urlsplit(endpoint.url).hostname or "", "detail": refused[len("refused: "):]})
        return "failed"
    if answer is not None and answer.status == 410:
        delivery.status, delivery.last_error = "failed", "the receiver answered 410 Gone"
        disable(session, config, endpoint, "gone_410")
        return "failed"
    delivery.last_error = error or f"the receiver answered {answer.status}"
    delays = config.webhook_retry_delays
    if delivery.attempts > len(delays):
        delivery.status = "failed"
        disable(session, config, endpoint, "retries_exhausted",
                {"attempts": delivery.attempts, "status": answer.status if answer is not None else None,
                 "error": delivery.last_error})
        return "failed"
    wait = jittered(delays[delivery.attempts - 1])
    asked = retry_after_seconds(answer.headers.get("retry-after") if answer else None, now)
    if asked is not None:
        wait = max(wait, asked)
    delivery.status = "pending"
    delivery.next_attempt_at = now + dt.timedelta(seconds=wait)
    return "retry"


def disable(session: Session, config: Config, endpoint: WebhookEndpoint, code: str,
            details: Optional[Mapping[str, Any]] = None) -> bool:
    """Turn ``endpoint`` off for the reason ``code`` (one of
    :data:`service.notify.webhooks.DISABLED_CODES`, with its ``details``) and email its owner
    why, in their language; ``False`` if it already was off.

    The conditional update makes one of several failures racing to disable it the one
    that sends the email.
    """
    now = utcnow()
    details = dict(details) if details else None
    reason = webhooks.reason_sentence(code, details)
    changed = session.execute(
        update(WebhookEndpoint)
        .where(WebhookEndpoint.id == endpoint.id, WebhookEndpoint.status == "enabled")
        .values(status="disabled", disabled_reason=reason, disabled_code=code, disabled_details=details,
                disabled_at=now, updated_at=now)
        .execution_options(synchronize_session=False)
    ).rowcount
    if not changed:
        return False
    session.refresh(endpoint)
    owner = session.get(User, endpoint.user_id)
    if owner is not None:
        from service.identity import settings

        prefs = settings.preferences_for(session, [owner], None).get(owner.id)
        language = i18n.language_or_default(prefs.language if prefs is not None else owner.language)
        env = i18n.mail_environment(language)
        _ = i18n.translator(language)
        context = {"endpoint": endpoint, "reason": webhooks.disabled_reason_text(endpoint, language),
                   "language": language,
                   "settings_url": f"{config.base_url.rstrip('/')}/settings/webhooks/{endpoint.id}"}
        mail.queue_mail(session, to=owner.email, subject=_("Capua: a webhook of yours was turned off"),
                        text=env.get_template("webhooks/mail_disabled.txt").render(**context),
                        html=env.get_template("webhooks/mail_disabled.html").render(**context),
                        kind="webhook_disabled")
    log.warning("webhook %s disabled (%s): %s", endpoint.id, code, reason)
    return True


def _claimable(now: dt.datetime):
    return or_(
        and_(WebhookDelivery.status == "pending", WebhookDelivery.next_attempt_at <= now),
        and_(WebhookDelivery.status == "sending", WebhookDelivery.locked_until < now),
    )


def due_ids(sessions: sessionmaker, *, now: Optional[dt.datetime] = None, limit: int = 500) -> list[int]:
    """Ids of the messages due now (and of sends whose worker died), oldest first."""
    with sessions() as session:
        return list(session.scalars(
            select(WebhookDelivery.id).where(_claimable(now or utcnow())).order_by(WebhookDelivery.id).limit(limit)
        ))


def deliver_due(sessions: sessionmaker, config: Config, *, transport: Transport = post,
                now: Optional[dt.datetime] = None) -> dict[str, int]:
    """Attempt every message due now, once; counts per outcome."""
    counts: dict[str, int] = {}
    for delivery_id in due_ids(sessions, now=now):
        try:
            outcome = deliver(sessions, config, delivery_id, transport=transport, now=now)
        except Exception:  # one broken row must not hold up the others
            log.exception("webhook delivery %s failed unexpectedly", delivery_id)
            outcome = "error"
        counts[outcome] = counts.get(outcome, 0) + 1
    return counts


class WebhookDeliveryJob:
    """The in-process worker's job: send whatever is due (retries are rows with a later
    ``next_attempt_at``, so each round picks up the ones whose time has come)."""

    def __call__(self, sessions: sessionmaker, config: Config) -> dict[str, int]:
        return deliver_due(sessions, config)


def notify_committed(config: Config, ids: Iterable[int]) -> None:
    """Have the just-committed messages ``ids`` sent soon, without waiting for it (through
    :mod:`service.plumbing.dispatch`: the in-process worker, or a Celery task per id).
    A broker that cannot be reached is logged: the beat sweep sends the rows anyway."""
    dispatch.webhooks_committed(config, ids)


def seconds_until_due(sessions: sessionmaker, delivery_id: int) -> Optional[float]:
    """Seconds until a pending message's next attempt (``None`` if it is not pending)."""
    with sessions() as session:
        row = session.execute(
            select(WebhookDelivery.status, WebhookDelivery.next_attempt_at).where(WebhookDelivery.id == delivery_id)
        ).first()
    if row is None or row.status != "pending":
        return None
    return max(0.0, (row.next_attempt_at - utcnow()).total_seconds())
