"""How often Rome wins PAX with the default card set, measured with the random bot.

    .venv/bin/python tools/pax_outcomes.py                 # 1,000 games per seat count
    .venv/bin/python tools/pax_outcomes.py --games 100     # a quick look

Every seat is played by the generic random bot of ``engine/core/bots.py`` (uniform among a
decision's legal options) through :func:`engine.core.playout.play_out`; chance comes from
``random.Random(seed * 1000 + game)``, so a run is reproducible.  Prints a Markdown table
for ``docs/pax.md``: per seat count the games played, Rome's wins with a 95% Wilson
interval, how often the holder of primus conspiratus wins with Rome, each seat's share of the
wins (ties split; with Rome, the conspirator's) and the mean number of rounds; for the solo
game the player's win rate at each level.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine.core.playout import play_out  # noqa: E402
from engine.pax.rules import RULES  # noqa: E402
from tools.spartacus_balance import wilson  # noqa: E402


def play(seats: int, options: dict, seed: int, game: int) -> tuple[bool, tuple[int, ...], int]:
    """One random-bot game: (Rome won, winning seats, rounds played)."""
    rng = random.Random(seed * 1000 + game)
    state, _ = play_out(RULES, RULES.initial_state(seats, options), rng)
    outcome = RULES.outcome(state)
    return bool(outcome.detail["rome_won"]), tuple(outcome.winners), state.round


def multiplayer_row(seats: int, games: int, seed: int) -> str:
    rome = 0
    with_rome = 0
    shares: Counter = Counter()
    rounds = 0
    for game in range(games):
        rome_won, winners, played = play(seats, {}, seed + seats, game)
        rounds += played
        rome += rome_won
        with_rome += rome_won and bool(winners)
        for seat in winners:
            shares[seat] += 1 / len(winners)
    lo, hi = wilson(rome, games)
    by_seat = " / ".join(f"{100 * shares[s] / games:.0f}" for s in range(seats))
    return (f"| {seats} | {games} | {100 * rome / games:.1f} % ({100 * lo:.1f}-{100 * hi:.1f}) | "
            f"{100 * with_rome / games:.1f} % | {by_seat} | {rounds / games:.1f} |")


def solo_row(level: int, games: int, seed: int) -> str:
    won = sum(not play(1, {"solo_level": level}, seed + 100 + level, game)[0] for game in range(games))
    lo, hi = wilson(won, games)
    return f"| solo, level {level} | {games} | {100 * won / games:.1f} % ({100 * lo:.1f}-{100 * hi:.1f}) |"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000, help="games per seat count (default 1000)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--seats", type=int, nargs="*", default=[2, 3, 4, 5, 6, 7, 8])
    parser.add_argument("--solo-levels", type=int, nargs="*", default=[1, 2, 3, 4, 5])
    args = parser.parse_args(argv)
    print("| players | games | Rome wins (95% interval) | a conspirator wins with Rome | wins by seat, % | rounds |")
    print("|---|---|---|---|---|---|")
    for seats in args.seats:
        print(multiplayer_row(seats, args.games, args.seed), flush=True)
    print()
    print("| game | games | the player wins (95% interval) |")
    print("|---|---|---|")
    for level in args.solo_levels:
        print(solo_row(level, args.games, args.seed), flush=True)


if __name__ == "__main__":
    main()
