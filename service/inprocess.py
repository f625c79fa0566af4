"""The embedded worker: a background thread doing what Celery does in production.

``capua serve`` without ``CAPUA_REDIS_URL`` starts one :class:`InProcessWorker` next to
the web server.  Its jobs (:func:`default_jobs`), in order: apply passed deadlines, play
the bots that owe answers (:mod:`service.play.bot_turns`), write due reminders, compose
due notifications into mail, reset mail a dead worker left behind, deliver pending mail,
deliver webhooks.  That is the work Celery worker and beat do in production, with the
same service functions; everything is idempotent and claims its rows in the database, so
it may run beside a Celery worker or another process's thread without doing anything
twice.

It runs every job at least every ``CAPUA_DEADLINE_SWEEP_SECONDS`` (the sweep, as beat's
schedule does), and when :func:`notify` names what was committed (:class:`WakeUp`: mail,
webhook deliveries, notifications, bots that owe answers) only the jobs that work on
that (each default job's ``wakes_for``), as Celery runs only the task a commit enqueued.
A command commits notifications: a round of every job cost 2.3 ms of CPU a command where
the command itself cost 1.5 ms (SQLite, one process, 600 PAX commands), composing and
delivering the mail 0.7 ms of it; the time-based jobs find nothing new between sweeps.

A job is a callable ``(session_factory, config)``; tests pass their own ``jobs``.  A job
without ``wakes_for`` runs in every round.

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

#: What a wake-up names as committed (:class:`WakeUp`, after the dispatcher's methods).
MAIL, WEBHOOKS, NOTIFICATIONS, BOTS = "mail", "webhooks", "notifications", "bots"


def wakes_for(*kinds: str) -> Callable[[Job], Job]:
    """Mark a job as one a wake-up for any of ``kinds`` runs (none: only the sweep runs it)."""
    def mark(job: Job) -> Job:
        job.wakes_for = frozenset(kinds)  # type: ignore[attr-defined]
        return job
    return mark

#: Retry delays for a message that failed: 5 s, 10 s, 20 s ... at most 10 minutes.
RETRY_FIRST_SECONDS = 5.0
RETRY_MAX_SECONDS = 600.0

_workers: dict[str, "InProcessWorker"] = {}
_workers_lock = threading.Lock()


class MailDelivery:
    """The mail job: delivers pending messages, backing off from ones that fail.

    The backoff lives in memory: it only spaces out retries within this process, while
    ``mail_messages.attempts`` caps them for good.  Woken by committed mail, and by
    committed notifications (composed into mail just before it in the same round).
    """

    wakes_for = frozenset({MAIL, NOTIFICATIONS})

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
    """Runs ``job`` at most once per ``seconds`` (a sweep that need not run every round;
    no wake-up runs it)."""

    wakes_for: frozenset = frozenset()

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


@wakes_for()
def apply_deadlines(sessions: sessionmaker, config: Config) -> int:
    return deadlines.run_due_deadlines(sessions, config)


@wakes_for(BOTS)
def play_bots(sessions: sessionmaker, config: Config) -> int:
    return bot_turns.run_due(sessions, config)


@wakes_for()
def send_reminders(sessions: sessionmaker, config: Config) -> int:
    return reminders.run_due_reminders(sessions, config)


@wakes_for(NOTIFICATIONS)
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
            Every(IDEMPOTENCY_PURGE_SECONDS, purge_idempotency_keys), MailDelivery(),
            wakes_for(WEBHOOKS)(WebhookDeliveryJob())]


class InProcessWorker:
    """A daemon thread running ``jobs``: on :meth:`notify` those that serve what it names
    (every one when it names nothing), and every one at least every ``interval`` s."""

    def __init__(self, sessions: sessionmaker, config: Config, *, jobs: Optional[Iterable[Job]] = None,
                 interval: Optional[float] = None, app: Optional[Flask] = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.sessions = sessions
        self.config = config
        self.app = app
        self.jobs: list[Job] = list(jobs) if jobs is not None else default_jobs(config)
        self.interval = interval if interval is not None else float(config.deadline_sweep_seconds)
        self.rounds = 0
        self._clock = clock
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._idle = threading.Condition()
        self._thread: Optional[threading.Thread] = None
        self._woken_for: set[str] = set()  # what the wake-ups since the last round named
        self._woken_for_all = False        # a wake-up named nothing: every job
        self._woken_lock = threading.Lock()
        self._swept_at = clock()           # when every job last ran

    def start(self) -> "InProcessWorker":
        if self._thread is None:
            self._thread = threading.Thread(target=self._loop, name="capua-inprocess-worker", daemon=True)
            self._thread.start()
        return self

    def notify(self, kinds: Optional[Iterable[str]] = None) -> None:
        """Run soon the jobs that serve ``kinds`` (:data:`MAIL`, :data:`WEBHOOKS`,
        :data:`NOTIFICATIONS`, :data:`BOTS`), or every job without ``kinds``; the caller
        does not wait."""
        with self._woken_lock:
            if kinds is None:
                self._woken_for_all = True
            else:
                self._woken_for.update(kinds)
        self._wake.set()

    def stop(self, timeout: float = 10.0) -> None:
        self._stop.set()
        self._wake.set()
        if self._thread is not None:
            self._thread.join(timeout)

    @property
    def alive(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def next_round(self, woken: bool) -> Optional[frozenset[str]]:
        """What the round about to run serves, taking what the wake-ups named: ``None``
        (every job) when it was not woken (the sweep's time came), a wake-up named
        nothing, or ``interval`` seconds have passed since every job last ran (so the
        time-based jobs keep their schedule however often commits wake the thread);
        else the kinds named."""
        with self._woken_lock:
            kinds, self._woken_for = frozenset(self._woken_for), set()
            everything, self._woken_for_all = self._woken_for_all, False
        now = self._clock()
        if not woken or everything or now - self._swept_at >= self.interval:
            self._swept_at = now
            return None
        return kinds

    def jobs_for(self, kinds: Optional[frozenset[str]]) -> list[Job]:
        """The jobs a round serving ``kinds`` runs (``None``: every job), in order: those
        marked with a kind of ``kinds`` (:func:`wakes_for`) and those not marked at all."""
        if kinds is None:
            return list(self.jobs)
        return [job for job in self.jobs
                if getattr(job, "wakes_for", None) is None or not job.wakes_for.isdisjoint(kinds)]

    def run_once(self, kinds: Optional[frozenset[str]] = None) -> None:
        """One round of the jobs serving ``kinds`` (every job without), inside the app's
        context when there is an app (as a request runs); a failing job is logged and
        never stops the others."""
        with self.app.app_context() if self.app is not None else contextlib.nullcontext():
            for job in self.jobs_for(kinds):
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
            woken = self._wake.wait(self.interval)
            self._wake.clear()
            if self._stop.is_set():
                break
            self.run_once(self.next_round(woken))


def start(sessions: sessionmaker, config: Config, **kwargs) -> InProcessWorker:
    """Start the worker for ``config``'s database (or return the one already running)."""
    with _workers_lock:
        worker = _workers.get(config.database_url)
        if worker is None or not worker.alive:
            worker = InProcessWorker(sessions, config, **kwargs).start()
            _workers[config.database_url] = worker
        return worker


def notify(config: Config, kinds: Optional[Iterable[str]] = None) -> bool:
    """Wake the worker serving ``config``'s database for ``kinds`` (every job without:
    :meth:`InProcessWorker.notify`); ``False`` if none runs here.

    Without a running worker (``flask run``, a test) the mail stays pending until
    ``capua mail deliver`` or the next ``capua serve`` sends it.
    """
    worker = _workers.get(config.database_url)
    if worker is None or not worker.alive:
        return False
    worker.notify(kinds)
    return True


def stop(config: Config) -> None:
    with _workers_lock:
        worker = _workers.pop(config.database_url, None)
    if worker is not None:
        worker.stop()


class WakeUp:
    """The embedded mode's dispatcher (:mod:`service.plumbing.dispatch`): whatever was
    committed, wake the worker serving that database for it (the jobs that work on it);
    nothing when none runs here."""

    def mail(self, config: Config, ids: list[int]) -> None:
        notify(config, (MAIL,))

    def webhooks(self, config: Config, ids: list[int]) -> None:
        notify(config, (WEBHOOKS,))

    def notifications(self, config: Config, user_ids: list[int], due: list) -> None:
        # Only players with mail due at once are named (a later row is the sweep's, as are
        # the deadlines in ``due``: ``apply_deadlines`` runs every interval).
        if user_ids:
            notify(config, (NOTIFICATIONS,))

    def bots(self, config: Config, game_ids: list[str]) -> None:
        notify(config, (BOTS,))
