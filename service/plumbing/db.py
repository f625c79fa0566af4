"""Capua's database schema (SQLAlchemy 2), identical on SQLite and PostgreSQL.

The truth of a game is its ``events`` rows, append-only with ``(game_id, seq)`` unique.
Everything else about a game is derived or a cache: ``games.version`` is the stream
version (the optimistic-concurrency token, equal to the last ``seq``), ``snapshots``
cache folded states, ``open_decisions`` indexes who owes an answer (for "my games,
awaiting me first", deadlines and reminders).  Alembic migrations in
``service/plumbing/migrations`` create exactly these tables.
"""

from __future__ import annotations

import datetime as dt
import json
from typing import Any, Optional

from flask_sqlalchemy import SQLAlchemy
from flask_sqlalchemy.session import Session as FlaskSession
from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    Date,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    LargeBinary,
    String,
    Text,
    TypeDecorator,
    UniqueConstraint,
    create_engine,
    event,
)
from sqlalchemy.engine import Engine
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, registry, sessionmaker

from service.plumbing import statements, wal


def utcnow() -> dt.datetime:
    return dt.datetime.now(dt.timezone.utc)


class UTCDateTime(TypeDecorator):
    """Timezone-aware UTC datetimes on both SQLite (which drops tzinfo) and PostgreSQL.

    A ``TypeDecorator``: a ``DateTime`` subclass loses its result processing on SQLite,
    where the dialect swaps in its own ``DATETIME`` implementation.
    """

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value, dialect):
        if value is not None and value.tzinfo is not None:
            value = value.astimezone(dt.timezone.utc)
        return value

    def process_result_value(self, value, dialect):
        if value is not None and value.tzinfo is None:
            value = value.replace(tzinfo=dt.timezone.utc)
        return value

    # The two processors below do what ``TypeDecorator`` composes from the methods above
    # and the dialect's own processor, in one function: a command reads ~25 of these
    # columns and binds ~10, and the composed form costs two Python calls more for each.

    def bind_processor(self, dialect):
        impl = self.impl_instance.bind_processor(dialect)
        utc = dt.timezone.utc
        if _sqlite_default_text(self.impl_instance):
            datetime = dt.datetime
            # The last time written, with its text, in one tuple (read and replaced whole,
            # so threads see parts that belong together): a command writes one ``now``
            # into many rows (each event's, its notification's, its open decisions'),
            # and the text of the same object is taken from here, not made again.
            held: list[tuple[Any, str]] = [(None, "")]

            def process(value):
                # The text SQLAlchemy's default storage format writes, YYYY-MM-DD
                # HH:MM:SS.ffffff, is what ``isoformat`` gives with a space and
                # microseconds, less the offset (always +00:00 once in UTC): one call of
                # the C library where the format fills a dict of seven fields.
                if value.__class__ is datetime:
                    last = held[0]
                    if last[0] is value:  # (held, so no other object can have its id)
                        return last[1]
                    zone = value.tzinfo
                    if zone is None:
                        text = value.isoformat(" ", "microseconds")
                    elif zone is utc:  # (most are: ``utcnow``'s)
                        text = value.isoformat(" ", "microseconds")[:26]
                    else:
                        text = value.astimezone(utc).isoformat(" ", "microseconds")[:26]
                    held[0] = (value, text)
                    return text
                if value is not None and value.tzinfo is not None:
                    value = value.astimezone(utc)
                return impl(value)

            return process

        def process(value):
            if value is not None:
                zone = value.tzinfo
                if zone is not None and zone is not utc:  # (most are already: ``utcnow``'s)
                    value = value.astimezone(utc)
            return impl(value) if impl is not None else value

        return process

    def result_processor(self, dialect, coltype):
        impl = self.impl_instance.result_processor(dialect, coltype)
        utc = dt.timezone.utc
        if impl is None:
            def process(value):
                if value is not None and value.tzinfo is None:
                    value = value.replace(tzinfo=utc)
                return value
        elif _sqlite_default_text(self.impl_instance):
            from_text = dt.datetime.fromisoformat

            def process(value):
                # The dialect's ``fromisoformat`` and then ``replace(tzinfo=utc)``, in one
                # call: the stored text (a date, a space, a time) has no offset, so it is
                # given UTC's.  Anything else takes the long way: a text with an offset of
                # its own, and a bare date, whose "+" ``fromisoformat`` would take for the
                # date's separator from a time.
                if value.__class__ is str and value[10:11] == " ":
                    try:
                        return from_text(value + "+00:00")
                    except ValueError:
                        pass
                value = impl(value)
                if value is not None and value.tzinfo is None:
                    value = value.replace(tzinfo=utc)
                return value
        else:
            def process(value):
                value = impl(value)
                if value is not None and value.tzinfo is None:
                    value = value.replace(tzinfo=utc)
                return value

        return process


#: The text of SQLite's ``DATETIME`` as SQLAlchemy stores it unless told otherwise.
_SQLITE_DEFAULT_FORMAT = "%(year)04d-%(month)02d-%(day)02d %(hour)02d:%(minute)02d:%(second)02d.%(microsecond)06d"


def _sqlite_default_text(impl: Any) -> bool:
    """``impl`` (the dialect's own type under :class:`UTCDateTime`) is SQLite's ``DATETIME``
    with SQLAlchemy's default text and parsing (no storage format or regexp of its own):
    what :class:`UTCDateTime`'s processors then do themselves."""
    return (type(impl).__module__.startswith("sqlalchemy.dialects.sqlite")
            and getattr(impl, "_storage_format", None) == _SQLITE_DEFAULT_FORMAT
            and getattr(impl, "_reg", False) is None)


class Base(DeclarativeBase):
    """The declarative base: JSON for dicts, aware UTC for datetimes."""

    registry = registry(type_annotation_map={dict[str, Any]: JSON, dt.datetime: UTCDateTime})


class OneEngineSession(FlaskSession):
    """Flask-SQLAlchemy's session, which finds the engine of every statement by walking it
    for a bind key (a dozen times a command, through the app's extensions); Capua has one
    database, so when the app has one engine, that engine is remembered for the session's
    life (a session belongs to one app context)."""

    _one_engine: Any = None

    def get_bind(self, mapper: Any = None, clause: Any = None, bind: Any = None, **kwargs: Any) -> Any:
        if bind is not None:
            return bind
        if self._one_engine is None:
            engines = self._db.engines
            if len(engines) != 1 or None not in engines:
                return super().get_bind(mapper=mapper, clause=clause, **kwargs)
            self._one_engine = engines[None]
        return self._one_engine


#: The Flask-SQLAlchemy extension; every model is a ``db.Model`` (sharing ``Base``'s
#: registry and metadata).  :mod:`service.plumbing.database` binds it to an app.
db = SQLAlchemy(model_class=Base, session_options={"expire_on_commit": False, "class_": OneEngineSession})


class User(db.Model):
    """A player is an email address (stored lower-cased)."""

    __tablename__ = "users"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    email: Mapped[str] = mapped_column(String(320), unique=True)
    display_name: Mapped[str] = mapped_column(String(80), default="")
    language: Mapped[str] = mapped_column(String(8), default="en")
    timezone: Mapped[str] = mapped_column(String(64), default="UTC")
    created_at: Mapped[dt.datetime] = mapped_column(default=utcnow)


class ApiToken(db.Model):
    """A personal API token: shown once, stored as a SHA-256 hash, revocable."""

    __tablename__ = "api_tokens"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    name: Mapped[str] = mapped_column(String(80), default="")
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    prefix: Mapped[str] = mapped_column(String(16), default="")
    created_at: Mapped[dt.datetime] = mapped_column(default=utcnow)
    last_used_at: Mapped[Optional[dt.datetime]] = mapped_column(nullable=True)
    revoked_at: Mapped[Optional[dt.datetime]] = mapped_column(nullable=True)


class UsedLink(db.Model):
    """Single-use signed links (magic sign-in, later one-click actions): the ``jti`` of each
    link is inserted when it is used, so a second use hits the primary key."""

    __tablename__ = "used_links"
    jti: Mapped[str] = mapped_column(String(64), primary_key=True)
    purpose: Mapped[str] = mapped_column(String(32))
    used_at: Mapped[dt.datetime] = mapped_column(default=utcnow)
    expires_at: Mapped[dt.datetime] = mapped_column()


class Game(db.Model):
    __tablename__ = "games"
    id: Mapped[str] = mapped_column(String(32), primary_key=True)  # url-safe random id
    game_type: Mapped[str] = mapped_column(String(32))
    title: Mapped[str] = mapped_column(String(120), default="")
    options: Mapped[dict[str, Any]] = mapped_column(default=dict)
    seat_count: Mapped[int] = mapped_column(Integer)
    status: Mapped[str] = mapped_column(String(16), default="open")  # open | running | finished
    version: Mapped[int] = mapped_column(BigInteger, default=0)
    rules_version: Mapped[str] = mapped_column(String(32), default="")
    clock_hours: Mapped[int] = mapped_column(Integer, default=24)
    created_by: Mapped[Optional[int]] = mapped_column(ForeignKey("users.id"), nullable=True)
    created_at: Mapped[dt.datetime] = mapped_column(default=utcnow)
    updated_at: Mapped[dt.datetime] = mapped_column(default=utcnow)
    outcome: Mapped[Optional[dict[str, Any]]] = mapped_column(nullable=True)
    # When a searching bot was last found owing an answer: the worker gives it
    # (service.play.bot_turns), never a request.  Null: no bot owes anything.
    bots_due_at: Mapped[Optional[dt.datetime]] = mapped_column(nullable=True, index=False)


class Seat(db.Model):
    """A seat of a game: a bot, an invited email not yet joined, a joined user, or open."""

    __tablename__ = "seats"
    __table_args__ = (UniqueConstraint("game_id", "seat"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    seat: Mapped[int] = mapped_column(Integer)
    user_id: Mapped[Optional[int]] = mapped_column(ForeignKey("users.id"), nullable=True, index=True)
    invited_email: Mapped[Optional[str]] = mapped_column(String(320), nullable=True)
    is_bot: Mapped[bool] = mapped_column(Boolean, default=False)
    # A bot seat's level (engine.core.bots.LEVELS), chosen at creation; null: the operator's
    # CAPUA_BOT_LEVEL (seats from before levels were chosen).
    bot_level: Mapped[Optional[str]] = mapped_column(String(16), nullable=True)
    joined_at: Mapped[Optional[dt.datetime]] = mapped_column(nullable=True)
    # Absence (service.play.absence): deadlines this seat's player let pass in a row, and since
    # when the bot plays the seat for them (until they act again).
    missed_deadlines: Mapped[int] = mapped_column(Integer, default=0)
    bot_since: Mapped[Optional[dt.datetime]] = mapped_column(nullable=True)
    # When the seat's player last had the game's page in front of them (service.notify
    # mails no "your move" to a player who is on the page at that moment).
    on_page_at: Mapped[Optional[dt.datetime]] = mapped_column(nullable=True)


class StoredEvent(db.Model):
    """One event of one game.  Never updated, never deleted."""

    __tablename__ = "events"
    __table_args__ = (UniqueConstraint("game_id", "seq", name="uq_events_game_seq"),)
    id: Mapped[int] = mapped_column(BigInteger().with_variant(Integer, "sqlite"), primary_key=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    seq: Mapped[int] = mapped_column(BigInteger)
    type: Mapped[str] = mapped_column(String(64))
    type_version: Mapped[int] = mapped_column(Integer, default=1)
    data: Mapped[dict[str, Any]] = mapped_column()
    # who caused it: a user id (None for the server: chance, bots, deadlines)
    actor_user_id: Mapped[Optional[int]] = mapped_column(Integer, nullable=True)
    created_at: Mapped[dt.datetime] = mapped_column(default=utcnow)


class Snapshot(db.Model):
    """A cached fold of a game's events up to ``seq``; discarded if ``rules_version`` differs."""

    __tablename__ = "snapshots"
    __table_args__ = (UniqueConstraint("game_id", "seq"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    seq: Mapped[int] = mapped_column(BigInteger)
    rules_version: Mapped[str] = mapped_column(String(32))
    state: Mapped[bytes] = mapped_column(LargeBinary)
    created_at: Mapped[dt.datetime] = mapped_column(default=utcnow)


class IdempotencyKey(db.Model):
    """The first answer to a mutating request, replayed for a retry with the same key (24 h)."""

    __tablename__ = "idempotency_keys"
    __table_args__ = (UniqueConstraint("principal", "key"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    principal: Mapped[str] = mapped_column(String(64))  # "user:<id>" (or "anon:<ip>")
    key: Mapped[str] = mapped_column(String(255))
    request_hash: Mapped[str] = mapped_column(String(64))
    status_code: Mapped[int] = mapped_column(Integer)
    response_body: Mapped[str] = mapped_column(Text)
    response_headers: Mapped[dict[str, Any]] = mapped_column(default=dict)
    created_at: Mapped[dt.datetime] = mapped_column(default=utcnow, index=True)


class OpenDecision(db.Model):
    """Who owes an answer right now, rewritten with every append in the same transaction.

    ``version`` is the game version the decision was (re)opened at; a deadline default is
    submitted against it, so a late or duplicate trigger is a harmless stale-version no-op.
    """

    __tablename__ = "open_decisions"
    __table_args__ = (
        UniqueConstraint("game_id", "decision_id", "seat"),
        Index("ix_open_decisions_deadline", "deadline_at"),
    )
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    # (no index of its own: the unique index above starts with it)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    decision_id: Mapped[str] = mapped_column(String(120))
    seat: Mapped[int] = mapped_column(Integer)
    user_id: Mapped[Optional[int]] = mapped_column(Integer, nullable=True, index=True)
    mode: Mapped[str] = mapped_column(String(16))
    version: Mapped[int] = mapped_column(BigInteger)
    opened_at: Mapped[dt.datetime] = mapped_column(default=utcnow)
    deadline_at: Mapped[Optional[dt.datetime]] = mapped_column(nullable=True)
    # Deadlines and reminders (service.play.deadlines): the version the row was first opened at
    # (tells a listener which decisions are new), when to remind and for which deadline a
    # reminder went out (a moved deadline re-arms it), the sweep's claim, and the time
    # left while the game is paused (``deadline_at`` is then empty).
    opened_version: Mapped[Optional[int]] = mapped_column(BigInteger, nullable=True)
    remind_at: Mapped[Optional[dt.datetime]] = mapped_column(nullable=True)
    reminded_for: Mapped[Optional[dt.datetime]] = mapped_column(nullable=True)
    claimed_at: Mapped[Optional[dt.datetime]] = mapped_column(nullable=True)
    claim_token: Mapped[Optional[str]] = mapped_column(String(32), nullable=True)
    paused_remaining_s: Mapped[Optional[int]] = mapped_column(Integer, nullable=True)


class MailMessage(db.Model):
    """Every email Capua sends, written in the transaction that caused it (the mail outbox).

    ``status``: pending -> sent (or failed after retries).  The local outbox backend also
    writes each sent message to a file under ``CAPUA_MAIL_OUTBOX_DIR``.
    """

    __tablename__ = "mail_messages"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    to_address: Mapped[str] = mapped_column(String(320), index=True)
    subject: Mapped[str] = mapped_column(String(255))
    text_body: Mapped[str] = mapped_column(Text)
    html_body: Mapped[str] = mapped_column(Text, default="")
    headers: Mapped[dict[str, Any]] = mapped_column(default=dict)
    kind: Mapped[str] = mapped_column(String(32), default="")
    status: Mapped[str] = mapped_column(String(16), default="pending", index=True)
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    last_error: Mapped[str] = mapped_column(Text, default="")
    created_at: Mapped[dt.datetime] = mapped_column(default=utcnow)
    sent_at: Mapped[Optional[dt.datetime]] = mapped_column(nullable=True)
    # When a deliverer claimed the row (``sending``); a claim older than the task's hard
    # time limit belongs to a dead worker and the sweep puts the row back to ``pending``.
    claimed_at: Mapped[Optional[dt.datetime]] = mapped_column(nullable=True)


# --------------------------------------------------------------------------- notifications, deadlines, absence


class GameClock(db.Model):
    """A game's clock policy, chosen at creation (the time per decision is
    ``games.clock_hours``), and whether its creator has paused it.

    ``time_of_day`` ("HH:MM" in ``timezone``) moves every deadline to the next such time;
    ``weekend_pause`` stops the clock from Saturday 00:00 to Monday 00:00 in ``timezone``;
    after ``bot_after_missed`` deadlines missed in a row (0: never) the bot plays the seat;
    ``vacation`` lets players spend vacation days in this game; ``window_hours`` is the
    time per window answer (null: a sixth of the time per decision, at least an hour);
    ``stand_in`` is how the seat of an absent player is played: a bot level or
    ``defaults`` (every decision gets its default at once; null: the operator's
    ``CAPUA_BOT_LEVEL``).
    """

    __tablename__ = "game_clocks"
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    time_of_day: Mapped[Optional[str]] = mapped_column(String(5), nullable=True)
    timezone: Mapped[str] = mapped_column(String(64), default="UTC")
    weekend_pause: Mapped[bool] = mapped_column(Boolean, default=False)
    bot_after_missed: Mapped[int] = mapped_column(Integer, default=2)
    vacation: Mapped[bool] = mapped_column(Boolean, default=True)
    window_hours: Mapped[Optional[int]] = mapped_column(Integer, nullable=True)
    stand_in: Mapped[Optional[str]] = mapped_column(String(16), nullable=True)
    paused_at: Mapped[Optional[dt.datetime]] = mapped_column(nullable=True)
    paused_by: Mapped[Optional[int]] = mapped_column(Integer, nullable=True)


class NotificationPreference(db.Model):
    """A player's global notification settings; no row means the defaults.

    ``act_delivery`` is for mail asking the player to act, ``info_delivery`` for news:
    ``immediate``, ``digest`` (one mail a day at ``digest_hour``) or ``off``.  Quiet hours
    (``quiet_start`` to ``quiet_end``, hours in the player's time zone) hold mail back;
    ``reminder_lead_hours`` empty scales the reminder to the game's clock, 0 turns
    reminders off.  Language and time zone live on ``users``.
    """

    __tablename__ = "notification_preferences"
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), primary_key=True)
    act_delivery: Mapped[str] = mapped_column(String(16), default="immediate")
    info_delivery: Mapped[str] = mapped_column(String(16), default="digest")
    digest_hour: Mapped[int] = mapped_column(Integer, default=8)
    quiet_start: Mapped[Optional[int]] = mapped_column(Integer, nullable=True)
    quiet_end: Mapped[Optional[int]] = mapped_column(Integer, nullable=True)
    reminder_lead_hours: Mapped[Optional[int]] = mapped_column(Integer, nullable=True)
    email_enabled: Mapped[bool] = mapped_column(Boolean, default=True)
    updated_at: Mapped[dt.datetime] = mapped_column(default=utcnow)


class GameNotificationPreference(db.Model):
    """A player's settings for one game; an empty field inherits the global one."""

    __tablename__ = "game_notification_preferences"
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), primary_key=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    act_delivery: Mapped[Optional[str]] = mapped_column(String(16), nullable=True)
    info_delivery: Mapped[Optional[str]] = mapped_column(String(16), nullable=True)
    reminder_lead_hours: Mapped[Optional[int]] = mapped_column(Integer, nullable=True)
    updated_at: Mapped[dt.datetime] = mapped_column(default=utcnow)


class Notification(db.Model):
    """Something one player should hear of: the notification outbox.

    Written by the fan-out listener in the transaction of the events (or by the reminder
    sweep), with everything the mail needs already rendered for the recipient's seat in
    ``payload``.  ``due_at`` is when it may go out (coalescing window, quiet hours,
    digest hour); the composer turns all of a player's pending rows into one mail
    (``status`` pending -> mailed, with ``mail_id``) or drops rows that no longer matter
    (``dropped``: the decision was answered meanwhile).
    """

    __tablename__ = "notifications"
    __table_args__ = (
        Index("ix_notifications_due", "status", "due_at"),
        # (``done_at`` last: a player's last mailed notification is the index's last entry
        # for them, whatever their mail history; migration 0008)
        Index("ix_notifications_user_done", "user_id", "status", "done_at"),
    )
    id: Mapped[int] = mapped_column(BigInteger().with_variant(Integer, "sqlite"), primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))
    game_id: Mapped[Optional[str]] = mapped_column(String(32), nullable=True)
    seat: Mapped[Optional[int]] = mapped_column(Integer, nullable=True)
    kind: Mapped[str] = mapped_column(String(32))
    urgent: Mapped[bool] = mapped_column(Boolean, default=False)
    payload: Mapped[dict[str, Any]] = mapped_column(default=dict)
    status: Mapped[str] = mapped_column(String(16), default="pending")
    created_at: Mapped[dt.datetime] = mapped_column(default=utcnow)
    due_at: Mapped[dt.datetime] = mapped_column(default=utcnow)
    mail_id: Mapped[Optional[int]] = mapped_column(Integer, nullable=True)
    done_at: Mapped[Optional[dt.datetime]] = mapped_column(nullable=True)


class Vacation(db.Model):
    """Dates a player declared they are away (inclusive, in their time zone)."""

    __tablename__ = "vacations"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    starts_on: Mapped[dt.date] = mapped_column(Date)
    ends_on: Mapped[dt.date] = mapped_column(Date)
    note: Mapped[str] = mapped_column(String(200), default="")
    created_at: Mapped[dt.datetime] = mapped_column(default=utcnow)


class VacationDay(db.Model):
    """One day of a player's yearly allowance, spent because a deadline would have passed.

    One row per calendar day (the player's time zone): a day spent covers every game.
    """

    __tablename__ = "vacation_days"
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), primary_key=True)
    day: Mapped[dt.date] = mapped_column(Date, primary_key=True)
    game_id: Mapped[Optional[str]] = mapped_column(String(32), nullable=True)
    created_at: Mapped[dt.datetime] = mapped_column(default=utcnow)


# --------------------------------------------------------------------------- webhooks


class WebhookEndpoint(db.Model):
    """A URL a user asked Capua to POST events to: for one game, or (``game_id`` null)
    for every game they hold a seat in.

    ``secret`` is the Standard Webhooks signing secret (``whsec_`` + base64), kept in
    clear because HMAC needs it; after a rotation ``previous_secret`` keeps signing too
    until ``previous_secret_expires_at``, so receivers can switch without a gap.
    ``status`` is ``enabled`` or ``disabled`` (by its owner, a ``410 Gone``, a message
    that failed its whole retry schedule, or an address that may not be called):
    ``disabled_code`` says which (see ``service.notify.webhooks.DISABLED_CODES``) with its
    ``disabled_details``, so it can be told in the owner's language;
    ``disabled_reason`` keeps the English sentence the API has always shown.
    """

    __tablename__ = "webhook_endpoints"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    game_id: Mapped[Optional[str]] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), nullable=True,
                                                   index=True)
    url: Mapped[str] = mapped_column(String(2000))
    description: Mapped[str] = mapped_column(String(200), default="")
    event_types: Mapped[list[str]] = mapped_column(JSON, default=list)
    secret: Mapped[str] = mapped_column(String(120))
    previous_secret: Mapped[Optional[str]] = mapped_column(String(120), nullable=True)
    previous_secret_expires_at: Mapped[Optional[dt.datetime]] = mapped_column(nullable=True)
    status: Mapped[str] = mapped_column(String(16), default="enabled")
    disabled_reason: Mapped[str] = mapped_column(String(300), default="")
    disabled_code: Mapped[str] = mapped_column(String(32), default="")
    disabled_details: Mapped[Optional[dict]] = mapped_column(JSON, nullable=True)
    disabled_at: Mapped[Optional[dt.datetime]] = mapped_column(nullable=True)
    created_at: Mapped[dt.datetime] = mapped_column(default=utcnow)
    updated_at: Mapped[dt.datetime] = mapped_column(default=utcnow)


class WebhookDelivery(db.Model):
    """One message to one endpoint: the webhook outbox row, written in the transaction of
    the change it reports.

    ``message_id`` is the ``webhook-id`` header, the same on every attempt so receivers
    can deduplicate; ``payload`` is the exact body, rendered once at enqueue time from
    what the endpoint's owner may see.  ``status``: ``pending`` (waiting for
    ``next_attempt_at``) -> ``sending`` (claimed until ``locked_until``) -> ``succeeded``
    or, after the retry schedule or on ``410``, ``failed``.  ``attempts`` counts the
    attempts of the current run (a manual redelivery starts a new run); every attempt
    is logged in ``webhook_attempts``.
    """

    __tablename__ = "webhook_deliveries"
    __table_args__ = (Index("ix_webhook_deliveries_due", "status", "next_attempt_at"),)
    id: Mapped[int] = mapped_column(BigInteger().with_variant(Integer, "sqlite"), primary_key=True)
    endpoint_id: Mapped[int] = mapped_column(ForeignKey("webhook_endpoints.id", ondelete="CASCADE"), index=True)
    message_id: Mapped[str] = mapped_column(String(64), unique=True)
    event_type: Mapped[str] = mapped_column(String(64))
    game_id: Mapped[Optional[str]] = mapped_column(String(32), nullable=True)
    payload: Mapped[str] = mapped_column(Text)
    status: Mapped[str] = mapped_column(String(16), default="pending")
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    next_attempt_at: Mapped[dt.datetime] = mapped_column(default=utcnow)
    locked_until: Mapped[Optional[dt.datetime]] = mapped_column(nullable=True)
    last_status_code: Mapped[Optional[int]] = mapped_column(Integer, nullable=True)
    last_error: Mapped[str] = mapped_column(Text, default="")
    created_at: Mapped[dt.datetime] = mapped_column(default=utcnow)
    delivered_at: Mapped[Optional[dt.datetime]] = mapped_column(nullable=True)


class WebhookAttempt(db.Model):
    """One HTTP attempt of a delivery, for the delivery log."""

    __tablename__ = "webhook_attempts"
    id: Mapped[int] = mapped_column(BigInteger().with_variant(Integer, "sqlite"), primary_key=True)
    delivery_id: Mapped[int] = mapped_column(BigInteger().with_variant(Integer, "sqlite"),
                                             ForeignKey("webhook_deliveries.id", ondelete="CASCADE"), index=True)
    started_at: Mapped[dt.datetime] = mapped_column(default=utcnow)
    duration_ms: Mapped[int] = mapped_column(Integer, default=0)
    status_code: Mapped[Optional[int]] = mapped_column(Integer, nullable=True)
    error: Mapped[str] = mapped_column(Text, default="")
    response_excerpt: Mapped[str] = mapped_column(Text, default="")
    manual: Mapped[bool] = mapped_column(Boolean, default=False)


# --------------------------------------------------------------------------- standing orders


class StandingOrder(db.Model):
    """A player's answer to future decisions, given in advance (see
    :mod:`service.play.standing_orders` for the rule format).  Private to its owner: only the
    events it causes are seen by others, as ordinary command events.

    ``game_id`` null: for every game the owner plays (of ``game_type`` when set).
    Orders are tried by ``position`` (then id), per-game orders before general ones.
    """

    __tablename__ = "standing_orders"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    game_id: Mapped[Optional[str]] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), nullable=True,
                                                   index=True)
    game_type: Mapped[Optional[str]] = mapped_column(String(32), nullable=True)
    name: Mapped[str] = mapped_column(String(80), default="")
    rule: Mapped[dict[str, Any]] = mapped_column(JSON)
    enabled: Mapped[bool] = mapped_column(Boolean, default=True)
    position: Mapped[int] = mapped_column(Integer, default=0)
    uses: Mapped[int] = mapped_column(Integer, default=0)
    last_used_at: Mapped[Optional[dt.datetime]] = mapped_column(nullable=True)
    last_used_game_id: Mapped[Optional[str]] = mapped_column(String(32), nullable=True)
    created_at: Mapped[dt.datetime] = mapped_column(default=utcnow)
    updated_at: Mapped[dt.datetime] = mapped_column(default=utcnow)


# --------------------------------------------------------------------------- table talk


class TableMessage(db.Model):
    """A table-talk message of a game: public to every seat (``public``), or private to
    the seats listed in ``table_message_recipients`` (the sender's included).

    Kept apart from the game's events on purpose: talking never moves the game's
    version, so it never makes anyone's ``expected_version`` stale.
    ``inbound_message_id`` is the ``Message-ID`` of the email a reply came in, so a mail
    delivered twice posts once.
    """

    __tablename__ = "table_messages"
    __table_args__ = (Index("ix_table_messages_game", "game_id", "id"),)
    id: Mapped[int] = mapped_column(BigInteger().with_variant(Integer, "sqlite"), primary_key=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    # null: a bot's message (service.notify.talk.BOT_REPLY)
    sender_user_id: Mapped[Optional[int]] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), nullable=True)
    sender_seat: Mapped[int] = mapped_column(Integer)
    public: Mapped[bool] = mapped_column(Boolean, default=True)
    body: Mapped[str] = mapped_column(Text)
    reply_to_id: Mapped[Optional[int]] = mapped_column(BigInteger, nullable=True)
    via: Mapped[str] = mapped_column(String(16), default="web")
    inbound_message_id: Mapped[Optional[str]] = mapped_column(String(255), nullable=True, unique=True)
    created_at: Mapped[dt.datetime] = mapped_column(default=utcnow)


class TableMessageRecipient(db.Model):
    """One seat a private table-talk message is addressed to."""

    __tablename__ = "table_message_recipients"
    message_id: Mapped[int] = mapped_column(BigInteger().with_variant(Integer, "sqlite"),
                                            ForeignKey("table_messages.id", ondelete="CASCADE"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)


def engine_options(url: str) -> dict[str, Any]:
    """Engine options for ``url``: SQLite waits for a lock and is shared between threads;
    JSON columns are written by :func:`write_json` and read by :func:`read_json`.

    A SQLite file's pool hands out the connection given back last (``pool_use_lifo``).
    Each SQLite connection keeps its own cache of the database's pages, and drops all of
    it when it finds that another connection wrote since its last transaction.  Handed
    out in turn (the pool's default), every connection found the last command's writes
    were another's, and a command read its pages again from the file: on SQLite its
    claim, its game's read and its open decisions' delete took 160, 138 and 78 µs a
    command, against 110-119, 99-109 and 63-64 µs when the connection that wrote last
    serves the next request (one client, 600 commands, twice each; ``bench/RESULTS.md``).
    Under load the connections in use are the ones in turn either way."""
    codec = {"json_serializer": write_json, "json_deserializer": read_json}
    if url.startswith("sqlite"):
        options = {"connect_args": {"timeout": 30, "check_same_thread": False}, **codec}
        if wal.is_file_url(url):  # (an in-memory database's engine keeps one connection)
            options["pool_use_lifo"] = True
        return options
    return codec


# The C encoder and scanner of ``json.dumps`` and ``json.loads`` with their settings,
# made once (``None`` without the C accelerator, and then ``json`` itself does the
# work).  Module-level, not in a closure: psycopg keeps one adapter per function it is
# given, and warns of a leak for a closure, whose code says nothing of what it holds.
_MAKE_ENCODER = getattr(json.encoder, "c_make_encoder", None)
_MAKE_SCANNER = getattr(json.scanner, "c_make_scanner", None)
_ENCODER = _MAKE_ENCODER and _MAKE_ENCODER(None, json.JSONEncoder().default, json.encoder.encode_basestring_ascii,
                                           None, ": ", ", ", False, False, True)
_SCAN = _MAKE_SCANNER and _MAKE_SCANNER(json.JSONDecoder())
#: What starts a JSON object or array in bytes that ``json.loads`` reads as UTF-8.
_OPENING = (b"{", b"[")


def write_json(value: Any) -> str:
    """``json.dumps(value)``, as a JSON column calls it, with the C encoder made once
    rather than at every call: a command writes four small JSON values (its
    notification, its idempotency claim and answer, the decisions it keeps open), and
    ``json.dumps`` makes an encoder for each, through three Python calls, which costs
    more than encoding them.

    The same C encoder with ``json.dumps``'s settings gives the same text; only the
    check for circular containers is left out (a value that is not a tree fails with
    ``RecursionError`` instead of ``ValueError``; nothing written to a column is one)."""
    if _ENCODER is None:  # pragma: no cover - CPython has it
        return json.dumps(value)
    return "".join(_ENCODER(value, 0))


def read_json(stored: Any) -> Any:
    """``json.loads(stored)``, as a JSON column calls it on SQLite's text or psycopg's
    bytes, with the C scanner made once: the whole text is one value, so it is scanned
    from its first character.  Bytes that open an object or an array are UTF-8 (what
    ``json.loads`` finds for any that start with two bytes other than zero and no
    byte-order mark), and are decoded as it decodes them.  What is not that plain
    (white space around the value, not JSON at all, anything else) is left to
    ``json.loads``, which answers it, or refuses it, in its own words."""
    text = stored
    try:
        if text.__class__ is bytes and text[:1] in _OPENING:
            text = text.decode("utf-8", "surrogatepass")
        if text.__class__ is str and _SCAN is not None:
            value, end = _SCAN(text, 0)
            if end == len(text):
                return value
    except (StopIteration, ValueError):
        pass
    return json.loads(stored)


def configure_engine(engine: Engine) -> Engine:
    """SQLite gets foreign keys, WAL and a busy timeout on every connection, and its log
    checkpointed beside the requests (:mod:`service.plumbing.wal`); psycopg's engine the
    listeners of the statements its connections hold (:mod:`service.plumbing.statements`)."""
    if engine.dialect.name == "sqlite":

        @event.listens_for(engine, "connect")
        def _sqlite_pragmas(dbapi_connection, _record):  # pragma: no cover - trivial
            cur = dbapi_connection.cursor()
            cur.execute("PRAGMA foreign_keys=ON")
            cur.execute("PRAGMA journal_mode=WAL")
            cur.execute("PRAGMA synchronous=NORMAL")
            cur.close()

        wal.checkpoint_beside(engine)
    elif engine.dialect.driver == "psycopg":
        statements.listen_pipelined(engine)

    return engine


def make_engine(url: str, **kwargs: Any) -> Engine:
    """An engine of its own for ``url`` (migrations, tests, benchmarks); the app's engine is
    Flask-SQLAlchemy's (:mod:`service.plumbing.database`), with the same options."""
    options = {**engine_options(url), **kwargs}
    if "poolclass" in kwargs:  # (a pool of another kind, say NullPool, has no order to keep)
        options.pop("pool_use_lifo", None)
    return configure_engine(create_engine(url, **options))


def make_sessionmaker(engine: Engine) -> sessionmaker:
    return sessionmaker(bind=engine, expire_on_commit=False)
