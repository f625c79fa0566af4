"""Fatigue ends every fight; random fights keep the invariants and replay exactly."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.core.chance import RESOLVE_CHANCE, Dice
from engine.core.game import replay, step
from engine.core.types import SYSTEM_SEAT, Command
from engine.spartacus.arena.plan import FightPlan
from engine.spartacus.arena.rules import RULES
from engine.spartacus.cards.market import load_market
from tests.spartacus.support import Bout

DECK = load_market()
FIGHTERS = [c.id for c in DECK.cards if c.is_fighter]
KIT = {slot: ["none"] + [c.id for c in DECK.of_type(slot)] for slot in ("weapon", "armour", "special")}


def test_from_the_fatigue_round_each_fighter_loses_a_die_every_round_weaker_first():
    passive = FightPlan(approach="keep_distance", net="never")
    bout = Bout("murmillo", "spartacus", plans=(passive, passive), fatigue_round=2)
    rng = random.Random(4)
    while bout.state.round < 3 and bout.state.result is None:
        request = bout.chance()
        outcome = {k: [rng.randint(1, 6) for _ in range(d.count)] for k, d in request.draws.items()}
        bout.roll(**outcome)
    struck = bout.of("FatigueStruck")
    assert struck and struck[0]["round"] == 2 and struck[0]["order"][0] == 0  # Murmillo has fewer dice
    fatigue = [w for w in bout.of("WoundsTaken") if w["reason"] == "fatigue"]
    assert [w["side"] for w in fatigue[:2]] == [0, 1] and all(w["count"] == 1 for w in fatigue)


def test_fatigue_can_decide_the_fight():
    bout = Bout("murmillo", "murmillo", plans=(FightPlan(approach="keep_distance"),) * 2, fatigue_round=1)
    bout.set_dice(0, (1, 1, 1)).set_dice(1, (2, 1, 1))
    bout.roll(I=[6], II=[1])
    result = bout.state.result
    assert result.cause == "fatigue" and result.loser == 0 and result.kind == "defeated"


def _drive(state, rng, dice, picks, on_state):
    """Play to the end: dice from ``dice`` (then ``rng``), choices indexed by ``picks``."""
    log = []
    dice_iter, pick_iter = iter(dice), iter(picks)
    for _ in range(5000):
        if RULES.outcome(state) is not None:
            return state, log
        pending = RULES.pending(state)
        if pending.chance is not None:
            outcome = {}
            for name, draw in pending.chance.draws.items():
                assert isinstance(draw, Dice)
                outcome[name] = [next(dice_iter, None) or rng.randint(1, 6) for _ in range(draw.count)]
            command = Command(SYSTEM_SEAT, RESOLVE_CHANCE, {"id": pending.chance.id, "outcome": outcome})
        else:
            blocking = [d for d in pending.decisions if d.mode != "free"]
            assert blocking, "a running fight always waits for someone"
            decision = blocking[0]
            pick = next(pick_iter, None)
            if decision.options is None:  # the duel's first question: a plan, or blow by blow
                blow_by_blow = Command(decision.seat, "set_fight_plan", {"active": False})
                command = decision.default if (pick if pick is not None else rng.randrange(2)) % 2 else blow_by_blow
            else:
                if pick is None:
                    pick = rng.randrange(len(decision.options) + 1)
                command = decision.default if pick >= len(decision.options) else decision.options[pick]
        state, events = step(RULES, state, command)
        log.extend(events)
        on_state(state)
    raise AssertionError("the fight did not end")


def _invariants(state):
    for side in state.sides:
        assert all(v >= 0 for v in side.dice), "dice never go below 0"
        if min(side.dice) == 0:
            assert max(side.dice) <= 1, "the rule of one: nothing above 1 while something is at 0"
            assert state.phase in ("ended", "over")
    if state.result is not None:
        loser = state.sides[state.result.loser]
        assert min(loser.dice) == 0


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    fighters=st.tuples(st.sampled_from(FIGHTERS), st.sampled_from(FIGHTERS)),
    kits=st.tuples(*[st.sampled_from(KIT[s]) for s in ("weapon", "armour", "special")] * 2),
    dice=st.lists(st.integers(min_value=1, max_value=6), max_size=60),
    picks=st.lists(st.integers(min_value=0, max_value=200), max_size=60),
    seed=st.integers(min_value=0, max_value=2**16),
)
def test_any_fight_ends_keeps_its_invariants_and_replays(fighters, kits, dice, picks, seed):
    options = {"fighter_i": fighters[0], "fighter_ii": fighters[1],
               "weapon_i": kits[0], "armour_i": kits[1], "special_i": kits[2],
               "weapon_ii": kits[3], "armour_ii": kits[4], "special_ii": kits[5]}
    initial = RULES.initial_state(2, options)
    final, events = _drive(initial, random.Random(seed), dice, picks, _invariants)
    outcome = RULES.outcome(final)
    assert outcome is not None and len(outcome.winners) == 1
    assert outcome.detail["kind"] in ("defeated", "injured", "decapitated")
    assert replay(RULES, initial, events) == final
    assert final.round <= final.fatigue_round + 16
