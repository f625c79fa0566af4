"""Command latency and throughput of Capua served by gunicorn, against the floors, interleaved.

Three servers run side by side under the Procfile's gunicorn settings (``--workers 2
--threads 4``, kept-alive HTTP on loopback): Capua from this tree ("after"), Capua from
another tree given with ``--before`` (today's ``main``, checked out), and the minimal
Flask app of :mod:`bench.minimal_app` doing one INSERT + COMMIT per request.  The bare
INSERT + COMMIT through the engine is the fourth target.  Each has a database of its own
of the same kind (SQLite files, or PostgreSQL databases ``capua_bench_<name>``).

Latency: one client, a 2-seat PAX game against a bot, each ``POST /commands`` timed
(the bot's reply included; the bot plays at ``CAPUA_BOT_LEVEL=random``, so its thinking
time, a setting of its own, does not hide the command path); the targets take turns in rounds, so a change in the
machine's load hits all of them alike.  Throughput: 50 client threads, each playing its
own games as fast as the answers come (a command's answer lists the next decisions),
for a fixed time per target, again in turns.

With ``--broker redis://...`` both Capua servers run as production does, with Redis: a
command hands its work to Celery (tasks queued in that Redis database, which is emptied
before and after; no worker consumes them) and the rate limits count there.  The minimal
endpoint has no use for Redis and stays as it is.

A run's ratios move with the machine's state from one run to the next (on a shared 2-CPU
machine by a fifth, the code unchanged); ``--runs N`` repeats the whole measurement with new
servers N times and prints each run's ratios and their medians.

``python -m bench.command_floor --before /path/to/main-checkout [--databases sqlite,postgresql]
[--runs 5] [--broker redis://127.0.0.1:6379/12]``
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any, Iterator, Optional

from bench.common import machine, summarize
from bench.floor import measure_floor

HERE = Path(__file__).resolve().parent.parent
GUNICORN = [sys.executable, "-m", "gunicorn", "--workers", "2", "--threads", "4", "--keep-alive", "75",
            "--log-level", "warning"]
POSTGRES = "postgresql+psycopg://postgres@127.0.0.1:5432/"
#: Redis for the Capua servers (``--broker``): None runs them with the embedded defaults.
BROKER: Optional[str] = None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _database_url(kind: str, name: str, tmp: Path) -> str:
    if kind == "sqlite":
        return f"sqlite:///{tmp / (name + '.sqlite3')}"
    from sqlalchemy import create_engine, text

    admin = create_engine(POSTGRES + "postgres", isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        db = f"capua_bench_{name}"
        if not conn.execute(text("SELECT 1 FROM pg_database WHERE datname = :n"), {"n": db}).scalar():
            conn.exec_driver_sql(f'CREATE DATABASE "{db}"')
    admin.dispose()
    return POSTGRES + f"capua_bench_{name}"


def _env(tree: Path, database_url: str, instance: Path) -> dict:
    env = {k: v for k, v in os.environ.items() if not k.startswith("CAPUA_")}
    env.update({"PYTHONPATH": str(tree), "CAPUA_DATABASE_URL": database_url, "CAPUA_INSTANCE_DIR": str(instance),
                "CAPUA_RATE_LIMIT": "100000000 per minute", "CAPUA_SECRET_KEY": "bench-" + "x" * 40,
                "CAPUA_BOT_LEVEL": "random", "CAPUA_MAIL_BACKEND": "outbox",
                "CAPUA_MAIL_OUTBOX_DIR": str(instance / "outbox")})
    if BROKER:
        env["CAPUA_REDIS_URL"] = BROKER
    return env


@contextmanager
def serve(tree: Path, app_spec: str, database_url: str, tmp: Path, name: str) -> Iterator[tuple[int, Optional[str]]]:
    """gunicorn serving ``app_spec`` from ``tree``; ``(port, token)`` (a token for Capua)."""
    instance = tmp / f"instance-{name}"
    instance.mkdir(exist_ok=True)
    env = _env(tree, database_url, instance)
    token = None
    if app_spec.startswith("service."):
        token = subprocess.run([sys.executable, str(HERE / "bench" / "serve_seed.py"), database_url], cwd=tree,
                               env=env, check=True, capture_output=True, text=True).stdout.strip().splitlines()[-1]
    else:
        from bench.minimal_app import create_table

        create_table(database_url)
    port = _free_port()
    # started in the tree: ``python -m`` puts the working directory first on sys.path, ahead
    # of PYTHONPATH, so a server started elsewhere would import that directory's code
    proc = subprocess.Popen([*GUNICORN, "--bind", f"127.0.0.1:{port}", "--chdir", str(tree), app_spec], env=env,
                            cwd=tree)
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                if time.monotonic() > deadline or proc.poll() is not None:
                    raise RuntimeError(f"{name} did not start")
                time.sleep(0.2)
        yield port, token
    finally:
        proc.terminate()
        proc.wait(timeout=30)


@contextmanager
def serve_instrumented(tree: Path, database: str, prefix: str, tmp: Path, name: str, settings: list[str],
                       env: dict[str, str]) -> Iterator[tuple[int, Optional[str]]]:
    """Capua from ``tree`` served as :func:`serve` serves it, on a fresh database of kind
    ``database``, with the gunicorn ``settings`` added and ``env`` set: for the benches
    that look inside the worker (``bench.served_profile``, ``bench.command_tail``)."""
    global GUNICORN
    url = _database_url(database, f"{prefix}_capua", tmp)
    plain = GUNICORN
    GUNICORN = [*plain, *settings]
    os.environ.update(env)
    try:
        with serve(tree.resolve(), "service.app:create_app()", url, tmp, name) as served:
            yield served
    finally:
        GUNICORN = plain


class Client:
    def __init__(self, port: int, token: Optional[str]) -> None:
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
        self.headers = {"Content-Type": "application/json"}
        if token:
            self.headers["Authorization"] = f"Bearer {token}"

    def call(self, method: str, path: str, body: Optional[dict] = None) -> tuple[int, dict]:
        headers = {**self.headers, "Idempotency-Key": uuid.uuid4().hex} if method == "POST" else self.headers
        for attempt in range(2):  # a kept-alive connection the server closed: reconnect once (same key)
            try:
                self.conn.request(method, path, body=json.dumps(body) if body is not None else None, headers=headers)
                response = self.conn.getresponse()
                data = response.read()
                break
            except (BrokenPipeError, ConnectionResetError, http.client.RemoteDisconnected):
                self.conn.close()
                if attempt:
                    raise
        return response.status, (json.loads(data) if data else {})


class Player:
    """Plays 2-seat PAX games against a bot through the API; ``step()`` is one timed command."""

    def __init__(self, port: int, token: str) -> None:
        self.client = Client(port, token)
        self.game_id: Optional[str] = None
        self.decisions: list[dict] = []

    def _new_game(self) -> None:
        status, game = self.client.call("POST", "/api/v1/games",
                                        {"game_type": "pax", "seats": 2, "bot_seats": [1], "options": {}})
        assert status == 201, (status, game)
        self.game_id = game["id"]
        status, listing = self.client.call("GET", f"/api/v1/games/{self.game_id}/decisions")
        self.decisions = listing["decisions"]

    def _body(self) -> Optional[dict]:
        owed = [d for d in self.decisions if d["mode"] != "free"]
        if not owed:
            return None
        d = owed[0]
        choice = d["options"][0] if d.get("options") else d["default"]
        return {"type": choice["type"], "args": choice["args"], "expected_version": d["version"]}

    def step(self) -> float:
        body = self._body() if self.game_id else None
        while body is None:
            self._new_game()
            body = self._body()
        t0 = time.perf_counter()
        status, answer = self.client.call("POST", f"/api/v1/games/{self.game_id}/commands", body)
        elapsed = time.perf_counter() - t0
        assert status == 200, (status, answer)
        self.decisions = answer["decisions"]
        return elapsed


class Writer:
    """The minimal endpoint's client: ``step()`` is one timed write."""

    def __init__(self, port: int) -> None:
        self.client = Client(port, None)

    def step(self) -> float:
        t0 = time.perf_counter()
        status, _ = self.client.call("POST", "/write", {"type": "pax.play", "args": {"card": 3}})
        elapsed = time.perf_counter() - t0
        assert status == 200
        return elapsed


def throughput(make, clients: int, seconds: float) -> float:
    """Requests per second of ``clients`` threads, each with its own ``make()`` client."""
    workers = [make() for _ in range(clients)]
    for w in workers:  # games created and connections open before the clock starts
        w.step()
    done = [0] * clients
    stop = time.monotonic() + seconds
    start = threading.Barrier(clients + 1)

    def run(i: int) -> None:
        start.wait()
        while time.monotonic() < stop:
            workers[i].step()
            done[i] += 1

    threads = [threading.Thread(target=run, args=(i,)) for i in range(clients)]
    for t in threads:
        t.start()
    t0 = time.monotonic()
    start.wait()
    for t in threads:
        t.join()
    return sum(done) / (time.monotonic() - t0)


def run(kind: str, before: Path, rounds: int, per_round: int, clients: int, seconds: float, tmp: Path,
        prefix: str = "cmdspeed") -> dict:
    with ExitStack() as stack:
        urls = {name: _database_url(kind, f"{prefix}_{name}", tmp) for name in ("before", "after", "minimal")}
        after_port, after_token = stack.enter_context(serve(HERE, "service.app:create_app()", urls["after"], tmp, "after"))
        before_port, before_token = stack.enter_context(
            serve(before, "service.app:create_app()", urls["before"], tmp, "before"))
        minimal_port, _ = stack.enter_context(serve(HERE, "bench.minimal_app:create_app()", urls["minimal"], tmp, "minimal"))
        targets = {"after": Player(after_port, after_token), "before": Player(before_port, before_token),
                   "minimal": Writer(minimal_port)}
        samples: dict[str, list[float]] = {name: [] for name in (*targets, "bare")}
        bare_url = _database_url(kind, f"{prefix}_bare", tmp)
        for name, target in targets.items():  # warm up: imports, pools, first games
            for _ in range(10):
                target.step()
        for r in range(rounds):
            for name, target in targets.items():
                samples[name].extend(target.step() for _ in range(per_round))
            floor = measure_floor(bare_url, n=per_round)
            samples["bare"].append(floor["p50_ms"] / 1000)  # one p50 per round, see below
            print(f"\r  {kind} latency round {r + 1}/{rounds}", end="", flush=True)
        print()
        latency = {name: summarize(s) for name, s in samples.items() if name != "bare"}
        latency["bare"] = {"p50_ms": sorted(samples["bare"])[len(samples["bare"]) // 2] * 1000}
        result = {"latency": latency}
        if clients:
            makers = {"after": lambda: Player(after_port, after_token), "before": lambda: Player(before_port, before_token),
                      "minimal": lambda: Writer(minimal_port)}
            rates: dict[str, list[float]] = {name: [] for name in makers}
            for _turn in range(2):
                for name, make in makers.items():
                    rates[name].append(throughput(make, clients, seconds))
                    print(f"  {kind} throughput {name}: {rates[name][-1]:.0f}/s", flush=True)
            result["throughput"] = {name: sum(v) / len(v) for name, v in rates.items()}
        return result


def _empty_broker() -> None:
    """Drop what the servers queued in ``--broker``'s database (no worker consumes it)."""
    if BROKER:
        import redis

        redis.Redis.from_url(BROKER).flushdb()


def _report(kind: str, result: dict, heading: str = "") -> None:
    lat = result["latency"]
    m = lat["minimal"]
    print(f"\n{kind}{heading}: bare INSERT+COMMIT p50 {lat['bare']['p50_ms']:.2f} ms; minimal Flask p50/p99 "
          f"{m['p50_ms']:.2f}/{m['p99_ms']:.2f} ms")
    for name in ("before", "after"):
        c = lat[name]
        print(f"  {name}: command p50/p99 {c['p50_ms']:.2f}/{c['p99_ms']:.2f} ms = "
              f"{c['p50_ms'] / m['p50_ms']:.2f}x/{c['p99_ms'] / m['p99_ms']:.2f}x the minimal endpoint, "
              f"p50 {c['p50_ms'] / lat['bare']['p50_ms']:.1f}x the bare write")
    if "throughput" in result:
        t = result["throughput"]
        print(f"  50 clients: minimal {t['minimal']:.0f}/s, before {t['before']:.1f}/s, after {t['after']:.1f}/s "
              f"(after/before {t['after'] / t['before']:.2f}x; after/minimal {t['after'] / t['minimal']:.3f}, "
              f"before/minimal {t['before'] / t['minimal']:.3f})")


def ratios(result: dict) -> dict[str, float]:
    """A run's figures as ratios: each tree's p50 and p99 over the minimal endpoint's, and
    (with the throughput) the two trees' rates."""
    lat = result["latency"]
    m = lat["minimal"]
    out = {f"{name}_{q}": lat[name][f"{q}_ms"] / m[f"{q}_ms"] for name in ("before", "after") for q in ("p50", "p99")}
    if "throughput" in result:
        t = result["throughput"]
        out["after_over_before"] = t["after"] / t["before"]
    return out


def _report_runs(kind: str, runs: list[dict]) -> dict[str, float]:
    """Each run's ratios in a line, then their medians (what the runs say together)."""
    each = [ratios(r) for r in runs]
    print(f"\n{kind}, {len(runs)} runs (new servers each), ratios to the minimal endpoint:")
    for i, r in enumerate(each, 1):
        line = (f"  run {i}: after p50/p99 {r['after_p50']:.2f}x/{r['after_p99']:.2f}x, "
                f"before {r['before_p50']:.2f}x/{r['before_p99']:.2f}x")
        if "after_over_before" in r:
            line += f", 50 clients after/before {r['after_over_before']:.2f}x"
        print(line)
    median = {key: statistics.median(r[key] for r in each) for key in each[0]}
    line = (f"  median: after p50/p99 {median['after_p50']:.2f}x/{median['after_p99']:.2f}x "
            f"(range {min(r['after_p50'] for r in each):.2f}-{max(r['after_p50'] for r in each):.2f}x / "
            f"{min(r['after_p99'] for r in each):.2f}-{max(r['after_p99'] for r in each):.2f}x), "
            f"before {median['before_p50']:.2f}x/{median['before_p99']:.2f}x")
    if "after_over_before" in median:
        line += f", 50 clients after/before {median['after_over_before']:.2f}x"
    print(line)
    return median


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--before", type=Path, required=True, help="a checkout of the code to compare against")
    parser.add_argument("--databases", default="sqlite,postgresql")
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--per-round", type=int, default=40)
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--runs", type=int, default=1,
                        help="whole measurements, each with new servers, and the median of their ratios "
                             "(a run's ratios move with the machine's state from one run to the next)")
    parser.add_argument("--broker", default=None,
                        help="a Redis database for the Capua servers, as production runs them (emptied before and after)")
    parser.add_argument("--database-prefix", default="cmdspeed",
                        help="PostgreSQL databases are capua_bench_<prefix>_<target> (one set per person measuring)")
    args = parser.parse_args()
    global BROKER
    BROKER = args.broker
    print(machine())
    if BROKER:
        print("Capua served with Redis:", BROKER)
    with open("/proc/loadavg") as fh:
        print("load average before:", fh.read().strip())
    results: dict[str, list[dict]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for kind in args.databases.split(","):
            clients = args.clients if kind == "postgresql" else 0
            results[kind] = []
            for i in range(args.runs):
                if args.runs > 1:
                    print(f"{kind}: run {i + 1}/{args.runs}", flush=True)
                _empty_broker()
                # a folder of its own for each run: SQLite's files (and their logs) and the servers'
                # instance folders are new, like the servers, and nothing of a run slows the next
                folder = Path(tmp) / f"{kind}-{i + 1}"
                folder.mkdir()
                try:
                    results[kind].append(run(kind, args.before.resolve(), args.rounds, args.per_round, clients,
                                             args.seconds, folder, args.database_prefix))
                finally:
                    _empty_broker()
    with open("/proc/loadavg") as fh:
        print("load average after:", fh.read().strip())
    out: dict[str, Any] = {}
    for kind, runs in results.items():
        for i, result in enumerate(runs, 1):
            _report(kind, result, f" (run {i}/{len(runs)})" if len(runs) > 1 else "")
        if len(runs) > 1:
            out[kind] = {"runs": runs, "median_ratios": _report_runs(kind, runs)}
        else:
            out[kind] = runs[0]
    print(json.dumps(out, indent=1, default=float))


if __name__ == "__main__":
    main()
