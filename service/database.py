"""The database handle of a running app and the request-scoped session.

``create_app`` builds one :class:`Database` per app.  Views and service functions take
the session from :func:`session`; nothing commits implicitly: the one service function
that changes a game flushes, and the view commits once, so the events, the outbox rows
and the idempotency record of a request land in one transaction or not at all.
"""

from __future__ import annotations

from dataclasses import dataclass

from flask import current_app, g
from sqlalchemy.engine import Engine
from sqlalchemy.orm import Session, sessionmaker

from service.config import Config
from service.db import make_engine, make_sessionmaker


@dataclass
class Database:
    engine: Engine
    sessions: sessionmaker

    @classmethod
    def from_config(cls, config: Config) -> "Database":
        engine = make_engine(config.database_url)
        return cls(engine=engine, sessions=make_sessionmaker(engine))


def database() -> Database:
    return current_app.extensions["capua.db"]


def config() -> Config:
    return current_app.extensions["capua.config"]


def session() -> Session:
    """The session of the current request, opened on first use and closed at teardown."""
    if "db_session" not in g:
        g.db_session = database().sessions()
    return g.db_session


def close_session(_exc: BaseException | None = None) -> None:
    s = g.pop("db_session", None)
    if s is not None:
        s.rollback()
        s.close()
