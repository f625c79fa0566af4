"""Whole fight plans against the default plan in the arena duel: which standing orders win.

Not a test: it fights every plan of a grid (approach, initiative, order of losing dice,
spread) as one fighter against the default plan on the other, ``--fights`` fights each on
seeds 0, 1, ... (the same dice for every plan), and prints the best plans and the default's
rate.  It is why the searching bot (``engine/spartacus/arena/blows.py``) also follows
plans other than the default after an answer.  Run it niced::

    nice -n 10 .venv/bin/python -m bench.arena_plans --side 1 --fights 400
"""

from __future__ import annotations

import argparse
import itertools
import random
from typing import Optional, Sequence

from engine import registry
from engine.core.game import step
from engine.core.types import Command
from engine.spartacus.arena.plan import DEFAULT_PLAN, FightPlan
from engine.spartacus.arena.simulation import run_to_end

RULES = registry.get("spartacus_arena")


def win_rate(plan: FightPlan, side: int, fights: int, options: dict) -> float:
    """How often fighter ``side`` (0: fighter I) wins by ``plan`` against the default plan."""
    wins = 0
    for seed in range(fights):
        state = RULES.initial_state(2, dict(options))
        plans = [DEFAULT_PLAN, DEFAULT_PLAN]
        plans[side] = plan
        for seat in (0, 1):
            state = step(RULES, state, Command(seat, "set_fight_plan", plans[seat].to_json()))[0]
        state, _ = run_to_end(state, random.Random(seed).randrange)
        wins += state.result.winner_seat == side
    return wins / fights


def main(argv: Optional[Sequence[str]] = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--side", type=int, default=1, help="the fighter on the plans (0: I, Spartacus; 1: II, Crixus)")
    parser.add_argument("--fights", type=int, default=400)
    parser.add_argument("--mirror", action="store_true", help="Crixus against Crixus")
    args = parser.parse_args(argv)
    options = {"fighter_i": "crixus", "fighter_ii": "crixus"} if args.mirror else {}
    rows = []
    for approach in ("close", "keep_distance"):
        for initiative in ("auto", "first", "second"):
            for order in itertools.permutations(("speed", "defence", "attack")):
                for spread in (False, True):
                    plan = FightPlan(approach=approach, initiative=initiative, wound_order=order, spread=spread)
                    rows.append((win_rate(plan, args.side, args.fights, options), approach, initiative, order, spread))
    rows.sort(reverse=True)
    for row in rows[:12]:
        print(row)
    print("default", win_rate(DEFAULT_PLAN, args.side, args.fights, options))


if __name__ == "__main__":
    main()
