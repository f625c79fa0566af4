"""gunicorn settings for the served command's tail (``bench.command_tail`` only).

The Procfile's settings (``gunicorn.conf.py``, its GC settings included) plus a record of
every ``POST`` to a game's commands, written by each worker as one JSON line to
``$BENCH_TAIL_DIR/worker-<pid>.jsonl`` when the request is done: the request's time in the
worker (``pre_request`` to ``post_request``: parsing, the app, writing the answer), the
garbage collector's passes during it (``gc.callbacks``: generation and pause), and the
time spent in the parts that may be slow now and then, found by wrapping them once the
app is loaded: loading the state, the engine's work with the bot's reply, the append and
a snapshot written in it, the notification rows, the commit; the tree's own ``post_request``
(its collections between requests) runs after the record is taken.
The client numbers its requests (``X-Bench-Seq``) so the records join its own.

A client sends one request at a time, so the worker's state of the request in flight is
one module-level record (gthread hands a request to one thread from start to end).
Each time is also taken in the thread's CPU time (``*_cpu_ms``): on a shared machine a
request that waited for a core is slow in wall time only.
"""

import gc
import json
import os
import runpy
import time

_base = runpy.run_path(os.path.join(os.getcwd(), "gunicorn.conf.py"))  # gunicorn runs in the tree
on_starting = _base["on_starting"]
_current: dict = {}
_out = None
_gc_started = [0.0]


def _is_command(req) -> bool:
    return req.method == "POST" and req.path.endswith("/commands")


_gc_between: list = []  # passes outside a command, reported with the next one


def _on_gc(phase, info):
    if phase == "start":
        _gc_started[0] = time.perf_counter()
        return
    gc_pass = [info["generation"], round((time.perf_counter() - _gc_started[0]) * 1000, 3), info["collected"]]
    if _current:
        _current.setdefault("gc", []).append(gc_pass)
    else:
        _gc_between.append(gc_pass)


def _timed(name, fn):
    def wrapper(*args, **kwargs):
        t0, c0 = time.perf_counter(), time.thread_time()
        try:
            return fn(*args, **kwargs)
        finally:
            if _current:
                _current[name] = _current.get(name, 0.0) + (time.perf_counter() - t0) * 1000
                cpu = name.replace("_ms", "_cpu_ms")
                _current[cpu] = _current.get(cpu, 0.0) + (time.thread_time() - c0) * 1000
    return wrapper


def _install() -> None:
    from sqlalchemy.orm import Session

    from service.play import games, store

    original_append = store.append

    def append(session, game, events, expected_version, actor_user_id, **kwargs):
        every = kwargs.get("snapshot_every", 0)
        new_version = expected_version + len(events)
        if _current:
            _current["events"] = len(events)
            _current["version"] = new_version
            _current["crosses"] = bool(every and new_version // every > expected_version // every)
        return original_append(session, game, events, expected_version, actor_user_id, **kwargs)

    store.append = _timed("append_ms", append)  # games calls the module's attribute
    store.write_snapshot = _timed("snapshot_ms", store.write_snapshot)
    store.load_state = _timed("load_ms", store.load_state)
    games.autoplay = _timed("autoplay_ms", games.autoplay)
    games.fanout.after_append = _timed("fanout_ms", games.fanout.after_append)
    Session.commit = _timed("commit_ms", Session.commit)


def _sqlite_pragmas(pragmas: str) -> None:
    """``BENCH_TAIL_SQLITE_PRAGMAS`` (``"name=value;..."``) on every new SQLite connection:
    a knob for trying a setting without changing the tree."""
    from sqlalchemy import event
    from sqlalchemy.engine import Engine

    @event.listens_for(Engine, "connect")
    def _connect(dbapi_connection, _record):
        if type(dbapi_connection).__module__.startswith("sqlite3"):
            for pragma in filter(None, pragmas.split(";")):
                dbapi_connection.execute(f"PRAGMA {pragma}")


def _count_connects() -> None:
    from sqlalchemy import event
    from sqlalchemy.pool import Pool

    @event.listens_for(Pool, "connect")
    def _connect(_dbapi_connection, _record):
        if _current:
            _current["connects"] = _current.get("connects", 0) + 1


def post_worker_init(worker):
    _base["post_worker_init"](worker)
    global _out
    _install()
    _count_connects()
    if os.environ.get("BENCH_TAIL_GC_THRESHOLD"):  # a knob: thresholds to try
        gc.set_threshold(*map(int, os.environ["BENCH_TAIL_GC_THRESHOLD"].split(",")))
    if os.environ.get("BENCH_TAIL_SQLITE_PRAGMAS"):
        _sqlite_pragmas(os.environ["BENCH_TAIL_SQLITE_PRAGMAS"])
    gc.callbacks.append(_on_gc)
    _out = open(os.path.join(os.environ["BENCH_TAIL_DIR"], f"worker-{os.getpid()}.jsonl"), "a", buffering=1)


def pre_request(worker, req):
    if _is_command(req):
        _current.clear()
        if _gc_between:
            _current["gc_between"] = list(_gc_between)
            _gc_between.clear()
        _current["seq"] = next((v for k, v in req.headers if k.upper() == "X-BENCH-SEQ"), None)
        _current["t0"], _current["c0"] = time.perf_counter(), time.thread_time()


def post_request(worker, req, environ, resp):
    if _is_command(req) and _current:
        record = dict(_current)
        record["server_ms"] = (time.perf_counter() - record.pop("t0")) * 1000
        record["server_cpu_ms"] = (time.thread_time() - record.pop("c0")) * 1000
        _current.clear()
        _out.write(json.dumps(record) + "\n")
    if "post_request" in _base:  # the tree's own (after the record: it is after the answer)
        _base["post_request"](worker, req, environ, resp)
