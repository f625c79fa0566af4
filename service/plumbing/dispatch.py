"""The seam between the domains and whoever works after a commit.

A command commits events together with outbox rows (mail, notifications, webhook
deliveries, deadlines); the work on those rows happens later, in a worker.  The domains
say what was committed through the functions here and never import a worker: the
in-process worker thread (:mod:`service.inprocess`, the embedded mode) and the Celery
tasks (:mod:`worker.tasks`, with Redis) each register a :class:`Dispatcher` for their
mode at start-up, and every call picks the one of ``config``'s mode.

Nothing here raises: the rows are committed, and if a wake-up is lost (no worker
registered in this process, a broker outage) the sweeps find the rows anyway.

Work remembered on a session with :func:`remember_users`, :func:`remember_deadlines`,
:func:`remember_webhooks` or :func:`remember_bots` is handed over after that session commits, and forgotten when
it rolls back, so nothing is announced that did not happen.  In a request served by gunicorn
it is handed over once the request's answer is out (:mod:`service.plumbing.after_answer`).
"""

from __future__ import annotations

import datetime as dt
import functools
import logging
from typing import Iterable, Optional, Protocol

from sqlalchemy import event
from sqlalchemy.orm import Session

from service.plumbing import after_answer
from service.plumbing.config import Config

log = logging.getLogger(__name__)

#: The two modes a dispatcher registers for: no Redis (a thread in this process), Redis (Celery).
EMBEDDED = "embedded"
CELERY = "celery"

#: ``Session.info`` key of the work to hand over after commit.
_AFTER_COMMIT = "capua.dispatch"


class Dispatcher(Protocol):
    """Whoever works after a commit; each method returns at once, without waiting for the work."""

    def mail(self, config: Config, ids: list[int]) -> None:
        """Deliver the outbox mails ``ids``."""

    def webhooks(self, config: Config, ids: list[int]) -> None:
        """Attempt the webhook deliveries ``ids``."""

    def notifications(self, config: Config, user_ids: list[int],
                      deadlines: list[tuple[int, dt.datetime]]) -> None:
        """Compose the pending notifications of ``user_ids``; act on each open decision
        ``(id, deadline)`` when its deadline passes."""

    def bots(self, config: Config, game_ids: list[str]) -> None:
        """Have the searching bots of ``game_ids`` give the answers they owe."""


_dispatchers: dict[str, Dispatcher] = {}


def register(mode: str, dispatcher: Dispatcher) -> None:
    """Make ``dispatcher`` the one of ``mode`` (:data:`EMBEDDED` or :data:`CELERY`) in this process."""
    if mode not in (EMBEDDED, CELERY):
        raise ValueError(f"unknown dispatch mode {mode!r}")
    _dispatchers[mode] = dispatcher


def registered(mode: str) -> Optional[Dispatcher]:
    return _dispatchers.get(mode)


def _for(config: Config) -> Optional[Dispatcher]:
    return _dispatchers.get(EMBEDDED if config.embedded else CELERY)


def mail_committed(config: Config, ids: Iterable[int]) -> None:
    """Have the just-committed mails ``ids`` delivered soon."""
    ids = [int(i) for i in ids]
    dispatcher = _for(config) if ids else None
    if dispatcher is None:
        return
    try:
        dispatcher.mail(config, ids)
    except Exception:  # the broker is down: the beat sweep will enqueue them
        log.warning("could not enqueue mail %s; the sweep will deliver it", ids[:10], exc_info=True)


def webhooks_committed(config: Config, ids: Iterable[int]) -> None:
    """Have the just-committed webhook deliveries ``ids`` attempted soon."""
    ids = [int(i) for i in ids]
    dispatcher = _for(config) if ids else None
    if dispatcher is None:
        return
    try:
        dispatcher.webhooks(config, ids)
    except Exception:
        log.warning("could not enqueue webhooks %s; the sweep will send them", ids[:10], exc_info=True)


def notifications_committed(config: Config, user_ids: Iterable[int],
                            deadlines: Iterable[tuple[int, dt.datetime]] = ()) -> None:
    """Wake whoever composes mail and applies deadlines."""
    user_ids, deadlines = sorted({int(u) for u in user_ids}), list(deadlines)
    dispatcher = _for(config) if (user_ids or deadlines) else None
    if dispatcher is None:
        return
    try:
        dispatcher.notifications(config, user_ids, deadlines)
    except Exception:  # a broker outage must never fail the request that committed
        log.warning("could not hand notifications to the worker; the sweep will", exc_info=True)


def bots_committed(config: Config, game_ids: Iterable[str]) -> None:
    """Wake whoever plays the bots that owe answers in ``game_ids``."""
    game_ids = sorted(set(game_ids))
    dispatcher = _for(config) if game_ids else None
    if dispatcher is None:
        return
    try:
        dispatcher.bots(config, game_ids)
    except Exception:
        log.warning("could not hand bot turns to the worker; the sweep will", exc_info=True)


# --------------------------------------------------------------------------- after commit


def _box(session: Session, config: Config) -> dict:
    return session.info.setdefault(_AFTER_COMMIT, {"config": config, "users": set(), "deadlines": [],
                                                   "webhooks": [], "bots": set()})


def remember_users(session: Session, config: Config, user_ids: Iterable[int]) -> None:
    """Have the notifications of ``user_ids`` composed after ``session`` commits."""
    _box(session, config)["users"].update(user_ids)


def remember_deadlines(session: Session, config: Config, deadlines: Iterable[tuple[int, dt.datetime]]) -> None:
    """Have deadline tasks scheduled for these ``(open_decision_id, deadline)`` after commit."""
    _box(session, config)["deadlines"].extend(deadlines)


def remember_bots(session: Session, config: Config, game_id: str) -> None:
    """Have the bots that owe answers in ``game_id`` play after ``session`` commits."""
    _box(session, config)["bots"].add(game_id)


def remember_webhooks(session: Session, config: Config, ids: Iterable[int]) -> None:
    """Have the webhook deliveries ``ids`` attempted after ``session`` commits."""
    _box(session, config)["webhooks"].extend(ids)


@event.listens_for(Session, "after_commit")
def _hand_over_after_commit(session: Session) -> None:
    box = session.info.pop(_AFTER_COMMIT, None)
    if box:
        # in a request, once its answer is out (production: Celery tasks, round trips to
        # Redis that change nothing in the answer): :mod:`service.plumbing.after_answer`
        after_answer.later(functools.partial(_hand_over, box))


def _hand_over(box: dict) -> None:
    if box["webhooks"]:
        webhooks_committed(box["config"], box["webhooks"])
    if box["users"] or box["deadlines"]:
        notifications_committed(box["config"], box["users"], box["deadlines"])
    if box["bots"]:
        bots_committed(box["config"], box["bots"])


@event.listens_for(Session, "after_rollback")
def _forget_after_rollback(session: Session) -> None:
    session.info.pop(_AFTER_COMMIT, None)
