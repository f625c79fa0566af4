"""Which served commands are slow, and why: the tail of the command's latency, explained.

One client plays 2-seat PAX games against a ``random`` bot (``bench.command_floor``'s
player) through gunicorn under the Procfile's settings plus ``bench/gunicorn_tail.py``,
which records, per command, the worker's time, the garbage collector's passes, the events
appended, whether a snapshot was written, and the time in the state's
load, the engine with the bot's reply, the append, the notification rows and the commit.
The client adds what it sees: the round trip, the command's type, whether it was the
first of a game or ended one.  Printed: the slowest ``--tail`` per cent one by one, and
p50 / p99 of the round trip by what may explain it.

``python -m bench.command_tail [--database sqlite|postgresql] [--commands 2000] [--tree CHECKOUT]
[--database-prefix NAME] [--tail 5] [--save FILE]``
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from pathlib import Path

from bench import command_floor
from bench.command_floor import HERE, Player
from bench.common import percentile

TAIL_CONF = ["-c", str(HERE / "bench" / "gunicorn_tail.py")]


class TracedPlayer(Player):
    """The floor's player, numbering its commands and noting what each one was."""

    def __init__(self, port: int, token: str) -> None:
        super().__init__(port, token)
        self.seq = 0
        self.log: list[dict] = []

    def step(self) -> float:
        body = self._body() if self.game_id else None
        self.seq += 1
        self.client.headers["X-Bench-Seq"] = str(self.seq)
        new_game = body is None
        if new_game:  # as Player.step would: the next game, before the clock starts
            while body is None:
                self._new_game()
                body = self._body()
        elapsed = self._timed(body)
        self.log.append({"seq": str(self.seq), "wall_ms": elapsed * 1000, "type": body["type"],
                         "first": new_game, "ended": self._ended})
        return elapsed

    def _timed(self, body: dict) -> float:
        t0 = time.perf_counter()
        status, answer = self.client.call("POST", f"/api/v1/games/{self.game_id}/commands", body)
        elapsed = time.perf_counter() - t0
        assert status == 200, (status, answer)
        self.decisions = answer["decisions"]
        self._ended = answer.get("outcome") is not None
        return elapsed


def _row(r: dict) -> str:
    gc_text = " ".join(f"g{g}:{ms:.1f}" for g, ms, _ in r.get("gc", [])) or "-"
    marks = [m for m, on in (("FIRST", r["first"]), ("END", r["ended"]), ("SNAP", r.get("snapshot_ms"))) if on]
    return (f"{r['wall_ms']:7.2f} {r.get('server_ms', 0):7.2f} {r.get('server_cpu_ms', 0):6.2f} {r.get('load_ms', 0):5.2f} {r.get('autoplay_ms', 0):6.2f} "
            f"{r.get('append_ms', 0):6.2f} {r.get('snapshot_ms', 0):5.2f} {r.get('fanout_ms', 0):5.2f} "
            f"{r.get('commit_ms', 0):6.2f} {r.get('commit_cpu_ms', 0):5.2f} {r.get('events', 0):4d} {r.get('version', 0):5d} {r['type']:<14.14} "
            f"{','.join(marks):<14} gc {gc_text}")


def _groups(rows: list[dict]) -> dict[str, list[dict]]:
    return {
        "all": rows,
        "snapshot written": [r for r in rows if r.get("snapshot_ms")],
        "no snapshot": [r for r in rows if not r.get("snapshot_ms")],
        "first of a game": [r for r in rows if r["first"]],
        "ends a game": [r for r in rows if r["ended"]],
        "a gen-2 collection": [r for r in rows if any(g == 2 for g, _, _ in r.get("gc", []))],
        "a gen-0/1 collection only": [r for r in rows if r.get("gc") and all(g < 2 for g, _, _ in r["gc"])],
        "no collection": [r for r in rows if not r.get("gc")],
        "a connection opened": [r for r in rows if r.get("connects")],
        "<= 3 events": [r for r in rows if r.get("events", 0) <= 3],
        "4-8 events": [r for r in rows if 4 <= r.get("events", 0) <= 8],
        "> 8 events": [r for r in rows if r.get("events", 0) > 8],
        "none of the above (plain)": [r for r in rows if not r.get("snapshot_ms") and not r["first"] and not r["ended"]
                                      and not r.get("gc") and not r.get("connects")],
    }


def report(rows: list[dict], tail: float, key: str = "wall_ms", label: str = "round trip") -> None:
    """The slowest ``tail`` per cent by ``key`` and p50 / p99 of ``key`` by kind."""
    rows = sorted(rows, key=lambda r: r.get(key, 0.0))
    walls = [r.get(key, 0.0) for r in rows]
    p50, p95, p99 = (percentile(walls, q) for q in (50, 95, 99))
    print(f"\n=== {label}: {len(rows)} commands, p50 {p50:.2f} ms, p95 {p95:.2f}, p99 {p99:.2f}, max {walls[-1]:.2f}")
    print(f"By kind ({label} ms; share of the slowest {tail:g} %):")
    slow = rows[-max(1, round(len(rows) * tail / 100)):]
    slow_ids = {id(r) for r in slow}
    for name, group in _groups(rows).items():
        if not group:
            continue
        w = [r.get(key, 0.0) for r in group]
        in_tail = sum(1 for r in group if id(r) in slow_ids)
        print(f"  {name:<28} n {len(group):5d} p50 {percentile(w, 50):6.2f} p99 {percentile(w, 99):6.2f} "
              f"in tail {in_tail:4d} ({in_tail / len(slow) * 100:5.1f} % of it; {in_tail / len(group) * 100:5.1f} % of kind)")
    types: dict[str, list[float]] = {}
    for r in rows:
        types.setdefault(r["type"], []).append(r.get(key, 0.0))
    print("By command type:")
    for t, w in sorted(types.items(), key=lambda kv: -len(kv[1])):
        print(f"  {t:<28} n {len(w):5d} p50 {percentile(w, 50):6.2f} p99 {percentile(w, 99):6.2f}")
    print(f"The slowest {tail:g} % ({len(slow)}):")
    print("   wall  server    cpu  load autopl append  snap fanout commit  cpu   evs  vers type           marks")
    for r in reversed(slow):
        print(_row(r))


def summary(rows: list[dict]) -> None:
    """The garbage collector's passes and the snapshots over the whole run."""
    gen_pauses: dict[int, list[float]] = {}
    for r in rows:
        for g, ms, _ in r.get("gc", []):
            gen_pauses.setdefault(g, []).append(ms)
    print("\nGC passes during commands:", ", ".join(
        f"gen {g}: {len(v)} (p50 {percentile(v, 50):.2f} ms, max {max(v):.2f})" for g, v in sorted(gen_pauses.items()))
        or "none")
    between: dict[int, list[float]] = {}
    for r in rows:
        for g, ms, _ in r.get("gc_between", []):
            between.setdefault(g, []).append(ms)
    print("GC passes between commands:", ", ".join(
        f"gen {g}: {len(v)} (p50 {percentile(v, 50):.2f} ms, max {max(v):.2f})" for g, v in sorted(between.items()))
        or "none")
    inside = sum(ms for r in rows for _, ms, _ in r.get("gc", []))
    outside = sum(ms for r in rows for _, ms, _ in r.get("gc_between", []))
    print(f"GC time per command: {inside / len(rows):.3f} ms inside, {outside / len(rows):.3f} ms between")
    snaps = [r for r in rows if r.get("snapshot_ms")]
    if snaps:
        print(f"Snapshots: {len(snaps)}, write p50 {percentile([r['snapshot_ms'] for r in snaps], 50):.2f} ms")
    commits = [r["commit_ms"] - r.get("commit_cpu_ms", 0) for r in rows if "commit_ms" in r]
    if commits:
        print(f"Commit waiting (wall - CPU): p50 {percentile(commits, 50):.2f} ms, p99 {percentile(commits, 99):.2f}, "
              f"over 2 ms: {sum(c > 2 for c in commits)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--database", choices=("sqlite", "postgresql"), default="sqlite")
    parser.add_argument("--commands", type=int, default=2000)
    parser.add_argument("--warmup", type=int, default=50)
    parser.add_argument("--tail", type=float, default=5.0, help="per cent of the slowest commands to list")
    parser.add_argument("--database-prefix", default="tail")
    parser.add_argument("--tree", type=Path, default=HERE, help="the checkout to serve (default: this one)")
    parser.add_argument("--sqlite-pragmas", default="",
                        help='extra PRAGMAs on the server\'s SQLite connections, "name=value;...", to try one')
    parser.add_argument("--gc-threshold", default="",
                        help='gc.set_threshold for the server\'s workers after start-up, "g0,g1,g2", to try one')
    parser.add_argument("--save", type=Path, help="also write the joined records here (JSON lines)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        env = {"BENCH_TAIL_DIR": str(tmp), "BENCH_TAIL_SQLITE_PRAGMAS": args.sqlite_pragmas,
               "BENCH_TAIL_GC_THRESHOLD": args.gc_threshold}
        with command_floor.serve_instrumented(args.tree, args.database, args.database_prefix, tmp, "tail",
                                              TAIL_CONF, env) as (port, token):
            player = TracedPlayer(port, token)
            for _ in range(args.warmup):
                player.step()
            player.log.clear()
            for _ in range(args.commands):
                player.step()
        server = {}
        for path in tmp.glob("worker-*.jsonl"):
            for line in path.read_text().splitlines():
                record = json.loads(line)
                server[record.pop("seq")] = record
    rows = [{**server.get(r["seq"], {}), **r} for r in player.log]
    if args.save:
        args.save.write_text("".join(json.dumps(r) + "\n" for r in rows))
    summary(rows)
    report(rows, args.tail)
    report(rows, args.tail, "server_cpu_ms", "worker CPU")


if __name__ == "__main__":
    main()
