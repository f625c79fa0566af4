"""gunicorn settings for profiling the served command path (``bench.served_profile`` only).

The Procfile's settings (``gunicorn.conf.py``, its hooks too) plus cProfile around every
``POST`` to a game's commands: enabled in ``pre_request`` and disabled in ``post_request``
(the same thread: gthread hands a request to one thread from start to end), so the profile
holds the request's parsing, the app, and the answer's writing.  Each worker writes its
statistics to ``$BENCH_PROFILE_DIR/worker-<pid>.prof`` when it exits.  With
``BENCH_PROFILE_CPU=1`` the profile counts the thread's CPU time (``time.thread_time``),
not the wall clock: the time waiting for the database's answers then drops out (each
reading of that clock is a system call, so small functions weigh more than they do).
"""

import cProfile
import os
import runpy
import time

_base = runpy.run_path(os.path.join(os.getcwd(), "gunicorn.conf.py"))  # gunicorn runs in the tree
on_starting, post_worker_init = _base["on_starting"], _base["post_worker_init"]
threads = 1  # one request at a time: the profiler follows one thread
_profile = cProfile.Profile(time.thread_time) if os.environ.get("BENCH_PROFILE_CPU") == "1" else cProfile.Profile()


def _is_command(req) -> bool:
    return req.method == "POST" and req.path.endswith("/commands")


def pre_request(worker, req):
    if _is_command(req):
        _profile.enable()


def post_request(worker, req, environ, resp):
    if _is_command(req):
        _profile.disable()
    if "post_request" in _base:  # the Procfile's (its collections after the answer)
        _base["post_request"](worker, req, environ, resp)


def worker_exit(server, worker):
    _profile.dump_stats(os.path.join(os.environ["BENCH_PROFILE_DIR"], f"worker-{os.getpid()}.prof"))
