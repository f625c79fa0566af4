"""Random playouts per CPU-second: the pure engine, no database, random bots on every seat.

    nice .venv/bin/python -m bench.playouts                     # against the merge-base with main
    nice .venv/bin/python -m bench.playouts --against <ref>     # against any commit, branch or tag
    nice .venv/bin/python -m bench.playouts --quick --no-write  # a smoke run, printed only

The engine of ``<ref>`` (by default the commit this branch left ``main`` at, i.e. the
engine before the branch's changes; on ``main`` itself name the previous release) is
written to a temporary folder with ``git archive``.  Each engine plays the same seeded
games in its own subprocess, with only that engine importable, in rounds that alternate
which engine goes first, so both meet the same load on a shared machine.  Time is CPU
time of the playing alone (``time.process_time``; imports, a warm-up game and hashing the
logs are not counted).  Besides the ratio, every event of every game is hashed: equal
digests mean both engines made identical event logs for the same seeds.  The section
"Engine playouts" of ``bench/RESULTS.md`` is rewritten with the figures.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench.common import machine, publish
from engine import registry
from engine.core.playout import play_out

ROOT = Path(__file__).resolve().parents[1]
SECTION = "Engine playouts"

#: game, seats, seeds per round (about a second of CPU per round and engine before the speed-up)
GAMES = (("pax", 4, 40), ("rom", 4, 30), ("spartacus", 4, 2))


def measure_playouts(game: str, seats: int, seconds: float = 5.0, options: dict | None = None) -> dict:
    """Playouts per wall-clock second of the engine imported here (the foundation table)."""
    rules = registry.get(game)
    games = events = 0
    seed = 0
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        state = rules.initial_state(seats, dict(options or {}))
        _, log = play_out(rules, state, random.Random(seed))
        seed += 1
        games += 1
        events += len(log)
    elapsed = time.perf_counter() - t0
    return {"game": game, "seats": seats, "games": games, "games_per_s": games / elapsed,
            "events_per_game": events / games}


#: Run in a subprocess whose only importable engine is the one under test.
_WORKER = r"""
import hashlib, json, random, sys, time
import engine
from engine import registry
from engine.core.playout import play_out

game, seats, seeds = sys.argv[1], int(sys.argv[2]), [int(s) for s in sys.argv[3].split(",")]
rules = registry.get(game)
play_out(rules, rules.initial_state(seats, {}), random.Random(-1))  # warm-up: imports, card data
digest = hashlib.sha256()
cpu = 0.0
events = 0
for seed in seeds:
    state = rules.initial_state(seats, {})
    t0 = time.process_time()
    _, log = play_out(rules, state, random.Random(seed))
    cpu += time.process_time() - t0
    events += len(log)
    for event in log:
        digest.update(json.dumps(event.to_json(), sort_keys=True, default=repr).encode())
print(json.dumps({"engine": engine.__file__, "cpu": cpu, "games": len(seeds), "events": events,
                  "digest": digest.hexdigest()}))
"""


def run_worker(root: Path, game: str, seats: int, seeds: list[int]) -> dict:
    """Play ``seeds`` with the engine found under ``root``; CPU seconds, events, log digest."""
    env = {**os.environ, "PYTHONPATH": str(root)}
    out = subprocess.run([sys.executable, "-c", _WORKER, game, str(seats), ",".join(map(str, seeds))],
                         cwd=root, env=env, capture_output=True, text=True, check=True)
    result = json.loads(out.stdout.strip().splitlines()[-1])
    if not Path(result["engine"]).resolve().is_relative_to(root.resolve()):
        raise RuntimeError(f"the worker for {root} imported {result['engine']}")
    return result


def default_ref() -> str:
    """The commit this branch left ``main`` at; refused on ``main`` itself (name a release)."""
    base = _git("merge-base", "HEAD", "main")
    if base == _git("rev-parse", "HEAD"):
        raise SystemExit("HEAD is main: pass --against <ref> (the previous release) to compare with")
    return base


def _git(*args: str) -> str:
    return subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True, check=True).stdout.strip()


def checkout_engine(ref: str, into: Path) -> None:
    """``engine/`` as it was at ``ref``, written under ``into``."""
    archive = subprocess.run(["git", "archive", ref, "engine"], cwd=ROOT, capture_output=True, check=True)
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive.stdout, check=True)


def compare(ref_root: Path, games=GAMES, rounds: int = 3) -> list[dict]:
    """Both engines on the same seeds, interleaved; one row per game."""
    rows = []
    for game, seats, per_round in games:
        totals = {"before": {"cpu": 0.0, "games": 0, "events": 0, "digests": []},
                  "now": {"cpu": 0.0, "games": 0, "events": 0, "digests": []}}
        for r in range(rounds):
            seeds = list(range(r * per_round, (r + 1) * per_round))
            order = (("before", ref_root), ("now", ROOT))
            for label, root in (order if r % 2 == 0 else order[::-1]):
                res = run_worker(root, game, seats, seeds)
                t = totals[label]
                t["cpu"] += res["cpu"]
                t["games"] += res["games"]
                t["events"] += res["events"]
                t["digests"].append(res["digest"])
            print(f"\r  {game} {seats}p: round {r + 1}/{rounds}", end="", flush=True)
        print()
        before, now = (totals[k]["games"] / totals[k]["cpu"] for k in ("before", "now"))
        rows.append({
            "game": game, "seats": seats, "games": totals["now"]["games"],
            "before": before, "now": now, "ratio": now / before,
            "events_per_game": totals["now"]["events"] / totals["now"]["games"],
            "identical_logs": totals["before"]["digests"] == totals["now"]["digests"],
        })
        row = rows[-1]
        print(f"  {game} {seats}p: {row['before']:.1f} -> {row['now']:.1f} games per CPU-second "
              f"({row['ratio']:.2f}x), event logs {'identical' if row['identical_logs'] else 'DIFFER'}")
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--against", help="git ref of the previous engine (default: the merge-base with main)")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--games", help="game:seats:seeds per round, comma-separated (default: "
                        + ",".join(f"{g}:{n}:{k}" for g, n, k in GAMES) + ")")
    parser.add_argument("--quick", action="store_true", help="one round (a smoke run; not for RESULTS.md)")
    parser.add_argument("--no-write", action="store_true", help="print only")
    args = parser.parse_args()
    ref = args.against or default_ref()
    label = _git("rev-parse", "--short", ref)
    load_before = os.getloadavg()[0]
    with tempfile.TemporaryDirectory() as tmp:
        checkout_engine(ref, Path(tmp))
        print(f"== playouts per CPU-second: this tree against {ref} ({label})")
        games = GAMES
        if args.games:
            games = tuple((g, int(n), int(k)) for g, n, k in (item.split(":") for item in args.games.split(",")))
        rows = compare(Path(tmp), games, rounds=1 if args.quick else args.rounds)
    lines = [
        f"| {r['game']} | {r['seats']} | {r['games']} | {r['before']:.1f} | {r['now']:.1f} | "
        f"**{r['ratio']:.2f}x** | {r['events_per_game']:.0f} | {'identical' if r['identical_logs'] else 'differ'} |"
        for r in rows
    ]
    body = "\n".join([
        f"## {SECTION}",
        "",
        f"Measured {dt.date.today().isoformat()} on {machine()} with `nice python -m bench.playouts`"
        + (" (quick)" if args.quick else "") + f" against the engine of `{label}`; 1-minute load average"
        f" {load_before:.1f} at the start and {os.getloadavg()[0]:.1f} at the end.",
        "",
        "Random bots on every seat play the same seeded games with each engine, each engine in",
        "its own subprocess, in alternating rounds; figures are games per CPU-second of the",
        "playing alone. *Event logs* compares a digest of every event of every game.",
        "",
        "| game | seats | games each | before, games per CPU-s | now, games per CPU-s | ratio | events per game | event logs |",
        "|---|---|---|---|---|---|---|---|",
        *lines,
        "",
    ])
    publish(SECTION, body, write=not args.no_write)


if __name__ == "__main__":
    main()
