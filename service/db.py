"""Capua's database schema (SQLAlchemy 2), identical on SQLite and PostgreSQL.

The truth of a game is its ``events`` rows, append-only with ``(game_id, seq)`` unique.
Everything else about a game is derived or a cache: ``games.version`` is the stream
version (the optimistic-concurrency token, equal to the last ``seq``), ``snapshots``
cache folded states, ``open_decisions`` indexes who owes an answer (for "my games,
awaiting me first", deadlines and reminders).  Alembic migrations in
``service/migrations`` create exactly these tables.
"""

from __future__ import annotations

import datetime as dt
from typing import Any, Optional

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
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
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, sessionmaker


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


class Base(DeclarativeBase):
    type_annotation_map = {dict[str, Any]: JSON, dt.datetime: UTCDateTime}


class User(Base):
    """A player is an email address (stored lower-cased)."""

    __tablename__ = "users"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    email: Mapped[str] = mapped_column(String(320), unique=True)
    display_name: Mapped[str] = mapped_column(String(80), default="")
    language: Mapped[str] = mapped_column(String(8), default="en")
    timezone: Mapped[str] = mapped_column(String(64), default="UTC")
    created_at: Mapped[dt.datetime] = mapped_column(default=utcnow)


class ApiToken(Base):
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


class UsedLink(Base):
    """Single-use signed links (magic sign-in, later one-click actions): the ``jti`` of each
    link is inserted when it is used, so a second use hits the primary key."""

    __tablename__ = "used_links"
    jti: Mapped[str] = mapped_column(String(64), primary_key=True)
    purpose: Mapped[str] = mapped_column(String(32))
    used_at: Mapped[dt.datetime] = mapped_column(default=utcnow)
    expires_at: Mapped[dt.datetime] = mapped_column()


class Game(Base):
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


class Seat(Base):
    """A seat of a game: a bot, an invited email not yet joined, a joined user, or open."""

    __tablename__ = "seats"
    __table_args__ = (UniqueConstraint("game_id", "seat"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    seat: Mapped[int] = mapped_column(Integer)
    user_id: Mapped[Optional[int]] = mapped_column(ForeignKey("users.id"), nullable=True, index=True)
    invited_email: Mapped[Optional[str]] = mapped_column(String(320), nullable=True)
    is_bot: Mapped[bool] = mapped_column(Boolean, default=False)
    joined_at: Mapped[Optional[dt.datetime]] = mapped_column(nullable=True)


class StoredEvent(Base):
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


class Snapshot(Base):
    """A cached fold of a game's events up to ``seq``; discarded if ``rules_version`` differs."""

    __tablename__ = "snapshots"
    __table_args__ = (UniqueConstraint("game_id", "seq"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    seq: Mapped[int] = mapped_column(BigInteger)
    rules_version: Mapped[str] = mapped_column(String(32))
    state: Mapped[bytes] = mapped_column(LargeBinary)
    created_at: Mapped[dt.datetime] = mapped_column(default=utcnow)


class IdempotencyKey(Base):
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


class OpenDecision(Base):
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
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    decision_id: Mapped[str] = mapped_column(String(120))
    seat: Mapped[int] = mapped_column(Integer)
    user_id: Mapped[Optional[int]] = mapped_column(Integer, nullable=True, index=True)
    mode: Mapped[str] = mapped_column(String(16))
    version: Mapped[int] = mapped_column(BigInteger)
    opened_at: Mapped[dt.datetime] = mapped_column(default=utcnow)
    deadline_at: Mapped[Optional[dt.datetime]] = mapped_column(nullable=True)


class MailMessage(Base):
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


def make_engine(url: str, **kwargs: Any) -> Engine:
    """An engine for ``url``; SQLite gets foreign keys, WAL and a busy timeout."""
    if url.startswith("sqlite"):
        kwargs.setdefault("connect_args", {"timeout": 30, "check_same_thread": False})
    engine = create_engine(url, future=True, **kwargs)
    if engine.dialect.name == "sqlite":

        @event.listens_for(engine, "connect")
        def _sqlite_pragmas(dbapi_connection, _record):  # pragma: no cover - trivial
            cur = dbapi_connection.cursor()
            cur.execute("PRAGMA foreign_keys=ON")
            cur.execute("PRAGMA journal_mode=WAL")
            cur.execute("PRAGMA synchronous=NORMAL")
            cur.close()

    return engine


def make_sessionmaker(engine: Engine) -> sessionmaker:
    return sessionmaker(bind=engine, expire_on_commit=False, future=True)
