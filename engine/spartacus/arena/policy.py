"""How a fight plan answers each decision of the fight.

Every function returns an answer that is among the legal options the decision lists
(:mod:`engine.spartacus.arena.choices`), so a planned answer is always a legal move.
Ties between equally good choices go to the shorter path, then to the board's order, so a
plan always answers the same way in the same position.
"""

from __future__ import annotations

import functools
from itertools import product
from typing import Optional

from engine.core.types import Command
from engine.spartacus.arena.board import Hex, distance
from engine.spartacus.arena.choices import (
    attack_args_from,
    max_reach,
    move_command,
    moves,
    reroll_subsets,
    roll_role,
    threat,
)
from engine.spartacus.arena.combat import allocate_in_order, legal_allocations, resolve_attack
from engine.spartacus.arena.fighters import Fighter
from engine.spartacus.arena.plan import FightPlan
from engine.spartacus.arena.state import FightState, SideState, evolve


def pick_attack(options: list[dict], side: SideState, plan: FightPlan) -> Optional[dict]:
    """The attack the plan makes among ``options`` (``speed_attack`` setting)."""
    normal = next((o for o in options if o["style"] == "normal"), None)
    speeds = [o for o in options if o["style"] == "speed"]
    if plan.speed_attack == "never" or not speeds:
        return normal
    if plan.speed_attack == "when_out_of_reach":
        return normal or speeds[0]
    if side.speed > side.attack or normal is None:
        return speeds[0]
    return normal


def strike_spots(state: FightState, index: int, plan: FightPlan) -> list[tuple[Hex, tuple[Hex, ...], dict]]:
    """Hexes (staying put first) from which the fighter could make the plan's attack this turn."""
    side = state.sides[index]
    spots = []
    here = pick_attack(attack_args_from(state, index, side.position), side, plan)
    if here is not None and not state.attacked:
        spots.append((side.position, (), here))
    if not state.moved:
        reach = max_reach(side)
        opponent = state.other(index).position
        for dest, path in moves(state, index):
            if distance(dest, opponent) > reach:
                continue
            attack = pick_attack(attack_args_from(state, index, dest), side, plan)
            if attack is not None:
                spots.append((dest, path, attack))
    return spots


def can_strike(state: FightState, index: int, plan: FightPlan) -> bool:
    """Whether the fighter, moving now, could attack this turn."""
    side = state.sides[index]
    opponent = state.other(index).position
    if distance(side.position, opponent) > threat(side):
        return False
    return bool(strike_spots(evolve(state, moved=False, attacked=False), index, plan))


def net_answer(state: FightState, index: int, plan: FightPlan) -> bool:
    """Throw the net this round? (``net`` setting)."""
    side, other = state.sides[index], state.other(index)
    if plan.net == "first_round":
        return state.round == 1
    if plan.net == "when_in_reach":
        return can_strike(state, index, plan)
    if plan.net == "when_behind":
        return side.total < other.total
    return False


def order_answer(state: FightState, index: int, plan: FightPlan) -> bool:
    """Move first? (``initiative`` setting; ``auto``: first exactly when it can strike)."""
    if plan.initiative == "first":
        return True
    if plan.initiative == "second":
        return False
    return can_strike(state, index, plan)


def turn_answer(state: FightState, plan: FightPlan) -> Command:
    """The active fighter's next step (``approach`` setting)."""
    index = state.active
    side, other = state.sides[index], state.other(index)
    end = Command(side.seat, "end_turn", {})
    if not state.attacked:
        attack = pick_attack(attack_args_from(state, index, side.position), side, plan)
        if attack is not None:
            return Command(side.seat, "attack", attack)
    if state.moved:
        return end
    options = moves(state, index)
    if state.attacked:
        if plan.approach == "close":
            return end
        return _best_move(side, options, end, lambda dest: distance(dest, other.position))
    if plan.approach == "keep_distance":
        danger = threat(other)
        safe = [(d, p) for d, p in [(side.position, ())] + options if distance(d, other.position) > danger]
        if safe:
            return _best_move(side, safe, end, lambda dest: -distance(dest, other.position))
    spots = [(d, p) for d, p, _ in strike_spots(state, index, plan) if p]
    if spots:
        return _best_move(side, spots, end, lambda dest: distance(dest, other.position))
    return _best_move(side, [(side.position, ())] + options, end, lambda dest: -distance(dest, other.position))


def _best_move(side: SideState, options: list[tuple[Hex, tuple[Hex, ...]]], end: Command, score) -> Command:
    """The option with the highest ``score``, then the shortest path, then board order;
    staying where it stands ends the turn."""
    best = None
    for dest, path in options:
        key = (score(dest), -len(path))
        if best is None or key > best[0]:
            best = (key, dest, path)
    if best is None or best[1] == side.position:
        return end
    return move_command(side.seat, best[1], best[2])


def wounds_answer(dice: tuple[int, int, int], count: int, plan: FightPlan) -> tuple[int, int, int]:
    """Which dice to remove (``wound_order`` and ``spread``), within the rule of one."""
    choice = allocate_in_order(dice, count, plan.wound_order, plan.spread)
    legal = legal_allocations(dice, count)
    return choice if choice in legal else legal[0]


def reroll_answer(state: FightState, index: int, plan: FightPlan) -> tuple[int, ...]:
    """Which of its dice to reroll (``reroll`` setting), as one of the listed subsets."""
    roll = state.roll
    assert roll is not None
    own = roll.dice[index]
    options = reroll_subsets(own, roll.allowance[index])
    if plan.reroll == "never":
        return ()
    if plan.reroll == "lowest":
        low = [i for i in range(len(own) - 1, -1, -1) if own[i] <= 3][: roll.allowance[index]]
        wanted = tuple(sorted(own[i] for i in low))
        return next(o for o in options if tuple(sorted(own[i] for i in o)) == wanted)
    role = roll_role(state, index)
    other = roll.dice[1 - index]
    if role == "initiative":
        return _best_reroll(options, own, lambda d: _initiative_value(sum(d), sum(other)))
    me, them = state.sides[index], state.other(index)
    if role == "attack":
        return _best_reroll(options, own, lambda d: _exchange(me.fighter, them.fighter, d, other, me.used, them.used))
    return _best_reroll(options, own, lambda d: -_exchange(them.fighter, me.fighter, other, d, them.used, me.used))


def _initiative_value(mine: int, theirs: int) -> float:
    return 1.0 if mine > theirs else 0.5 if mine == theirs else 0.0


@functools.lru_cache(maxsize=65536)
def _exchange(attacker: Fighter, defender: Fighter, attack: tuple[int, ...], defence: tuple[int, ...],
              used_a: tuple[str, ...], used_d: tuple[str, ...]) -> int:
    """Wounds to the defender minus wounds to the attacker, for a final roll."""
    outcome = resolve_attack(attacker, defender, attack, defence, used_a, used_d)
    return outcome.to_defender - outcome.to_attacker


def _best_reroll(options: list[tuple[int, ...]], own: tuple[int, ...], value) -> tuple[int, ...]:
    """The subset with the best expected ``value`` over every result of the rerolled dice;
    rerolling nothing wins ties, then fewer dice."""
    best: tuple[float, tuple[int, ...]] | None = None
    for subset in options:
        keep = [v for i, v in enumerate(own) if i not in subset]
        outcomes = list(product(range(1, 7), repeat=len(subset)))
        expected = sum(value(tuple(sorted(keep + list(new), reverse=True))) for new in outcomes) / len(outcomes)
        if best is None or expected > best[0] + 1e-9:
            best = (expected, subset)
    assert best is not None
    return best[1]

