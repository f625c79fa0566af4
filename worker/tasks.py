"""Celery tasks: thin wrappers that take ids and call the service functions.

Each task is idempotent (the service function claims its row in the database), so a
redelivered message, a retry and a sweep racing each other do the work once.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

from sqlalchemy.orm import sessionmaker

from service import mail
from service.config import Config, load_config
from service.database import Database
from worker.celery_app import app

#: At most this many messages are enqueued per sweep; the next sweep takes the rest.
SWEEP_BATCH = 500


@dataclass(frozen=True)
class Runtime:
    config: Config
    sessions: sessionmaker


@functools.cache
def runtime() -> Runtime:
    """Settings and database of this worker process, built on the first task."""
    config = load_config()
    return Runtime(config=config, sessions=Database.from_config(config).sessions)


@app.task(
    name="worker.tasks.deliver_mail",
    acks_late=True,
    autoretry_for=(mail.TransientMailError,),
    retry_backoff=5,
    retry_backoff_max=600,
    retry_jitter=True,
    max_retries=mail.MAX_ATTEMPTS,
)
def deliver_mail(message_id: int) -> bool:
    """Send outbox row ``message_id``; a no-op if it was sent already."""
    rt = runtime()
    return mail.deliver(rt.sessions, rt.config, int(message_id))


@app.task(name="worker.tasks.sweep_mail", acks_late=True)
def sweep_mail() -> int:
    """Enqueue every pending message (beat, every minute): a notification lost with a
    dead web process or an unreachable broker only delays a mail."""
    ids = mail.pending_ids(runtime().sessions, limit=SWEEP_BATCH)
    for message_id in ids:
        deliver_mail.delay(message_id)
    return len(ids)
