"""Capua's settings: every one read from the environment, each with an embedded default.

The defaults run Capua on one laptop with no other service: SQLite in ``instance/``,
the in-process worker, and mail written to a local outbox.  Production sets
``CAPUA_DATABASE_URL`` (PostgreSQL), ``CAPUA_REDIS_URL`` and ``CAPUA_SECRET_KEY``.
The table in the README is generated from :data:`SETTINGS` (``capua config``).
"""

from __future__ import annotations

import os
import secrets
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any, Mapping, Optional


@dataclass(frozen=True)
class Setting:
    name: str  # attribute on Config
    env: str
    default: str
    help: str


SETTINGS: tuple[Setting, ...] = (
    Setting("instance_dir", "CAPUA_INSTANCE_DIR", "./instance",
            "Folder for the embedded database, the mail outbox and the generated secret key."),
    Setting("database_url", "CAPUA_DATABASE_URL", "sqlite:///{instance_dir}/capua.sqlite3",
            "SQLAlchemy URL of the database (PostgreSQL in production: postgresql+psycopg://...)."),
    Setting("secret_key", "CAPUA_SECRET_KEY", "",
            "Key that signs sessions and magic links. Empty: generated once into instance/secret_key."),
    Setting("base_url", "CAPUA_BASE_URL", "http://127.0.0.1:5000",
            "Public address of the site, used in emailed links."),
    Setting("redis_url", "CAPUA_REDIS_URL", "",
            "Redis URL for the Celery broker and results. Empty: tasks run in an in-process worker thread."),
    Setting("mail_backend", "CAPUA_MAIL_BACKEND", "outbox",
            "'outbox' writes mail to files listed at /dev/outbox; 'smtp' sends it."),
    Setting("mail_outbox_dir", "CAPUA_MAIL_OUTBOX_DIR", "{instance_dir}/outbox",
            "Folder of the local mail outbox."),
    Setting("mail_from", "CAPUA_MAIL_FROM", "Capua <capua@localhost>",
            "Sender address of every email."),
    Setting("dev_pages", "CAPUA_DEV_PAGES", "1",
            "Serve the developer pages (/dev/outbox). Set 0 in production."),
    Setting("snapshot_every", "CAPUA_SNAPSHOT_EVERY", "100",
            "Store a state snapshot every N events, so loading a long game stays cheap."),
    Setting("idempotency_ttl_hours", "CAPUA_IDEMPOTENCY_TTL_HOURS", "24",
            "How long a request's Idempotency-Key and its first answer are kept."),
    Setting("magic_link_ttl_minutes", "CAPUA_MAGIC_LINK_TTL_MINUTES", "30",
            "How long an emailed sign-in link stays valid (it works once)."),
    Setting("session_days", "CAPUA_SESSION_DAYS", "30",
            "How long a browser session lasts."),
    Setting("default_clock_hours", "CAPUA_DEFAULT_CLOCK_HOURS", "24",
            "Default time per decision for new games."),
    Setting("rate_limit", "CAPUA_RATE_LIMIT", "120 per minute",
            "Requests per client for the API (answered with 429 beyond it)."),
)


@dataclass(frozen=True)
class Config:
    instance_dir: str
    database_url: str
    secret_key: str
    base_url: str
    redis_url: str
    mail_backend: str
    mail_outbox_dir: str
    mail_from: str
    dev_pages: bool
    snapshot_every: int
    idempotency_ttl_hours: int
    magic_link_ttl_minutes: int
    session_days: int
    default_clock_hours: int
    rate_limit: str
    extra: Mapping[str, Any] = field(default_factory=dict)

    @property
    def embedded(self) -> bool:
        """True when no Redis is configured: the worker runs in-process."""
        return not self.redis_url


_INT = {"snapshot_every", "idempotency_ttl_hours", "magic_link_ttl_minutes", "session_days", "default_clock_hours"}
_BOOL = {"dev_pages"}


def load_config(overrides: Optional[Mapping[str, Any]] = None, environ: Optional[Mapping[str, str]] = None) -> Config:
    """Settings from ``environ`` (default ``os.environ``), then ``overrides`` (tests).

    Raises ``ValueError`` naming the variable when a value cannot be read.
    """
    env = os.environ if environ is None else environ
    overrides = dict(overrides or {})
    raw: dict[str, Any] = {}
    for s in SETTINGS:
        raw[s.name] = overrides.pop(s.name) if s.name in overrides else env.get(s.env, s.default)
    instance_dir = str(Path(str(raw["instance_dir"])).expanduser().resolve())
    raw["instance_dir"] = instance_dir
    values: dict[str, Any] = {}
    for s in SETTINGS:
        value = raw[s.name]
        if isinstance(value, str):
            value = value.replace("{instance_dir}", instance_dir)
        try:
            if s.name in _INT:
                value = int(value)
                if value < 0:
                    raise ValueError
            elif s.name in _BOOL:
                value = value if isinstance(value, bool) else str(value).strip().lower() in {"1", "true", "yes", "on"}
        except ValueError:
            raise ValueError(f"{s.env}={raw[s.name]!r} is not a valid value ({s.help})") from None
        values[s.name] = value
    if values["mail_backend"] not in {"outbox", "smtp"}:
        raise ValueError(f"CAPUA_MAIL_BACKEND must be 'outbox' or 'smtp', not {values['mail_backend']!r}")
    if not values["secret_key"]:
        values["secret_key"] = _instance_secret(Path(instance_dir))
    return Config(**values, extra=overrides)


def _instance_secret(instance_dir: Path) -> str:
    """A secret generated once per instance folder, so sessions survive restarts."""
    path = instance_dir / "secret_key"
    if path.exists():
        return path.read_text().strip()
    instance_dir.mkdir(parents=True, exist_ok=True)
    key = secrets.token_urlsafe(48)
    path.write_text(key)
    path.chmod(0o600)
    return key


def settings_table() -> str:
    """Markdown table of every setting, for the README and ``capua config``."""
    rows = ["| variable | default | meaning |", "|---|---|---|"]
    for s in SETTINGS:
        rows.append(f"| `{s.env}` | `{s.default}` | {s.help} |")
    return "\n".join(rows)


assert {f.name for f in fields(Config)} - {"extra"} == {s.name for s in SETTINGS}
