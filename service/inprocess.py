"""The embedded worker: a background thread doing what Celery does in production.

``capua serve`` without ``CAPUA_REDIS_URL`` starts one :class:`InProcessWorker` next to
the web server.  It wakes when :func:`notify` is called (after a request committed mail
or notifications) and every ``CAPUA_DEADLINE_SWEEP_SECONDS`` regardless, and runs its
jobs in order (:func:`default_jobs`): apply passed deadlines, play the bots that owe
answers (:mod:`service.play.bot_turns`), write due reminders,
compose due notifications into mail, reset mail a dead worker left behind, deliver
pending mail, deliver webhooks.  That is the work Celery worker and beat do in
production, with the same service functions; everything is idempotent and claims its
rows in the database, so it may run beside a Celery worker or another process's thread
without doing anything twice.

A job is a callable ``(session_factory, config)``; tests pass their own ``jobs``.

This is an adapter: it calls into the domains, and they reach it only through
:mod:`service.plumbing.dispatch`, where :class:`WakeUp` serves the embedded mode.
"""

from __future__ import annotations

import contextlib
import logging
import threading
import time
from typing import Callable, Iterable, Optional

from flask import Flask
from sqlalchemy.orm import sessionmaker

from service.notify import mailing, reminders
from service.notify.webhook_delivery import WebhookDeliveryJob
from service.play import bot_turns, deadlines
from service.plumbing import idempotency, mail
from service.plumbing.config import Config

log = logging.getLogger(__name__)

Job = Callable[[sessionmaker, Config], object]

#: Retry delays for a message that failed: 5 s, 10 s, 20 s ... at most 10 minutes.
RETRY_FIRST_SECONDS = 5.0
RETRY_MAX_SECONDS = 600.0

_workers: dict[str, "InProcessWorker"] = {}
_workers_lock = threading.Lock()


class MailDelivery:
    """The mail job: delivers pending messages, backing off from ones that fail.

    The backoff lives in memory: it only spaces out retries within this process, while
    ``mail_messages.attempts`` caps them for good.
    """

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._retry_at: dict[int, tuple[float, int]] = {}

    def __call__(self, sessions: sessionmaker, config: Config) -> int:
        sent = 0
        now = self._clock()
        for message_id in mail.pending_ids(sessions):
            retry_at, failures = self._retry_at.get(message_id, (0.0, 0))
            if retry_at > now:
                continue
            try:
                sent += mail.deliver(sessions, config, message_id)
            except mail.TransientMailError as err:
                delay = min(RETRY_FIRST_SECONDS * 2 ** failures, RETRY_MAX_SECONDS)
                self._retry_at[message_id] = (now + delay, failures + 1)
                log.warning("%s (retrying in %.0f s)", err, delay)
            else:
                self._retry_at.pop(message_id, None)
        return sent


class Every:
    """Runs ``job`` at most once per ``seconds`` (a sweep that need not run every round)."""

    def __init__(self, seconds: float, job: Job, clock: Callable[[], float] = time.monotonic) -> None:
        self.seconds, self.job, self._clock = seconds, job, clock
        self._next = 0.0

    def __call__(self, sessions: sessionmaker, config: Config) -> object:
        now = self._clock()
        if now < self._next:
            return None
        self._next = now + self.seconds
        return self.job(sessions, config)

    def __repr__(self) -> str:
        return f"Every({self.seconds}, {self.job!r})"


#: How often the embedded worker deletes expired idempotency keys (as Celery beat does).
IDEMPOTENCY_PURGE_SECONDS = 600.0


def apply_deadlines(sessions: sessionmaker, config: Config) -> int:
    return deadlines.run_due_deadlines(sessions, config)


def play_bots(sessions: sessionmaker, config: Config) -> int:
    return bot_turns.run_due(sessions, config)


def send_reminders(sessions: sessionmaker, config: Config) -> int:
    return reminders.run_due_reminders(sessions, config)


def compose_notifications(sessions: sessionmaker, config: Config) -> int:
    return len(mailing.compose_due(sessions, config))


def reset_stuck_mail(sessions: sessionmaker, config: Config) -> int:
    return len(mail.reset_stuck(sessions, config))


def purge_idempotency_keys(sessions: sessionmaker, config: Config) -> int:
    return idempotency.purge_expired_keys(sessions, config)


def default_jobs(config: Optional[Config] = None) -> list[Job]:
    """What the embedded worker runs when nobody says otherwise: the embedded
    counterpart of the Celery worker and beat, in the order that lets one round carry a
    passed deadline through to the mail that tells the next player; then webhooks."""
    outbox_every = float(config.outbox_sweep_seconds) if config is not None else 5.0
    return [apply_deadlines, play_bots, send_reminders, compose_notifications, Every(outbox_every, reset_stuck_mail),
            Every(IDEMPOTENCY_PURGE_SECONDS, purge_idempotency_keys), MailDelivery(), WebhookDeliveryJob()]


class InProcessWorker:
    """A daemon thread running ``jobs`` on every :meth:`notify` and every ``interval`` s."""

    def __init__(self, sessions: sessionmaker, config: Config, *, jobs: Optional[Iterable[Job]] = None,
                 interval: Optional[float] = None, app: Optional[Flask] = None) -> None:
        self.sessions = sessions
        self.config = config
        self.app = app
        self.jobs: list[Job] = list(jobs) if jobs is not None else default_jobs(config)
        self.interval = interval if interval is not None else float(config.deadline_sweep_seconds)
        self.rounds = 0
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._idle = threading.Condition()
        self._thread: Optional[threading.Thread] = None

    def start(self) -> "InProcessWorker":
        if self._thread is None:
            self._thread = threading.Thread(target=self._loop, name="capua-inprocess-worker", daemon=True)
            self._thread.start()
        return self

    def notify(self) -> None:
        """Run the jobs soon (the caller does not wait)."""
        self._wake.set()

    def stop(self, timeout: float = 10.0) -> None:
        self._stop.set()
        self._wake.set()
        if self._thread is not None:
            self._thread.join(timeout)

    @property
    def alive(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def run_once(self) -> None:
        """One round of every job, inside the app's context when there is an app (as a
        request runs); a failing job is logged and never stops the others."""
        with self.app.app_context() if self.app is not None else contextlib.nullcontext():
            for job in self.jobs:
                try:
                    job(self.sessions, self.config)
                except Exception:
                    log.exception("in-process job %r failed", job)
        with self._idle:
            self.rounds += 1
            self._idle.notify_all()

    def wait_rounds(self, rounds: int, timeout: float = 10.0) -> bool:
        """Block until ``rounds`` rounds have completed in total (for tests and shutdown)."""
        with self._idle:
            return self._idle.wait_for(lambda: self.rounds >= rounds, timeout)

    def _loop(self) -> None:
        while not self._stop.is_set():
            self._wake.wait(self.interval)
            self._wake.clear()
            if self._stop.is_set():
                break
            self.run_once()


def start(sessions: sessionmaker, config: Config, **kwargs) -> InProcessWorker:
    """Start the worker for ``config``'s database (or return the one already running)."""
    with _workers_lock:
        worker = _workers.get(config.database_url)
        if worker is None or not worker.alive:
            worker = InProcessWorker(sessions, config, **kwargs).start()
            _workers[config.database_url] = worker
        return worker


def notify(config: Config) -> bool:
    """Wake the worker serving ``config``'s database; ``False`` if none runs here.

    Without a running worker (``flask run``, a test) the mail stays pending until
    ``capua mail deliver`` or the next ``capua serve`` sends it.
    """
    worker = _workers.get(config.database_url)
    if worker is None or not worker.alive:
        return False
    worker.notify()
    return True


def stop(config: Config) -> None:
    with _workers_lock:
        worker = _workers.pop(config.database_url, None)
    if worker is not None:
        worker.stop()


class WakeUp:
    """The embedded mode's dispatcher (:mod:`service.plumbing.dispatch`): whatever was
    committed, wake the worker serving that database; nothing when none runs here."""

    def mail(self, config: Config, ids: list[int]) -> None:
        notify(config)

    def webhooks(self, config: Config, ids: list[int]) -> None:
        notify(config)

    def notifications(self, config: Config, user_ids: list[int], due: list) -> None:
        notify(config)

    def bots(self, config: Config, game_ids: list[str]) -> None:
        notify(config)
