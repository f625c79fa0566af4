"""The Flask app factory: nothing happens at import time.  A composition root: it may
import every room, and no room imports it.

``create_app(overrides)`` reads the settings (environment, then ``overrides`` for tests),
opens the database, and registers the parts of the service, each in its own module:
identity (``service.identity.auth``), the REST API (``service.api``), the pages
(``service.web.pages``), the site around the games (``service.web.site_pages``) and the one JSON error shape (``service.plumbing.http_errors``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Mapping, Optional

from flask import Flask

from service.plumbing.config import Config, load_config
from service.plumbing import database

ROOT = Path(__file__).resolve().parent.parent


class CapuaFlask(Flask):
    """Flask, asking once per view or hook whether it is a coroutine function.

    Flask's :meth:`~flask.Flask.ensure_sync` asks ``inspect.iscoroutinefunction`` of
    every hook and view on every request (ten times for an API command, about 1 % of
    its profiled time); the answer never changes for a function, so it is kept (for
    the functions the app holds: a bounded number).
    """

    #: More functions than any app of Capua registers; beyond it nothing is kept.
    SYNC_CACHE_SIZE = 1024

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._sync_of: dict[Any, Any] = {}

    def ensure_sync(self, func: Any) -> Any:
        try:
            return self._sync_of[func]
        except KeyError:
            pass
        except TypeError:  # an unhashable callable
            return super().ensure_sync(func)
        sync = super().ensure_sync(func)
        if len(self._sync_of) < self.SYNC_CACHE_SIZE:
            self._sync_of[func] = sync
        return sync


def create_app(overrides: Optional[Mapping[str, Any]] = None) -> Flask:
    config = load_config(overrides)
    app = CapuaFlask(
        "capua",
        template_folder=str(ROOT / "templates"),
        static_folder=str(ROOT / "service" / "web" / "static"),
        instance_path=config.instance_dir,
    )
    app.config["SECRET_KEY"] = config.secret_key
    app.config["SESSION_COOKIE_HTTPONLY"] = True
    app.config["SESSION_COOKIE_SAMESITE"] = "Lax"
    app.config["SESSION_COOKIE_SECURE"] = config.base_url.startswith("https://")
    app.config["MAX_CONTENT_LENGTH"] = 256 * 1024
    database.init_app(app, config)

    from service import api
    from service.identity import auth
    from service.plumbing import http_errors, json_input
    from service.web import notify_pages, pages, site_pages

    wire(config)
    http_errors.register(app)
    json_input.init_app(app)
    auth.init_app(app)
    api.register(app)
    pages.register(app)
    notify_pages.register(app)
    site_pages.register(app)
    return app


def wire(config: Config) -> None:
    """Wire the rooms for a process serving ``config`` (:func:`service.wiring.connect`):
    with Redis, what it commits becomes Celery tasks (the worker is imported only then)."""
    from service import wiring

    if config.embedded:
        wiring.connect()
        return
    from worker.tasks import CeleryDispatch

    wiring.connect(celery=CeleryDispatch())
