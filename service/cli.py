"""The ``capua`` command: serve, play a demo, manage tokens, migrate, inspect settings.

Every command reads the settings from the environment (see ``capua config``).  A
problem the operator can fix (a bad setting, an unknown user, an unreachable database)
is reported as one readable line and exit status 1, never as a traceback.
"""

from __future__ import annotations

import contextlib
import os
import socket
import sys
from typing import Any, Callable, Iterator, Optional
from urllib.parse import urlsplit, urlunsplit

import json

import click
from sqlalchemy import select
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.orm import Session

from engine.core.bots import LEVELS
from service.plumbing.config import Config, SETTINGS, dev_pages_bind_problem, load_config, settings_table
from service.plumbing.errors import ServiceError

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


def _existing_config() -> Config:
    """The settings of an instance that exists already, for commands that read or change
    its data (tokens, mail): found as ``capua serve`` finds it — ``CAPUA_DATABASE_URL``,
    else the database in ``CAPUA_INSTANCE_DIR``, else in ``./instance`` of the current
    folder.  An embedded database that is not there is refused before anything is
    created, so a token never lands in a new, empty instance by mistake."""
    from sqlalchemy.engine import make_url

    probe = _config({"secret_key": "only-probing"})  # no secret generated, no folder made
    url = make_url(probe.database_url)
    if url.get_backend_name() == "sqlite" and url.database not in (None, "", ":memory:"):
        path = os.path.abspath(url.database)
        if not os.path.exists(path):
            raise click.ClickException(
                f"no Capua instance here: there is no database at {path}. `capua serve` and `capua demo` "
                "keep theirs in ./instance of the folder they were started in; run this command from that "
                "folder, or set CAPUA_INSTANCE_DIR (or CAPUA_DATABASE_URL) to the instance you mean.")
    return _config()


@contextlib.contextmanager
def _session(config: Config) -> Iterator[Session]:
    """A session on the configured database; errors become one readable line."""
    from service.plumbing import database

    app = database.bare_app(config)
    try:
        with app.app_context(), database.sessions(app)() as session:
            yield session
    except ServiceError as err:
        raise click.ClickException(err.message) from None
    except SQLAlchemyError as err:
        raise click.ClickException(f"database error: {err.__class__.__name__}: {str(err).splitlines()[0]} "
                                   "(is the database migrated? run `capua db upgrade`)") from None
    finally:
        database.dispose(app)


def _progress(message: str) -> None:
    click.echo(message, err=True)


def _upgrade(config: Config) -> None:
    from service.plumbing.schema_upgrade import current_revision, upgrade

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


def _shown_value(name: str, env: str, value: Any, config: Config) -> str:
    if name in SECRET_SETTINGS:
        return "*** (set)" if os.environ.get(env) else _unset_secret(name, config)
    if name in URL_SETTINGS and isinstance(value, str):
        value = _masked_url(value)
    return "(empty)" if value == "" else str(value)


def _unset_secret(name: str, config: Config) -> str:
    """What an unset secret really means."""
    if name == "secret_key":
        return f"*** (not set: generated once and kept in {config.instance_dir}/secret_key)"
    if name == "inbound_mail_secret":
        return "(not set: POST /api/v1/inbound/mail is off)"
    if name == "smtp_password":
        return ("(not set: SMTP without a password)" if config.smtp_username
                else "(not set: SMTP without logging in)")
    return "(not set)"


def _warnings(config: Config) -> list[str]:
    """What an operator should know about these settings before serving others."""
    out = []
    if config.outbox_pages:
        out.append("warning: the developer pages are on (CAPUA_DEV_PAGES=1): /dev/outbox shows every mail, "
                   "sign-in links included, to browsers on this machine. Set CAPUA_DEV_PAGES=0 in production.")
        if config.dev_pages_public:
            out.append("warning: CAPUA_DEV_PAGES_PUBLIC=1: the server starts with the developer pages on any "
                       "address; behind a proxy on this machine they would answer the proxy's requests.")
    if config.smtp_password and not config.smtp_username:
        out.append("warning: CAPUA_SMTP_PASSWORD is set but CAPUA_SMTP_USERNAME is empty: the password is not used.")
    return out


# --------------------------------------------------------------------------- serve and demo


def _check_port(host: str, port: int) -> None:
    """Refuse at once, before anything is created, when ``host:port`` cannot be served."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as probe:
        # the server itself binds with SO_REUSEADDR: a port only in TIME_WAIT is free for it
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((host, port))
        except OSError as err:
            raise click.ClickException(
                f"cannot serve on {host}:{port}: {err.strerror or err} — is another Capua (or another "
                f"program) serving there? Stop it, or choose another port with --port.") from None


def _serve(host: str, port: Optional[int], prepare: Optional[Callable[[Any, Config], str]] = None) -> None:
    """Migrate, build the app, start the embedded worker when there is no Redis, serve.

    ``prepare(app, config)`` runs before serving; the line it returns is printed last,
    right above the server's own log, where a newcomer looks for it.
    """
    from werkzeug.serving import run_simple

    from service import inprocess
    from service.app import create_app
    from service.plumbing import database

    settings = _config()
    problem = dev_pages_bind_problem(settings, [host])
    if problem:
        raise click.ClickException(problem)
    port = port or urlsplit(settings.base_url).port or 5000
    _check_port(host, port)
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
        inprocess.start(database.sessions(app), config, app=app)
        _progress("Mail and sweeps run in this process (no CAPUA_REDIS_URL).")
    else:
        _progress("Mail and sweeps run in the Celery worker (CAPUA_REDIS_URL is set).")
    _progress(f"Capua is serving at {config.base_url}/"
              + (f"  (mail outbox: {config.base_url}/dev/outbox)" if config.outbox_pages else ""))
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
@click.option("--bot-level", type=click.Choice(LEVELS), default=None,
              help="How well the three bots of a new demo game play [default: CAPUA_BOT_LEVEL, normal].")
def demo(host: str, port: Optional[int], bot_level: Optional[str]) -> None:
    """Serve, with a PAX game for demo@capua.local against three bots.

    Prints a sign-in link (it works once, for CAPUA_MAGIC_LINK_TTL_MINUTES) that signs in
    as demo@capua.local and opens the game.  Run again, it prints a fresh link into the
    same game while that game is not finished.
    """

    def prepare(app, config: Config) -> str:
        from service import demo as demo_mod

        with _session(config) as session:
            user, game, created = demo_mod.demo_game(session, config, bot_level)
            session.commit()
            link = demo_mod.demo_link(config, user, game)
        if not created:
            _progress(f"The demo game {game.id} is still running: here is a fresh link into it.")
        return (f"Your PAX game against three bots: {link}\n"
                f"This link signs you in as {demo_mod.DEMO_EMAIL} once, within {config.magic_link_ttl_minutes} "
                f"minutes. Later, sign in as {demo_mod.DEMO_EMAIL} at {config.base_url}/signin "
                f"(the link arrives in {config.base_url}/dev/outbox), or run `capua demo` again.")

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
    from service.identity import auth

    config = _existing_config()
    with _session(config) as session:
        user = auth.get_or_create_user(session, email)
        row, raw = auth.create_api_token(session, user, name)
        session.commit()
        token_id = row.id
    _progress(f"Token {token_id} for {user.email} in the database {_masked_url(config.database_url)}. "
              "It is shown only now; store it safely.")
    click.echo(raw)


@token.command("list")
@click.argument("email")
def token_list(email: str) -> None:
    """List the API tokens of EMAIL (prefixes only)."""
    from service.identity import auth
    from service.plumbing.db import User

    config = _existing_config()
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
    from service.identity import auth
    from service.plumbing.db import ApiToken, User

    config = _existing_config()
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
    from service.plumbing import database, mail

    config = _existing_config()
    app = database.bare_app(config)
    sessions = database.sessions(app)
    try:
        with app.app_context():
            waiting = len(mail.pending_ids(sessions, limit=1_000_000))
            _progress(f"Delivering {waiting} pending message(s) with the {config.mail_backend!r} backend ...")
            sent = mail.deliver_pending(sessions, config)
            left = len(mail.pending_ids(sessions, limit=1_000_000))
    except SQLAlchemyError as err:
        raise click.ClickException(f"database error: {str(err).splitlines()[0]}") from None
    finally:
        database.dispose(app)
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

    from service.app import wire
    from service.notify import inbound_mail
    from service.plumbing import database

    config = _config()
    if not config.inbound_mail_domain:
        raise click.ClickException("set CAPUA_INBOUND_MAIL_DOMAIN first: it is the domain of the reply addresses")
    wire(config)
    app = database.bare_app(config)
    controller = inbound_mail.make_controller(database.sessions(app), config, host=host, port=port, lmtp=lmtp)
    try:
        controller.start()
    except (OSError, RuntimeError) as err:
        database.dispose(app)
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
        database.dispose(app)


@cli.group("cards")
def cards_group() -> None:
    """The card sets the games are played with."""


@cards_group.command("list")
@click.argument("game")
@click.option("--set", "set_name", default="default", show_default=True, help="Which card set.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of a table.")
def cards_list(game: str, set_name: str, as_json: bool) -> None:
    """Print every card of GAME's card set (pax, rom, spartacus)."""
    from service.words.catalogue import card_list, games_with_cards

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
        click.echo(f"{s.env:<{width}}  {_shown_value(s.name, s.env, getattr(config, s.name), config)}  [{source}]")
    for line in _warnings(config):
        click.echo(line, err=True)
