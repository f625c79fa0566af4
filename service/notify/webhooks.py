"""Webhooks: users subscribe URLs to their games, and Capua POSTs them what happens.

An **endpoint** belongs to one user and covers one game (``game_id``) or every game the
user holds a seat in (``game_id`` null), for the **event types** the user chose
(:data:`EVENT_TYPES`).  What it receives is exactly what its owner may see: game events
go through ``rules.visible(event, seat)`` for the owner's seat (the spectator's view,
``None``, if they hold none), a decision only reaches the seat it is addressed to, and
table talk only its recipients.  Nothing here reads raw state or raw events for output.

Messages are **outbox rows** (:class:`~service.plumbing.db.WebhookDelivery`) written by
:func:`on_append`, a :mod:`service.play.fanout` listener, in the transaction that appends
the events (and by :mod:`service.notify.talk` in the transaction that stores a message), so a
webhook exists exactly when its change was committed.  The body is rendered once, at
enqueue time; :mod:`service.notify.webhook_delivery` signs and sends it after commit, retries
it, and logs every attempt.  Once the transaction commits, the ids it queued are handed
to the worker (the in-process thread, or a Celery task each) by a session hook.

Payloads follow the Standard Webhooks shape ``{"type", "timestamp", "data"}``; each
message has its own ``webhook-id`` (``msg_...``), the same on every retry.
"""

from __future__ import annotations

import base64
import datetime as dt
import json
import logging
import secrets
from typing import Any, Iterable, Mapping, Optional, Sequence

from sqlalchemy import delete, func, or_, select
from sqlalchemy.orm import Session

from engine.core.game import Rules
from engine.core.types import Event
from service.play import fanout
from service.plumbing import dispatch, netguard
from service.plumbing.config import Config
from service.words import i18n
from service.plumbing.db import (
    Game,
    Seat,
    User,
    WebhookAttempt,
    WebhookDelivery,
    WebhookEndpoint,
    utcnow,
)
from service.plumbing.errors import Conflict, InvalidInput, NotFound

log = logging.getLogger(__name__)

#: The event types an endpoint may subscribe to, with what each one carries.
EVENT_TYPES: dict[str, str] = {
    "game.events": "What happened in the game, as you may see it: one message per change, with every event "
                   "it caused (a move and the chance and bot moves that followed).",
    "decision.opened": "A decision of yours has opened (it is your turn, or you may respond): its options, "
                       "default and deadline.",
    "game.started": "A game you are in has started (every seat is filled).",
    "game.finished": "A game has ended, with its outcome.",
    "talk.message": "A table-talk message you may read (public, or private to you).",
}
#: Sent only on request (``POST /webhooks/{id}/test``), whatever the endpoint chose.
TEST_EVENT = "webhook.test"
SECRET_PREFIX = "whsec_"
SECRET_BYTES = 32
MAX_ENDPOINTS_PER_USER = 20
#: The most characters of an endpoint's description.
MAX_DESCRIPTION = 200
#: Why an endpoint was turned off (``disabled_code``), each told to its owner in their
#: language from ``disabled_details``; ``other`` is an older reason kept as it was written.
DISABLED_CODES = ("by_owner", "gone_410", "retries_exhausted", "address_refused", "other")
#: How long a rotated-out secret keeps signing, unless the rotation says otherwise.
DEFAULT_ROTATION_GRACE_HOURS = 24
MAX_ROTATION_GRACE_HOURS = 24 * 7
MAX_DELIVERIES_PAGE = 100



# --------------------------------------------------------------------------- endpoints


def new_secret() -> str:
    """A fresh signing secret: ``whsec_`` and 32 random bytes in base64 (the spec asks 24-64)."""
    return SECRET_PREFIX + base64.b64encode(secrets.token_bytes(SECRET_BYTES)).decode("ascii")


def create_endpoint(session: Session, config: Config, user: User, *, url: Any, game_id: Optional[str] = None,
                    event_types: Optional[Sequence[str]] = None, description: str = "") -> WebhookEndpoint:
    """Subscribe ``url``; returns the endpoint (its ``secret`` is for the owner's eyes).

    Everything is checked before anything is written, so a refused registration
    changes nothing: the URL (scheme, no credentials, no internal address unless the
    operator allows it), the game (it must exist; a game the user holds no seat in is
    watched with the spectator's view), the event types, the per-user limit.
    """
    checked_url = _checked_url(config, url)
    types = _checked_event_types(event_types)
    description = _checked_description(description)
    if game_id is not None:
        _existing_game(session, game_id)
    count = session.scalar(select(func.count(WebhookEndpoint.id)).where(WebhookEndpoint.user_id == user.id))
    if count >= MAX_ENDPOINTS_PER_USER:
        raise Conflict(f"you have {count} webhooks already; delete one first", code="too_many_webhooks",
                       details={"limit": MAX_ENDPOINTS_PER_USER})
    now = utcnow()
    endpoint = WebhookEndpoint(user_id=user.id, game_id=game_id, url=checked_url, description=description,
                               event_types=types, secret=new_secret(), status="enabled", disabled_reason="",
                               created_at=now, updated_at=now)
    session.add(endpoint)
    session.flush()
    return endpoint


def list_endpoints(session: Session, user: User) -> list[WebhookEndpoint]:
    return list(session.scalars(
        select(WebhookEndpoint).where(WebhookEndpoint.user_id == user.id).order_by(WebhookEndpoint.id)
    ))


def get_endpoint(session: Session, user: User, endpoint_id: int) -> WebhookEndpoint:
    """One of ``user``'s endpoints; anybody else's is reported as not found."""
    endpoint = session.get(WebhookEndpoint, endpoint_id) if type(endpoint_id) is int else None
    if endpoint is None or endpoint.user_id != user.id:
        raise NotFound(f"you have no webhook {endpoint_id}", code="webhook_not_found")
    return endpoint


def update_endpoint(session: Session, config: Config, user: User, endpoint_id: int, *,
                    url: Any = None, event_types: Optional[Sequence[str]] = None,
                    description: Optional[str] = None, enabled: Optional[bool] = None) -> WebhookEndpoint:
    """Change an endpoint; ``enabled=True`` turns a disabled one back on (pending messages
    resume; failed ones can be redelivered)."""
    endpoint = get_endpoint(session, user, endpoint_id)
    new_url = _checked_url(config, url) if url is not None else None
    types = _checked_event_types(event_types) if event_types is not None else None
    text = _checked_description(description) if description is not None else None
    if new_url is not None:
        endpoint.url = new_url
    if types is not None:
        endpoint.event_types = types
    if text is not None:
        endpoint.description = text
    if enabled is True and endpoint.status != "enabled":
        endpoint.status, endpoint.disabled_at = "enabled", None
        endpoint.disabled_reason, endpoint.disabled_code, endpoint.disabled_details = "", "", None
    elif enabled is False and endpoint.status == "enabled":
        endpoint.status, endpoint.disabled_at = "disabled", utcnow()
        endpoint.disabled_code, endpoint.disabled_details = "by_owner", None
        endpoint.disabled_reason = reason_sentence("by_owner", None)
    endpoint.updated_at = utcnow()
    session.flush()
    return endpoint


def reason_sentence(code: str, details: Optional[Mapping[str, Any]]) -> str:
    """The English sentence of ``disabled_reason``, as the API has always shown it
    (at most 300 characters); :func:`disabled_reason_text` tells it in a language."""
    details = details or {}
    if code == "by_owner":
        text = "disabled by you"
    elif code == "gone_410":
        text = "the receiver answered 410 Gone"
    elif code == "address_refused":
        text = f"its address was refused ({details.get('detail', '')})"
    elif code == "retries_exhausted":
        text = f"a message failed {details.get('attempts', '?')} attempts in a row (last: {details.get('error', '')})"
    else:
        text = str(details.get("text", ""))
    return text[:300]


def disabled_reason_text(endpoint: WebhookEndpoint, language: str) -> str:
    """Why ``endpoint`` is off, in ``language`` (de, en, ru); ``""`` while it is on.

    Told from ``disabled_code`` and ``disabled_details``; what a receiver or the network
    said (an error message, a host name) is quoted as it was.  A reason from before
    codes existed (``other``) is shown as it was written.
    """
    if endpoint.status == "enabled" or not endpoint.disabled_code:
        return ""
    _ = i18n.translator(language)
    details = endpoint.disabled_details or {}
    code = endpoint.disabled_code
    if code == "by_owner":
        return _("You turned it off.")
    if code == "gone_410":
        return _("Your server answered 410 Gone, which asks for no more messages.")
    if code == "address_refused":
        return _("Its address may not be called: %(host)s is not a public internet address.",
                 host=details.get("host") or "?")
    if code == "retries_exhausted":
        if details.get("status"):
            return _("A message failed %(attempts)s attempts in a row; the last answer was HTTP %(status)s.",
                     attempts=details.get("attempts", "?"), status=details["status"])
        return _("A message failed %(attempts)s attempts in a row; the last attempt got no answer (%(error)s).",
                 attempts=details.get("attempts", "?"), error=details.get("error") or "?")
    return endpoint.disabled_reason


def delete_endpoint(session: Session, user: User, endpoint_id: int) -> None:
    endpoint = get_endpoint(session, user, endpoint_id)
    ids = select(WebhookDelivery.id).where(WebhookDelivery.endpoint_id == endpoint.id)
    session.execute(delete(WebhookAttempt).where(WebhookAttempt.delivery_id.in_(ids)))
    session.execute(delete(WebhookDelivery).where(WebhookDelivery.endpoint_id == endpoint.id))
    session.delete(endpoint)
    session.flush()


def rotate_secret(session: Session, user: User, endpoint_id: int,
                  grace_hours: int = DEFAULT_ROTATION_GRACE_HOURS) -> WebhookEndpoint:
    """Give the endpoint a new secret; the old one keeps signing for ``grace_hours``.

    During the grace period every message carries both signatures (the spec's
    space-separated list), so the receiver can switch secrets whenever it likes.
    ``grace_hours=0`` drops the old secret at once (it leaked).
    """
    if type(grace_hours) is not int or not 0 <= grace_hours <= MAX_ROTATION_GRACE_HOURS:
        raise InvalidInput(f"grace_hours must be between 0 and {MAX_ROTATION_GRACE_HOURS}",
                           details={"field": "grace_hours"})
    endpoint = get_endpoint(session, user, endpoint_id)
    now = utcnow()
    if grace_hours:
        endpoint.previous_secret = endpoint.secret
        endpoint.previous_secret_expires_at = now + dt.timedelta(hours=grace_hours)
    else:
        endpoint.previous_secret = None
        endpoint.previous_secret_expires_at = None
    endpoint.secret = new_secret()
    endpoint.updated_at = now
    session.flush()
    return endpoint


def signing_secrets(endpoint: WebhookEndpoint, now: Optional[dt.datetime] = None) -> list[str]:
    """The secrets a message is signed with now: the current one, and the previous one
    while its grace period lasts."""
    now = now or utcnow()
    out = [endpoint.secret]
    if endpoint.previous_secret and endpoint.previous_secret_expires_at and endpoint.previous_secret_expires_at > now:
        out.append(endpoint.previous_secret)
    return out


# --------------------------------------------------------------------------- the delivery log


def list_deliveries(session: Session, user: User, endpoint_id: int, *, status: Optional[str] = None,
                    before: Optional[int] = None, limit: int = 50) -> list[WebhookDelivery]:
    """The endpoint's messages, newest first; page on with ``before`` = the last id seen."""
    endpoint = get_endpoint(session, user, endpoint_id)
    query = select(WebhookDelivery).where(WebhookDelivery.endpoint_id == endpoint.id)
    if status is not None:
        query = query.where(WebhookDelivery.status == status)
    if before is not None:
        query = query.where(WebhookDelivery.id < before)
    limit = max(1, min(int(limit), MAX_DELIVERIES_PAGE))
    return list(session.scalars(query.order_by(WebhookDelivery.id.desc()).limit(limit)))


def get_delivery(session: Session, user: User, endpoint_id: int, delivery_id: int) -> WebhookDelivery:
    endpoint = get_endpoint(session, user, endpoint_id)
    delivery = session.get(WebhookDelivery, delivery_id) if type(delivery_id) is int else None
    if delivery is None or delivery.endpoint_id != endpoint.id:
        raise NotFound(f"webhook {endpoint_id} has no delivery {delivery_id}", code="delivery_not_found")
    return delivery


def attempts_of(session: Session, delivery: WebhookDelivery) -> list[WebhookAttempt]:
    return list(session.scalars(
        select(WebhookAttempt).where(WebhookAttempt.delivery_id == delivery.id).order_by(WebhookAttempt.id)
    ))


def redeliver(session: Session, config: Config, user: User, endpoint_id: int, delivery_id: int) -> WebhookDelivery:
    """Send a message again, now, with the same ``webhook-id`` and body; a failure is
    retried on the schedule again.  Refused while the endpoint is disabled (turn it on
    first) or while the message is being sent."""
    delivery = get_delivery(session, user, endpoint_id, delivery_id)
    endpoint = session.get(WebhookEndpoint, delivery.endpoint_id)
    if endpoint.status != "enabled":
        raise Conflict("this webhook is disabled; enable it before redelivering", code="webhook_disabled",
                       details={"reason": endpoint.disabled_reason, "reason_code": endpoint.disabled_code})
    if delivery.status == "sending":
        raise Conflict("this message is being sent right now", code="delivery_in_progress")
    delivery.status = "pending"
    delivery.attempts = 0
    delivery.next_attempt_at = utcnow()
    delivery.locked_until = None
    session.flush()
    dispatch.remember_webhooks(session, config, [delivery.id])
    return delivery


def send_test(session: Session, config: Config, user: User, endpoint_id: int) -> WebhookDelivery:
    """Queue a ``webhook.test`` message to the endpoint (whatever types it chose)."""
    endpoint = get_endpoint(session, user, endpoint_id)
    if endpoint.status != "enabled":
        raise Conflict("this webhook is disabled; enable it first", code="webhook_disabled",
                       details={"reason": endpoint.disabled_reason, "reason_code": endpoint.disabled_code})
    return enqueue(session, config, endpoint, TEST_EVENT, {"webhook_id": endpoint.id, "message": "Hello from Capua."},
                   game_id=endpoint.game_id)


# --------------------------------------------------------------------------- enqueueing


def enqueue(session: Session, config: Config, endpoint: WebhookEndpoint, event_type: str, data: Mapping[str, Any],
            *, game_id: Optional[str] = None, at: Optional[dt.datetime] = None) -> WebhookDelivery:
    """Add one message for ``endpoint`` to the outbox in the caller's transaction."""
    now = utcnow()
    body = json.dumps({"type": event_type, "timestamp": _iso(at or now), "data": data},
                      separators=(",", ":"), ensure_ascii=False, allow_nan=False, default=_json_default)
    row = WebhookDelivery(endpoint_id=endpoint.id, message_id="msg_" + secrets.token_urlsafe(18),
                          event_type=event_type, game_id=game_id, payload=body, status="pending", attempts=0,
                          next_attempt_at=now, last_error="", created_at=now)
    session.add(row)
    session.flush()
    dispatch.remember_webhooks(session, config, [row.id])
    return row


def endpoints_for_game(session: Session, game_id: str, seats: Sequence[Seat]) -> list[WebhookEndpoint]:
    """Enabled endpoints that cover ``game_id``: its own, and the all-games ones of its players."""
    players = sorted({s.user_id for s in seats if s.user_id is not None})
    covers = WebhookEndpoint.game_id == game_id
    if players:
        covers = or_(covers, (WebhookEndpoint.game_id.is_(None)) & (WebhookEndpoint.user_id.in_(players)))
    return list(session.scalars(
        select(WebhookEndpoint).where(WebhookEndpoint.status == "enabled", covers).order_by(WebhookEndpoint.id)
    ))


def on_append(session: Session, config: Config, game: Game, rules: Rules, state: Any,
              appended: Sequence[tuple[int, Event]], seats: Sequence[Seat], change: fanout.Change) -> None:
    """The :mod:`service.play.fanout` listener: queue what each covering endpoint may see of
    the events just appended to ``game`` (now in ``state``)."""
    if change.webhooks is False or not appended:
        return
    endpoints = endpoints_for_game(session, game.id, seats)
    if not endpoints:
        return
    seat_of = {s.user_id: s.seat for s in seats if s.user_id is not None}
    at = game.updated_at or utcnow()
    base = {"game_id": game.id, "game_type": game.game_type, "title": game.title, "version": game.version,
            "url": game_url(config, game.id)}
    visible_for: dict[Optional[int], list[dict]] = {}
    opened: Optional[dict[int, list[dict]]] = None
    for endpoint in endpoints:
        seat = seat_of.get(endpoint.user_id)
        data = {**base, "seat": seat}
        wanted = set(endpoint.event_types or ())
        if "game.started" in wanted and appended[0][0] == 1:
            enqueue(session, config, endpoint, "game.started", data, game_id=game.id, at=at)
        if "game.events" in wanted:
            if seat not in visible_for:
                visible_for[seat] = visible_events(rules, appended, seat, at)
            if visible_for[seat]:
                enqueue(session, config, endpoint, "game.events", {**data, "events": visible_for[seat]},
                        game_id=game.id, at=at)
        if "decision.opened" in wanted and seat is not None and game.status == "running":
            if opened is None:
                opened = _opened_decisions(game, rules, state, change)
            for decision in opened.get(seat, ()):
                enqueue(session, config, endpoint, "decision.opened", {**data, "decision": decision},
                        game_id=game.id, at=at)
        if "game.finished" in wanted and game.status == "finished":
            enqueue(session, config, endpoint, "game.finished", {**data, "outcome": game.outcome},
                    game_id=game.id, at=at)


def visible_events(rules: Rules, appended: Iterable[tuple[int, Event]], viewer: Optional[int],
                   at: dt.datetime) -> list[dict]:
    """The appended events ``viewer`` may see, shaped as the API's event log shapes them."""
    out = []
    for seq, ev in appended:
        data = _visible(rules, ev, viewer)
        if data is not None:
            out.append({"seq": seq, "type": ev.type, "data": data, "at": _iso(at)})
    return out


def _visible(rules: Rules, ev: Event, viewer: Optional[int]) -> Optional[dict]:
    """``rules.visible``, or for the service's own ``capua.`` events the visibility that
    :mod:`service.play.meta_events` defines (nothing, where it defines none)."""
    if ev.type.startswith("capua."):
        try:
            from service.play import meta_events
        except ImportError:
            return None
        visible = getattr(meta_events, "visible", None)
        return visible(ev, viewer) if visible is not None else None
    return rules.visible(ev, viewer)


def _opened_decisions(game: Game, rules: Rules, state: Any, change: fanout.Change) -> dict[int, list[dict]]:
    """Per seat, the blocking decisions opened by this change."""
    rows = {(o.decision_id, o.seat): o for o in change.opened}
    out: dict[int, list[dict]] = {}
    for decision in rules.pending(state).blocking:
        row = rows.get((decision.id, decision.seat))
        if row is None:
            continue
        out.setdefault(decision.seat, []).append({
            **decision.to_json(), "deadline_at": _iso(row.deadline_at) if row.deadline_at else None,
            "version": game.version,
        })
    return out


def game_url(config: Config, game_id: str) -> str:
    return f"{config.base_url.rstrip('/')}/games/{game_id}"


# --------------------------------------------------------------------------- checks


def _checked_url(config: Config, url: Any) -> str:
    try:
        netguard.check_registration(url, allow_private=config.webhooks_allow_private)
    except netguard.AddressRefused as err:
        raise InvalidInput(err.message, code=err.code, details={"field": "url", **err.details()}) from None
    return url


def _checked_event_types(event_types: Optional[Sequence[str]]) -> list[str]:
    if event_types is None:
        return sorted(EVENT_TYPES)
    if isinstance(event_types, (str, bytes)) or not isinstance(event_types, Sequence):
        raise InvalidInput("event_types must be a list", code="invalid_event_types", details={"field": "event_types"})
    unknown = sorted({str(t) for t in event_types} - set(EVENT_TYPES))
    if unknown or not event_types:
        raise InvalidInput(f"choose event types among {sorted(EVENT_TYPES)}", code="invalid_event_types",
                           details={"field": "event_types", "unknown": unknown, "known": sorted(EVENT_TYPES)})
    return sorted(set(event_types))


def _checked_description(description: Any) -> str:
    if description is None:
        return ""
    if not isinstance(description, str) or len(description.strip()) > MAX_DESCRIPTION:
        raise InvalidInput(f"description must be text of at most {MAX_DESCRIPTION} characters",
                           details={"field": "description", "max_length": MAX_DESCRIPTION})
    return description.strip()


def _existing_game(session: Session, game_id: Any) -> Game:
    game = session.get(Game, game_id) if isinstance(game_id, str) and len(game_id) <= 32 else None
    if game is None:
        raise NotFound("no such game", details={"game_id": str(game_id)[:64], "field": "game_id"})
    return game


def _iso(value: dt.datetime) -> str:
    if value.tzinfo is None:
        value = value.replace(tzinfo=dt.timezone.utc)
    return value.astimezone(dt.timezone.utc).isoformat().replace("+00:00", "Z")


def _json_default(value: Any) -> Any:
    if isinstance(value, dt.datetime):
        return _iso(value)
    raise TypeError(f"{type(value).__name__} is not JSON")
