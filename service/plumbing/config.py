"""Capua's settings: every one read from the environment, each with an embedded default.

The defaults run Capua on one laptop with no other service: SQLite in ``instance/``,
the in-process worker, and mail written to a local outbox.  Production sets
``CAPUA_DATABASE_URL`` (PostgreSQL), ``CAPUA_REDIS_URL`` and ``CAPUA_SECRET_KEY``.
The table in the README is generated from :data:`SETTINGS` (``capua config``).
"""

from __future__ import annotations

import ipaddress
import os
import re
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
            "Serve the developer pages (/dev/outbox) to requests from this machine (loopback, not through a "
            "proxy) while CAPUA_MAIL_BACKEND is 'outbox'. Set 0 in production."),
    Setting("dev_pages_public", "CAPUA_DEV_PAGES_PUBLIC", "0",
            "1: start the server with the developer pages on although it listens on an address other than "
            "loopback (they still answer only requests from loopback). Without it, `capua serve` and gunicorn "
            "refuse to start that way."),
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
    Setting("smtp_host", "CAPUA_SMTP_HOST", "localhost",
            "SMTP server of the 'smtp' mail backend."),
    Setting("smtp_port", "CAPUA_SMTP_PORT", "587",
            "Port of the SMTP server (587 submission with STARTTLS, 465 implicit TLS, 25 plain)."),
    Setting("smtp_security", "CAPUA_SMTP_SECURITY", "starttls",
            "'starttls' (upgrade the connection, required), 'ssl' (TLS from the first byte) or 'none'."),
    Setting("smtp_username", "CAPUA_SMTP_USERNAME", "",
            "SMTP login. Empty: send without authenticating."),
    Setting("smtp_password", "CAPUA_SMTP_PASSWORD", "",
            "SMTP password (never printed by `capua config`)."),
    Setting("smtp_timeout_seconds", "CAPUA_SMTP_TIMEOUT_SECONDS", "20",
            "How long the SMTP server may take to answer one step before the send counts as a transient "
            "failure (a whole send also ends before its CAPUA_MAIL_LEASE_SECONDS run out)."),
    Setting("task_time_limit_seconds", "CAPUA_TASK_TIME_LIMIT_SECONDS", "60",
            "Hard time limit of every worker task; a deadline claimed longer ago than this (plus a margin) "
            "belongs to a dead worker and is applied again. The broker's visibility timeout follows it."),
    Setting("mail_lease_seconds", "CAPUA_MAIL_LEASE_SECONDS", "10",
            "How long a worker holds a mail it is sending: a send gives up before its lease ends, and a "
            "mail still claimed after it belonged to a dead worker and is sent again."),
    Setting("celery_queue", "CAPUA_CELERY_QUEUE", "capua",
            "Celery queue the web processes enqueue to and the workers consume."),
    Setting("deadline_sweep_seconds", "CAPUA_DEADLINE_SWEEP_SECONDS", "2",
            "How often beat looks for passed deadlines and due reminders; the in-process worker runs all its "
            "jobs this often (deadlines, reminders, notifications whose time has come), and between two sweeps "
            "only what a commit wakes it for."),
    Setting("outbox_sweep_seconds", "CAPUA_OUTBOX_SWEEP_SECONDS", "5",
            "How often beat re-enqueues pending mail, resets mail stuck with a dead worker and composes "
            "notifications whose time has come (digests, quiet hours)."),
    Setting("notify_coalesce_seconds", "CAPUA_NOTIFY_COALESCE_SECONDS", "60",
            "At most one notification mail per player per this many seconds: what arrives meanwhile is "
            "coalesced into the next mail."),
    Setting("vacation_days_per_year", "CAPUA_VACATION_DAYS_PER_YEAR", "14",
            "Vacation days each player may spend per calendar year when a deadline would pass."),
    Setting("webhooks_allow_private", "CAPUA_WEBHOOKS_ALLOW_PRIVATE", "0",
            "Let webhooks reach loopback, link-local and private addresses (checked after DNS at send time). "
            "Keep 0 in production."),
    Setting("webhook_retry_schedule", "CAPUA_WEBHOOK_RETRY_SCHEDULE", "5s,5m,30m,2h,5h,10h,10h",
            "Delays between a failed webhook attempt and the next (s, m, h; jittered); after the last the "
            "endpoint is disabled and its owner emailed."),
    Setting("webhook_timeout_seconds", "CAPUA_WEBHOOK_TIMEOUT_SECONDS", "15",
            "How long a webhook receiver has to answer one attempt."),
    Setting("inbound_mail_domain", "CAPUA_INBOUND_MAIL_DOMAIN", "",
            "Domain of the talk+<token>@domain reply addresses of table-talk mail. Empty: replies by mail are off."),
    Setting("inbound_mail_secret", "CAPUA_INBOUND_MAIL_SECRET", "",
            "Shared secret (HTTP Basic password) of POST /api/v1/inbound/mail. Empty: that endpoint is off."),
    Setting("bot_level", "CAPUA_BOT_LEVEL", "normal",
            "Level of bot seats and of the stand-in for an absent player: random, easy, normal or hard "
            "(docs/bots.md)."),
    Setting("bot_think_ms", "CAPUA_BOT_THINK_MS", "1000",
            "Time of one answer of a hard bot (a normal bot takes a tenth): the search answers with what it "
            "has by then, in the worker, and the answer is given exactly then (docs/bots.md)."),
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
    dev_pages_public: bool
    snapshot_every: int
    idempotency_ttl_hours: int
    magic_link_ttl_minutes: int
    session_days: int
    default_clock_hours: int
    rate_limit: str
    smtp_host: str
    smtp_port: int
    smtp_security: str
    smtp_username: str
    smtp_password: str
    smtp_timeout_seconds: int
    task_time_limit_seconds: int
    mail_lease_seconds: int
    celery_queue: str
    deadline_sweep_seconds: int
    outbox_sweep_seconds: int
    notify_coalesce_seconds: int
    vacation_days_per_year: int
    webhooks_allow_private: bool
    webhook_retry_schedule: str
    webhook_timeout_seconds: int
    inbound_mail_domain: str
    inbound_mail_secret: str
    bot_level: str
    bot_think_ms: int
    extra: Mapping[str, Any] = field(default_factory=dict)

    @property
    def webhook_retry_delays(self) -> tuple[float, ...]:
        """The webhook retry schedule in seconds (validated when the settings load)."""
        return parse_durations(self.webhook_retry_schedule)

    @property
    def outbox_pages(self) -> bool:
        """True when the developer pages are served: they are on and mail goes to the outbox."""
        return self.dev_pages and self.mail_backend == "outbox"

    @property
    def embedded(self) -> bool:
        """True when no Redis is configured: the worker runs in-process."""
        return not self.redis_url


_INT = {"snapshot_every", "idempotency_ttl_hours", "magic_link_ttl_minutes", "session_days", "default_clock_hours",
        "smtp_port", "smtp_timeout_seconds", "task_time_limit_seconds", "mail_lease_seconds", "deadline_sweep_seconds",
        "outbox_sweep_seconds", "notify_coalesce_seconds", "vacation_days_per_year",
        "webhook_timeout_seconds", "bot_think_ms"}
_BOOL = {"dev_pages", "dev_pages_public", "webhooks_allow_private"}
#: the bot levels of :data:`engine.core.bots.LEVELS`
_BOT_LEVELS = ("random", "easy", "normal", "hard")
#: A mail lease shorter than this leaves a send too little time to connect and hand over a message.
MAIL_LEASE_MIN_SECONDS = 2


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
    if values["smtp_security"] not in {"starttls", "ssl", "none"}:
        raise ValueError(f"CAPUA_SMTP_SECURITY must be 'starttls', 'ssl' or 'none', not {values['smtp_security']!r}")
    if not 0 < values["smtp_port"] < 65536:
        raise ValueError(f"CAPUA_SMTP_PORT={values['smtp_port']} is not a port")
    for name in ("task_time_limit_seconds", "deadline_sweep_seconds", "outbox_sweep_seconds"):
        if values[name] < 1:
            raise ValueError(f"{_ENV_OF[name]} must be at least 1")
    if not MAIL_LEASE_MIN_SECONDS <= values["mail_lease_seconds"] <= values["task_time_limit_seconds"]:
        raise ValueError(f"CAPUA_MAIL_LEASE_SECONDS must be between {MAIL_LEASE_MIN_SECONDS} and "
                         f"CAPUA_TASK_TIME_LIMIT_SECONDS ({values['task_time_limit_seconds']})")
    if values["bot_level"] not in _BOT_LEVELS:
        raise ValueError(f"CAPUA_BOT_LEVEL must be one of {', '.join(_BOT_LEVELS)}, not {values['bot_level']!r}")
    if not values["celery_queue"].strip():
        raise ValueError("CAPUA_CELERY_QUEUE must not be empty")
    try:
        parse_durations(values["webhook_retry_schedule"])
    except ValueError as err:
        raise ValueError(f"CAPUA_WEBHOOK_RETRY_SCHEDULE={values['webhook_retry_schedule']!r}: {err}") from None
    values["inbound_mail_domain"] = str(values["inbound_mail_domain"]).strip().lower()
    if values["inbound_mail_domain"] and not _DOMAIN.match(values["inbound_mail_domain"]):
        raise ValueError(f"CAPUA_INBOUND_MAIL_DOMAIN={values['inbound_mail_domain']!r} is not a domain name")
    if not values["secret_key"]:
        values["secret_key"] = _instance_secret(Path(instance_dir))
    return Config(**values, extra=overrides)


_DURATION = re.compile(r"^(\d+(?:\.\d+)?)(ms|s|m|h|d)?$")
_DURATION_UNIT = {"ms": 0.001, "s": 1, "m": 60, "h": 3600, "d": 86400, None: 1}
_DOMAIN = re.compile(r"^(?=.{1,253}$)[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$")


def parse_durations(text: str) -> tuple[float, ...]:
    """``"5s,5m,2h"`` -> seconds ``(5.0, 300.0, 7200.0)``; a bare number is seconds.

    Raises ``ValueError`` for an empty list or an unreadable item.
    """
    items = [item.strip().lower() for item in str(text).split(",") if item.strip()]
    if not items:
        raise ValueError("give at least one delay, like 5s,5m,30m")
    out = []
    for item in items:
        match = _DURATION.match(item)
        if match is None:
            raise ValueError(f"{item!r} is not a delay (use a number with s, m, h or d)")
        out.append(float(match.group(1)) * _DURATION_UNIT[match.group(2)])
    return tuple(out)


_ENV_OF = {s.name: s.env for s in SETTINGS}


def env_setting(name: str, environ: Optional[Mapping[str, str]] = None) -> str:
    """The raw value of one setting from the environment (or its default), without
    loading the rest: the Celery app reads its few settings at import this way, where
    :func:`load_config` would create the instance folder's secret as a side effect."""
    env = os.environ if environ is None else environ
    setting = next(s for s in SETTINGS if s.name == name)
    return env.get(setting.env, setting.default).strip()


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


def is_loopback_host(host: str) -> bool:
    """True for an address (or ``localhost``) that only this machine can reach.

    ``0.0.0.0``, ``::``, an empty host, a name other than ``localhost`` and a Unix
    socket (usually behind a proxy) are not loopback.
    """
    host = (host or "").strip().strip("[]").lower()
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def dev_pages_bind_problem(config: Config, hosts: list[str]) -> Optional[str]:
    """Why a server listening on ``hosts`` must not start with ``config``, or ``None``.

    The developer pages show every mail, sign-in links included: a server that others can
    reach starts with them only when the operator says so (``CAPUA_DEV_PAGES_PUBLIC=1``).
    """
    if not config.outbox_pages or config.dev_pages_public:
        return None
    public = [h or "(all addresses)" for h in hosts if not is_loopback_host(h)]
    if not public:
        return None
    return (f"refusing to listen on {', '.join(public)} with the developer pages on: /dev/outbox shows every "
            "mail, sign-in links included. Set CAPUA_DEV_PAGES=0 (production), listen on 127.0.0.1, or set "
            "CAPUA_DEV_PAGES_PUBLIC=1 to start anyway (the pages still answer only requests from loopback).")


def bind_host(bind: str) -> str:
    """The host of a gunicorn bind (``0.0.0.0:8000``, ``[::1]:80``, ``unix:/run/x.sock``, ``fd://3``)."""
    if bind.startswith(("unix:", "fd://")):
        return bind
    if bind.startswith("["):
        return bind[1:bind.index("]")] if "]" in bind else bind
    return bind.rsplit(":", 1)[0] if ":" in bind else bind


def settings_table() -> str:
    """Markdown table of every setting, for the README and ``capua config``."""
    rows = ["| variable | default | meaning |", "|---|---|---|"]
    for s in SETTINGS:
        rows.append(f"| `{s.env}` | `{s.default}` | {s.help} |")
    return "\n".join(rows)


assert {f.name for f in fields(Config)} - {"extra"} == {s.name for s in SETTINGS}
