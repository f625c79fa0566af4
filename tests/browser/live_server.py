"""The real Capua app served over HTTP on loopback, as ``capua serve`` runs it for a newcomer.

Everything is the embedded default: a migrated SQLite file in a fresh instance folder,
mail written to the outbox folder (read in the browser at ``/dev/outbox``), and the
in-process worker thread that delivers mail, composes notifications and applies
deadlines.  Only the instance folder and the public address are chosen here, and every
other setting is pinned to its documented default so that a developer's ``CAPUA_*``
environment (a PostgreSQL URL, a Redis) cannot change what the browser tests see.
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Optional

from werkzeug.serving import BaseWSGIServer, WSGIRequestHandler, make_server

from service import demo, inprocess
from service.identity import auth
from service.play import games
from service.plumbing.config import Config, SETTINGS
from service.plumbing.schema_upgrade import upgrade
from service.web import boards
from service.plumbing import database


class _LateApp:
    """A WSGI callable that forwards to an app set after the socket is bound.

    The app must know its own address (links in mail point at it), and the address is
    only known once the server holds a free port; binding first avoids picking a port
    that another process could take in between.
    """

    def __init__(self) -> None:
        self.app = None

    def __call__(self, environ, start_response):
        return self.app(environ, start_response)


class _ErrorsOnlyLog(WSGIRequestHandler):
    """Logs only server errors: a game is hundreds of requests, and the page fixture
    reports any error response anyway."""

    def log_request(self, code="-", size="-") -> None:
        if str(code).isdigit() and int(code) >= 500:
            super().log_request(code, size)


class LiveServer:
    """``capua serve`` in a thread: ``start()``, use ``url(path)``, ``stop()``."""

    def __init__(self, instance_dir: Path) -> None:
        self.instance_dir = Path(instance_dir)
        self.app = None
        self.config: Optional[Config] = None
        self._server: Optional[BaseWSGIServer] = None
        self._thread: Optional[threading.Thread] = None

    @property
    def base_url(self) -> str:
        return self.config.base_url

    def url(self, path: str = "/") -> str:
        return self.base_url + path

    def sessions(self):
        """A new database session on the server's own engine (what its views use)."""
        return database.sessions(self.app)()

    def start(self) -> "LiveServer":
        from service.app import create_app

        late = _LateApp()
        self._server = make_server("127.0.0.1", 0, late, threaded=True, request_handler=_ErrorsOnlyLog)
        overrides = {s.name: s.default for s in SETTINGS}
        overrides.update(instance_dir=str(self.instance_dir), base_url=f"http://127.0.0.1:{self._server.server_port}")
        # the same dice and bot answers on every run: a page test gets its situation for sure
        # (bots answer at random: a search bounded by wall time would answer differently under load)
        overrides.update(TESTING=True, test_seed="capua-browser-tests", bot_level="random")
        database_url = overrides["database_url"].replace("{instance_dir}", str(self.instance_dir.resolve()))
        upgrade(database_url)  # what `capua serve` does before serving
        self.app = late.app = create_app(overrides)
        self.config = self.app.extensions["capua.config"]
        assert self.config.embedded and self.config.mail_backend == "outbox" and self.config.dev_pages
        inprocess.start(database.sessions(self.app), self.config, app=self.app)
        self._thread = threading.Thread(target=self._server.serve_forever, name="capua-live-server", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
        if self._thread is not None:
            self._thread.join(10)
        if self.config is not None:
            inprocess.stop(self.config)
        if self.app is not None:
            database.dispose(self.app)

    def create_demo_game(self) -> tuple[str, str]:
        """What ``capua demo`` prepares: a PAX game of demo@capua.local against three bots.

        Returns the game's id and the sign-in link ``capua demo`` prints (it lands on
        the game's page).
        """
        with self.sessions() as session:
            user, game = demo.create_demo_game(session, self.config)
            session.commit()
            return game.id, demo.demo_link(self.config, user, game)

    def create_game_against_bots(self, email: str, game_type: str, seats: int,
                                 options: Optional[dict] = None) -> tuple[str, str]:
        """A game of ``game_type`` with ``email`` in seat 0 and bots in every other seat
        (it starts at once), as the API or the create-game page would make it.

        Returns the game's id and a sign-in link for ``email`` that lands on the game.
        """
        with self.sessions() as session:
            user = auth.get_or_create_user(session, email)
            game = games.create_game(session, self.config, creator=user, game_type=game_type, options=options or {},
                                     seats=seats, bot_seats=list(range(1, seats)), creator_seat=0)
            session.commit()
            return game.id, auth.make_magic_link(self.config, user.email, f"/games/{game.id}")

    def invite_to_duel(self, creator_email: str, invited_email: str, options: Optional[dict] = None) -> str:
        """Another player (``creator_email``) sets up a ``spartacus_arena`` duel that the
        creator watches: a bot fights as I (seat 1) and ``invited_email`` is invited to II
        (seat 2), as the API's ``POST /games`` with ``creator_seat: null`` does.  The game
        starts once the invitation is accepted; returns its id."""
        with self.sessions() as session:
            creator = auth.get_or_create_user(session, creator_email)
            game = games.create_game(session, self.config, creator=creator, game_type="spartacus_arena",
                                     options=options or {}, seats=2, bot_seats=[0], invites=[invited_email],
                                     creator_seat=None, title="A duel for the browser")
            session.commit()
            return game.id

    def sign_in_link(self, email: str, next_path: str = "/games") -> str:
        """A magic link for ``email`` (made as the sign-in form's mail makes it) landing on ``next_path``."""
        with self.sessions() as session:
            user = auth.get_or_create_user(session, email)
            session.commit()
            return auth.make_magic_link(self.config, user.email, next_path)

    def choice_path(self, game_id: str, email: str, option: int = 0) -> str:
        """The confirm page of answering ``email``'s first open decision with its
        ``option``-th option, as a choice drawn on a board links to it."""
        with self.sessions() as session:
            user = auth.get_or_create_user(session, email)
            decision = games.decisions_for(session, game_id, user)[0]
        with self.app.test_request_context():
            return boards.choice_url(game_id, decision, decision["options"][option])
