"""The first mover's win rate between two 3/3/3 fighters without equipment, under a fixed seed.

``bench/spartacus_arena_stats.py`` runs the same count over 100,000 fights and writes the
table of win rates between the default gladiators into ``docs/spartacus-arena.md``.
"""

from __future__ import annotations

import random

from engine.spartacus.arena.fighters import Entrant
from engine.spartacus.arena.simulation import duels
from engine.spartacus.cards.market import load_market


def _run(fights: int, seed: int):
    baseline = next(c for c in load_market().cards if (c.attack, c.defence, c.speed) == (3, 3, 3) and not c.abilities)
    return duels(Entrant(0, baseline.id), Entrant(1, baseline.id), fights, random.Random(seed).randrange)


def test_first_mover_win_rate_is_reported_and_stable_under_a_fixed_seed():
    first = _run(400, seed=2024)
    again = _run(400, seed=2024)
    assert first == again
    rate = first.first_mover_wins / first.fights
    print(f"3/3/3 vs 3/3/3, {first.fights} fights: first mover wins {rate:.1%}, "
          f"initiative winner {first.initiative_winner_wins / first.fights:.1%}, fighter I {first.wins[0] / first.fights:.1%}")
    # the round-1 initiative winner lets the other close in and strikes first: moving first is a handicap
    assert 0.2 < rate < 0.45
    assert 0.4 < first.wins[0] / first.fights < 0.6
    assert first.fatigue == 0 and sum(first.kinds.values()) == first.fights
