"""Where a served command's CPU goes: cProfile inside a gunicorn worker.

One gunicorn worker with one thread (``bench/gunicorn_profile.py``: the Procfile's hooks
plus cProfile around each command request) serves this tree; one client plays 2-seat
PAX games against a bot (``bench.command_floor``'s player) for ``--commands`` commands;
then the worker's profile is printed, by own time and by cumulative time.

``python -m bench.served_profile [--database sqlite|postgresql] [--commands 300] [--top 40] [--save FILE]
[--tree CHECKOUT] [--cpu]``
"""

from __future__ import annotations

import argparse
import pstats
import tempfile
from pathlib import Path

from bench import command_floor
from bench.command_floor import HERE, Player

PROFILE_CONF = ["-c", str(HERE / "bench" / "gunicorn_profile.py"), "--workers", "1", "--threads", "1"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--database", choices=("sqlite", "postgresql"), default="sqlite")
    parser.add_argument("--commands", type=int, default=300)
    parser.add_argument("--top", type=int, default=40)
    parser.add_argument("--database-prefix", default="profile")
    parser.add_argument("--tree", type=Path, default=HERE, help="the checkout to serve (default: this one)")
    parser.add_argument("--cpu", action="store_true",
                        help="count the worker thread's CPU time, not the wall clock (waits for the database drop out)")
    parser.add_argument("--save", type=Path, help="also write the merged profile here (for pstats)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        with command_floor.serve_instrumented(args.tree, args.database, args.database_prefix, tmp, "profile",
                                              PROFILE_CONF, {"BENCH_PROFILE_DIR": str(tmp),
                                                             "BENCH_PROFILE_CPU": "1" if args.cpu else "0"}) as (port, token):
            player = Player(port, token)
            times = [player.step() for _ in range(args.commands)]
        profiles = sorted(tmp.glob("worker-*.prof"))
        stats = pstats.Stats(*map(str, profiles))
        if args.save:
            stats.dump_stats(str(args.save))
        print(f"{stats.total_calls / args.commands:,.0f} Python function calls per command")
        print(f"{args.commands} commands, wall p50 {sorted(times)[len(times) // 2] * 1000:.2f} ms "
              f"(profiled: slower than served)")
        stats.sort_stats("tottime").print_stats(args.top)
        stats.sort_stats("cumulative").print_stats(args.top)


if __name__ == "__main__":
    main()
