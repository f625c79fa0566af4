"""Where a served command's CPU goes, part by part, without a profiler.

One client plays 2-seat PAX games against a ``random`` bot (``bench.command_floor``'s
player) through gunicorn under the Procfile's settings plus ``bench/gunicorn_parts.py``,
which adds up, per command, the worker thread's CPU time in the command's parts (the
Flask hooks, the idempotency claim and commit, the game's read, the engine with the bot's
reply, the append, the open decisions, the notification rows...) and in each SQL statement
or round trip Capua sends itself.  Printed: each part's mean CPU per command and its share
of the served command's.

cProfile (``bench.served_profile``) weighs a part by its Python calls, so a part made of
many small calls looks heavier than it is; this takes the thread's own clock around a
few dozen parts instead, and costs only that.

``python -m bench.served_parts [--database sqlite|postgresql] [--commands 3000] [--tree CHECKOUT]``
"""

from __future__ import annotations

import argparse
import json
import tempfile
from pathlib import Path

from bench import command_floor
from bench.command_floor import HERE, Player
from bench.common import machine, percentile

PARTS_CONF = ["-c", str(HERE / "bench" / "gunicorn_parts.py")]
SERVED = "served (parsing, the app, the answer written)"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--database", choices=("sqlite", "postgresql"), default="sqlite")
    parser.add_argument("--commands", type=int, default=3000)
    parser.add_argument("--database-prefix", default="parts")
    parser.add_argument("--tree", type=Path, default=HERE, help="the checkout to serve (default: this one)")
    args = parser.parse_args()
    print(machine())
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        with command_floor.serve_instrumented(args.tree, args.database, args.database_prefix, tmp, "parts",
                                              PARTS_CONF, {"BENCH_PARTS_DIR": str(tmp)}) as (port, token):
            player = Player(port, token)
            times = []
            for i in range(args.commands):
                times.append(player.step())
                if (i + 1) % 100 == 0:
                    print(f"\r  commands: {i + 1}/{args.commands}", end="", flush=True)
            print()
        commands, sums = 0, {}
        for path in sorted(tmp.glob("worker-*.json")):
            data = json.loads(path.read_text())
            commands += data["commands"]
            for name, ms in data["ms"].items():
                sums[name] = sums.get(name, 0.0) + ms
    if not commands:
        raise SystemExit("no worker wrote its sums")
    served = sums.get(SERVED, 0.0) / commands
    print(f"{args.database}: {commands} commands counted of {len(times)}; round trip at the client "
          f"p50 {percentile(times, 50) * 1000:.2f} ms, p99 {percentile(times, 99) * 1000:.2f} ms")
    print(f"thread CPU per command, mean (a part inside another counts in both; share of '{SERVED}'):")
    for name, ms in sorted(sums.items(), key=lambda item: -item[1]):
        mean = ms / commands
        print(f"  {mean:7.3f} ms  {100 * mean / served:5.1f} %  {name}")


if __name__ == "__main__":
    main()
