"""Celery tasks: thin wrappers that take ids and call the service functions.

Each task is idempotent (the service function claims its row in the database), so a
redelivered message, a retry and a sweep racing each other do the work once.
"""

from __future__ import annotations

import contextlib
import functools
import logging
from dataclasses import dataclass
from typing import Optional

from celery import Task
from flask import Flask
from sqlalchemy.exc import OperationalError
from sqlalchemy.orm import sessionmaker

from service import wiring
from service.notify import mailing, reminders, webhook_delivery
from service.play import bot_turns, deadlines
from service.plumbing import database, idempotency, mail
from service.plumbing.config import Config, load_config
from service.plumbing.db import utcnow
from worker.celery_app import app

log = logging.getLogger(__name__)

#: At most this many messages are enqueued per sweep; the next sweep takes the rest.
SWEEP_BATCH = 500
#: A webhook retry due within this many seconds is a task countdown; later ones wait for the sweep.
WEBHOOK_COUNTDOWN_MAX = 60


@dataclass(frozen=True)
class Runtime:
    config: Config
    sessions: sessionmaker
    app: Optional[Flask] = None


@functools.cache
def runtime() -> Runtime:
    """Settings and database of this worker process, built on the first task: an app with
    the database and nothing else (:func:`service.plumbing.database.bare_app`); the
    domains' hooks are wired, and what the tasks commit is handed on as further tasks."""
    config = load_config()
    wiring.connect(celery=CeleryDispatch())
    app = database.bare_app(config)
    return Runtime(config=config, sessions=database.sessions(app), app=app)


class InAppContext(Task):
    """Every task runs inside the worker's app context, as a request does."""

    def __call__(self, *args, **kwargs):
        app = runtime().app
        with app.app_context() if app is not None else contextlib.nullcontext():
            return super().__call__(*args, **kwargs)


#: ``@task(...)``: a task of the Celery app that runs in the app context.
task = functools.partial(app.task, base=InAppContext)


@task(name="worker.tasks.deliver_mail", acks_late=True)
def deliver_mail(message_id: int) -> bool:
    """Send outbox row ``message_id``; a no-op if it was sent already.

    A transient failure is not a Celery retry: the row goes back to ``pending`` and
    :func:`sweep_mail` enqueues it again once its backoff (:func:`service.plumbing.mail.retry_delay`)
    has passed, so no retry waits in the broker, where a dead worker would hold it.
    """
    rt = runtime()
    try:
        return mail.deliver(rt.sessions, rt.config, int(message_id))
    except mail.TransientMailError as err:
        log.warning("%s (the sweep tries again)", err)
        return False


@task(name="worker.tasks.sweep_mail", acks_late=True)
def sweep_mail() -> int:
    """Enqueue every message that is due (beat, every ``CAPUA_OUTBOX_SWEEP_SECONDS``): a
    task lost with a dead worker, a dead web process or an unreachable broker only delays
    a mail by seconds, and a failed one is tried again when its backoff has passed."""
    ids = mail.due_ids(runtime().sessions, limit=SWEEP_BATCH)
    for message_id in ids:
        deliver_mail.delay(message_id)
    return len(ids)


@task(name="worker.tasks.deliver_webhook", acks_late=True)
def deliver_webhook(delivery_id: int) -> str:
    """Attempt webhook delivery ``delivery_id`` if it is due; a no-op otherwise.

    A failure is not a Celery retry: the row gets its next attempt time from the
    retry schedule, and a short wait (the first retries) is a countdown here while
    longer ones are picked up by :func:`sweep_webhooks`.
    """
    rt = runtime()
    outcome = webhook_delivery.deliver(rt.sessions, rt.config, int(delivery_id))
    if outcome == "retry":
        wait = webhook_delivery.seconds_until_due(rt.sessions, int(delivery_id))
        if wait is not None and wait <= WEBHOOK_COUNTDOWN_MAX:
            deliver_webhook.apply_async((int(delivery_id),), countdown=wait)
    return outcome


@task(name="worker.tasks.sweep_webhooks", acks_late=True)
def sweep_webhooks() -> int:
    """Enqueue every webhook message that is due (beat, every few seconds): retries
    whose time has come, sends a dead worker left behind, notifications lost."""
    ids = webhook_delivery.due_ids(runtime().sessions, limit=SWEEP_BATCH)
    for delivery_id in ids:
        deliver_webhook.delay(delivery_id)
    return len(ids)


# --------------------------------------------------------------------------- notifications and deadlines

#: Retry policy of enqueuing from a web request: a broker hiccup is retried briefly, then
#: the sweeps take over (the rows are committed).
_ENQUEUE_RETRY = {"max_retries": 2, "interval_start": 0, "interval_step": 0.2, "interval_max": 0.5}


def enqueue_compose(config: Config, user_ids) -> None:
    """After a commit that wrote notifications: one task composes (and sends) the mail of
    every player that commit concerns."""
    ids = sorted({int(u) for u in user_ids})
    if ids:
        compose_notifications.apply_async((ids,), queue=config.celery_queue, retry=True,
                                          retry_policy=_ENQUEUE_RETRY)


def enqueue_deadlines(config: Config, rows) -> None:
    """After a commit that set deadlines: a task at each deadline near enough
    (:data:`service.play.deadlines.ETA_HORIZON`); the beat sweep covers the others."""
    now = utcnow()
    for row_id, deadline in rows:
        if deadline is not None and deadline - now <= deadlines.ETA_HORIZON:
            apply_deadline.apply_async((int(row_id),), eta=deadline, queue=config.celery_queue, retry=True,
                                       retry_policy=_ENQUEUE_RETRY)


def _deliver_now(mail_ids) -> int:
    """Send mail just composed from this task, over one connection; what fails
    transiently goes the way of every mail: back to ``pending``, for the sweep to retry."""
    rt = runtime()
    sent, _retry = mail.deliver_many(rt.sessions, rt.config, mail_ids)
    return sent


@task(name="worker.tasks.compose_notifications", acks_late=True, autoretry_for=(OperationalError,),
          retry_backoff=2, retry_backoff_max=60, retry_jitter=True, max_retries=5)
def compose_notifications(user_ids) -> int:
    """Compose each player's due notifications into one mail and send it; a no-op for a
    player with nothing due (another composer, or the coalescing window, took them).
    Returns how many mails went out."""
    from service.notify import mailing

    rt = runtime()
    ids = [user_ids] if isinstance(user_ids, int) else list(user_ids)
    return _deliver_now(mailing.compose_many(rt.sessions, rt.config, ids))


@task(name="worker.tasks.sweep_outbox", acks_late=True)
def sweep_outbox() -> int:
    """Beat, every ``CAPUA_OUTBOX_SWEEP_SECONDS``: put mail a dead worker left in
    ``sending`` back in line, and compose the notifications whose time has come."""
    rt = runtime()
    stuck = mail.reset_stuck(rt.sessions, rt.config)
    composed = mailing.compose_due(rt.sessions, rt.config, limit=SWEEP_BATCH)
    return _deliver_now(stuck + composed)


@task(name="worker.tasks.purge_idempotency_keys", acks_late=True)
def purge_idempotency_keys() -> int:
    """Beat, every ten minutes: delete the stored answers older than the keys' TTL (the
    request path never purges)."""
    rt = runtime()
    return idempotency.purge_expired_keys(rt.sessions, rt.config)


@task(name="worker.tasks.apply_deadline", bind=True, acks_late=True, autoretry_for=(OperationalError,),
          retry_backoff=1, retry_backoff_max=30, retry_jitter=True, max_retries=5)
def apply_deadline(self, row_id: int) -> str:
    """Act on open decision ``row_id`` if its deadline has passed; harmless when it has
    not, when it was answered, or when another task or the sweep acted first."""
    rt = runtime()
    outcome = deadlines.apply_deadline(rt.sessions, rt.config, int(row_id))
    if outcome == "retry":  # another change to the game won the race: look again at once
        raise self.retry(countdown=0.2, max_retries=5)
    return outcome


@task(name="worker.tasks.play_bots", acks_late=True, autoretry_for=(OperationalError,),
      retry_backoff=1, retry_backoff_max=30, retry_jitter=True, max_retries=5)
def play_bots(game_id: str) -> int:
    """Give the answers the searching bots of ``game_id`` owe (paced), for at most half
    the task time limit; a game still owing gets a new task."""
    rt = runtime()
    done = bot_turns.play(rt.sessions, rt.config, str(game_id), for_seconds=rt.config.task_time_limit_seconds / 2)
    if bot_turns.still_due(rt.sessions, str(game_id)):
        play_bots.apply_async((str(game_id),), queue=rt.config.celery_queue)
    return done


@task(name="worker.tasks.sweep_bots", acks_late=True)
def sweep_bots() -> int:
    """Beat: a task for every game whose bots owe answers and that no task has moved on
    for longer than a task may run (its wake-up was lost, or its worker died)."""
    rt = runtime()
    due = bot_turns.due_game_ids(rt.sessions, stale_seconds=rt.config.task_time_limit_seconds * 2)
    for game_id in due[:SWEEP_BATCH]:
        play_bots.apply_async((game_id,), queue=rt.config.celery_queue)
    return len(due)


@task(name="worker.tasks.send_reminder", acks_late=True, autoretry_for=(OperationalError,),
          retry_backoff=2, retry_backoff_max=60, retry_jitter=True, max_retries=5)
def send_reminder(row_id: int) -> bool:
    """Write the reminder of open decision ``row_id`` (once per deadline) and compose it."""
    rt = runtime()
    return reminders.send_reminder(rt.sessions, rt.config, int(row_id))


@task(name="worker.tasks.sweep_deadlines", acks_late=True)
def sweep_deadlines() -> int:
    """Beat, every ``CAPUA_DEADLINE_SWEEP_SECONDS``: a task for every passed deadline and
    every due reminder.  Each task claims its row, so the sweep may overlap with them."""
    rt = runtime()
    due = deadlines.due_deadline_ids(rt.sessions, rt.config, limit=SWEEP_BATCH)
    for row_id in due:
        apply_deadline.apply_async((row_id,), queue=rt.config.celery_queue)
    due_reminders = reminders.due_reminder_ids(rt.sessions, limit=SWEEP_BATCH)
    for row_id in due_reminders:
        send_reminder.apply_async((row_id,), queue=rt.config.celery_queue)
    return len(due) + len(due_reminders)


# --------------------------------------------------------------------------- the dispatcher


class CeleryDispatch:
    """What the domains commit becomes Celery tasks (the :data:`service.plumbing.dispatch.CELERY`
    mode, registered by the app factory and by :func:`runtime`)."""

    def mail(self, config: Config, ids: list[int]) -> None:
        for message_id in ids:
            try:
                deliver_mail.apply_async((message_id,), retry=True, retry_policy=_ENQUEUE_RETRY)
            except Exception:  # the broker is down: the beat sweep will enqueue it
                log.warning("could not enqueue mail %s; the sweep will deliver it", message_id, exc_info=True)

    def webhooks(self, config: Config, ids: list[int]) -> None:
        for delivery_id in ids:
            deliver_webhook.apply_async((delivery_id,), retry=True, retry_policy=_ENQUEUE_RETRY)

    def notifications(self, config: Config, user_ids: list[int], due: list) -> None:
        enqueue_compose(config, user_ids)
        enqueue_deadlines(config, due)

    def bots(self, config: Config, game_ids: list[str]) -> None:
        for game_id in game_ids:
            play_bots.apply_async((game_id,), retry=True, retry_policy=_ENQUEUE_RETRY, queue=config.celery_queue)
