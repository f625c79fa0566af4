"""Work a request leaves until its answer has been sent.

Some of what a request does after its COMMIT changes nothing in its answer:

- telling the workers what it committed (:mod:`service.plumbing.dispatch`): in production
  a Celery task or two per command, each a round trip to Redis (with retries while the
  broker is slow), measured at 0.64-0.76 ms of a 4.3 ms command (p50, PostgreSQL and Redis
  on loopback) between its COMMIT and its answer;
- giving its connection back to the pool (:func:`service.plumbing.database.commit`) and
  closing its session (:func:`service.plumbing.database._teardown_session`): 28 and about
  35 µs of a SQLite command; with them after the answer its p50 was 0.7-6.4 % lower in each
  of five runs (``bench/RESULTS.md``).

A request served by gunicorn (``gunicorn.conf.py``, the Procfile's ``web`` process) hands
that work to :func:`later`: gunicorn's ``pre_request`` hook marks the thread as serving a
request (:func:`begin`) and its ``post_request`` hook runs the work in the same thread once
the answer is written (:func:`run`), before the thread reads that connection's next
request.  Anywhere else (the embedded server of ``capua serve``, the test client, a worker,
the CLI) nothing marks the thread, and :func:`later` runs the work at once, as before.

What is handed over must not need the request's contexts, which are gone by then.  A
failure is logged and the rest still runs: the committed rows stand, and the workers'
sweeps do the work of a lost wake-up.
"""

from __future__ import annotations

import logging
import threading
from typing import Callable

log = logging.getLogger(__name__)

_thread = threading.local()


def begin() -> None:
    """This thread serves a request whose server calls :func:`run` once its answer is
    written (gunicorn's ``pre_request``); what an earlier request left, if any, runs now."""
    run()
    _thread.queue = []


def later(work: Callable[[], object]) -> None:
    """Run ``work()`` once this thread's request has its answer sent; at once where no
    server said it would call :func:`run` (:func:`begin`)."""
    queue = getattr(_thread, "queue", None)
    if queue is None:
        work()
    else:
        queue.append(work)


def run() -> None:
    """Run, in order, the work this thread's request left until its answer was out; a
    failure is logged and the rest still runs.  The thread is then no longer serving a
    request: :func:`later` runs work at once again until the next :func:`begin`."""
    queue = getattr(_thread, "queue", None)
    _thread.queue = None
    for work in queue or ():
        try:
            work()
        except Exception:
            log.exception("work left until after the answer failed")
