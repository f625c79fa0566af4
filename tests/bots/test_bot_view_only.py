"""A bot decides from its own view only: on positions that differ only in other seats'
hidden information (hands swapped, decks redealt, secret answers changed) every level
makes the same choice, given the same generator."""

from __future__ import annotations

import random

import pytest

from engine import registry
from engine.core import bots
from tests.bots.positions import OTHER_SECRETS, advance_randomly, first_decision

#: (game, seats, seed, random moves before the position)
POSITIONS = [
    ("pax", 2, 1, 0), ("pax", 2, 2, 9), ("pax", 3, 3, 25), ("pax", 4, 4, 60), ("pax", 1, 5, 12),
    ("rom", 2, 1, 5), ("rom", 3, 2, 30), ("rom", 4, 3, 70), ("rom", 2, 4, 58),
    ("spartacus", 3, 1, 20), ("spartacus", 3, 2, 150), ("spartacus", 4, 3, 400), ("spartacus", 3, 4, 600),
    ("spartacus_arena", 2, 1, 3), ("spartacus_arena", 2, 2, 12),
]

#: tiny think budgets: the property is about what the bot reads, not how long it thinks
ITERATIONS = {"normal": 6, "hard": 9}


@pytest.mark.parametrize("level", ["easy", "normal", "hard"])
@pytest.mark.parametrize("game,seats,seed,steps", POSITIONS)
def test_same_choice_whatever_the_others_hide(game, seats, seed, steps, level):
    rules = registry.get(game)
    knowledge = registry.bot_knowledge(game)
    state = advance_randomly(game, seats, seed, steps)
    assert state is not None
    decision = first_decision(game, state)
    for variant in range(3):
        other = OTHER_SECRETS[game](state, decision.seat, random.Random(100 + variant))
        assert other != state or seats == 1
        # the decision itself is the same (non-interference), so the bot is asked the same
        assert rules.pending(other).for_seat(decision.seat) == rules.pending(state).for_seat(decision.seat)
        assert knowledge.redact(other, decision.seat) == knowledge.redact(state, decision.seat)
        mine = bots.answer(rules, knowledge, state, decision, random.Random(seed), level=level,
                           iterations=ITERATIONS.get(level))
        theirs = bots.answer(rules, knowledge, other, decision, random.Random(seed), level=level,
                             iterations=ITERATIONS.get(level))
        assert mine == theirs
