"""How many questions an arena fight asks its players: decisions per player and hand-offs.

Over seeded fights of three populations -- two 3/3/3 fighters without equipment, two
gladiators drawn from the default deck each carrying a random weapon, armour and special
(each slot filled half the time), and the same with slaves among the fighters -- it plays
every fight three ways:

* **blow by blow**: neither player has a plan; each decision is answered as the engine
  suggests (what the default plan would do), as an attentive player would;
* **plans set at acceptance**: both fighters enter with a plan (``start_fight(plans=...)``, as
  the Spartacus game does with the plans its dominūs set when accepting the invitation);
* **duel**: the ``spartacus_arena`` game, whose first question asks each player how it
  fights; both answer with a plan.

A hand-off is a change of the player(s) the fight waits for.  Counts, not times: the figures
are the same on any machine.

    .venv/bin/python -m bench.spartacus_arena_asked              # 1,000 fights per population
    .venv/bin/python -m bench.spartacus_arena_asked --fights 200
"""

from __future__ import annotations

import argparse
import random
import statistics
from typing import Callable

from engine.spartacus.arena.fight import start_fight
from engine.spartacus.arena.fighters import Entrant
from engine.spartacus.arena.plan import DEFAULT_PLAN
from engine.spartacus.arena.simulation import Asked, play_asking
from engine.spartacus.cards.market import FIGHTER_TYPES, load_market

SEED = 2026
SLOTS = ("weapon", "armour", "special")


def populations() -> dict[str, Callable[[random.Random], tuple[Entrant, Entrant]]]:
    """Name -> a function drawing the two entrants of one fight."""
    deck = load_market()
    baseline = next(c.id for c in deck.cards if (c.attack, c.defence, c.speed) == (3, 3, 3) and not c.abilities)
    gladiators = [c.id for c in deck.cards if c.type == "gladiator"]
    fighters = [c.id for c in deck.cards if c.type in FIGHTER_TYPES]
    kit = {slot: [c.id for c in deck.cards if c.type == slot] for slot in SLOTS}

    def equipped(pool: list[str]) -> Callable[[random.Random], tuple[Entrant, Entrant]]:
        def draw(rng: random.Random) -> tuple[Entrant, Entrant]:
            sides = []
            for seat in (0, 1):
                gear = {slot: rng.choice(cards) if rng.random() < 0.5 else "" for slot, cards in kit.items()}
                sides.append(Entrant(seat, rng.choice(pool), **gear))
            return sides[0], sides[1]
        return draw

    return {
        "3/3/3 against 3/3/3, no equipment": lambda rng: (Entrant(0, baseline), Entrant(1, baseline)),
        "gladiators with random equipment": equipped(gladiators),
        "gladiators and slaves with random equipment": equipped(fighters),
    }


def measure(draw: Callable[[random.Random], tuple[Entrant, Entrant]], fights: int, *, mode: str,
            seed: int = SEED) -> list[Asked]:
    """``fights`` fights of one population played in ``mode`` (blow_by_blow, planned, duel)."""
    rng = random.Random(seed)
    out = []
    for _ in range(fights):
        first, second = draw(rng)
        if mode == "blow_by_blow":
            state = start_fight(first, second)
        elif mode == "planned":
            state = start_fight(first, second, plans=(DEFAULT_PLAN, DEFAULT_PLAN))
        else:
            state = start_fight(first, second, briefing=True)
        out.append(play_asking(state, rng.randrange)[1])
    return out


def figures(asked: list[Asked]) -> dict[str, float]:
    per_player = sorted(n for a in asked for n in a.decisions)
    return {
        "mean": statistics.mean(per_player),
        "p90": per_player[int(0.9 * (len(per_player) - 1))],
        "max": per_player[-1],
        "handoffs": statistics.mean(a.handoffs for a in asked),
        "rounds": statistics.mean(a.rounds for a in asked),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--fights", type=int, default=1000, help="fights per population and mode")
    args = parser.parse_args()
    print(f"{args.fights:,} fights per population and mode (seed {SEED})\n")
    print("| fights | played | decisions per player: mean | p90 | max | hand-offs per fight | rounds |")
    print("|---|---|---|---|---|---|---|")
    for name, draw in populations().items():
        for mode in ("blow_by_blow", "planned", "duel"):
            f = figures(measure(draw, args.fights, mode=mode))
            print(f"| {name} | {mode.replace('_', ' ')} | {f['mean']:.2f} | {f['p90']} | {f['max']} | "
                  f"{f['handoffs']:.2f} | {f['rounds']:.2f} |")


if __name__ == "__main__":
    main()
