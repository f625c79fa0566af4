"""Work a request leaves until its answer has been sent.

After a command commits, the workers are told what it committed (:mod:`service.plumbing.dispatch`):
in production that is a Celery task or two per command, each a round trip to Redis (with
retries while the broker is slow), measured at 0.74 ms of a 4.3 ms command (p50,
PostgreSQL and Redis on loopback) between its COMMIT and its answer.  None of it changes
the answer: the rows are committed, and the workers' sweeps would find them even if no
word came.  So a request served by gunicorn (``gunicorn.conf.py``, the Procfile's ``web``
process) hands that work to :func:`later`, and gunicorn's ``post_request`` hook runs it
(:func:`run`) in the same thread once the answer is written.  Anywhere else (the embedded
server of ``capua serve``, the test client, a worker, the CLI) :func:`later` runs the work
at once, as before.

What is handed over is plain work on values the request has already read: it must not
need the request's app context, which is gone by then.  A failure is logged and dropped,
as a failed wake-up was before: the sweeps do the work anyway.
"""

from __future__ import annotations

import logging
import threading
from typing import Callable

from flask import has_request_context

log = logging.getLogger(__name__)

#: Set by the server that runs :func:`run` after every request (:func:`served_here`).
_SERVED = False
_pending = threading.local()


def served_here() -> None:
    """This process's server calls :func:`run` after sending each answer, in the thread
    that served the request (gunicorn's ``post_request``)."""
    global _SERVED
    _SERVED = True


def later(work: Callable[[], object]) -> None:
    """Run ``work()`` once this request's answer has been sent; at once outside a request
    or under a server that does not say it runs :func:`run` (:func:`served_here`)."""
    if not _SERVED or not has_request_context():
        work()
        return
    queue = _pending.__dict__.get("queue")
    if queue is None:
        _pending.queue = [work]
    else:
        queue.append(work)


def run() -> None:
    """Run the work this thread's request left for after its answer, in order; a failure
    is logged and the rest still runs."""
    queue = _pending.__dict__.pop("queue", None)
    while queue:
        work = queue.pop(0)
        try:
            work()
        except Exception:
            log.exception("work left until after the answer failed")
