"""CPU time of a command, in one process, against another tree's, alternated.

Wall-clock latency on a loaded machine mostly measures the load; the CPU a command costs
does not.  Each tree (this one, and the one given with ``--before``) runs in a subprocess
of its own with only that tree importable: a fresh SQLite database, a 2-seat PAX game
against a bot at ``CAPUA_BOT_LEVEL=random``, and ``--commands`` commands through the
Flask test client (``POST /api/v1/games/{id}/commands``, the bot's reply included), each
timed with ``time.process_time`` (the process's CPU, the embedded worker's thread
included).  The trees take turns ``--rounds`` times so both meet the same load.

``python -m bench.command_cpu --before /path/to/main-checkout [--rounds 2] [--commands 150]``
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

from bench.common import machine

HERE = Path(__file__).resolve().parent.parent

#: Run in a subprocess whose only importable Capua is the tree under test.
_WORKER = r"""
import json, sys, tempfile, time, uuid
from bench.api_latency import running_server

commands = int(sys.argv[1])
with tempfile.TemporaryDirectory() as tmp, running_server(f"sqlite:///{tmp}/cpu.sqlite3") as server:
    client = server.app.test_client()
    auth = {"Authorization": f"Bearer {server.token}"}

    def post(path, body):
        return client.post(path, json=body, headers={**auth, "Idempotency-Key": str(uuid.uuid4())})

    def new_game():
        answer = post("/api/v1/games", {"game_type": "pax", "seats": 2, "bot_seats": [1], "my_seat": 0})
        assert answer.status_code == 201, answer.get_json()
        game_id = answer.get_json()["id"]
        return game_id, client.get(f"/api/v1/games/{game_id}/decisions", headers=auth).get_json()["decisions"]

    game_id, decisions = new_game()
    times = []
    while len(times) < commands:
        owed = [d for d in decisions if d["mode"] != "free"]
        if not owed:
            game_id, decisions = new_game()
            continue
        choice = owed[0]["options"][0] if owed[0].get("options") else owed[0]["default"]
        body = {"type": choice["type"], "args": choice["args"], "expected_version": owed[0]["version"]}
        t0 = time.process_time()
        answer = post(f"/api/v1/games/{game_id}/commands", body)
        times.append(time.process_time() - t0)
        assert answer.status_code == 200, answer.get_json()
        decisions = answer.get_json()["decisions"]
    print(json.dumps(times))
"""


def cpu_times(tree: Path, commands: int) -> list[float]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("CAPUA_")}
    env.update({"PYTHONPATH": str(tree), "CAPUA_BOT_LEVEL": "random", "CAPUA_SECRET_KEY": "bench-" + "x" * 40})
    out = subprocess.run([sys.executable, "-c", _WORKER, str(commands)], cwd=tree, env=env, check=True,
                         capture_output=True, text=True).stdout
    return json.loads(out.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--before", type=Path, required=True, help="a checkout of the code to compare against")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--commands", type=int, default=150)
    args = parser.parse_args()
    print(machine())
    trees = {"before": args.before.resolve(), "after": HERE}
    p50s: dict[str, list[float]] = {name: [] for name in trees}
    for r in range(args.rounds):
        order = list(trees) if r % 2 == 0 else list(reversed(trees))
        for name in order:
            times = sorted(cpu_times(trees[name], args.commands))
            p50s[name].append(times[len(times) // 2] * 1000)
            print(f"  round {r + 1}: {name} p50 {p50s[name][-1]:.2f} ms of CPU per command", flush=True)
    before, after = (statistics.median(p50s[n]) for n in ("before", "after"))
    print(f"CPU per command, median of the rounds' p50s: before {before:.2f} ms, after {after:.2f} ms "
          f"(after/before {after / before:.2f}x)")


if __name__ == "__main__":
    main()
