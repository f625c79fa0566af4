"""Committed gold over many whole Spartacus games: the sweep the suite's invariant test
(``tests/spartacus_game/test_committed_gold_invariant.py``) is too slow to run in full.

Random games of 3 and 4 players with gifts, trades, withdrawals and support requests at
every legal moment, each to its end (or cut after ``--rounds``); after every step the test's
checks run (gold set aside never exceeds the purse, every committed payment and every
card's gold cost is made in full, every blocking decision's default is legal).  A failed
check stops the run with the seed that failed.  The figures replace the section
"Committed gold" of ``bench/RESULTS.md``.

    .venv/bin/python -m bench.committed_gold                  # 2,000 whole games (~14 CPU-minutes)
    .venv/bin/python -m bench.committed_gold --games 50 --no-write
"""

from __future__ import annotations

import argparse
import time

from bench.common import machine, publish
from tests.spartacus_game.test_committed_gold_invariant import Ledger, play_one


def sweep(games: int, rounds: int, first_seed: int = 0, *, progress: bool = True) -> dict:
    ledger = Ledger()
    steps = free = 0
    t0 = time.process_time()
    for seed in range(first_seed, first_seed + games):
        s, f = play_one(seed, ledger, rounds)
        steps += s
        free += f
        if progress and (seed - first_seed) % 100 == 99:
            print(f"{seed - first_seed + 1} games, {steps} steps, {time.process_time() - t0:.0f} CPU-s", flush=True)
    cpu = time.process_time() - t0
    return {"games": games, "rounds": rounds, "seeds": (first_seed, first_seed + games - 1), "steps": steps,
            "free": free, "commitments": ledger.checked, "costs": ledger.costs_checked, "cpu": cpu}


def section(result: dict) -> str:
    cut = "to its end" if not result["rounds"] else f"cut after round {result['rounds']}"
    lo, hi = result["seeds"]
    return "\n".join([
        "## Committed gold",
        "",
        f"Measured {time.strftime('%Y-%m-%d')} on {machine()} with `nice python -m bench.committed_gold`.",
        "",
        f"{result['games']:,} random Spartacus games (seeds {lo}-{hi}, 3 and 4 players), each {cut}, with gifts,",
        "trades, withdrawals and support requests at every legal moment; after every step the invariant",
        "test's checks ran. **No payment fell short of its commitment, no card's gold cost was paid in",
        "part, and every blocking decision's default was legal.**",
        "",
        "| games | steps | free actions | committed payments checked | card gold costs checked | CPU-s | ms per step |",
        "|---|---|---|---|---|---|---|",
        f"| {result['games']:,} | {result['steps']:,} | {result['free']:,} | {result['commitments']:,} | "
        f"{result['costs']:,} | {result['cpu']:.0f} | {1000 * result['cpu'] / max(1, result['steps']):.3f} |",
    ])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=0, help="cut each game after this round (0: play it out)")
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument("--no-write", action="store_true")
    args = parser.parse_args()
    result = sweep(args.games, args.rounds, args.first_seed)
    publish("Committed gold", section(result), write=not args.no_write)


if __name__ == "__main__":
    main()
