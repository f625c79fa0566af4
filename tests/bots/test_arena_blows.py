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
from engine.spartacus.arena.plan import DEFAULT_PLAN

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
        assert set(results) <= {0.0, 1.0}


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
