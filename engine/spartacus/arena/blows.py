"""Fighting blow by blow: how the searching arena bot answers each decision of a fight.

A fight plan answers every decision by a fixed rule (:mod:`engine.spartacus.arena.policy`).
A fighter who fights blow by blow is asked instead, and the bot answers each question by
*rollouts* (Bertsekas's rollout algorithm, one step of policy improvement over a set of
plans): each candidate answer is played, then the fight is fought out to the end, many
times, and the candidate that ends best is given.  A candidate is an answer *and the plan
the fighter follows after it*: the answer of each plan of :data:`PLANS` followed by that
plan, and every other answer worth trying (:func:`answers`) followed by the default plan.
A single plan is a poor yardstick in a lopsided duel: a Crixus closing in on Spartacus
by the default plan wins about 16 % of fights, one keeping his distance about 33 %; one
step of improvement over the default plan alone cannot find that, since every rollout
closes in again after the first answer.  Since the default plan's own answer, followed by
the default plan, is among the candidates and the bot departs from it only on a clear
margin, the bot fights at least about as well as its plan.

A rollout scores a won fight 1 and a lost one 0, plus a small term for the dice the
fighter has left over the other's (:func:`score`): from the underdog's side nearly every
fight is lost and from the favourite's nearly every one won, and the dice left still tell
a close fight from a hopeless one, so the answers differ in far fewer fights.

Fights are noisy, so the answers are compared on **common random numbers**: rollout
``k`` of every answer rolls the same dice for the same chance step (the ``n``-th roll of
the fight, by name), so the difference between two answers is mostly the difference
their choices make, not their luck.  The answers are narrowed by *successive halving*:
each round plays every answer still in the race on the next batch of seeds and drops the
worse half and every answer not ahead of the plan's suggestion on the same dice, so most
rollouts go to the answers that matter, and a decision where the plan is clearly right
ends early.

The other fighter is modelled as fighting by the default plan.  Its standing plan, net
declaration and reroll choice are secret (the bot reads the redacted state only); the
rollouts give it the default plan, which answers those choices again from what is public.

No clock is read: the budget is a number of fights, and ``should_stop`` may end the
search early (the service uses it to bound wall time).
"""

from __future__ import annotations

import math
from typing import Any, Callable, Optional

from engine.core.chance import RESOLVE_CHANCE
from engine.core.search import Budget
from engine.core.types import SYSTEM_SEAT, Command, Decision
from engine.spartacus.arena import flow, policy
from engine.spartacus.arena.combat import ATTRIBUTES
from engine.spartacus.arena.plan import DEFAULT_PLAN, FightPlan
from engine.spartacus.arena.state import FightState, evolve

#: A budget of at least this many fights per decision fights blow by blow (``hard``);
#: a smaller one fights by the default plan, set once (``normal``).
BLOW_BY_BLOW_FROM = 100

#: How far (in standard errors of the paired difference) another answer must beat the
#: plan's suggestion over the same dice before the bot departs from the plan.
MARGIN = 1.0

#: Fights per answer in the first round of the halving (fewer if the budget is short).
FIRST_ROUND = 8

#: A decision with at most this many options has every one fought out.
SMALL = 8

#: The plans whose answers to a turn are fought out: each way to approach, to take the
#: initiative and to use a speed attack.
TURN_VARIANTS = tuple(FightPlan(approach=a, initiative=i, speed_attack=s)
                      for a in ("close", "keep_distance") for i in ("auto", "first", "second")
                      for s in ("never", "when_out_of_reach", "when_stronger"))

#: The plans the fighter may follow after an answer, besides the default: each approach
#: (closing in or keeping its distance), initiative (``auto``, or letting the other come)
#: and which dice go first to wounds (speed or defence).  Measured as whole plans against
#: the default plan (400 fights each, Spartacus against Crixus), keeping the distance with
#: defence dice lost first won 33 % as Crixus (the default plan: 16 %), and keeping the
#: distance moving second 89 % as Spartacus (84 %).
PLANS = tuple(FightPlan(approach=a, initiative=i, wound_order=w)
              for a in ("close", "keep_distance") for i in ("auto", "second")
              for w in (("speed", "defence", "attack"), ("defence", "speed", "attack")))[1:]

#: The weight of the dice left in a rollout's score (:func:`score`); a win stays worth more.
SHAPE = 0.25

#: Dice of a full fighter: the scale of the dice left in :func:`score`.
FULL_DICE = 12

#: The answer that sets no plan: every decision of the fight is then asked.
BLOW_BY_BLOW = {"active": False}


def fights_blow_by_blow(budget: Budget) -> bool:
    return budget.iterations >= BLOW_BY_BLOW_FROM


def choose(rules: Any, state: FightState, decision: Decision, rng: Any, budget: Budget,
           suggested: Command) -> Command:
    """The answer to ``decision`` of the redacted ``state``: at the duel's first question,
    blow by blow or the plan; later, the answer of the candidate (:func:`candidates`) whose
    fights out of ``budget`` end best (:func:`score`)."""
    if decision.command_type == "set_fight_plan" and decision.options is None:
        if fights_blow_by_blow(budget) and decision.mode != "free":
            return Command(decision.seat, "set_fight_plan", dict(BLOW_BY_BLOW))
        return suggested
    if suggested not in (decision.options or ()):
        return suggested
    tried = candidates(state, decision, suggested)
    if len(tried) == 1:
        return suggested
    base = rng.randrange(1 << 30)
    seat = decision.seat
    results: list[list[float]] = [[] for _ in tried]
    alive = list(range(len(tried)))
    spent, per = 0, max(1, min(FIRST_ROUND, budget.iterations // len(tried)))
    while True:
        for i in alive:
            command, plan = tried[i]
            for k in range(len(results[i]), per):
                if spent and budget.should_stop is not None and budget.should_stop():
                    return tried[_pick(results, alive)][0]
                results[i].append(fight_out(rules, state, command, seat, base + k, type(rng), plan))
                spent += 1
        left = budget.iterations - spent
        if len(alive) == 1 or left <= 0:
            return tried[_pick(results, alive)][0]
        # the better half stays in the race, and only answers ahead of the suggestion on the
        # same dice; the suggestion stays as the yardstick
        yardstick = _mean(results[0][:per])
        ranked = sorted(alive, key=lambda i: (-_mean(results[i][:per]), i))[:max(1, len(alive) // 2)]
        alive = sorted({i for i in ranked if _mean(results[i][:per]) > yardstick} | {0})
        rounds_left = max(1, math.ceil(math.log2(len(alive))))
        per += max(1, left // (len(alive) * rounds_left))


def candidates(state: FightState, decision: Decision, suggested: Command) -> list[tuple[Command, FightPlan]]:
    """What is fought out: pairs of an answer and the plan the fighter follows after it.
    First the default plan's answer (the yardstick), then each plan of :data:`PLANS` with
    its own answer, then the other answers worth trying (:func:`answers`), each followed by
    the default plan."""
    out: list[tuple[Command, FightPlan]] = [(suggested, DEFAULT_PLAN)]
    listed = list(decision.options or ())
    for plan in PLANS:
        answer = plan_answer(state, decision, plan)
        if answer in listed and (answer, plan) not in out:
            out.append((answer, plan))
    for answer in answers(state, decision):
        if (answer, DEFAULT_PLAN) not in out:
            out.append((answer, DEFAULT_PLAN))
    return out


def plan_answer(state: FightState, decision: Decision, plan: FightPlan) -> Optional[Command]:
    """The answer ``plan`` gives to ``decision`` (what :mod:`engine.spartacus.arena.flow`
    suggests for the default plan, for any plan), or ``None`` for a decision no plan answers."""
    now = flow.advanced(state)
    seat = decision.seat
    index = now.side_of_seat(seat)
    kind = decision.prompt_key.rsplit(".", 1)[-1] if decision.prompt_key else ""
    if kind == "turn":
        return policy.turn_answer(now, plan)
    if kind == "choose_order":
        if policy.order_answer(now, index, plan):
            return policy.turn_answer(policy.as_first(now, index), plan)
        return Command(seat, "choose_order", {"first": False})
    if kind == "allocate_wounds":
        due = now.wounds[0]
        alloc = policy.wounds_answer(now.sides[due.side].dice, due.count, plan)
        return Command(seat, "allocate_wounds", dict(zip(ATTRIBUTES, alloc)))
    if kind == "use_net":
        return Command(seat, "use_net", {"use": policy.net_answer(now, index, plan)})
    if kind == "reroll":
        return Command(seat, "reroll", {"dice": list(policy.reroll_answer(now, index, plan))})
    if kind == "use_power":
        question = flow.power_question(now)
        if question is None:
            return None
        return Command(seat, "use_power", {"use": policy.power_answer(now, question[1], question[2], plan)})
    return None


def answers(state: FightState, decision: Decision) -> list[Command]:
    """The answers worth fighting out: every listed option of a small decision (nets,
    powers, rerolls, wounds); for a turn, which lists every hex and attack, the answers of
    the plan's variants (:data:`TURN_VARIANTS`), in the order of the options."""
    options = list(decision.options or ())
    kind = decision.prompt_key.rsplit(".", 1)[-1] if decision.prompt_key else ""
    if len(options) <= SMALL or kind not in ("turn", "choose_order"):
        return options
    now = flow.advanced(state)
    index = now.side_of_seat(decision.seat)
    wanted: list[Command] = []
    for plan in TURN_VARIANTS:
        if kind == "turn":
            wanted.append(policy.turn_answer(now, plan))
        elif policy.order_answer(now, index, plan):
            wanted.append(policy.turn_answer(policy.as_first(now, index), plan))
        else:
            wanted.append(Command(decision.seat, "choose_order", {"first": False}))
    return [o for o in options if o in wanted]


def _mean(values: list[float]) -> float:
    return sum(values) / len(values) if values else 0.0


def _pick(results: list[list[float]], alive: list[int]) -> int:
    """The best candidate still in the race, if it beats the suggestion (``results[0]``) by
    :data:`MARGIN` standard errors of the paired difference over the same seeds, else 0."""
    base = results[0]
    best, best_score = 0, 0.0
    for i in alive:
        if i == 0:
            continue
        n = min(len(results[i]), len(base))
        if n < 2:
            continue
        diffs = [a - b for a, b in zip(results[i][:n], base[:n])]
        mean = sum(diffs) / n
        var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
        se = math.sqrt(var / n) if var > 0 else 0.0
        score = mean / se if se else (math.inf if mean > 0 else 0.0)
        if mean > 0 and score > MARGIN and (best == 0 or mean > best_score):
            best, best_score = i, mean
    return best


def fight_out(rules: Any, state: FightState, command: Command, seat: int, seed: int,
              generator: Callable[[str], Any], plan: FightPlan = DEFAULT_PLAN) -> float:
    """How ``seat`` ends the fight after ``command``, then fighting by ``plan`` against the
    default plan (:func:`score`); the ``n``-th chance step draws from ``seed`` and ``n``
    alone (common random numbers: every answer meets the same dice).  ``generator`` makes a
    generator from a string seed: the class of the generator the caller injected, so the
    engine makes no randomness of its own."""
    state = rules.decide_and_fold(state, command)[0]
    state = evolve(state, sides=tuple(evolve(s, plan=plan if s.seat == seat else DEFAULT_PLAN)
                                      for s in state.sides))
    for _ in range(flow.MAX_AUTOMATIC_STEPS):
        if state.result is not None:
            return score(state, seat)
        request = flow.pending(state).chance
        if request is None:
            return 0.5  # cannot happen with both fighters planned; a draw if it ever did
        outcome = {name: _dice(generator(f"{seed}:{request.id}:{name}"), draw.count, draw.sides)
                   for name, draw in request.draws.items()}
        state = rules.decide_and_fold(state, Command(SYSTEM_SEAT, RESOLVE_CHANCE,
                                                    {"id": request.id, "outcome": outcome}))[0]
    return 0.5


def score(state: FightState, seat: int) -> float:
    """1 for a won fight, 0 for a lost one, plus :data:`SHAPE` times the dice ``seat`` has
    left over the other's, per die of a full fighter: a loss by one die then scores above a
    loss by six, and answers differ even where nearly every fight is won or lost."""
    assert state.result is not None
    won = 1.0 if state.result.winner_seat == seat else 0.0
    mine = sum(s.total for s in state.sides if s.seat == seat)
    theirs = sum(s.total for s in state.sides if s.seat != seat)
    return won + SHAPE * (mine - theirs) / FULL_DICE


def _dice(generator: Any, count: int, sides: int) -> list[int]:
    draw = generator.randrange
    return [draw(sides) + 1 for _ in range(count)]
