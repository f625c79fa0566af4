"""The hard arena bot fights blow by blow (engine/spartacus/arena/blows.py): it says so at
the duel's first question, answers each later decision with one of the listed options,
compares answers on common dice, and departs from its plan only on a clear margin."""

from __future__ import annotations

import random

from engine import registry
from engine.core import bots
from engine.core.game import step
from engine.core.playout import resolve_chance_command
from engine.core.search import Budget, next_decision
from engine.core.types import Command
from engine.spartacus.arena import blows
from engine.spartacus.arena.plan import DEFAULT_PLAN, FightPlan
from engine.spartacus.arena.state import FightResult, evolve

RULES = registry.get("spartacus_arena")
KNOWLEDGE = registry.bot_knowledge("spartacus_arena")


def _answer(state, decision, level, seed=0, **kw):
    return bots.answer(RULES, KNOWLEDGE, state, decision, random.Random(seed), level=level, **kw)


def _blow_by_blow_position(seed: int = 4):
    """Fighter I fights blow by blow, fighter II by the default plan: the first decision of
    fighter I with more than one answer."""
    state = RULES.initial_state(2, {})
    state = step(RULES, state, Command(0, "set_fight_plan", {"active": False}))[0]
    state = step(RULES, state, Command(1, "set_fight_plan", DEFAULT_PLAN.to_json()))[0]
    rng = random.Random(seed)
    while True:
        chance = resolve_chance_command(RULES, state, rng.randrange)
        if chance is not None:
            state = step(RULES, state, chance)[0]
            continue
        decision = next_decision(RULES, state)
        assert decision is not None and decision.seat == 0
        if len(decision.options or ()) > 1:
            return state, decision
        state = step(RULES, state, decision.options[0])[0]


def test_hard_fights_blow_by_blow_the_others_by_the_default_plan():
    state = RULES.initial_state(2, {})
    decision = next_decision(RULES, state)
    assert _answer(state, decision, "hard").args == blows.BLOW_BY_BLOW
    for level in ("easy", "normal"):
        assert _answer(state, decision, level).args == DEFAULT_PLAN.to_json()


def test_hard_answers_a_blow_with_a_listed_option_and_stops_when_told():
    state, decision = _blow_by_blow_position()
    assert _answer(state, decision, "hard", iterations=blows.BLOW_BY_BLOW_FROM) in decision.options
    polls = []

    def stop() -> bool:
        polls.append(1)
        return True

    command = bots.answer(RULES, KNOWLEDGE, state, decision, random.Random(1), level="hard", should_stop=stop)
    assert command in decision.options
    assert len(polls) == 1  # one fight fought out, then the answer


def test_every_answer_meets_the_same_dice():
    state, decision = _blow_by_blow_position()
    redacted = KNOWLEDGE.redact(state, 0)
    for option in decision.options[:3]:
        results = [blows.fight_out(RULES, redacted, option, 0, seed, random.Random) for seed in range(4)]
        assert results == [blows.fight_out(RULES, redacted, option, 0, seed, random.Random) for seed in range(4)]
        # a win or a loss, give or take the dice left (at most SHAPE either way)
        assert all(min(abs(r), abs(r - 1.0)) <= blows.SHAPE for r in results)


def test_the_plan_is_left_only_on_a_clear_margin():
    # better on average, but by luck: won two fights the plan lost, lost one it won
    noisy = [[0.0, 0.0, 1.0] + [0.0] * 9, [1.0, 1.0, 0.0] + [0.0] * 9]
    assert blows._pick(noisy, [0, 1]) == 0
    # better on the same dice time after time
    clear = [[0.0, 1.0] * 10, [1.0, 1.0] * 10]
    assert blows._pick(clear, [0, 1]) == 1
    # worse: never chosen
    assert blows._pick([clear[1], clear[0]], [0, 1]) == 0


def test_a_small_budget_fights_by_the_plan():
    assert blows.fights_blow_by_blow(KNOWLEDGE.budgets["hard"])
    assert not blows.fights_blow_by_blow(KNOWLEDGE.budgets["normal"])
    assert not blows.fights_blow_by_blow(Budget(iterations=blows.BLOW_BY_BLOW_FROM - 1))


def test_a_short_budget_is_kept_whatever_the_number_of_answers(monkeypatch):
    state, decision = _blow_by_blow_position()
    fought = []
    real = blows.fight_out

    def counted(*args):
        fought.append(1)
        return real(*args)

    monkeypatch.setattr(blows, "fight_out", counted)
    redacted = KNOWLEDGE.redact(state, 0)
    candidates = blows.answers(redacted, decision)
    assert 1 < len(candidates) <= len(decision.options)
    command = _answer(state, decision, "normal", iterations=12)
    assert command in decision.options
    assert len(fought) <= 12 + len(candidates)


def test_every_plan_answers_as_the_engine_suggests_for_the_default_plan():
    """The search asks each plan for its answer; for the default plan that is the answer
    the decision suggests, at every decision of seeded fights fought blow by blow."""
    asked = 0
    for seed in range(6):
        state = RULES.initial_state(2, {})
        for seat in (0, 1):
            state = step(RULES, state, Command(seat, "set_fight_plan", {"active": False}))[0]
        rng = random.Random(seed)
        while state.result is None:
            chance = resolve_chance_command(RULES, state, rng.randrange)
            if chance is not None:
                state = step(RULES, state, chance)[0]
                continue
            decision = next_decision(RULES, state)
            suggested = decision.context["suggested"]
            redacted = KNOWLEDGE.redact(state, decision.seat)
            assert blows.plan_answer(redacted, decision, DEFAULT_PLAN) == \
                Command(decision.seat, suggested["type"], suggested["args"])
            for plan in blows.PLANS:
                assert blows.plan_answer(redacted, decision, plan) in decision.options
            asked += 1
            state = step(RULES, state, rng.choice(decision.options))[0]
    assert asked > 30


def test_a_close_loss_scores_above_a_heavy_one_and_below_any_win():
    state, _ = _blow_by_blow_position()
    lost = FightResult(winner=1, loser=0, winner_seat=1, loser_seat=0, winner_card="crixus",
                       loser_card="spartacus", kind="defeated", zeros=("speed",), rounds=3,
                       cause="wounds", exhausted=())

    def ended(mine, theirs):
        sides = (evolve(state.sides[0], dice=mine), evolve(state.sides[1], dice=theirs))
        return evolve(state, sides=sides, result=lost)

    close = blows.score(ended((2, 1, 0), (1, 1, 1)), 0)
    heavy = blows.score(ended((1, 0, 0), (4, 3, 3)), 0)
    won_barely = blows.score(ended((1, 1, 1), (4, 3, 3)), 1)
    assert heavy < close < 0.5 < won_barely
    assert blows.score(ended((2, 1, 0), (1, 1, 1)), 1) < blows.score(ended((1, 0, 0), (4, 3, 3)), 1)


def test_the_search_prefers_the_plan_that_loses_by_less(monkeypatch):
    """Where every answer loses every fight, the dice left tell them apart: the search
    follows the plan whose fights end closest, not the first one listed."""
    state, decision = _blow_by_blow_position()
    redacted = KNOWLEDGE.redact(state, 0)
    tried = blows.candidates(redacted, decision, blows.plan_answer(redacted, decision, DEFAULT_PLAN))
    assert len(tried) > 1
    best = tried[-1]

    def fought(rules, state, command, seat, seed, generator, plan=DEFAULT_PLAN):
        # a loss every time; the chosen candidate loses by one die, the others by six
        return -blows.SHAPE * (1 if (command, plan) == best else 6) / blows.FULL_DICE

    monkeypatch.setattr(blows, "fight_out", fought)
    assert _answer(state, decision, "hard") == best[0]


def test_the_plans_followed_keep_the_rules_defaults():
    # only the approach, the initiative and the order of losing dice differ from the default
    assert DEFAULT_PLAN not in blows.PLANS
    for plan in blows.PLANS:
        assert {k: v for k, v in plan.to_json().items()
                if k not in ("approach", "initiative", "wound_order")} == \
            {k: v for k, v in DEFAULT_PLAN.to_json().items() if k not in ("approach", "initiative", "wound_order")}
