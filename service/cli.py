"""The ``capua`` command: serve, play a demo, manage tokens, migrate, inspect settings.

Every command reads the settings from the environment (see ``capua config``).  A
problem the operator can fix (a bad setting, an unknown user, an unreachable database)
is reported as one readable line and exit status 1, never as a traceback.
"""

from __future__ import annotations

import contextlib
import os
import sys
from typing import Any, Callable, Iterator, Optional
from urllib.parse import urlsplit, urlunsplit

import json

import click
from sqlalchemy import select
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.orm import Session

from service.config import SETTINGS, Config, load_config, settings_table
from service.errors import ServiceError

#: Settings whose values are never printed.
SECRET_SETTINGS = {"secret_key", "inbound_mail_secret", "smtp_password"}
#: Settings that are URLs and may carry a password.
URL_SETTINGS = {"database_url", "redis_url"}


def main() -> None:
    """Entry point of the ``capua`` console script."""
    cli(prog_name="capua")


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
def cli() -> None:
    """Capua: play Roman board games by email, in the browser and over a REST API.

    Settings come from CAPUA_* environment variables; `capua config` lists them.
    """


# --------------------------------------------------------------------------- helpers


def _config(overrides: Optional[dict] = None) -> Config:
    try:
        return load_config(overrides)
    except ValueError as err:
        raise click.ClickException(str(err)) from None


@contextlib.contextmanager
def _session(config: Config) -> Iterator[Session]:
    """A session on the configured database; errors become one readable line."""
    from service.database import Database

    database = Database.from_config(config)
    try:
        with database.sessions() as session:
            yield session
    except ServiceError as err:
        raise click.ClickException(err.message) from None
    except SQLAlchemyError as err:
        raise click.ClickException(f"database error: {err.__class__.__name__}: {str(err).splitlines()[0]} "
                                   "(is the database migrated? run `capua db upgrade`)") from None
    finally:
        database.engine.dispose()


def _progress(message: str) -> None:
    click.echo(message, err=True)


def _upgrade(config: Config) -> None:
    from service.schema_upgrade import current_revision, upgrade

    _progress(f"Migrating the database at {_masked_url(config.database_url)} ...")
    try:
        upgrade(config.database_url)
        revision = current_revision(config.database_url)
    except SQLAlchemyError as err:
        raise click.ClickException(f"cannot migrate the database: {str(err).splitlines()[0]}") from None
    _progress(f"Database is at revision {revision}.")


def _masked_url(url: str) -> str:
    parts = urlsplit(url)
    if parts.password is None:
        return url
    netloc = f"{parts.username or ''}:***@{parts.hostname or ''}" + (f":{parts.port}" if parts.port else "")
    return urlunsplit(parts._replace(netloc=netloc))


def _shown_value(name: str, env: str, value: Any) -> str:
    if name in SECRET_SETTINGS:
        return "*** (set)" if os.environ.get(env) else "*** (generated, kept in the instance folder)"
    if name in URL_SETTINGS and isinstance(value, str):
        value = _masked_url(value)
    return "(empty)" if value == "" else str(value)


# --------------------------------------------------------------------------- serve and demo


def _serve(host: str, port: Optional[int], prepare: Optional[Callable[[Any, Config], str]] = None) -> None:
    """Migrate, build the app, start the embedded worker when there is no Redis, serve.

    ``prepare(app, config)`` runs before serving; the line it returns is printed last,
    right above the server's own log, where a newcomer looks for it.
    """
    from werkzeug.serving import run_simple

    from service import inprocess
    from service.app import create_app

    settings = _config()
    port = port or urlsplit(settings.base_url).port or 5000
    overrides: dict[str, Any] = {}
    if not os.environ.get("CAPUA_BASE_URL"):
        # Links in mail must point at the address actually served.
        shown_host = "127.0.0.1" if host in {"0.0.0.0", "::", ""} else host
        overrides["base_url"] = f"http://{shown_host}:{port}"
    _upgrade(settings)
    app = create_app(overrides)
    config: Config = app.extensions["capua.config"]
    greeting = prepare(app, config) if prepare is not None else ""
    if config.embedded:
        inprocess.start(app.extensions["capua.db"].sessions, config)
        _progress("Mail and sweeps run in this process (no CAPUA_REDIS_URL).")
    else:
        _progress("Mail and sweeps run in the Celery worker (CAPUA_REDIS_URL is set).")
    _progress(f"Capua is serving at {config.base_url}/"
              + (f"  (mail outbox: {config.base_url}/dev/outbox)" if config.dev_pages else ""))
    if greeting:
        click.echo(greeting)
    try:
        run_simple(host, port, app, threaded=True, use_reloader=False, use_debugger=False)
    finally:
        inprocess.stop(config)


@cli.command()
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option("--port", type=int, default=None, help="Port to listen on [default: the port of CAPUA_BASE_URL, or 5000].")
def serve(host: str, port: Optional[int]) -> None:
    """Run the server: migrate the database, then serve the pages and the API.

    Without CAPUA_REDIS_URL, mail is delivered by a worker thread in this process. For
    production use the Procfile (gunicorn, Celery worker and beat).
    """
    _serve(host, port)


@cli.command()
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option("--port", type=int, default=None, help="Port to listen on [default: the port of CAPUA_BASE_URL, or 5000].")
def demo(host: str, port: Optional[int]) -> None:
    """Serve, with a new PAX game for demo@capua.local against three bots.

    Prints a sign-in link that opens the game.
    """

    def prepare(app, config: Config) -> str:
        from service import demo as demo_mod

        with _session(config) as session:
            user, game = demo_mod.create_demo_game(session, config)
            session.commit()
            link = demo_mod.demo_link(config, user, game)
        return f"Your PAX game against three bots: {link}"

    _serve(host, port, prepare)


# --------------------------------------------------------------------------- tokens


@cli.group()
def token() -> None:
    """Personal API tokens (for bots and scripts)."""


@token.command("create")
@click.argument("email")
@click.option("--name", default="", help="A name to tell the token apart later, e.g. 'my bot'.")
def token_create(email: str, name: str) -> None:
    """Create an API token for EMAIL (the user is created if new); prints it once."""
    from service import auth

    config = _config()
    with _session(config) as session:
        user = auth.get_or_create_user(session, email)
        row, raw = auth.create_api_token(session, user, name)
        session.commit()
        token_id = row.id
    _progress(f"Token {token_id} for {user.email}. It is shown only now; store it safely.")
    click.echo(raw)


@token.command("list")
@click.argument("email")
def token_list(email: str) -> None:
    """List the API tokens of EMAIL (prefixes only)."""
    from service import auth
    from service.db import User

    config = _config()
    with _session(config) as session:
        user = session.scalar(select(User).where(User.email == auth.normalise_email(email)))
        if user is None:
            raise click.ClickException(f"no user {email}")
        for row in auth.list_api_tokens(session, user):
            state = f"revoked {row.revoked_at:%Y-%m-%d}" if row.revoked_at else "active"
            used = f"last used {row.last_used_at:%Y-%m-%d %H:%M}" if row.last_used_at else "never used"
            click.echo(f"{row.id}\t{row.prefix}…\t{row.name or '-'}\t{state}\t{used}")


@token.command("revoke")
@click.argument("token_id", type=int)
def token_revoke(token_id: int) -> None:
    """Revoke the API token with this ID (see `capua token list`)."""
    from service import auth
    from service.db import ApiToken, User

    config = _config()
    with _session(config) as session:
        row = session.get(ApiToken, token_id)
        if row is None:
            raise click.ClickException(f"no API token {token_id}")
        auth.revoke_api_token(session, session.get(User, row.user_id), token_id)
        session.commit()
    click.echo(f"Token {token_id} revoked.")


# --------------------------------------------------------------------------- database, mail, settings


@cli.group()
def db() -> None:
    """The database schema."""


@db.command("upgrade")
def db_upgrade() -> None:
    """Apply the database migrations (Alembic) up to the newest."""
    _upgrade(_config())


@cli.group("mail")
def mail_group() -> None:
    """The mail outbox."""


@mail_group.command("deliver")
def mail_deliver() -> None:
    """Deliver every message still pending in the outbox."""
    from service import mail
    from service.database import Database

    config = _config()
    database = Database.from_config(config)
    try:
        waiting = len(mail.pending_ids(database.sessions, limit=1_000_000))
        _progress(f"Delivering {waiting} pending message(s) with the {config.mail_backend!r} backend ...")
        sent = mail.deliver_pending(database.sessions, config)
        left = len(mail.pending_ids(database.sessions, limit=1_000_000))
    except SQLAlchemyError as err:
        raise click.ClickException(f"database error: {str(err).splitlines()[0]}") from None
    finally:
        database.engine.dispose()
    click.echo(f"{sent} sent, {left} still pending.")
    if left:
        sys.exit(1)


@mail_group.command("receive")
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option("--port", type=int, default=8025, show_default=True, help="Port to listen on.")
@click.option("--lmtp", is_flag=True, help="Speak LMTP (for an MTA's local delivery) instead of SMTP.")
def mail_receive(host: str, port: int, lmtp: bool) -> None:
    """Receive replies to table-talk mail over SMTP (or LMTP) and post them.

    Point the MTA for CAPUA_INBOUND_MAIL_DOMAIN at this server; it accepts mail only
    for verified talk+... reply addresses and refuses strangers and tampered addresses.
    """
    import signal
    import threading

    from service import inbound_mail
    from service.database import Database

    config = _config()
    if not config.inbound_mail_domain:
        raise click.ClickException("set CAPUA_INBOUND_MAIL_DOMAIN first: it is the domain of the reply addresses")
    database = Database.from_config(config)
    controller = inbound_mail.make_controller(database.sessions, config, host=host, port=port, lmtp=lmtp)
    try:
        controller.start()
    except (OSError, RuntimeError) as err:
        database.engine.dispose()
        raise click.ClickException(f"cannot listen on {host}:{port}: {err}") from None
    _progress(f"Receiving replies for @{config.inbound_mail_domain} over {'LMTP' if lmtp else 'SMTP'} "
              f"on {host}:{port} (Ctrl-C to stop).")
    stopped = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stopped.set())
    try:
        stopped.wait()
    except KeyboardInterrupt:
        pass
    finally:
        controller.stop()
        database.engine.dispose()


@cli.group("cards")
def cards_group() -> None:
    """The card sets the games are played with."""


@cards_group.command("list")
@click.argument("game")
@click.option("--set", "set_name", default="default", show_default=True, help="Which card set.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of a table.")
def cards_list(game: str, set_name: str, as_json: bool) -> None:
    """Print every card of GAME's card set (pax, rom, spartacus)."""
    from service.catalogue import card_list, games_with_cards

    if game not in games_with_cards():
        raise click.BadParameter(f"choose one of {', '.join(games_with_cards())}", param_hint="GAME")
    try:
        rows = card_list(game, set_name)
    except (OSError, ValueError) as err:
        raise click.ClickException(f"card set {set_name!r} of {game}: {err}") from None
    if as_json:
        click.echo(json.dumps(rows, indent=2, ensure_ascii=False))
        return
    width = max(len(r["name"]) for r in rows)
    deck = None
    for row in rows:
        if row["deck"] != deck:
            deck = row["deck"]
            click.echo(f"\n{deck}")
        count = f"{row['count']}x" if row.get("count", 1) != 1 else ""
        click.echo(f"  {count:>4} {row['name']:<{width}}  {row['text']}")
    click.echo(f"\n{len(rows)} entries in the {set_name} set of {game}.")


@cli.command("config")
@click.option("--markdown", is_flag=True, help="Print the table of settings and defaults for the README instead.")
def show_config(markdown: bool) -> None:
    """Show every setting, where it comes from and its current value (secrets masked)."""
    if markdown:
        click.echo(settings_table())
        return
    config = _config()
    width = max(len(s.env) for s in SETTINGS)
    for s in SETTINGS:
        source = "env" if s.env in os.environ else "default"
        click.echo(f"{s.env:<{width}}  {_shown_value(s.name, s.env, getattr(config, s.name))}  [{source}]")
