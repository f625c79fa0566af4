"""The arena duel (``spartacus_arena``): nothing a player or a spectator observes depends on the
other player's secret choices -- whether to throw the net, which dice to reroll -- until both are in
and the rules reveal them together.
"""

from __future__ import annotations

import random
from typing import Iterator

from engine.core.game import step
from engine.core.types import Command
from engine.spartacus.arena.rules import RULES
from engine.spartacus.cards.market import FIGHTER_TYPES, load_market
from tests.noninterference.harness import Checker, Fork, Trajectory, check_forks, play, secret_answer_forks

#: Events by which the fight shows a secret choice: to its player when made, to both once all are in.
REVEALS = frozenset({"NetDeclared", "NetsRevealed", "RerollChosen", "RerollsRevealed"})

DUELS = 1600  # fewer secret choices per duel since a reroll that cannot end better is not asked


def _kits() -> Iterator[dict]:
    """Duels between fighters of every kind, most of them with a net, a reroll or both, so that
    secret choices come up often."""
    market = load_market()
    fighters = [c.id for c in market.cards if c.type in FIGHTER_TYPES]
    weapons = ["none"] + [c.id for c in market.cards if c.type == "weapon"]
    armours = ["none"] + [c.id for c in market.cards if c.type == "armour"]
    specials = [c.id for c in market.cards if c.type == "special"]
    rng = random.Random(11)
    while True:
        kit = {}
        for side in ("i", "ii"):
            kit[f"fighter_{side}"] = rng.choice(fighters)
            kit[f"weapon_{side}"] = rng.choice(weapons)
            kit[f"armour_{side}"] = rng.choice(armours)
            kit[f"special_{side}"] = "net" if rng.random() < 0.6 else rng.choice(specials)
        yield kit


class BlowByBlow:
    """The duel once both players have answered its first question "blow by blow", so every
    decision of the fight, and every secret choice, is a player's own.  The first question itself
    is not forked: a fight plan is its player's standing orders, and what it does shows as that
    player's own moves, as live answers would ("What a plan may reveal", docs/spartacus-arena.md)."""

    def __getattr__(self, name: str):
        return getattr(RULES, name)

    def initial_state(self, seats: int, options: dict):
        state = RULES.initial_state(seats, options)
        for seat in range(seats):
            state, _ = step(RULES, state, Command(seat, "set_fight_plan", {"active": False}))
        return state


def trajectories(rules=BlowByBlow(), duels: int = DUELS) -> Iterator[Trajectory]:
    for seed, kit in zip(range(1, duels + 1), _kits()):
        yield play(rules, 2, kit, seed)


def forks(trajectory: Trajectory, rng: random.Random) -> Iterator[Fork]:
    yield from secret_answer_forks(trajectory, rng)


def test_nothing_observable_depends_on_the_other_players_secret_choices():
    checker = Checker(RULES, REVEALS)
    tally = check_forks(checker, trajectories(), forks)
    assert not tally.interference, "\n".join(map(str, tally.interference[:5]))
    assert tally.positions >= 5000, tally
