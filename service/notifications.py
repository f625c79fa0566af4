"""Telling players what happened and what is asked of them, by email.

Two halves, joined by the ``notifications`` table (an outbox of its own):

1. **Fan-out** (:func:`on_append`, a :mod:`service.fanout` listener, and
   :func:`on_game_created` for invitations) runs in the transaction that appends the
   events.  For every human seat it renders what that seat may know: the appended events
   through ``rules.visible`` (service events through :func:`service.meta_events.visible`)
   and the seat's new decisions through ``Decision.to_json()``, with card names taken from
   ``rules.view`` for that seat; never raw state.  It writes one row per player with a
   ``due_at`` chosen from the player's preferences: *immediate* (at most one mail per
   ``CAPUA_NOTIFY_COALESCE_SECONDS``: what arrives meanwhile waits for the next), the
   *digest* hour, never inside quiet hours; or nothing when the player turned it off.
2. **Composing** (:func:`compose_due`) runs in the worker after commit and on every
   sweep: all of one player's pending rows become one mail in their language and time
   zone (:mod:`service.notify.compose`), and are marked ``mailed`` in the same transaction
   that queues the mail, with a conditional update so that two composers never mail the
   same row.  Decisions answered meanwhile are left out, and a row with nothing left to
   say is ``dropped``.

After the commit of a transaction that wrote rows, :func:`dispatch` wakes whoever
composes: the in-process worker thread in the embedded mode, a Celery task per player
with Redis.  If that wake-up is lost the outbox sweep finds the rows anyway.

Defaults (the issue's "immediate when you must act, digest for everything else"):
``act_delivery=immediate``, ``info_delivery=digest`` at 08:00, no quiet hours, reminders
scaled to the game's clock.
"""

from __future__ import annotations

import datetime as dt
import logging
from dataclasses import dataclass, replace
from typing import Any, Iterable, Mapping, Optional, Sequence

from sqlalchemy import and_, case, event, func, or_, select, update
from sqlalchemy.orm import Session, sessionmaker

from engine.core.game import Rules
from engine.core.types import Event
from service import clock, i18n, meta_events
from service.config import Config
from service.db import (
    Game,
    GameNotificationPreference,
    Notification,
    NotificationPreference,
    OpenDecision,
    Seat,
    StoredEvent,
    User,
    utcnow,
)
from service.errors import InvalidInput, NotFound

log = logging.getLogger(__name__)

DELIVERY_MODES = ("immediate", "digest", "off")
#: Kinds of notification; the urgent ones ask the player to do something.
URGENT_KINDS = ("your_turn", "reminder", "invitation", "invitation_declined")
INFO_KINDS = ("news", "game_over", "game_started")
#: A table-talk message; urgent when private (it is addressed to you), news when public.
TALK_KIND = "talk"
#: At most this many events are kept per notification (the latest); the mail links to the log.
MAX_EVENTS_PER_NOTE = 40
#: ``Session.info`` key of what to wake up after commit (see :func:`dispatch`).
_DISPATCH = "capua.notify.dispatch"


# --------------------------------------------------------------------------- preferences


@dataclass(frozen=True)
class Preferences:
    """A player's settings for one game: the global ones with the game's overrides."""

    act_delivery: str = "immediate"
    info_delivery: str = "digest"
    digest_hour: int = 8
    quiet_start: Optional[int] = None
    quiet_end: Optional[int] = None
    reminder_lead_hours: Optional[int] = None
    email_enabled: bool = True
    language: str = i18n.DEFAULT_LANGUAGE
    timezone: str = "UTC"

    def delivery(self, urgent: bool) -> str:
        if not self.email_enabled:
            return "off"
        return self.act_delivery if urgent else self.info_delivery

    def to_json(self) -> dict:
        return {
            "act_delivery": self.act_delivery, "info_delivery": self.info_delivery,
            "digest_hour": self.digest_hour, "quiet_start": self.quiet_start, "quiet_end": self.quiet_end,
            "reminder_lead_hours": self.reminder_lead_hours, "email_enabled": self.email_enabled,
            "language": self.language, "timezone": self.timezone,
        }


def _merge(user: User, row: Optional[NotificationPreference],
           game_row: Optional[GameNotificationPreference]) -> Preferences:
    prefs = Preferences(language=i18n.language_or_default(user.language),
                        timezone=user.timezone if clock.is_time_zone(user.timezone) else "UTC")
    if row is not None:
        prefs = replace(prefs, act_delivery=row.act_delivery, info_delivery=row.info_delivery,
                        digest_hour=row.digest_hour, quiet_start=row.quiet_start, quiet_end=row.quiet_end,
                        reminder_lead_hours=row.reminder_lead_hours, email_enabled=row.email_enabled)
    if game_row is not None:
        prefs = replace(
            prefs,
            act_delivery=game_row.act_delivery or prefs.act_delivery,
            info_delivery=game_row.info_delivery or prefs.info_delivery,
            reminder_lead_hours=(game_row.reminder_lead_hours if game_row.reminder_lead_hours is not None
                                 else prefs.reminder_lead_hours),
        )
    return prefs


def preferences(session: Session, user: User, game_id: Optional[str] = None) -> Preferences:
    """``user``'s settings, for ``game_id`` when given (its overrides applied)."""
    row = session.get(NotificationPreference, user.id)
    game_row = session.get(GameNotificationPreference, (user.id, game_id)) if game_id else None
    return _merge(user, row, game_row)


def preferences_for(session: Session, users: Sequence[User], game_id: Optional[str]) -> dict[int, Preferences]:
    """Settings of several players at once (two queries), for the fan-out."""
    ids = [u.id for u in users]
    if not ids:
        return {}
    rows = {r.user_id: r for r in session.scalars(select(NotificationPreference)
                                                  .where(NotificationPreference.user_id.in_(ids)))}
    game_rows = {}
    if game_id:
        game_rows = {r.user_id: r for r in session.scalars(
            select(GameNotificationPreference).where(GameNotificationPreference.user_id.in_(ids),
                                                     GameNotificationPreference.game_id == game_id))}
    return {u.id: _merge(u, rows.get(u.id), game_rows.get(u.id)) for u in users}


#: Field -> (checker, message) of the global settings a player may change.
def _check_delivery(value: Any) -> bool:
    return value in DELIVERY_MODES


def _check_hour(value: Any) -> bool:
    return type(value) is int and 0 <= value <= 23


def _check_lead(value: Any) -> bool:
    return value is None or (type(value) is int and 0 <= value <= 24 * 7)


_GLOBAL_FIELDS = {
    "act_delivery": (_check_delivery, "must be one of immediate, digest, off"),
    "info_delivery": (_check_delivery, "must be one of immediate, digest, off"),
    "digest_hour": (_check_hour, "must be an hour from 0 to 23"),
    "quiet_start": (lambda v: v is None or _check_hour(v), "must be an hour from 0 to 23, or null"),
    "quiet_end": (lambda v: v is None or _check_hour(v), "must be an hour from 0 to 23, or null"),
    "reminder_lead_hours": (_check_lead, "must be hours from 0 (no reminders) to 168, or null (scaled to the clock)"),
    "email_enabled": (lambda v: type(v) is bool, "must be true or false"),
    "language": (lambda v: v in i18n.LANGUAGES, f"must be one of {', '.join(i18n.LANGUAGES)}"),
    "timezone": (clock.is_time_zone, "must be a time zone name like Europe/Berlin"),
}
_GAME_FIELDS = {
    "act_delivery": (lambda v: v is None or _check_delivery(v), "must be immediate, digest, off or null (inherit)"),
    "info_delivery": (lambda v: v is None or _check_delivery(v), "must be immediate, digest, off or null (inherit)"),
    "reminder_lead_hours": (_check_lead, "must be hours from 0 to 168, or null (inherit)"),
}


def _validated(changes: Any, allowed: Mapping[str, tuple]) -> dict:
    """``changes`` checked field by field; every problem is reported at once (422)."""
    if not isinstance(changes, Mapping):
        raise InvalidInput("Send the settings as a JSON object.", code="invalid_preferences")
    problems = {}
    for name, value in changes.items():
        if name not in allowed:
            problems[str(name)[:64]] = "is not a setting"
            continue
        check, message = allowed[name]
        if not check(value):
            problems[name] = message
    if problems:
        raise InvalidInput("Some settings are not valid: " + "; ".join(f"{k} {v}" for k, v in problems.items()),
                           code="invalid_preferences", details={"fields": problems})
    return dict(changes)


def update_preferences(session: Session, user: User, changes: Any) -> Preferences:
    """Change ``user``'s global settings; a refused change changes nothing."""
    changes = _validated(changes, _GLOBAL_FIELDS)
    quiet = {k: changes.get(k, None) for k in ("quiet_start", "quiet_end") if k in changes}
    row = session.get(NotificationPreference, user.id)
    if row is None:
        row = NotificationPreference(user_id=user.id, act_delivery="immediate", info_delivery="digest",
                                     digest_hour=8, email_enabled=True)
        session.add(row)
    merged_quiet = (quiet.get("quiet_start", row.quiet_start), quiet.get("quiet_end", row.quiet_end))
    if (merged_quiet[0] is None) != (merged_quiet[1] is None) or (None not in merged_quiet
                                                                  and merged_quiet[0] == merged_quiet[1]):
        raise InvalidInput("Quiet hours need a start and a different end hour (or neither).",
                           code="invalid_preferences", details={"fields": {"quiet_start": "needs quiet_end"}})
    for name, value in changes.items():
        if name == "language":
            user.language = value
        elif name == "timezone":
            user.timezone = value
        else:
            setattr(row, name, value)
    row.updated_at = utcnow()
    session.flush()
    return preferences(session, user)


def update_game_preferences(session: Session, user: User, game_id: str, changes: Any) -> Preferences:
    """Change ``user``'s settings for one game they sit in or are invited to."""
    changes = _validated(changes, _GAME_FIELDS)
    _require_player(session, user, game_id)
    row = session.get(GameNotificationPreference, (user.id, game_id))
    if row is None:
        row = GameNotificationPreference(user_id=user.id, game_id=game_id)
        session.add(row)
    for name, value in changes.items():
        setattr(row, name, value)
    row.updated_at = utcnow()
    session.flush()
    return preferences(session, user, game_id)


def reset_game_preferences(session: Session, user: User, game_id: str) -> Preferences:
    _require_player(session, user, game_id)
    row = session.get(GameNotificationPreference, (user.id, game_id))
    if row is not None:
        session.delete(row)
        session.flush()
    return preferences(session, user, game_id)


def game_overrides(session: Session, user: User) -> list[GameNotificationPreference]:
    return list(session.scalars(select(GameNotificationPreference)
                                .where(GameNotificationPreference.user_id == user.id)
                                .order_by(GameNotificationPreference.game_id)))


def _require_player(session: Session, user: User, game_id: str) -> None:
    email = (user.email or "").lower()
    seat = session.scalar(select(Seat.id).where(
        Seat.game_id == game_id, or_(Seat.user_id == user.id, and_(Seat.user_id.is_(None),
                                                                     Seat.invited_email == email))))
    if seat is None:
        raise NotFound("You play no game with that id.", code="not_found", details={"game_id": str(game_id)[:64]})


def unsubscribe(session: Session, user: User, game_id: Optional[str]) -> None:
    """Stop mail: for one game (both kinds off), or every notification mail."""
    if game_id:
        row = session.get(GameNotificationPreference, (user.id, game_id))
        if row is None:
            row = GameNotificationPreference(user_id=user.id, game_id=game_id)
            session.add(row)
        row.act_delivery = row.info_delivery = "off"
        row.updated_at = utcnow()
    else:
        update_preferences(session, user, {"email_enabled": False})
    session.flush()


# --------------------------------------------------------------------------- when a row is due


def in_quiet_hours(prefs: Preferences, moment: dt.datetime) -> bool:
    if prefs.quiet_start is None or prefs.quiet_end is None:
        return False
    hour = moment.astimezone(clock.zone(prefs.timezone)).hour
    if prefs.quiet_start < prefs.quiet_end:
        return prefs.quiet_start <= hour < prefs.quiet_end
    return hour >= prefs.quiet_start or hour < prefs.quiet_end


def after_quiet_hours(prefs: Preferences, moment: dt.datetime) -> dt.datetime:
    """``moment``, or the end of the quiet hours it falls in (local ``quiet_end``:00)."""
    if not in_quiet_hours(prefs, moment):
        return moment
    tz = clock.zone(prefs.timezone)
    local = moment.astimezone(tz)
    day = local.date() if local.hour < prefs.quiet_end else local.date() + dt.timedelta(days=1)
    return dt.datetime.combine(day, dt.time(prefs.quiet_end), tzinfo=tz).astimezone(dt.timezone.utc)


def next_digest(prefs: Preferences, moment: dt.datetime) -> dt.datetime:
    """The first ``digest_hour``:00 (the player's time) after ``moment``."""
    tz = clock.zone(prefs.timezone)
    local = moment.astimezone(tz)
    day = local.date()
    for _ in range(3):
        candidate = dt.datetime.combine(day, dt.time(prefs.digest_hour), tzinfo=tz).astimezone(dt.timezone.utc)
        if candidate > moment:
            return candidate
        day += dt.timedelta(days=1)
    raise AssertionError("a digest hour comes every day")  # pragma: no cover


def due_time(config: Config, prefs: Preferences, mode: str, now: dt.datetime,
             last_mailed: Optional[dt.datetime]) -> dt.datetime:
    """When a row for a player with ``prefs`` may go out (``mode`` immediate or digest).

    Immediate rows go out at once unless the player got a notification mail less than
    the coalescing window ago: then at the end of that window, together with everything
    else that arrived meanwhile.  Neither kind goes out during quiet hours.
    """
    if mode == "digest":
        return next_digest(prefs, now)
    due = now
    if last_mailed is not None:
        due = max(due, last_mailed + dt.timedelta(seconds=config.notify_coalesce_seconds))
    return after_quiet_hours(prefs, due)


def _last_mailed(session: Session, user_ids: Iterable[int]) -> dict[int, dt.datetime]:
    ids = list(user_ids)
    if not ids:
        return {}
    rows = session.execute(select(Notification.user_id, func.max(Notification.done_at))
                           .where(Notification.user_id.in_(ids), Notification.status == "mailed")
                           .group_by(Notification.user_id))
    out = {}
    for user_id, moment in rows:
        if moment is not None:
            out[user_id] = moment if moment.tzinfo else moment.replace(tzinfo=dt.timezone.utc)
    return out


# --------------------------------------------------------------------------- fan-out


def card_names(view: Any) -> dict[str, str]:
    """Names of the cards a seat's view shows, by id (a card is a dict with ``id`` and
    ``name``).  Only the recipient's own view is searched, so no hidden card is named."""
    found: dict[str, str] = {}
    stack = [view]
    while stack:
        item = stack.pop()
        if isinstance(item, Mapping):
            if "id" in item and isinstance(item.get("name"), str):
                found[str(item["id"])] = item["name"]
            stack.extend(item.values())
        elif isinstance(item, (list, tuple)):
            stack.extend(item)
    return found


def seat_names(session: Session, seats: Sequence[Seat]) -> dict[int, str]:
    """What players are called in mail: display name, else the address's local part."""
    ids = [s.user_id for s in seats if s.user_id is not None]
    users = {u.id: u for u in session.scalars(select(User).where(User.id.in_(ids)))} if ids else {}
    out = {}
    for s in seats:
        if s.is_bot:
            out[s.seat] = f"Bot {s.seat + 1}"
        elif s.user_id in users:
            u = users[s.user_id]
            out[s.seat] = u.display_name or (u.email or "").split("@")[0] or f"Player {s.seat + 1}"
    return out


def decision_payload(decision_json: Mapping[str, Any], names: Mapping[str, str],
                     deadline: Optional[dt.datetime]) -> dict:
    """What a mail needs of one decision (from ``Decision.to_json()`` for its seat)."""
    referenced = set()
    for option in decision_json.get("options") or ():
        for key in ("card", "push"):
            if key in (option.get("args") or {}):
                referenced.add(str(option["args"][key]))
    return {
        "id": decision_json["id"],
        "mode": decision_json.get("mode"),
        "prompt": decision_json.get("prompt"),
        "prompt_key": decision_json.get("prompt_key"),
        "prompt_args": decision_json.get("prompt_args") or {},
        "command_type": decision_json.get("command_type"),
        "options": decision_json.get("options"),
        "schema": decision_json.get("schema"),
        "default": decision_json.get("default"),
        "deadline_at": deadline.isoformat() if deadline else None,
        "cards": {k: v for k, v in names.items() if k in referenced},
    }


def visible_event(rules: Rules, seq: int, event: Event, viewer: Optional[int]) -> Optional[dict]:
    """``{"seq", "type", "data"}`` of an event as ``viewer`` may see it, or ``None``."""
    data = meta_events.visible(event, viewer) if meta_events.is_meta(event.type) else rules.visible(event, viewer)
    if data is None:
        return None
    return {"seq": seq, "type": event.type, "data": data}


def on_append(session: Session, config: Config, game: Game, rules: Rules, state: Any,
              appended: Sequence[tuple[int, Event]], seats: Sequence[Seat]) -> None:
    """The fan-out listener: a notification row per human player who should hear of this.

    A player who has new decisions gets ``your_turn`` (urgent); when the game ended,
    ``game_over``; otherwise, if they may see any of the events and did not cause them
    themselves, ``news``.
    """
    humans = [s for s in seats if s.user_id is not None and not s.is_bot]
    if not humans or not appended:
        return
    now = utcnow()
    new_keys = {(r.decision_id, r.seat): r for r in session.scalars(
        select(OpenDecision).where(OpenDecision.game_id == game.id, OpenDecision.opened_version == game.version,
                                   OpenDecision.mode != "free"))}
    first_seq, last_seq = appended[0][0], appended[-1][0]
    actors = set(session.scalars(select(StoredEvent.actor_user_id).where(
        StoredEvent.game_id == game.id, StoredEvent.seq >= first_seq, StoredEvent.seq <= last_seq,
        StoredEvent.actor_user_id.is_not(None))))
    users = {u.id: u for u in session.scalars(select(User).where(User.id.in_([s.user_id for s in humans])))}
    prefs = preferences_for(session, list(users.values()), game.id)
    last = _last_mailed(session, users)
    names = seat_names(session, seats)
    finished = game.status == "finished"
    pending = rules.pending(state) if not finished else None
    written: set[int] = set()
    for seat in humans:
        user = users.get(seat.user_id)
        if user is None:
            continue
        events = [v for seq, e in appended if (v := visible_event(rules, seq, e, seat.seat)) is not None]
        events = events[-MAX_EVENTS_PER_NOTE:]
        mine = [d for d in (pending.for_seat(seat.seat) if pending else ())
                if (d.id, seat.seat) in new_keys]
        if finished:
            kind, urgent = "game_over", False
        elif mine:
            kind, urgent = "your_turn", True
        elif events and seat.user_id not in actors:
            kind, urgent = "news", False
        else:
            continue
        payload: dict[str, Any] = {"title": game.title, "seat": seat.seat, "seat_names": _json_names(names),
                                   "events": events, "version": game.version}
        if mine:
            view_names = card_names(rules.view(state, seat.seat))
            payload["decisions"] = [decision_payload(d.to_json(), view_names, new_keys[(d.id, seat.seat)].deadline_at)
                                    for d in mine]
        if finished:
            payload["outcome"] = game.outcome
        if _write(session, config, user, prefs[user.id], last.get(user.id), game.id, seat.seat, kind, urgent,
                  payload, now):
            written.add(user.id)
    _remember_dispatch(session, config, written)


def _json_names(names: Mapping[int, str]) -> dict[str, str]:
    return {str(k): v for k, v in names.items()}


def _write(session: Session, config: Config, user: User, prefs: Preferences, last_mailed: Optional[dt.datetime],
           game_id: Optional[str], seat: Optional[int], kind: str, urgent: bool, payload: dict,
           now: dt.datetime) -> bool:
    mode = prefs.delivery(urgent)
    if mode == "off":
        return False
    session.add(Notification(user_id=user.id, game_id=game_id, seat=seat, kind=kind, urgent=urgent,
                             payload=payload, status="pending", created_at=now,
                             due_at=due_time(config, prefs, mode, now, last_mailed)))
    return True


def notify(session: Session, config: Config, user: User, *, kind: str, game: Optional[Game], seat: Optional[int],
           payload: Mapping[str, Any], now: Optional[dt.datetime] = None) -> bool:
    """Write one notification row outside the fan-out (invitations, reminders...)."""
    return notify_many(session, config, [user], kind=kind, game=game, seat=seat, payload=payload, now=now) == 1


def notify_many(session: Session, config: Config, users: Sequence[User], *, kind: str, game: Optional[Game],
                seat: Optional[int], payload: Mapping[str, Any], now: Optional[dt.datetime] = None) -> int:
    """The same notification for several players, with their settings read at once;
    returns how many rows were written (players who turned this kind off get none)."""
    now = now or utcnow()
    game_id = game.id if game else None
    prefs = preferences_for(session, list(users), game_id)
    last = _last_mailed(session, [u.id for u in users])
    urgent = kind in URGENT_KINDS
    full = {"title": game.title if game else "", "seat": seat, **payload}
    written = {u.id for u in users
               if _write(session, config, u, prefs[u.id], last.get(u.id), game_id, seat, kind, urgent, full, now)}
    _remember_dispatch(session, config, written)
    return len(written)


def notify_talk(session: Session, config: Config, game: Game, readers: Sequence[tuple[User, int]],
                message: Mapping[str, Any], *, private: bool, now: Optional[dt.datetime] = None) -> int:
    """A table-talk message for each ``(user, seat)`` of ``readers`` (its recipients but
    the sender), through the same rows, preferences and composer as every notification.

    A private message is addressed to the player, so it follows ``act_delivery`` (urgent);
    a public one ``info_delivery`` (news): immediate rows are coalesced and held during
    quiet hours, digest rows wait for the digest hour, per-game overrides apply.  Only
    the readers get a row, so a private message never reaches anyone else's mail.
    Returns how many rows were written.
    """
    now = now or utcnow()
    users = [user for user, _seat in readers]
    prefs = preferences_for(session, users, game.id)
    last = _last_mailed(session, [u.id for u in users])
    written = set()
    for user, seat in readers:
        payload = {"title": game.title, "seat": seat, "message": dict(message)}
        if _write(session, config, user, prefs[user.id], last.get(user.id), game.id, seat, TALK_KIND, private,
                  payload, now):
            written.add(user.id)
    _remember_dispatch(session, config, written)
    return len(written)


def on_game_created(session: Session, config: Config, game: Game, seats: Sequence[Seat]) -> None:
    """Invitation mail for every invited address (the player is created if new)."""
    from service import auth

    creator = session.get(User, game.created_by) if game.created_by else None
    inviter = (creator.display_name or creator.email) if creator else ""
    for seat in seats:
        if seat.invited_email and seat.user_id is None:
            user = auth.get_or_create_user(session, seat.invited_email)
            notify(session, config, user, kind="invitation", game=game, seat=seat.seat,
                   payload={"inviter": inviter, "game_type": game.game_type, "seats": game.seat_count,
                            "email": seat.invited_email})


# --------------------------------------------------------------------------- after commit


def _remember_dispatch(session: Session, config: Config, user_ids: Iterable[int],
                       deadlines: Iterable[tuple[int, dt.datetime]] = ()) -> None:
    box = session.info.setdefault(_DISPATCH, {"config": config, "users": set(), "deadlines": []})
    box["users"].update(user_ids)
    box["deadlines"].extend(deadlines)


def remember_deadlines(session: Session, config: Config, deadlines: Iterable[tuple[int, dt.datetime]]) -> None:
    """Have deadline tasks scheduled for these ``(open_decision_id, deadline)`` after commit."""
    _remember_dispatch(session, config, (), deadlines)


@event.listens_for(Session, "after_commit")
def _dispatch_after_commit(session: Session) -> None:
    box = session.info.pop(_DISPATCH, None)
    if box and (box["users"] or box["deadlines"]):
        dispatch(box["config"], box["users"], box["deadlines"])


@event.listens_for(Session, "after_rollback")
def _forget_after_rollback(session: Session) -> None:
    session.info.pop(_DISPATCH, None)


def dispatch(config: Config, user_ids: Iterable[int], deadlines: Iterable[tuple[int, dt.datetime]] = ()) -> None:
    """Wake whoever composes mail and applies deadlines, without waiting for it.

    Never raises: the rows are committed, and the sweeps find them if this is lost.
    """
    user_ids, deadlines = list(user_ids), list(deadlines)
    try:
        if config.embedded:
            from service import inprocess

            inprocess.notify(config)
            return
        from worker import tasks

        tasks.enqueue_compose(config, user_ids)
        tasks.enqueue_deadlines(config, deadlines)
    except Exception:  # a broker outage must never fail the request that committed
        log.warning("could not hand notifications to the worker; the sweep will", exc_info=True)


# --------------------------------------------------------------------------- composing


def due_users(session_factory: sessionmaker, now: Optional[dt.datetime] = None, limit: int = 1000) -> list[int]:
    """Players with at least one notification whose time has come."""
    now = now or utcnow()
    with session_factory() as session:
        return list(session.scalars(
            select(Notification.user_id).where(Notification.status == "pending", Notification.due_at <= now)
            .group_by(Notification.user_id).order_by(func.min(Notification.due_at)).limit(limit)))


def compose_due(session_factory: sessionmaker, config: Config, now: Optional[dt.datetime] = None,
                limit: int = 1000) -> list[int]:
    """Compose a mail for every player with due notifications; returns the mail ids."""
    return compose_many(session_factory, config, due_users(session_factory, now, limit), now)


#: Players composed in one transaction: a burst of notifications costs one commit per
#: batch, not per player.
COMPOSE_BATCH = 100


def compose_many(session_factory: sessionmaker, config: Config, user_ids: Iterable[int],
                 now: Optional[dt.datetime] = None) -> list[int]:
    """:func:`compose_for_user` for several players, a batch per transaction; a batch
    that loses a race to another composer is redone player by player."""
    ids = list(dict.fromkeys(int(u) for u in user_ids))
    out: list[int] = []
    for start in range(0, len(ids), COMPOSE_BATCH):
        batch = ids[start:start + COMPOSE_BATCH]
        try:
            out.extend(_compose_batch(session_factory, config, batch, now))
        except _LostToAnotherComposer:
            for user_id in batch:
                try:
                    mail_id = compose_for_user(session_factory, config, user_id, now)
                except Exception:
                    log.exception("composing notifications for user %s failed", user_id)
                    continue
                if mail_id is not None:
                    out.append(mail_id)
        except Exception:
            log.exception("composing notifications for users %s failed", batch)
    return out


def compose_for_user(session_factory: sessionmaker, config: Config, user_id: int,
                     now: Optional[dt.datetime] = None) -> Optional[int]:
    """All of one player's pending notifications as one mail, once the first is due.

    Returns the queued mail's id, or ``None`` when nothing was due, nothing was left to
    say (the rows are dropped), or another composer took the rows first.
    """
    try:
        ids = _compose_batch(session_factory, config, [user_id], now)
    except _LostToAnotherComposer:
        return None
    return ids[0] if ids else None


class _LostToAnotherComposer(Exception):
    """Another composer marked some of these rows first; this transaction was rolled back."""


def _compose_batch(session_factory: sessionmaker, config: Config, user_ids: Sequence[int],
                   now: Optional[dt.datetime]) -> list[int]:
    from service import mail
    from service.notify import compose as notify_mail

    now = now or utcnow()
    out = []
    with session_factory() as session:
        pending: dict[int, list[Notification]] = {}
        for row in session.scalars(select(Notification).where(Notification.user_id.in_(user_ids),
                                                              Notification.status == "pending")
                                   .order_by(Notification.id)):
            pending.setdefault(row.user_id, []).append(row)
        users = {u.id: u for u in session.scalars(select(User).where(User.id.in_(list(pending))))} if pending else {}
        context = notify_mail.Context.load(session, list(users.values()),
                                           [r for rows in pending.values() for r in rows])
        open_keys = set(context.open_rows)  # (user, game, seat, decision) of the whole batch
        # Compose every player's mail first, then write the batch with one INSERT of the
        # mails and one conditional UPDATE of the rows (not two statements per player).
        outcomes: list[tuple[list[int], Optional[dict]]] = []
        for user_id, rows in pending.items():
            user = users.get(user_id)
            if user is None or min(r.due_at for r in rows) > now:
                continue
            rows = _demote_answered(session, config, user, rows, now, open_keys)
            if not rows or min(r.due_at for r in rows) > now:
                continue
            message = notify_mail.compose(session, config, user, rows, now, context)
            outcomes.append(([r.id for r in rows], None if message is None else {
                "to": user.email, "subject": message.subject, "text": message.text, "html": message.html,
                "kind": "notify", "headers": message.headers}))
        queued = iter(mail.queue_mails(session, [m for _ids, m in outcomes if m is not None]))
        status_of: dict[int, str] = {}
        mail_of: dict[int, int] = {}
        for ids, message in outcomes:
            mail_id = next(queued).id if message is not None else None
            for row_id in ids:
                status_of[row_id] = "mailed" if mail_id is not None else "dropped"
                if mail_id is not None:
                    mail_of[row_id] = mail_id
            if mail_id is not None:
                out.append(mail_id)
        if status_of:
            taken = session.execute(
                update(Notification)
                .where(Notification.id.in_(list(status_of)), Notification.status == "pending")
                .values(status=case(status_of, value=Notification.id),
                        mail_id=case(mail_of, value=Notification.id, else_=None) if mail_of else None,
                        done_at=now)
                .execution_options(synchronize_session=False))
            if taken.rowcount != len(status_of):
                session.rollback()
                raise _LostToAnotherComposer()
        session.commit()
        mail.take_queued(session)
    return out


def _demote_answered(session: Session, config: Config, user: User, rows: list[Notification],
                     now: dt.datetime, batch_open_keys: Optional[set] = None) -> list[Notification]:
    """Urgent rows whose decisions were all answered meanwhile ask nothing any more:
    what they tell becomes news, due as the player wants news (or dropped).  Returns
    the rows still pending."""
    game_ids = {r.game_id for r in rows if r.urgent and r.game_id}
    if not game_ids:
        return rows
    if batch_open_keys is not None:  # read once for the composer's whole batch
        open_keys = {key[1:] for key in batch_open_keys if key[0] == user.id and key[1] in game_ids}
    else:
        open_keys = set(session.execute(select(OpenDecision.game_id, OpenDecision.seat, OpenDecision.decision_id)
                                        .where(OpenDecision.game_id.in_(game_ids), OpenDecision.user_id == user.id)))
    kept = []
    for row in rows:
        asked = (row.payload or {}).get("decisions") or ()
        if row.kind in ("your_turn", "reminder") and asked and not any(
                (row.game_id, row.seat, d["id"]) in open_keys for d in asked):
            prefs = preferences(session, user, row.game_id)
            mode = prefs.delivery(False)
            if mode == "off" or not (row.payload or {}).get("events"):
                row.status, row.done_at = "dropped", now
                continue
            row.kind, row.urgent = "news", False
            row.due_at = due_time(config, prefs, mode, row.created_at, None)
        kept.append(row)
    session.flush()
    return kept
