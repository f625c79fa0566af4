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
from engine.spartacus.arena import choices
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
from engine.spartacus.arena.fighters import Fighter, Power
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
    """The active fighter's turn as one command (``approach`` setting): strike from where it
    stands and stay (``close``) or keep the move for after the roll (``keep_distance``), else
    move, striking from the new hex when it can."""
    index = state.active
    side, other = state.sides[index], state.other(index)
    end = Command(side.seat, "end_turn", {})
    if not state.attacked:
        attack = pick_attack(attack_args_from(state, index, side.position), side, plan)
        if attack is not None:
            if state.moved:
                return Command(side.seat, "attack", attack)
            then = "stay" if plan.approach == "close" else "move"
            return Command(side.seat, "attack", {**attack, "then": then})
    if state.moved:
        return end
    move = _move_answer(state, plan, end)
    if move.type != "move" or state.attacked:
        return move
    attack = pick_attack(attack_args_from(state, index, tuple(move.args["to"])), side, plan)
    return move if attack is None else Command(side.seat, "move", {**move.args, "attack": attack})


def _move_answer(state: FightState, plan: FightPlan, end: Command) -> Command:
    index = state.active
    side, other = state.sides[index], state.other(index)
    options = moves(state, index)
    if state.attacked:
        if plan.approach != "keep_distance":
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


def as_first(state: FightState, index: int) -> FightState:
    """The position as it would be with fighter ``index`` taking the round's first turn."""
    return evolve(state, first=index, active=index, turn=0, moved=False, attacked=False, staying=False,
                  phase="turn")


def power_answer(state: FightState, role: str, power: Power, plan: FightPlan) -> bool:
    """Use a once-per-fight extra or ignored wound on this attack? (``extra_wound`` and
    ``ignore_wound`` settings)."""
    roll = state.roll
    assert roll is not None
    setting = plan.extra_wound if power.kind == "extra_wound" else plan.ignore_wound
    if setting in ("first_chance", "never"):
        return setting == "first_chance"
    attacker, defender = state.sides[roll.attacker], state.sides[roll.defender]
    chosen = dict(roll.powers)

    def wounds(use: bool) -> int:
        outcome = resolve_attack(attacker.fighter, defender.fighter, roll.dice[roll.attacker],
                                 roll.dice[roll.defender], attacker.used, defender.used, {**chosen, power.key: use})
        return outcome.to_attacker if power.kind == "ignore_wound" and role == "attacker" else outcome.to_defender

    hurt = defender if (power.kind == "extra_wound" or role == "defender") else attacker
    without = wounds(False)
    if setting == "to_finish":
        return ends_fight(hurt.dice, wounds(True)) and not ends_fight(hurt.dice, without)
    if setting == "two_or_more":
        return without >= 2
    return ends_fight(hurt.dice, without)  # to_survive


def ends_fight(dice: tuple[int, int, int], wounds: int) -> bool:
    """Taking ``wounds`` forces an attribute to 0: under the rule of one a fighter needs three
    dice, one per attribute, to fight on (Die Regel der Eins)."""
    return wounds > 0 and sum(dice) - wounds < 3


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


def reroll_can_help(state: FightState, index: int) -> bool:
    """Could any reroll of fighter ``index``'s dice end better than keeping them, against any
    roll the opponent may end with after its own rerolls?  If not, keeping every die is the
    answer ("Nicht jeden Wurf wiederholen, den man wiederholen darf"): the dice on the table
    are public, so this is decided from public information, and nobody is asked."""
    roll = state.roll
    assert roll is not None
    me, them = state.sides[index], state.other(index)
    return _can_help(choices.roll_role(state, index), me.fighter, them.fighter, me.used, them.used,
                     roll.dice[index], roll.allowance[index], roll.dice[1 - index], roll.allowance[1 - index])


@functools.lru_cache(maxsize=16384)
def _can_help(role: str, me: Fighter, them: Fighter, used_me: tuple[str, ...], used_them: tuple[str, ...],
              own: tuple[int, ...], allowance: int, other: tuple[int, ...], other_allowance: int) -> bool:
    if role == "initiative":
        def value(mine: tuple[int, ...], theirs: tuple[int, ...]) -> float:
            return _initiative_value(sum(mine), sum(theirs))
    elif role == "attack":
        def value(mine: tuple[int, ...], theirs: tuple[int, ...]) -> float:
            return _exchange(me, them, mine, theirs, used_me, used_them)
    else:
        def value(mine: tuple[int, ...], theirs: tuple[int, ...]) -> float:
            return -_exchange(them, me, theirs, mine, used_them, used_me)
    mine = _finals(own, allowance) - {own}
    for theirs in _finals(other, other_allowance):
        keep = value(own, theirs)
        if any(value(m, theirs) > keep for m in mine):
            return True
    return False


def _finals(dice: tuple[int, ...], allowance: int) -> set[tuple[int, ...]]:
    """Every roll ``dice`` can end as after rerolling at most ``allowance`` of them."""
    out = {dice}
    for subset in reroll_subsets(dice, allowance):
        keep = [v for i, v in enumerate(dice) if i not in subset]
        for new in product(range(1, 7), repeat=len(subset)):
            out.add(tuple(sorted(keep + list(new), reverse=True)))
    return out


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

