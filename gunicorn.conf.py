"""Gunicorn settings of Capua's ``web`` process (read by gunicorn from the working folder,
and named in the Procfile).

It refuses to start a server that others can reach with the developer pages on
(``/dev/outbox`` shows every mail, sign-in links included), unless the operator says so
with ``CAPUA_DEV_PAGES_PUBLIC=1``.
"""

import gc
import sys

from service.plumbing.config import bind_host, dev_pages_bind_problem, load_config


def on_starting(server):
    try:
        config = load_config()
    except ValueError as err:
        sys.exit(f"capua: {err}")
    problem = dev_pages_bind_problem(config, [bind_host(b) for b in server.cfg.bind])
    if problem:
        sys.exit(f"capua: {problem}")


#: CPython's own thresholds (700, 10, 10) start a collection once 700 more container
#: objects are alive than at the last one, and a request makes and frees far more than
#: that: measured with ``bench.command_tail``, one command in 11 (PostgreSQL; in 40 on
#: SQLite) paid a collection of the youngest objects (0.3 ms), one in 130 of the middle
#: ones (0.6-0.9 ms) and one in 1,500 a full one (5-31 ms).  What a request leaves behind
#: is a few dozen objects, so the worker runs the collections after the answer is sent
#: instead (:func:`post_request`), once that residue passes these counts; CPython's own
#: trigger stays only as a net for a request that keeps a great many objects alive.  Not
#: 700 here: with requests in flight on the other threads their live objects count too,
#: and at 700 nearly every request ended with a collection walking them (50 clients:
#: 50 commands/s against 67 without; at 10,000, 285 against 237 over five turns).
BETWEEN_REQUESTS = (10_000, 10, 10)
NET = (100_000, 10, 10)


def post_worker_init(worker):
    """Once the app is loaded, move what start-up built (modules, schemas, compiled
    statements: most of the worker's objects) out of the garbage collector's reach, so a
    full collection walks only what requests made; then leave collections to
    :func:`post_request` (see :data:`BETWEEN_REQUESTS`)."""
    gc.freeze()
    gc.set_threshold(*NET)


def post_request(worker, req, environ, resp):
    """After the answer is sent (gunicorn calls this once the response is written and
    closed), the collection CPython would have started by now, if any: as its own
    collector picks, the oldest generation whose count is past its threshold (the
    middle one's count is the collections of the youngest since its last, and so on)."""
    young, collections_of_young, collections_of_middle = gc.get_count()
    if young <= BETWEEN_REQUESTS[0]:
        return
    if collections_of_middle > BETWEEN_REQUESTS[2]:
        gc.collect(2)
    elif collections_of_young > BETWEEN_REQUESTS[1]:
        gc.collect(1)
    else:
        gc.collect(0)
