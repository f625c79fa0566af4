"""Telling players what happened and what is asked of them, by email.

Two halves, joined by the ``notifications`` table (an outbox of its own):

1. **Fan-out** (:func:`on_append`, a :mod:`service.play.fanout` listener, and
   :func:`on_game_created` for invitations) runs in the transaction that appends the
   events.  For every human seat it renders what that seat may know: the appended events
   through ``rules.visible`` (service events through :func:`service.play.meta_events.visible`)
   and the seat's new decisions through ``Decision.to_json()``, with card names taken from
   ``rules.view`` for that seat; never raw state.  It writes one row per player with a
   ``due_at`` chosen from the player's preferences: *immediate* (at most one mail per
   ``CAPUA_NOTIFY_COALESCE_SECONDS``: what arrives meanwhile waits for the next), the
   *digest* hour, never inside quiet hours; or nothing when the player turned it off.
2. **Composing** (:func:`service.notify.mailing.compose_due`) runs in the worker after
   commit and on every sweep: all of one player's pending rows become one mail in their
   language and time zone (:mod:`service.notify.compose`), and are marked ``mailed`` in
   the same transaction that queues the mail, with a conditional update so that two
   composers never mail the same row.  Decisions answered meanwhile are left out, and a
   row with nothing left to say is ``dropped``.

After the commit of a transaction that wrote rows, :mod:`service.plumbing.dispatch`
wakes whoever composes: the in-process worker thread in the embedded mode, a Celery task
per player with Redis.  If that wake-up is lost the outbox sweep finds the rows anyway.
The player's settings that choose ``due_at`` live with the player
(:mod:`service.identity.settings`).

Defaults (the issue's "immediate when you must act, digest for everything else"):
``act_delivery=immediate``, ``info_delivery=digest`` at 08:00, no quiet hours, reminders
scaled to the game's clock.
"""

from __future__ import annotations

import datetime as dt
import logging
from typing import Any, Callable, Collection, Iterable, Mapping, Optional, Sequence

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from engine.core.game import Rules
from engine.core.types import Event
from service.identity.settings import Preferences, preferences_for
from service.play import fanout, meta_events, presets
from service.play.standing_orders import phase_key
from service.plumbing import clock, dispatch
from service.plumbing.config import Config
from service.plumbing.db import Game, Notification, Seat, User, utcnow
from service.plumbing.statements import defer
from service.plumbing.rows import get_rows
from service.words.seat_marks import seat_letter, unnamed_player

log = logging.getLogger(__name__)

#: Kinds of notification; the urgent ones ask the player to do something.
URGENT_KINDS = ("your_turn", "reminder", "invitation", "invitation_declined")
INFO_KINDS = ("news", "game_over", "game_started")
#: A table-talk message; urgent when private (it is addressed to you), news when public.
TALK_KIND = "talk"
#: At most this many events are kept per notification (the latest); the mail links to the log.
MAX_EVENTS_PER_NOTE = 40


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


def card_names(view: Any, wanted: Optional[Collection[str]] = None) -> dict[str, str]:
    """Names of the cards a seat's view shows, by id (a card is a dict with ``id`` and
    ``name``).  Only the recipient's own view is searched, so no hidden card is named.

    With ``wanted`` (ids), the search stops once it has named them all: a mail names
    only the cards its decisions' options name, and those are mostly the seat's own
    hand, which a view holds near its end, where the search starts."""
    found: dict[str, str] = {}
    missing = set(wanted) if wanted is not None else None
    stack = [view]
    while stack:
        item = stack.pop()
        kind = type(item)
        if kind is list or kind is tuple:  # the common cases first: a typing.Mapping check is slow
            stack.extend(item)
        elif kind is dict or (kind not in _LEAVES and isinstance(item, Mapping)):
            if "id" in item and isinstance(item.get("name"), str):
                card = str(item["id"])
                found[card] = item["name"]
                if missing is not None:
                    missing.discard(card)
                    if not missing:
                        return found
            stack.extend(item.values())
        elif kind not in _LEAVES and isinstance(item, (list, tuple)):
            stack.extend(item)
    return found


#: Types a view holds that are never a card nor hold one.
_LEAVES = frozenset({str, int, float, bool, type(None)})


def seat_names(session: Session, seats: Sequence[Seat], users: Optional[Mapping[int, User]] = None) -> dict[int, str]:
    """What players are called in mail: display name, else the address's local part, with
    the seat's letter as the boards draw it (``Ann (A)``, ``Bot B``).  ``users``: the
    seated players by id, when the caller has them (else they are read)."""
    if users is None or any(s.user_id is not None and s.user_id not in users for s in seats):
        users = get_rows(session, User, [s.user_id for s in seats if s.user_id is not None])
    out = {}
    for s in seats:
        if s.is_bot:
            out[s.seat] = f"Bot {seat_letter(s.seat)}"
        elif s.user_id in users:
            u = users[s.user_id]
            name = u.display_name or (u.email or "").split("@")[0]
            out[s.seat] = f"{name} ({seat_letter(s.seat)})" if name else unnamed_player(s.seat)
    return out


def decision_payload(decision_json: Mapping[str, Any], names: Mapping[str, str],
                     deadline: Optional[dt.datetime], presets: Optional[Mapping[str, Any]] = None,
                     referenced: Optional[Collection[str]] = None) -> dict:
    """What a mail needs of one decision (from ``Decision.to_json()`` for its seat).

    ``answers`` are the named answers a decision offers in its context (``presets``: a fight
    plan's "close in", "keep distance", "blow by blow"), buttons where the whole form is too
    much; ``presets`` the standing orders the mail offers under it
    (:func:`service.play.presets.presets_for`, with what the decision was).
    ``referenced``: :func:`cards_named_by` of the decision, when the caller has it."""
    if referenced is None:
        referenced = cards_named_by(decision_json)
    command_type = decision_json.get("command_type")
    offered = (decision_json.get("context") or {}).get("presets")
    return {
        "id": decision_json["id"],
        "mode": decision_json.get("mode"),
        "prompt": decision_json.get("prompt"),
        "prompt_key": decision_json.get("prompt_key"),
        "prompt_args": decision_json.get("prompt_args") or {},
        "command_type": command_type,
        "options": decision_json.get("options"),
        "schema": decision_json.get("schema"),
        "default": decision_json.get("default"),
        "deadline_at": deadline.isoformat() if deadline else None,
        "cards": {k: v for k, v in names.items() if k in referenced} if names else {},
        "answers": [{"key": key, "command": {"type": command_type, "args": dict(args)}}
                    for key, args in offered.items() if isinstance(args, Mapping)] if offered else [],
        "presets": dict(presets) if presets else None,
    }


def cards_named_by(decision_json: Mapping[str, Any]) -> set[str]:
    """The card ids a decision's options name (what its mail spells out by name)."""
    referenced = set()
    for option in decision_json.get("options") or ():
        args = option.get("args")
        if args:
            if "card" in args:
                referenced.add(str(args["card"]))
            if "push" in args:
                referenced.add(str(args["push"]))
    return referenced


def visible_event(rules: Rules, seq: int, event: Event, viewer: Optional[int]) -> Optional[dict]:
    """``{"seq", "type", "data"}`` of an event as ``viewer`` may see it, or ``None``."""
    data = meta_events.visible(event, viewer) if meta_events.is_meta(event.type) else rules.visible(event, viewer)
    if data is None:
        return None
    return {"seq": seq, "type": event.type, "data": data}


def _visible_events(rules: Rules, appended: Sequence[tuple[int, Event]], viewer: int) -> list[dict]:
    """The latest :data:`MAX_EVENTS_PER_NOTE` of ``appended`` as ``viewer`` may see them
    (:func:`visible_event` of each, without a call per event: a bot's turn is ~20)."""
    visible, meta = rules.visible, meta_events.visible
    out = []
    for seq, event in appended:
        kind = event.type
        data = meta(event, viewer) if kind.startswith(_META) else visible(event, viewer)
        if data is not None:
            out.append({"seq": seq, "type": kind, "data": data})
    return out[-MAX_EVENTS_PER_NOTE:]


#: Type prefix of the service's own events (:func:`service.play.meta_events.is_meta`).
_META = meta_events.PREFIX


def on_append(session: Session, config: Config, game: Game, rules: Rules, state: Any,
              appended: Sequence[tuple[int, Event]], seats: Sequence[Seat], change: fanout.Change) -> None:
    """The fan-out listener: a notification row per human player who should hear of this.

    A player who has new decisions gets ``your_turn`` (urgent); when the game ended,
    ``game_over``; otherwise, if they may see any of the events and did not cause them
    themselves, ``news``.
    """
    humans = [s for s in seats if s.user_id is not None and not s.is_bot]
    if not humans or not appended:
        return
    now = utcnow()
    opened = {(o.decision_id, o.seat): o for o in change.opened}
    new_keys = {key: o for key, o in opened.items() if o.mode != "free"}
    actors = change.actors
    users = get_rows(session, User, [s.user_id for s in humans])
    prefs = change.preferences
    if not users.keys() <= prefs.keys():
        prefs = preferences_for(session, list(users.values()), game.id)
    last = change.last_mailed if change.last_mailed is not None else _last_mailed(session, users)
    names = seat_names(session, seats, users)
    finished = game.status == "finished"
    pending = rules.pending(state) if not finished else None
    phase = _once(lambda: phase_key(rules, state))
    rows = []
    for seat in humans:
        user = users.get(seat.user_id)
        if user is None:
            continue
        events = _visible_events(rules, appended, seat.seat)
        own = pending.for_seat(seat.seat) if pending else ()
        mine = [d for d in own if (d.id, seat.seat) in new_keys]
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
            # A free action with named answers that opened with them (the fight plan with
            # the invitation to the games) rides along, so the mail can set it too.
            along = [d for d in own
                     if d.mode == "free" and (d.id, seat.seat) in opened and d.context.get("presets")]
            told = [(d, as_json, cards_named_by(as_json)) for d in [*mine, *along] for as_json in (d.to_json(),)]
            # the seat's view is built and searched only when an option names a card
            named = set().union(*[referenced for _d, _as_json, referenced in told])
            view_names = card_names(rules.view(state, seat.seat), named) if named else {}
            payload["decisions"] = [decision_payload(as_json, view_names, opened[(d.id, seat.seat)].deadline_at,
                                                     _presets_offered(d, phase), referenced)
                                    for d, as_json, referenced in told]
        if finished:
            payload["outcome"] = game.outcome
        row = _row(config, user, prefs[user.id], last.get(user.id), game.id, seat.seat, kind, urgent, payload, now)
        if row is not None:
            rows.append(row)
    _insert(session, rows)
    dispatch.remember_users(session, config, _due_at_once(rows))


def _presets_offered(decision: Any, phase: Callable[[], Optional[dict]]) -> Optional[dict]:
    """The standing-order presets a mail offers under ``decision``, with what it was and
    the game's public round and phase (``phase()``)."""
    keys = [k for k in presets.presets_for(decision.mode, decision.prompt_key, presets.about_me(decision))
            if k != "pass_this_phase" or phase() is not None]
    if not keys:
        return None
    if presets.AUCTION_PRESETS[0] in keys:  # "bid 0 unless the lot is a gladiator, a slave or the host marker"
        return {"keys": keys, "lot_types": list(presets.MAIL_LOT_TYPES)}
    return {"keys": keys, "like": presets.like_of(decision),
            "phase": phase() if "pass_this_phase" in keys else None}


def _once(compute: Callable[[], Any]) -> Callable[[], Any]:
    """``compute``, called at most once (``functools.cache`` costs more to set up than
    the one answer it keeps, and most changes never ask)."""
    known: list = []

    def once() -> Any:
        if not known:
            known.append(compute())
        return known[0]

    return once


def _json_names(names: Mapping[int, str]) -> dict[str, str]:
    return {str(k): v for k, v in names.items()}


def _row(config: Config, user: User, prefs: Preferences, last_mailed: Optional[dt.datetime],
         game_id: Optional[str], seat: Optional[int], kind: str, urgent: bool, payload: dict,
         now: dt.datetime) -> Optional[dict]:
    """The ``notifications`` row for ``user``, or ``None`` when they turned this kind off."""
    mode = prefs.delivery(urgent)
    if mode == "off":
        return None
    return {"user_id": user.id, "game_id": game_id, "seat": seat, "kind": kind, "urgent": urgent,
            "payload": payload, "status": "pending", "created_at": now,
            "due_at": due_time(config, prefs, mode, now, last_mailed)}


_INSERT = Notification.__table__.insert()


def _insert(session: Session, rows: Sequence[dict]) -> set[int]:
    """Write ``rows`` (of :func:`_row`) in one statement, through Core (the ORM's unit of
    work cost more than the insert); returns the users they are for.  What the session
    holds unflushed is flushed first, so rows it refers to exist."""
    if rows:
        session.flush()
        defer(session, _INSERT, rows)
    return {row["user_id"] for row in rows}


def _due_at_once(rows: Sequence[dict]) -> set[int]:
    """The players among ``rows`` (of :func:`_row`) whose mail is due at once: the commit
    wakes the composer for them.  A row due later (the coalescing window, quiet hours, the
    digest) waits for the outbox sweep, which composes every row once its time has come:
    a wake-up for it would find nothing to send (in the embedded mode, a composing and a
    look at the outbox for every command of a quick game, 0.7 ms of CPU each)."""
    return {row["user_id"] for row in rows if row["due_at"] <= row["created_at"]}


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
    rows = [row for u in users
            if (row := _row(config, u, prefs[u.id], last.get(u.id), game_id, seat, kind, urgent, full, now)) is not None]
    written = _insert(session, rows)
    dispatch.remember_users(session, config, _due_at_once(rows))
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
    rows = []
    for user, seat in readers:
        payload = {"title": game.title, "seat": seat, "message": dict(message)}
        row = _row(config, user, prefs[user.id], last.get(user.id), game.id, seat, TALK_KIND, private, payload, now)
        if row is not None:
            rows.append(row)
    written = _insert(session, rows)
    dispatch.remember_users(session, config, _due_at_once(rows))
    return len(written)


def on_game_created(session: Session, config: Config, game: Game, seats: Sequence[Seat]) -> None:
    """Invitation mail for every invited address (the player is created if new, speaking
    the language of the player who invited them: they hear of Capua from them)."""
    from service.identity import auth

    creator = session.get(User, game.created_by) if game.created_by else None
    inviter = (creator.display_name or creator.email) if creator else ""
    for seat in seats:
        if seat.invited_email and seat.user_id is None:
            user = auth.get_or_create_user(session, seat.invited_email,
                                           language=creator.language if creator else None)
            notify(session, config, user, kind="invitation", game=game, seat=seat.seat,
                   payload={"inviter": inviter, "game_type": game.game_type, "seats": game.seat_count,
                            "email": seat.invited_email})
