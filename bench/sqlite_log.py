"""How long SQLite's write-ahead log grows under a steady stream of commands.

Capua from this tree (and from another given with ``--before``) is served on a SQLite file
as ``bench.command_floor`` serves it (the Procfile's gunicorn settings), and ``--clients``
players (``bench.command_floor``'s) play 2-seat PAX games against the random bot as fast as
the answers come, for ``--seconds``.  Meanwhile the log file (``<database>-wal``) is
measured every half second.  Printed per tree and run: commands per second, and the log
file's largest and last size.  The log starts from its beginning only when a writer begins
while every page of it has been copied back and nobody reads it
(:mod:`service.plumbing.wal`); a log that keeps growing never did.

``python -m bench.sqlite_log [--before /path/to/other-checkout] [--seconds 20] [--runs 2]
[--clients 50]``
"""

from __future__ import annotations

import argparse
import os
import tempfile
import threading
import time
from pathlib import Path

from bench import command_floor
from bench.command_floor import HERE, Player
from bench.common import machine


def measure(tree: Path, name: str, clients: int, seconds: float) -> dict:
    """Serve ``tree`` on a new SQLite file and play for ``seconds``: the rate and the log's sizes."""
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        url = command_floor._database_url("sqlite", f"log_{name}", tmp)
        log_file = url[len("sqlite:///"):] + "-wal"
        with command_floor.serve(tree, "service.app:create_app()", url, tmp, name) as (port, token):
            sizes: list[int] = []
            stop = threading.Event()

            def watch() -> None:
                while not stop.is_set():
                    try:
                        sizes.append(os.path.getsize(log_file))
                    except FileNotFoundError:
                        pass
                    time.sleep(0.5)

            watcher = threading.Thread(target=watch, daemon=True)
            watcher.start()
            try:
                rate = command_floor.throughput(lambda: Player(port, token), clients, seconds)
            finally:
                stop.set()
                watcher.join()
    return {"rate": rate, "largest_mib": max(sizes, default=0) / 2**20, "last_mib": (sizes or [0])[-1] / 2**20}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--before", type=Path, help="another checkout to measure alongside this one")
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--runs", type=int, default=2)
    parser.add_argument("--clients", type=int, default=50)
    args = parser.parse_args()
    print(machine())
    trees = {"this tree": HERE}
    if args.before:
        trees = {"before": args.before.resolve(), **trees}
    for run in range(args.runs):
        for name, tree in trees.items():
            result = measure(tree, name.replace(" ", "_"), args.clients, args.seconds)
            print(f"run {run + 1}, {name}: {result['rate']:.0f} commands per s over {args.seconds:.0f} s; "
                  f"the log file at most {result['largest_mib']:.1f} MiB, at the end {result['last_mib']:.1f} MiB",
                  flush=True)


if __name__ == "__main__":
    main()
