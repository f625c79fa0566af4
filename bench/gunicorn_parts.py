"""gunicorn settings for a served command's CPU split into its parts (``bench.served_parts`` only).

The Procfile's settings (``gunicorn.conf.py``, its hooks too) plus, for every ``POST`` to a
game's commands, the worker thread's CPU time (``time.thread_time``: a wait for the database or
for a core drops out) in each of the parts named in :data:`PARTS`, and in each SQL statement
Capua sends itself (keyed by the statement's first words).  The parts are wrapped once the app
is loaded; a part inside another counts in both (the report says which holds which).  Each
worker adds up its commands and writes the sums to ``$BENCH_PARTS_DIR/worker-<pid>.json``
every 100 commands and when it exits.

Wrapping costs a few microseconds a part, so the parts add up to a little more than a plain
served command; their shares are what this is for.
"""

import atexit
import json
import os
import re
import runpy
import time
from collections import defaultdict

_base = runpy.run_path(os.path.join(os.getcwd(), "gunicorn.conf.py"))  # gunicorn runs in the tree
on_starting = _base["on_starting"]

#: (name, module, attribute): a module's function replaced by a timed one.  A caller that
#: took the function by name before the wrapping (``from x import f``) is wrapped too where
#: listed under its own module.
PARTS = [
    ("flask.wsgi_app", "flask.app", "Flask.wsgi_app"),
    ("flask.before_request hooks", "flask.app", "Flask.preprocess_request"),
    ("flask.finalize_request", "flask.app", "Flask.finalize_request"),
    ("idempotency.fingerprint", "service.plumbing.idempotency", "request_fingerprint"),
    ("idempotency.claim", "service.plumbing.idempotency", "ahead"),
    ("idempotency.view and answer", "service.plumbing.idempotency", "_run_claimed"),
    ("idempotency.commit", "service.plumbing.idempotency", "commit"),
    ("ratelimit.client_key", "service.plumbing.ratelimit", "client_key"),
    ("play.submit_command", "service.play.games", "submit_command"),
    ("play.at_hand.load", "service.play.at_hand", "load"),
    ("play._advance", "service.play.games", "_advance"),
    ("play.autoplay", "service.play.games", "autoplay"),
    ("play.store.append", "service.play.store", "append"),
    ("play.refresh_open_decisions", "service.play.games", "refresh_open_decisions"),
    ("play.fanout.after_append", "service.play.fanout", "after_append"),
    ("play.command_answer", "service.play.games", "command_answer"),
]

_sums: dict = defaultdict(float)
_count = [0]
_current: dict = {}


def _timed(name, fn):
    def wrapper(*args, **kwargs):
        if not _current:
            return fn(*args, **kwargs)
        c0 = time.thread_time()
        try:
            return fn(*args, **kwargs)
        finally:
            _current[name] = _current.get(name, 0.0) + (time.thread_time() - c0) * 1000
    return wrapper


def _install() -> None:
    import importlib

    for name, module_name, attribute in PARTS:
        owner = importlib.import_module(module_name)
        *path, last = attribute.split(".")
        for step in path:
            owner = getattr(owner, step)
        setattr(owner, last, _timed(name, getattr(owner, last)))
    from service.plumbing import statements

    plain = statements._execute_now

    def execute_now(connection, entry):
        if not _current:
            return plain(connection, entry)
        key = "sql: " + " ".join(re.sub(r"\s+", " ", entry.compiled.sql).split()[:4])
        c0 = time.thread_time()
        try:
            return plain(connection, entry)
        finally:
            _current[key] = _current.get(key, 0.0) + (time.thread_time() - c0) * 1000

    statements._execute_now = execute_now
    pipeline = statements._pipeline

    def round_trip(connection, entries, *, commit):
        if not _current:
            return pipeline(connection, entries, commit=commit)
        key = "sql: a round trip of " + ", ".join(
            " ".join(re.sub(r"\s+", " ", e.compiled.sql).split()[:3]) for e in entries) + (", COMMIT" if commit else "")
        c0 = time.thread_time()
        try:
            return pipeline(connection, entries, commit=commit)
        finally:
            _current[key] = _current.get(key, 0.0) + (time.thread_time() - c0) * 1000

    statements._pipeline = round_trip


def _write() -> None:
    if _count[0]:
        with open(os.path.join(os.environ["BENCH_PARTS_DIR"], f"worker-{os.getpid()}.json"), "w") as fh:
            json.dump({"commands": _count[0], "ms": dict(_sums)}, fh)


def post_worker_init(worker):
    _base["post_worker_init"](worker)
    _install()
    atexit.register(_write)


def pre_request(worker, req):
    _base["pre_request"](worker, req)
    if req.method == "POST" and req.path.endswith("/commands"):
        _current.clear()
        _current["_c0"] = time.thread_time()


def post_request(worker, req, environ, resp):
    if _current:
        _current["served (parsing, the app, the answer written)"] = (time.thread_time() - _current.pop("_c0")) * 1000
        for name, ms in _current.items():
            _sums[name] += ms
        _current.clear()
        _count[0] += 1
        if _count[0] % 100 == 0:
            _write()
    c0 = time.thread_time()
    _base["post_request"](worker, req, environ, resp)
    _sums["after the answer (post_request)"] += (time.thread_time() - c0) * 1000
