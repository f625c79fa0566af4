"""What an arena bot knows: the fighter's standing plan, and what the other side hides.

A fight step lists the engine's ``suggested`` answer for the fighter's plan
(:mod:`engine.spartacus.arena.policy`): the plan is the fight sense, and the rollouts
follow it for both fighters.  ``easy`` and ``normal`` fight by the default plan, set at
the duel's first question.  ``hard`` fights blow by blow and answers each decision by
fighting the fight out from the actual position after each candidate answer, followed by
the default plan or another plan (keeping its distance, letting the other come, losing
defence dice first), hundreds of times on common dice, scored by the win and the dice
left (:mod:`engine.spartacus.arena.blows`).  A position is judged by the
fighters' remaining dice ("a fighter with an attribute at 0 is defeated").

Secret from the other seat: a fighter's standing plan, its net declaration and its reroll
choice until revealed.  The redaction withdraws the other fighter's, so a world plays the
other side by the default plan.
"""

from __future__ import annotations

from typing import Any

from engine.core.search import Budget
from engine.spartacus.arena import blows
from engine.core.types import Command, Decision
from engine.spartacus.arena.state import FightState
from engine.core.records import evolve

#: Fights fought out per decision at ``hard``: a fight in which a fighter keeps its
#: distance lasts about twice as long as one closing in, so 192 keep a decision's p99
#: under one second of one core (256 took 1.15 s under a load average of 7).
HARD_FIGHTS = 192

#: Search budgets per level (fights are short: rollouts go to the end).  ``hard``: fights
#: fought out per decision, enough to fight blow by blow (:data:`blows.BLOW_BY_BLOW_FROM`).
BUDGETS = {
    "normal": Budget(iterations=24, depth=0),
    "hard": Budget(iterations=HARD_FIGHTS, depth=0),
}

#: The most answers of one fight step the search compares.
MAX_CANDIDATES = 6


def redact_fight(fight: FightState, seat: int) -> FightState:
    """The other fighter's standing plan, net declaration and reroll choice are secret."""
    sides = tuple(s if s.seat == seat else evolve(s, plan=None) for s in fight.sides)
    changes: dict[str, Any] = {"sides": sides}
    if fight.phase == "nets":
        changes["nets"] = tuple(n if s.seat == seat else None for n, s in zip(fight.nets, fight.sides))
    if fight.roll is not None and fight.phase == "reroll":
        choices = tuple(c if s.seat == seat else None for c, s in zip(fight.roll.choices, fight.sides))
        changes["roll"] = evolve(fight.roll, choices=choices)
    return evolve(fight, **changes)


def policy(state: Any, decision: Decision, rng: Any) -> Command:
    """The plan's suggestion, else the decision's default."""
    suggested = decision.context.get("suggested") if decision.context else None
    if suggested is not None:
        return Command(decision.seat, suggested["type"], dict(suggested["args"]))
    return decision.default


def candidates(state: Any, decision: Decision, rng: Any) -> list[Command]:
    first = policy(state, decision, rng)
    others = [c for c in (decision.options or ()) if c != first]
    return [first] + others[:MAX_CANDIDATES - 1]


def evaluate(state: FightState, seat: int) -> float:
    mine = sum(s.total for s in state.sides if s.seat == seat)
    theirs = sum(s.total for s in state.sides if s.seat != seat)
    return (mine + 1) / (mine + theirs + 2)


class ArenaKnowledge:
    """The :class:`engine.core.search.Knowledge` of the arena duel."""

    budgets = BUDGETS

    def redact(self, state: FightState, seat: int) -> FightState:
        return redact_fight(state, seat)

    def determinize(self, redacted: FightState, seat: int, rng: Any) -> FightState:
        return redacted  # nothing else is hidden: dice are public once rolled

    def candidates(self, state: FightState, decision: Decision, rng: Any) -> list[Command]:
        return candidates(state, decision, rng)

    def policy(self, state: FightState, decision: Decision, rng: Any) -> Command:
        return policy(state, decision, rng)

    def evaluate(self, state: FightState, seat: int) -> float:
        return evaluate(state, seat)

    def search(self, rules: Any, state: FightState, decision: Decision, rng: Any, budget: Budget) -> Command:
        return blows.choose(rules, state, decision, rng, budget, policy(state, decision, rng))


KNOWLEDGE = ArenaKnowledge()
