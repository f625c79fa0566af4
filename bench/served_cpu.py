"""Where a served command's time goes, process by process, against the minimal endpoint.

Capua from this tree and the minimal Flask app of :mod:`bench.minimal_app` are served as
``bench.command_floor`` serves them (the Procfile's gunicorn settings, kept-alive HTTP,
a database of their own of the kind asked for).  One client plays 2-seat PAX games
against a bot (``bench.command_floor``'s player) or writes to the minimal endpoint; the
two take turns in rounds of ``--per-round`` requests, so a change in the machine's
speed meets both alike.  Around each round the CPU time of every process involved is
read from ``/proc`` (so PostgreSQL must run on this machine):

- **server**: the gunicorn workers (every thread: parsing, the app, the driver, the
  answer's writing);
- **database**: PostgreSQL's backends serving that database (none on SQLite, whose work
  is the server's);
- **client**: this process (sending, waiting, reading the answer).

Per request it prints the client's p50 latency (of the timed requests alone, as
``bench.command_floor`` times them), then the round's wall time, each process's CPU and
what is left, all divided by the requests of the round (so Capua's include the new
games the player starts along the way, one in about 65 requests): what is left is the time no
process of these was on a CPU for the request (waiting on each other's wake-ups, the
disk's flush of the COMMIT, the machine), which may come out below zero when the server
and the database work at the same time.  Each is also divided by the minimal endpoint's.
Wall-clock latency on a shared machine moves with the load; the CPU a request costs
moves less, and the split says which side of the wire a change has to work on.

``python -m bench.served_cpu [--databases sqlite,postgresql] [--rounds 10] [--per-round 50]``
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time
from contextlib import ExitStack
from pathlib import Path

from sqlalchemy import create_engine, text

from bench.command_floor import HERE, POSTGRES, Player, Writer, _database_url, serve
from bench.common import machine

_TICKS = os.sysconf("SC_CLK_TCK")


def _stat(pid: int) -> list[str]:
    """The fields of ``/proc/<pid>/stat`` after the command's name (the state first); none
    once the process is gone."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()
    except OSError:
        return []


def _cpu(pid: int) -> float:
    """Seconds of CPU (user and system, every thread) of process ``pid``; 0 once it is gone."""
    fields = _stat(pid)
    return (int(fields[11]) + int(fields[12])) / _TICKS if fields else 0.0


def _children(pid: int) -> list[int]:
    """The processes whose parent is ``pid`` (gunicorn's workers of its arbiter)."""
    return [int(entry) for entry in os.listdir("/proc")
            if entry.isdigit() and (fields := _stat(int(entry))) and int(fields[1]) == pid]


def _arbiter(port: int) -> int:
    """The gunicorn arbiter listening on ``port`` (its command line names the bind)."""
    bind = f"127.0.0.1:{port}".encode()
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/cmdline", "rb") as f:
                    cmdline = f.read()
            except OSError:
                continue
            if bind in cmdline and b"gunicorn" in cmdline and int(entry) != os.getpid():
                if _children(int(entry)):  # the arbiter, not one of its workers
                    return int(entry)
    raise RuntimeError(f"no gunicorn arbiter on port {port}")


class Backends:
    """The PostgreSQL backends serving database ``name``, asked again each round."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.admin = create_engine(POSTGRES + "postgres", isolation_level="AUTOCOMMIT")

    def pids(self) -> list[int]:
        with self.admin.connect() as conn:
            return [pid for (pid,) in conn.execute(
                text("SELECT pid FROM pg_stat_activity WHERE datname = :n"), {"n": self.name})]


def measure(kind: str, rounds: int, per_round: int, tmp: Path) -> dict:
    with ExitStack() as stack:
        urls = {name: _database_url(kind, f"servedcpu_{name}", tmp) for name in ("capua", "minimal")}
        capua_port, token = stack.enter_context(serve(HERE, "service.app:create_app()", urls["capua"], tmp, "capua"))
        minimal_port, _ = stack.enter_context(serve(HERE, "bench.minimal_app:create_app()", urls["minimal"], tmp,
                                                    "minimal"))
        targets = {"capua": (Player(capua_port, token), _arbiter(capua_port)),
                   "minimal": (Writer(minimal_port), _arbiter(minimal_port))}
        backends = {name: Backends(url.rsplit("/", 1)[1]) if kind == "postgresql" else None
                    for name, url in urls.items()}
        totals = {name: {"wall": 0.0, "server": 0.0, "database": 0.0, "client": 0.0, "n": 0, "latency": []}
                  for name in targets}
        for target, _arbiter_pid in targets.values():  # warm up: imports, pools, first games
            for _ in range(20):
                target.step()
        for r in range(rounds):
            for name, (target, arbiter) in targets.items():
                workers = _children(arbiter)
                db_pids = backends[name].pids() if backends[name] else []
                server0 = sum(_cpu(p) for p in workers)
                db0 = {p: _cpu(p) for p in db_pids}
                client0, wall0 = time.process_time(), time.perf_counter()
                latency = [target.step() for _ in range(per_round)]
                wall = time.perf_counter() - wall0
                client = time.process_time() - client0
                server = sum(_cpu(p) for p in workers) - server0
                database = sum(_cpu(p) - before for p, before in db0.items())
                t = totals[name]
                t["wall"] += wall
                t["server"] += server
                t["database"] += database
                t["client"] += client
                t["n"] += per_round
                t["latency"] += latency
            print(f"\r  {kind} round {r + 1}/{rounds}", end="", flush=True)
        print()
        for b in backends.values():
            if b is not None:
                b.admin.dispose()
    result = {}
    for name, t in totals.items():
        n = t["n"]
        row = {key: t[key] / n * 1000 for key in ("wall", "server", "database", "client")}
        row["rest"] = row["wall"] - row["server"] - row["database"] - row["client"]
        row["p50"] = statistics.median(t["latency"]) * 1000
        result[name] = row
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--databases", default="sqlite,postgresql")
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--per-round", type=int, default=50)
    args = parser.parse_args()
    print(machine())
    with tempfile.TemporaryDirectory() as tmp_name:
        for kind in args.databases.split(","):
            result = measure(kind, args.rounds, args.per_round, Path(tmp_name))
            capua, minimal = result["capua"], result["minimal"]
            print(f"{kind}: ms per request (the client's p50 latency first; CPU by process; 'rest' is wall less CPU)")
            print(f"  {'':8s} {'p50':>6s} {'wall':>6s} {'server':>7s} {'database':>9s} {'client':>7s} {'rest':>6s}")
            for name, row in (("capua", capua), ("minimal", minimal)):
                print(f"  {name:8s} {row['p50']:6.2f} {row['wall']:6.2f} {row['server']:7.2f} {row['database']:9.2f} "
                      f"{row['client']:7.2f} {row['rest']:6.2f}")
            ratios = {key: capua[key] / minimal[key] if minimal[key] > 0.005 else float("nan")
                      for key in ("p50", "wall", "server", "database", "client")}
            cpu = sum(capua[k] for k in ("server", "database", "client"))
            cpu_min = sum(minimal[k] for k in ("server", "database", "client"))
            print(f"  {'ratio':8s} {ratios['p50']:5.2f}x {ratios['wall']:5.2f}x {ratios['server']:6.2f}x "
                  f"{ratios['database']:8.2f}x {ratios['client']:6.2f}x;  all CPU {cpu:.2f} / {cpu_min:.2f} ms = "
                  f"{cpu / cpu_min:.2f}x")


if __name__ == "__main__":
    main()
