"""The database of a running app: Flask-SQLAlchemy over Capua's models, Flask-Migrate over
its Alembic history.

``db`` is the one Flask-SQLAlchemy extension (``SQLAlchemy(model_class=Base)``, defined
with the typed models in :mod:`service.plumbing.db`); :func:`init_app` points it at the configured
database.  A request's session is ``db.session`` (:func:`session`), removed when the app
context ends; nothing commits implicitly: the one service function that changes a game
flushes, and the view commits once, so the events, the outbox rows and the idempotency
record of a request land in one transaction or not at all.

Work outside a request (the in-process worker, Celery tasks, the CLI) runs inside an app
context too, with :func:`sessions`: a factory of independent sessions on the same engine
with the same options, for work that needs transactions of its own (claiming a row,
then sending).  :func:`bare_app` is the app of a process that serves no pages.
"""

from __future__ import annotations

from pathlib import Path
from typing import Optional

from flask import Flask, current_app
from flask_migrate import Migrate
from sqlalchemy.engine import Engine
from sqlalchemy.orm import Session, sessionmaker
from sqlalchemy.orm.exc import FlushError
import sqlalchemy
from sqlalchemy.orm.session import SessionTransactionState

from service.plumbing import after_answer
from service.plumbing.config import Config
from service.plumbing.db import configure_engine, db, engine_options, make_sessionmaker

#: The Alembic history (``env.py``, ``versions/``), run by Flask-Migrate.
MIGRATIONS_DIR = Path(__file__).resolve().parent / "migrations"

migrate = Migrate(directory=str(MIGRATIONS_DIR))



@migrate.configure
def _database_url_for_env(config):
    """Flask-Migrate's Alembic configuration, with the app's database URL for ``env.py``."""
    config.attributes.setdefault("database_url", current_app.config["SQLALCHEMY_DATABASE_URI"])
    return config


#: ``app.extensions`` key of the app's factory of independent sessions.
_SESSIONS = "capua.sessions"


def init_app(app: Flask, config: Config) -> None:
    """Flask-SQLAlchemy and Flask-Migrate for ``app``, on ``config``'s database."""
    app.config["SQLALCHEMY_DATABASE_URI"] = config.database_url
    app.config["SQLALCHEMY_ENGINE_OPTIONS"] = engine_options(config.database_url)
    app.extensions["capua.config"] = config
    db.init_app(app)
    # the request's session is closed once the answer is out (Flask-SQLAlchemy's own
    # teardown closes it before): :func:`_teardown_session`
    app.teardown_appcontext_funcs[:] = [f for f in app.teardown_appcontext_funcs if f != db._teardown_session]
    app.teardown_appcontext(_teardown_session)
    migrate.init_app(app, db, directory=str(MIGRATIONS_DIR))
    with app.app_context():
        configure_engine(db.engine)
        app.extensions[_SESSIONS] = make_sessionmaker(db.engine)


def _teardown_session(_error: Optional[BaseException]) -> None:
    """At the end of an app context, what Flask-SQLAlchemy does (``db.session.remove()``):
    the context's session taken out of the registry at once, and closed (its transaction
    rolled back, its connection back to the pool) once the answer is out, in a request
    served by gunicorn (:mod:`service.plumbing.after_answer`); at once anywhere else."""
    registry = db.session.registry
    if registry.has():
        session = registry()
        registry.clear()
        after_answer.later(session.close)


def bare_app(config: Config) -> Flask:
    """An app with the settings and the database and nothing else: the Celery worker's,
    the CLI's and the migrations' (they serve no pages)."""
    app = Flask("capua", instance_path=config.instance_dir)
    init_app(app, config)
    return app


def engine(app: Optional[Flask] = None) -> Engine:
    """The engine of ``app`` (default: the current one)."""
    app = app or current_app
    with app.app_context():
        return db.engine


def sessions(app: Optional[Flask] = None) -> sessionmaker:
    """Independent sessions on ``app``'s engine (default: the current app's)."""
    return (app or current_app).extensions[_SESSIONS]


def new_session() -> Session:
    """A session of its own on the current app's engine, for a short side transaction."""
    return sessions()()


def config() -> Config:
    return current_app.extensions["capua.config"]


def session() -> Session:
    """The session of the current request (the one ``db.session`` holds for this app
    context), removed at teardown.  The session itself, not the scoped proxy: the proxy
    looks the app context up again on every attribute a caller touches."""
    return db.session()


def dispose(app: Flask) -> None:
    """Close every connection of ``app``'s engine (at shutdown, and between tests)."""
    engine(app).dispose()


_ACTIVE = SessionTransactionState.ACTIVE
_PREPARED = SessionTransactionState.PREPARED
_COMMITTED = SessionTransactionState.COMMITTED
_CLOSED = SessionTransactionState.CLOSED

#: :func:`commit` walks SQLAlchemy's own transaction objects, whose attributes are not
#: its public API: it does so only on the release it was written and tested against
#: (2.1); on any other, every commit is ``session.commit()``.
_KNOWN_RELEASE = sqlalchemy.__version__.split(".")[:2] == ["2", "1"]


def commit(session: Session) -> None:
    """``session.commit()``, for the request's one transaction, without SQLAlchemy's
    state machine around it.

    The ORM's commit walks its transaction through states with a checking wrapper and two
    context managers at each step (prepare, commit, close): measured at about a third
    of the commit's CPU on a command, besides the driver's own commit.  For a session's
    outermost transaction (no savepoint, no two-phase commit, no ``with
    session.begin()``), this does what it does, in its order: ``before_commit`` (the
    held statements go with the COMMIT), the ORM's changes flushed, each connection's
    transaction committed (the engine's ``commit`` event as ever), ``after_commit``, the
    connections back to the pool and ``after_transaction_end``.  Any other transaction,
    or none, is committed by ``session.commit()``.  A failure leaves the transaction
    as SQLAlchemy's would (prepared, or active if it failed before): the caller rolls
    it back as ever.
    """
    if not _KNOWN_RELEASE:
        session.commit()
        return
    transaction = session._transaction
    if (transaction is None or transaction._parent is not None or transaction.nested
            or transaction._state is not _ACTIVE or session.twophase
            or session._trans_context_manager is not None or session._flushing):
        session.commit()
        return
    session.dispatch.before_commit(session)
    for _flush in range(100):
        if session._is_clean():
            break
        session.flush()
    else:
        raise FlushError("Over 100 subsequent flushes have occurred within session.commit() - "
                         "is an after_flush() hook creating new objects?")
    if session._transaction is not transaction or transaction._state is not _ACTIVE:
        session.commit()  # (a listener changed the transaction: SQLAlchemy's commit decides)
        return
    transaction._state = _PREPARED
    connections = set(transaction._connections.values())
    for _connection, connection_transaction, should_commit, _autoclose in connections:
        if should_commit:
            connection_transaction.commit()
    transaction._state = _COMMITTED
    session.dispatch.after_commit(session)
    transaction._remove_snapshot()
    session._transaction = None
    for connection, connection_transaction, should_commit, autoclose in connections:
        if should_commit and connection_transaction.is_active:
            connection_transaction.close()
        if autoclose:
            # back to the pool once the answer is out (:mod:`service.plumbing.after_answer`):
            # the transaction has ended, and the session asks the pool for another if the
            # request goes on
            after_answer.later(connection.close)
    transaction._state = _CLOSED
    session.dispatch.after_transaction_end(session, transaction)
