"""The Celery app of production: ``celery -A worker.celery_app worker`` (and ``beat``).

Configured from ``CAPUA_REDIS_URL`` alone (broker and result store); the tasks read the
rest of the settings when they first run, not at import.  Without ``CAPUA_REDIS_URL``
the app falls back to Celery's in-memory transport, so the tasks can be imported and
called directly (tests) — the embedded mode runs the same work in
:mod:`service.inprocess` instead.

Reliability: tasks are acknowledged late (a worker that dies mid-task leaves the message
to be redelivered), one message is prefetched at a time, and every task has a time
limit.  Beat runs the sweeps that re-enqueue anything a lost message left behind.
"""

from __future__ import annotations

import os

from celery import Celery

#: Seconds after which a task is told to stop, and killed.
SOFT_TIME_LIMIT = 50
TIME_LIMIT = 60

_redis_url = os.environ.get("CAPUA_REDIS_URL", "").strip()

app = Celery("capua", include=["worker.tasks"])
app.conf.update(
    broker_url=_redis_url or "memory://",
    result_backend=_redis_url or None,
    task_acks_late=True,
    task_reject_on_worker_lost=True,
    worker_prefetch_multiplier=1,
    task_soft_time_limit=SOFT_TIME_LIMIT,
    task_time_limit=TIME_LIMIT,
    task_ignore_result=True,
    task_serializer="json",
    accept_content=["json"],
    timezone="UTC",
    broker_connection_retry_on_startup=True,
    # A message not acknowledged within this time is handed to another worker; longer
    # than any task's time limit plus its retry countdown, so nothing runs twice at once.
    broker_transport_options={"visibility_timeout": 3600},
    beat_schedule={
        "sweep-mail": {"task": "worker.tasks.sweep_mail", "schedule": 60.0},
    },
)
