"""The bot ladder: matches between bot levels per game and seat count, win rates with Wilson
intervals, a rating table, PAX's Rome rate and solo campaign, Spartacus houses, think times.

Not a test: it plays many whole games and prints what it measured.  Run it niced, e.g.::

    nice -n 19 .venv/bin/python -m bench.bot_ladder --games 40
    nice -n 19 .venv/bin/python -m bench.bot_ladder --only pax-rome --games 60

Every game is reproducible from its seed (chance and bots draw from one ``random.Random``).
"""

from __future__ import annotations

import argparse
import itertools
import math
import random
import time
from pathlib import Path
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from typing import Any, Optional, Sequence

from bench.common import percentile
from engine import registry
from engine.core import bots
from engine.core.playout import resolve_chance_command
from engine.core.search import next_decision
from engine.core.game import step
from engine.core.errors import RuleViolation


@dataclass
class MatchResult:
    winners: tuple[int, ...]
    outcome: Any
    state: Any
    think: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))


def play_match(game: str, levels: Sequence[str], seed: int, options: Optional[dict] = None,
               max_steps: int = 200_000) -> MatchResult:
    """One game with ``levels[s]`` playing seat ``s``."""
    rules = registry.get(game)
    knowledge = registry.bot_knowledge(game)
    state = rules.initial_state(len(levels), dict(options or {}))
    rng = random.Random(seed)
    think: dict[str, list[float]] = defaultdict(list)
    for _ in range(max_steps):
        outcome = rules.outcome(state)
        if outcome is not None:
            return MatchResult(tuple(outcome.winners), outcome, state, think)
        command = resolve_chance_command(rules, state, rng.randrange)
        if command is None:
            decision = next_decision(rules, state)
            if decision is None:
                raise RuntimeError(f"{game}: stuck without a decision")
            level = levels[decision.seat]
            t0 = time.process_time()
            command = bots.answer(rules, knowledge, state, decision, rng, level=level)
            think[level].append(time.process_time() - t0)
            try:
                state = step(rules, state, command)[0]
            except RuleViolation:
                state = step(rules, state, decision.default)[0]
        else:
            state = step(rules, state, command)[0]
    raise RuntimeError(f"{game}: no end after {max_steps} steps")


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95 % by default)."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def _rate(wins: float, n: int) -> str:
    lo, hi = wilson(wins, n)
    return f"{wins / n:.0%} [{lo:.0%}, {hi:.0%}] (n={n})"


def head_to_head(game: str, seats: int, a: str, b: str, games: int, seed0: int = 0,
                 think: Optional[dict] = None, options: Optional[dict] = None,
                 others: Optional[list] = None) -> tuple[float, int]:
    """``a`` on one seat against ``b`` on every other; the seat of ``a`` rotates.  Returns
    (wins of ``a`` counting a shared win as a share, games); ``others`` collects the share
    won by the ``b`` seats per game (PAX: when Rome wins without a conspirator, nobody)."""
    wins = 0.0
    for g in range(games):
        seat = g % seats
        levels = [b] * seats
        levels[seat] = a
        result = play_match(game, levels, seed0 + g, options)
        if seat in result.winners:
            wins += 1 / len(result.winners)
        if others is not None:
            others.append(sum(1 for w in result.winners if w != seat) / max(1, len(result.winners)))
        if think is not None:
            for level, samples in result.think.items():
                think[level].extend(samples)
    return wins, games


def ladder(game: str, seats: int, games: int, think: dict, levels: Sequence[str] = bots.LEVELS) -> dict:
    """Round robin.  Two seats: each pair of levels, seats alternating.  More seats: each
    ordered pair (``a`` on one seat, ``b`` on all the others), the seat of ``a`` rotating."""
    table = {}
    pairs = itertools.combinations(levels, 2) if seats == 2 else itertools.permutations(levels, 2)
    for a, b in pairs:
        others: list[float] = []
        wins, n = head_to_head(game, seats, b, a, games, seed0=1000, think=think, others=others)
        table[(b, a)] = (wins, n)
        if seats == 2:
            table[(a, b)] = (sum(others), n)
        print(f"  {game} {seats}p  {b:>6} vs {a:<6} {_rate(wins, n)}", flush=True)
    return table


def ratings(table: dict, seats: int, levels: Sequence[str] = bots.LEVELS) -> dict[str, float]:
    """Elo-like ratings fitted to the head-to-head results (random fixed at 0).

    A seat among ``seats`` equal players wins 1/seats of the time; the model takes the
    logit of the observed rate against that baseline, so two-player and multi-player
    results share one scale."""
    rating = {level: 0.0 for level in levels}
    for _ in range(200):
        for level in levels[1:]:
            grad = 0.0
            for (a, b), (wins, n) in table.items():
                if level not in (a, b):
                    continue
                expected = _expected(rating[a] - rating[b], seats)
                sign = 1 if level == a else -1
                grad += sign * (wins - n * expected)
            rating[level] += 4.0 * grad / max(1, sum(n for _, n in table.values()))
    return {level: round(400 * value / math.log(10)) for level, value in rating.items()}


def _expected(diff: float, seats: int) -> float:
    base = math.log(seats - 1)
    return 1 / (1 + math.exp(-(diff - base)))


def pax_rome_rate(games: int, seats: int = 4, level: str = "normal") -> dict:
    rome = primus = 0
    for g in range(games):
        result = play_match("pax", [level] * seats, 5000 + g)
        if result.outcome.detail.get("rome_won"):
            rome += 1
            if result.winners:
                primus += 1
    return {"rome": (rome, games), "primus_with_rome": (primus, games)}


def pax_solo(games: int, level: str = "normal", solo_level: int = 1) -> tuple[int, int]:
    wins = 0
    for g in range(games):
        result = play_match("pax", [level], 7000 + g, {"solo_level": solo_level})
        wins += 1 if result.winners else 0
    return wins, games


def spartacus_houses(games: int, seats: int = 3, level: str = "normal") -> dict[str, tuple[float, int]]:
    wins: Counter = Counter()
    played: Counter = Counter()
    for g in range(games):
        result = play_match("spartacus", [level] * seats, 9000 + g)
        for player in result.state.players:
            played[player.house] += 1
            if player.seat in result.winners:
                wins[player.house] += 1 / len(result.winners)
    return {house: (wins[house], played[house]) for house in sorted(played)}


#: The arena duel's pairings: the default (Spartacus against Crixus) and the mirror.
ARENA_PAIRINGS = {"default": {}, "mirror": {"fighter_i": "crixus", "fighter_ii": "crixus"}}


def arena_duels(a: str, b: str, games: int, seed0: int, think: dict,
                pairings: Sequence[str] = tuple(ARENA_PAIRINGS)) -> list[list[str]]:
    """``a`` against ``b`` in the arena duel, each pairing, seats alternating (``a`` on
    seat 0 in even games); rows of the pairing, the rate, and ``a``'s wins per seat."""
    rows = []
    for name in pairings:
        options = ARENA_PAIRINGS[name]
        seat_wins = [0, 0]
        wins = 0.0
        for g in range(games):
            seat = g % 2
            levels = [b, b]
            levels[seat] = a
            result = play_match("spartacus_arena", levels, seed0 + g, options)
            won = seat in result.winners
            wins += won
            seat_wins[seat] += won
            for level, samples in result.think.items():
                think[level].extend(samples)
        rows.append([f"arena duel, {name}", f"{a} vs {b}", _rate(wins, games),
                     f"seeds {seed0}-{seed0 + games - 1}; as seat 0 {seat_wins[0]}, as seat 1 {seat_wins[1]}"])
        print(rows[-1], flush=True)
    return rows


def _table(rows: list[list[str]], head: list[str]) -> list[str]:
    out = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    return out + ["| " + " | ".join(r) + " |" for r in rows]


def main(argv: Optional[Sequence[str]] = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=12, help="games per pairing or figure")
    parser.add_argument("--only", default="", help="targets,pax-rome,pax-solo,houses,ladder,arena (default: all but arena)")
    parser.add_argument("--configs", default="pax:2,rom:2,spartacus_arena:2,spartacus:3",
                        help="the ladder's game:seats, comma-separated")
    parser.add_argument("--write", action="store_true", help="rewrite the Bots section of bench/RESULTS.md")
    parser.add_argument("--seed0", type=int, default=300, help="first seed of the arena duels (--only arena)")
    parser.add_argument("--match", default="hard:normal", help="the levels of the arena duels (--only arena)")
    parser.add_argument("--pairings", default="default,mirror", help="the arena duels' pairings (--only arena)")
    args = parser.parse_args(argv)
    think: dict[str, list[float]] = defaultdict(list)
    parts = set(args.only.split(",")) if args.only else {"targets", "pax-rome", "pax-solo", "houses", "ladder"}
    t0 = time.time()
    lines: list[str] = []
    if "targets" in parts:
        rows = []
        for game, seats, target in (("pax", 2, "≥ 95 %"), ("rom", 2, "≥ 95 %"), ("spartacus", 3, "≥ 90 %"),
                                    ("spartacus_arena", 2, "")):
            wins, n = head_to_head(game, seats, "normal", "random", args.games, seed0=100, think=think)
            rows.append([f"{game}, {seats} seats", "normal vs random", _rate(wins, n), target])
            print(rows[-1], flush=True)
            wins, n = head_to_head(game, seats, "hard", "normal", args.games, seed0=200, think=think)
            rows.append([f"{game}, {seats} seats", "hard vs normal", _rate(wins, n), "≥ 60 %" if seats == 2 else ""])
            print(rows[-1], flush=True)
        lines += ["Done-when figures (one bot of the first level, the other seats the second; seats rotate):", ""]
        lines += _table(rows, ["game", "match", "wins of the first [95 % Wilson]", "target"]) + [""]
    if "arena" in parts:
        a, b = args.match.split(":")
        rows = arena_duels(a, b, args.games, args.seed0, think, args.pairings.split(","))
        lines += _table(rows, ["pairing", "match", "wins of the first [95 % Wilson]", "seeds"]) + [""]
    if "pax-rome" in parts:
        result = pax_rome_rate(args.games)
        lines.append(f"PAX with four normal bots: Rome wins {_rate(*result['rome'])} (target 20-60 %); "
                     f"the conspirator wins with Rome in {_rate(*result['primus_with_rome'])}.")
        print(lines[-1], flush=True)
    if "pax-solo" in parts:
        lines.append(f"PAX solo campaign level 1, normal: won {_rate(*pax_solo(args.games))} (target ≥ 50 %).")
        print(lines[-1], flush=True)
    if "houses" in parts:
        rows = [[house, _rate(wins, n)] for house, (wins, n) in spartacus_houses(args.games).items()]
        lines += ["", "Spartacus, three normal bots (fair share 33 %):", ""] + _table(rows, ["house", "win share"])
        print(rows, flush=True)
    if "ladder" in parts:
        for config in args.configs.split(","):
            game, seats = config.split(":")[0], int(config.split(":")[1])
            table = ladder(game, seats, args.games, think)
            rows = [[f"{a} vs {b}", _rate(w, n)] for (a, b), (w, n) in sorted(table.items())]
            rated = ratings(table, seats)
            lines += ["", f"Ladder, {game}, {seats} seats:", ""] + _table(rows, ["match", "wins of the first"])
            lines += ["", "Ratings (Elo scale, random = 0): " + ", ".join(f"{k} {v}" for k, v in rated.items())]
            print(lines[-1], flush=True)
    if think:
        rows = []
        for level in bots.LEVELS:
            samples = think.get(level)
            if samples:
                p50, p99 = percentile(samples, 50), percentile(samples, 99)
                rows.append([level, f"{p50 * 1000:.1f}", f"{p99 * 1000:.1f}", f"{p99:.2f}x", str(len(samples))])
        lines += ["", "Decision time (process time of one core, every decision of the games above):", ""]
        lines += _table(rows, ["level", "p50 ms", "p99 ms", "p99 vs the 1 s budget", "decisions"])
    lines += ["", f"{args.games} games per figure; {time.time() - t0:.0f} s wall time."]
    print("\n".join(lines))
    if args.write:
        _write(lines)


def _write(lines: list[str]) -> None:
    path = Path(__file__).with_name("RESULTS.md")
    text = path.read_text()
    head = "## Bots"
    block = head + "\n\nProduced by `nice python -m bench.bot_ladder --write` (see `docs/bots.md`).\n\n" + "\n".join(lines) + "\n"
    if head in text:
        before, rest = text.split(head, 1)
        after = rest[rest.index("\n## "):] if "\n## " in rest else ""
        text = before + block + after
    else:
        text = text.rstrip("\n") + "\n\n" + block
    path.write_text(text)


if __name__ == "__main__":
    main()
