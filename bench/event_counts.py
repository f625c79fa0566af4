"""Events per game: the same seeded random games with this engine and an earlier one.

    nice .venv/bin/python -m bench.event_counts                      # against the merge-base with main
    nice .venv/bin/python -m bench.event_counts --against <ref> --games spartacus:4:20,spartacus_arena:2:200

Counted, not timed: each engine (the earlier one written to a temporary folder with
``git archive``, as :mod:`bench.playouts` does) plays seeds ``0..n-1`` in its own
subprocess; printed are the mean and standard deviation of the events per game and the
types whose count changed.  Nothing is written to ``bench/RESULTS.md``.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from bench.playouts import ROOT, checkout_engine, default_ref

GAMES = (("spartacus", 4, 20), ("spartacus_arena", 2, 200))

_WORKER = r"""
import collections, json, random, statistics, sys
import engine
from engine import registry
from engine.core.playout import play_out

game, seats, n = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
rules = registry.get(game)
counts, types = [], collections.Counter()
for seed in range(n):
    _, log = play_out(rules, rules.initial_state(seats, {}), random.Random(seed))
    counts.append(len(log))
    types.update(e.type for e in log)
print(json.dumps({"engine": engine.__file__, "mean": statistics.mean(counts),
                  "sd": statistics.stdev(counts) if n > 1 else 0.0, "types": {t: c / n for t, c in types.items()}}))
"""


def count(root: Path, game: str, seats: int, games: int) -> dict:
    env = {**os.environ, "PYTHONPATH": str(root)}
    out = subprocess.run([sys.executable, "-c", _WORKER, game, str(seats), str(games)], cwd=root, env=env,
                         capture_output=True, text=True, check=True)
    result = json.loads(out.stdout.strip().splitlines()[-1])
    if not Path(result["engine"]).resolve().is_relative_to(root.resolve()):
        raise RuntimeError(f"the worker for {root} imported {result['engine']}")
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--against", help="git ref of the earlier engine (default: the merge-base with main)")
    parser.add_argument("--games", help="game:seats:games, comma-separated (default: "
                        + ",".join(f"{g}:{n}:{k}" for g, n, k in GAMES) + ")")
    args = parser.parse_args()
    ref = args.against or default_ref()
    games = GAMES
    if args.games:
        games = tuple((g, int(n), int(k)) for g, n, k in (item.split(":") for item in args.games.split(",")))
    with tempfile.TemporaryDirectory() as tmp:
        checkout_engine(ref, Path(tmp))
        print(f"== events per game: this tree against {ref}")
        for game, seats, n in games:
            before, now = count(Path(tmp), game, seats, n), count(ROOT, game, seats, n)
            change = now["mean"] / before["mean"] - 1
            print(f"  {game} {seats}p, seeds 0-{n - 1}: {before['mean']:.1f} (sd {before['sd']:.0f}) -> "
                  f"{now['mean']:.1f} (sd {now['sd']:.0f}) events per game, {change:+.1%}")
            for t in sorted(set(before["types"]) | set(now["types"])):
                b, a = before["types"].get(t, 0.0), now["types"].get(t, 0.0)
                if abs(a - b) > 1e-9:
                    print(f"    {t}: {b:.2f} -> {a:.2f}")


if __name__ == "__main__":
    main()
