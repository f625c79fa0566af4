"""The Flask app factory: nothing happens at import time.

``create_app(overrides)`` reads the settings (environment, then ``overrides`` for tests),
opens the database, and registers the parts of the service, each in its own module:
identity (``service.auth``), the REST API (``service.api``), the pages
(``service.pages``), the site around the games (``service.site_pages``) and the one JSON error shape (``service.http_errors``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Mapping, Optional

from flask import Flask

from service.config import load_config
from service.database import Database, close_session

ROOT = Path(__file__).resolve().parent.parent


def create_app(overrides: Optional[Mapping[str, Any]] = None) -> Flask:
    config = load_config(overrides)
    app = Flask(
        "capua",
        template_folder=str(ROOT / "templates"),
        static_folder=str(ROOT / "service" / "static"),
        instance_path=config.instance_dir,
    )
    app.config["SECRET_KEY"] = config.secret_key
    app.config["SESSION_COOKIE_HTTPONLY"] = True
    app.config["SESSION_COOKIE_SAMESITE"] = "Lax"
    app.config["SESSION_COOKIE_SECURE"] = config.base_url.startswith("https://")
    app.config["MAX_CONTENT_LENGTH"] = 256 * 1024
    app.extensions["capua.config"] = config
    app.extensions["capua.db"] = Database.from_config(config)
    app.teardown_appcontext(close_session)

    from service import api, auth, http_errors, pages, site_pages

    http_errors.register(app)
    auth.init_app(app)
    api.register(app)
    pages.register(app)
    site_pages.register(app)
    return app
