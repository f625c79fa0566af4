"""The Celery app of production: ``celery -A worker.celery_app worker`` (and ``beat``).

Configured from ``CAPUA_REDIS_URL`` (broker and result store) and the few settings that
shape the worker itself (queue, time limit, sweep intervals), read at import without
loading the rest; the tasks read the other settings when they first run.  Without ``CAPUA_REDIS_URL``
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
from celery.beat import PersistentScheduler

from service.plumbing.config import env_setting

#: Seconds after which a task is killed (``CAPUA_TASK_TIME_LIMIT_SECONDS``), and told to
#: stop a little before.  A claim older than the limit can only belong to a dead worker,
#: which is how the sweeps recognise mail and deadlines to take over.
TIME_LIMIT = int(env_setting("task_time_limit_seconds"))
SOFT_TIME_LIMIT = max(1, TIME_LIMIT - max(1, TIME_LIMIT // 6))
#: The queue web processes enqueue to and workers consume (``CAPUA_CELERY_QUEUE``).
QUEUE = env_setting("celery_queue") or "capua"
DEADLINE_SWEEP_SECONDS = float(env_setting("deadline_sweep_seconds"))
OUTBOX_SWEEP_SECONDS = float(env_setting("outbox_sweep_seconds"))

_redis_url = os.environ.get("CAPUA_REDIS_URL", "").strip()


class InstanceScheduler(PersistentScheduler):
    """Beat's schedule file lives in the instance folder, created when beat starts (not
    when a web process imports this module to enqueue)."""

    def setup_schedule(self) -> None:
        os.makedirs(os.path.dirname(self.schedule_filename) or ".", exist_ok=True)
        super().setup_schedule()

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
    task_default_queue=QUEUE,
    beat_scheduler="worker.celery_app:InstanceScheduler",
    beat_schedule_filename=os.path.join(os.path.abspath(env_setting("instance_dir")), "celerybeat-schedule"),
    task_serializer="json",
    accept_content=["json"],
    timezone="UTC",
    broker_connection_retry_on_startup=True,
    # A message not acknowledged within this time is handed to another worker; longer
    # than any task's time limit plus its retry countdown, so nothing runs twice at once.
    broker_transport_options={"visibility_timeout": 3600},
    beat_schedule={
        "sweep-mail": {"task": "worker.tasks.sweep_mail", "schedule": 60.0},
        "sweep-webhooks": {"task": "worker.tasks.sweep_webhooks", "schedule": 15.0},
        # Games whose searching bots owe answers and lost their task.
        "sweep-bots": {"task": "worker.tasks.sweep_bots", "schedule": 30.0},
        # Deadlines are applied within seconds of passing (plus a task at the deadline
        # itself for those near enough, see service.play.deadlines.ETA_HORIZON).
        "sweep-deadlines": {"task": "worker.tasks.sweep_deadlines", "schedule": DEADLINE_SWEEP_SECONDS},
        # Notifications whose time has come (coalescing window, quiet hours, digests) and
        # mail a dead worker left in ``sending``.
        "sweep-outbox": {"task": "worker.tasks.sweep_outbox", "schedule": OUTBOX_SWEEP_SECONDS},
        # Expired idempotency keys (the request path never purges them).
        "purge-idempotency-keys": {"task": "worker.tasks.purge_idempotency_keys", "schedule": 600.0},
    },
)
