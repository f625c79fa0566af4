"""Wiring the rooms together: which listeners hear of a change to a game, and who works
after a commit.

Play announces what happened through :mod:`service.play.fanout` and the domains hand
committed work to :mod:`service.plumbing.dispatch`; neither knows who listens.  This
module says who does, and is called by every composition root: the app factory, the
Celery worker's start-up and the test suite.  Calling it again changes nothing.
"""

from __future__ import annotations

from typing import Optional

from service import inprocess
from service.notify import notifications, webhooks
from service.play import deadlines, fanout
from service.plumbing import dispatch


def connect(celery: Optional[dispatch.Dispatcher] = None) -> None:
    """Register the listeners of game changes and the embedded mode's dispatcher; with
    ``celery`` (the worker's :class:`worker.tasks.CeleryDispatch`), that of Redis too."""
    fanout.register(
        # In this order, as they always ran: webhooks, then the deadlines' reminders
        # and tasks, then the players' notification rows.
        on_append=(webhooks.on_append, deadlines.on_append, notifications.on_append),
        on_create=(notifications.on_game_created,),
    )
    dispatch.register(dispatch.EMBEDDED, inprocess.WakeUp())
    if celery is not None:
        dispatch.register(dispatch.CELERY, celery)
