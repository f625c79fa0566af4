"""Balance report for the default Spartacus card set: heuristic-bot games per house seating.

    .venv/bin/python tools/spartacus_balance.py                      # 1,000 games per seating
    .venv/bin/python tools/spartacus_balance.py --games 50 --no-write   # a quick look

Each seating rotates the houses around the table (house i sits at seat (i + r) mod n, so
every house plays every seat, the host seat included, equally often).  Every seat is played
by :class:`engine.spartacus.game.heuristic.HeuristicBot` (the *easy* bot level); chance
comes from ``random.Random`` seeded per game (seed, seating, game number), so a run is
reproducible and the games are independent of how they are spread over the worker
processes.  The games run on all cores (``multiprocessing``) with a progress line on stderr.

The report (``bench/SPARTACUS_BALANCE.md`` by default; the part between the
``balance:begin``/``balance:end`` markers is replaced, the rest of the file kept) gives
each house's wins, win rate with a 95% Wilson interval, its multiple of the fair share (a
house winning more than 1.5x its share is flagged), win rates by seat, the average game
length in rounds and how games ended.
"""

from __future__ import annotations

import argparse
import math
import os
import random
import sys
import time
from collections import Counter
from multiprocessing import Pool
from pathlib import Path
from typing import Optional

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine.spartacus.game import flow  # noqa: E402
from engine.spartacus.game.rules import RULES  # noqa: E402
from tools.spartacus_bot import HeuristicBot, next_command  # noqa: E402

HOUSES = ("batiatus", "glaber", "tullius", "solonius")
DEFAULT_OUT = ROOT / "bench" / "SPARTACUS_BALANCE.md"
BEGIN, END = "<!-- balance:begin -->", "<!-- balance:end -->"
MAX_STEPS = 200_000


def seating(seats: int, rotation: int) -> list[str]:
    return [HOUSES[(i + rotation) % seats] for i in range(seats)]


def play_game(seats: int, houses: list[str], rng: random.Random, options: Optional[dict] = None) -> dict:
    """One bot game; returns the winner's house and seat, the rounds played and how it ended."""
    s = flow.start(RULES.initial_state(seats, options or {}))
    bot = HeuristicBot(rng)
    for _ in range(MAX_STEPS):
        if s.stage == "over":
            winner = s.winners[0]
            return {"house": s.player(winner).house, "seat": winner, "rounds": s.round, "how": s.finish}
        command = next_command(s, bot, rng)
        if command.type == "choose_house":
            command = type(command)(command.seat, "choose_house", {"house": houses[command.seat]})
        s, _ = flow.decide_and_fold(s, command)
    raise RuntimeError("a game did not end")


def _job(args: tuple[int, int, int, int, int]) -> dict:
    seed, seats, rotation, game, max_rounds = args
    rng = random.Random(f"{seed}:{seats}:{rotation}:{game}")
    result = play_game(seats, seating(seats, rotation), rng, {"max_rounds": max_rounds})
    result["rotation"] = rotation
    return result


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson score interval of a win rate."""
    if n == 0:
        return 0.0, 0.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def report(results: list[dict], seats: int, games: int, seconds: float, workers: int, note: str) -> str:
    total = len(results)
    wins = Counter(r["house"] for r in results)
    by_seat = Counter(r["seat"] for r in results)
    how = Counter(r["how"] for r in results)
    rounds = [r["rounds"] for r in results]
    fair = 1 / seats
    lines = [
        BEGIN,
        f"**{total} games**, {seats} players, {games} per seating x {seats} seatings (every house in every seat); "
        f"standard game (start influence 4); heuristic bots (`engine/spartacus/game/heuristic.py`, the easy level) in every seat; "
        f"{seconds:.0f} s on {workers} processes.",
        "",
        "| house | wins | win rate | 95% interval | x fair share |",
        "|---|---|---|---|---|",
    ]
    for h in HOUSES[:seats]:
        rate = wins[h] / total if total else 0.0
        lo, hi = wilson(wins[h], total)
        flag = " **over 1.5x**" if rate > 1.5 * fair else ""
        lines.append(f"| {h} | {wins[h]} | {rate:.3f} | {lo:.3f}-{hi:.3f} | {rate / fair:.2f}{flag} |")
    lines += ["", "| seat | wins | win rate |", "|---|---|---|"]
    for seat in range(seats):
        lines.append(f"| {seat} | {by_seat[seat]} | {by_seat[seat] / total if total else 0:.3f} |")
    mean = sum(rounds) / len(rounds) if rounds else 0.0
    lines += [
        "",
        f"Average game length: **{mean:.1f} rounds** (median {sorted(rounds)[len(rounds) // 2] if rounds else 0}, "
        f"longest {max(rounds) if rounds else 0}).  Endings: "
        + ", ".join(f"{k or 'unknown'} {v}" for k, v in sorted(how.items())) + ".",
    ]
    if note:
        lines += ["", note]
    lines.append(END)
    return "\n".join(lines)


def write(out: Path, block: str) -> None:
    if out.exists():
        text = out.read_text(encoding="utf-8")
        if BEGIN in text and END in text:
            head, rest = text.split(BEGIN, 1)
            tail = rest.split(END, 1)[1]
            out.write_text(head + block + tail, encoding="utf-8")
            return
        out.write_text(text.rstrip() + "\n\n" + block + "\n", encoding="utf-8")
        return
    out.write_text("# Spartacus balance\n\n" + block + "\n", encoding="utf-8")


def main(argv: Optional[list[str]] = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=1000, help="games per seating")
    ap.add_argument("--seats", type=int, default=4)
    ap.add_argument("--max-rounds", type=int, default=40, help="the game's max_rounds option")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--budget", type=float, default=0.0,
                    help="seconds: stop starting games after this long and report what finished (0: no limit)")
    ap.add_argument("--out", default=str(DEFAULT_OUT))
    ap.add_argument("--no-write", action="store_true")
    args = ap.parse_args(argv)

    # interleave seatings so that a run stopped by --budget stays balanced across them
    jobs = [(args.seed, args.seats, r, g, args.max_rounds) for g in range(args.games) for r in range(args.seats)]
    started = time.time()
    results: list[dict] = []
    note = ""
    with Pool(args.workers) as pool:
        for result in pool.imap(_job, jobs, chunksize=4):
            results.append(result)
            done = len(results)
            if done % 20 == 0 or done == len(jobs):
                elapsed = time.time() - started
                rate = done / elapsed if elapsed else 0.0
                eta = (len(jobs) - done) / rate if rate else 0.0
                wins = Counter(r["house"] for r in results)
                share = " ".join(f"{h}={wins[h] / done:.3f}" for h in HOUSES[: args.seats])
                print(f"\r{done}/{len(jobs)} games  {rate:.1f}/s  eta {eta:.0f}s  {share}   ",
                      end="", file=sys.stderr, flush=True)
            if args.budget and time.time() - started > args.budget:
                done_rounds = len(results) // args.seats
                results = results[: done_rounds * args.seats]
                note = (f"The run stopped at its time budget ({args.budget:.0f} s) after {len(results)} of "
                        f"{len(jobs)} games ({done_rounds} per seating).")
                pool.terminate()
                break
    print(file=sys.stderr)
    block = report(results, args.seats, len(results) // args.seats, time.time() - started, args.workers, note)
    print(block)
    if not args.no_write:
        write(Path(args.out), block)


if __name__ == "__main__":
    main()
