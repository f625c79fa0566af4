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


def post_worker_init(worker):
    """Once the app is loaded, move what start-up built (modules, schemas, compiled
    statements: most of the worker's objects) out of the garbage collector's reach, so a
    full collection during a request walks only what requests made."""
    gc.freeze()
