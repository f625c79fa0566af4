"""The Celery app of production: ``celery -A worker.celery_app worker`` (and ``beat``).

Configured from ``CAPUA_REDIS_URL`` (broker and result store) and the few settings that
shape the worker itself (queue, time limit, sweep intervals), read at import without
loading the rest; the tasks read the other settings when they first run.  Without ``CAPUA_REDIS_URL``
the app falls back to Celery's in-memory transport, so the tasks can be imported and
called directly (tests) — the embedded mode runs the same work in
:mod:`service.inprocess` instead.

Reliability: tasks are acknowledged late (a worker that dies mid-task leaves the message
to be redelivered), one message is prefetched at a time, and every task has a time
limit.  The broker hands a message out again once it has been unacknowledged for
:data:`VISIBILITY_TIMEOUT`, which follows the time limit (a message that old can only be
a dead worker's).  Beat runs the sweeps that re-enqueue what a lost message left behind
within seconds, from the database, without waiting for the broker.
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
#: The longest countdown or ETA any task is sent with (a deadline near enough, a webhook
#: retry): the worker holds such a message unacknowledged until it is due.
LONGEST_COUNTDOWN = 60
#: Seconds a message may stay unacknowledged before the broker hands it to another
#: worker: its countdown, the task's time limit, and a margin for a busy worker.  No live
#: worker holds a message longer, so only a dead worker's message comes back, and it
#: comes back within minutes, not the hour of Celery's default.
VISIBILITY_TIMEOUT = LONGEST_COUNTDOWN + TIME_LIMIT + 30
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
    # Redis looks for messages past their visibility timeout every 10 s (kombu's default
    # is every 100 s, made for its default timeout of an hour).
    broker_transport_options={"visibility_timeout": VISIBILITY_TIMEOUT, "unacked_restore_interval": 10,
                              "unacked_restore_throttle": 1},
    beat_schedule={
        # Mail whose task was lost (a dead worker, a broker that was down) and failed mail
        # whose retry is due.
        "sweep-mail": {"task": "worker.tasks.sweep_mail", "schedule": OUTBOX_SWEEP_SECONDS},
        "sweep-webhooks": {"task": "worker.tasks.sweep_webhooks", "schedule": 15.0},
        # Games whose searching bots owe answers and lost their task.
        "sweep-bots": {"task": "worker.tasks.sweep_bots", "schedule": 30.0},
        # Deadlines are applied within seconds of passing (plus a task at the deadline
        # itself for those near enough, see service.play.deadlines.ETA_HORIZON).
        "sweep-deadlines": {"task": "worker.tasks.sweep_deadlines", "schedule": DEADLINE_SWEEP_SECONDS},
        # Notifications whose time has come (coalescing window, quiet hours, digests) and
        # mail a dead worker left in ``sending`` once its lease has ended.
        "sweep-outbox": {"task": "worker.tasks.sweep_outbox", "schedule": OUTBOX_SWEEP_SECONDS},
        # Expired idempotency keys (the request path never purges them).
        "purge-idempotency-keys": {"task": "worker.tasks.purge_idempotency_keys", "schedule": 600.0},
    },
)
