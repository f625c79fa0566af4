"""What a fighter may do now: reach, moves, attacks, rerolls, wound allocations.

Every choice the fight offers is computed here, once, for the decisions the players see,
for the fight plans that answer them, and for the checks of submitted commands.
"""

from __future__ import annotations

from itertools import combinations
from typing import Optional

from engine.core.types import Command
from engine.spartacus.arena.board import Hex, distance
from engine.spartacus.arena.combat import available
from engine.spartacus.arena.fighters import Power
from engine.spartacus.arena.state import FightState, SideState


def normal_reach(side: SideState) -> int:
    """"A fighter can attack its opponent when it stands on an adjacent hex" (Angreifen);
    "a trident has range 2 and lets the fighter attack over a free hex" (Reichweite)."""
    return max([1] + [p.p("hexes") for p in side.fighter.having("range")])


def speed_attacks(side: SideState) -> tuple[Power, ...]:
    """Speed-attack powers still available ("Schnelle Attacken": e.g. the Javelin)."""
    return tuple(p for p in side.fighter.having("speed_attack") if available(p, side.used))


def max_reach(side: SideState) -> int:
    return max([normal_reach(side)] + [p.p("range") for p in speed_attacks(side)])


def threat(side: SideState) -> int:
    """How far from its hex a fighter can strike this turn: its speed plus its longest reach."""
    return side.speed + max_reach(side)


def defence_pool(side: SideState) -> tuple[str, int]:
    """The dice a fighter defends with: its defence dice, or its speed dice with a
    ``speed_defence`` power while it has more of them."""
    if side.fighter.has("speed_defence") and side.speed > side.defence:
        return "speed", side.speed
    return "defence", side.defence


def attack_args_from(state: FightState, index: int, position: Hex) -> list[dict]:
    """The attacks fighter ``index`` could make from ``position``: ``{"style": "normal"}``
    within its reach, ``{"style": "speed", "source": card}`` within each speed attack's range.

    "A speed attack is made instead of the normal attack, not in addition" (Schnelle
    Attacken): both are answers to the same, single attack of the turn.
    """
    side = state.sides[index]
    return _attacks_at(distance(position, state.other(index).position), normal_reach(side), speed_attacks(side))


def _attacks_at(gap: int, reach: int, powers: tuple[Power, ...]) -> list[dict]:
    """:func:`attack_args_from` at ``gap`` hexes from the opponent, for a fighter with this
    normal ``reach`` and these speed-attack ``powers`` (the same from every hex of a turn)."""
    out = [{"style": "normal"}] if gap <= reach else []
    if powers:
        seen = set()
        for power in powers:
            if gap <= power.p("range") and power.source not in seen:
                seen.add(power.source)
                out.append({"style": "speed", "source": power.source})
    return out


def speed_attack_power(side: SideState, source: str) -> Optional[Power]:
    return next((p for p in speed_attacks(side) if p.source == source), None)


def moves(state: FightState, index: int) -> list[tuple[Hex, tuple[Hex, ...]]]:
    """Destinations (with a shortest path) for fighter ``index``: "a fighter may move at most
    as many hexes as it has speed dice" (Bewegen), never onto or through its opponent."""
    side = state.sides[index]
    return list(state.board.destinations(side.position, side.speed, blocked=(state.other(index).position,)))


def move_command(seat: int, dest: Hex, path: tuple[Hex, ...]) -> Command:
    return Command(seat, "move", {"to": [dest[0], dest[1]], "path": [[q, r] for q, r in path]})


def turn_commands(state: FightState) -> tuple[Command, ...]:
    """The active fighter's turn as one command: "each fighter moves and attacks once in a
    combat round, in any order (first move then attack, or the other way round)" (Kampfrunde).

    * ``move`` ``{"to", "path"}`` moves and ends the turn; with ``"attack": {...}`` it moves and
      then attacks from the new hex, which ends the turn too;
    * ``attack`` ``{..., "then": "stay"}`` attacks and ends the turn; ``"then": "move"`` attacks
      and keeps the move for after the roll ("to attack first and break away afterwards, out
      of reach of the counter-attack"), so the turn's second command is a move or its end;
    * ``end_turn`` ends it where the fighter stands.

    Nothing happens between a move and the attack that follows it, so they are one answer;
    the dice of an attack may change what a move afterwards should be, so that stays a choice.
    """
    index = state.active
    side = state.sides[index]
    seat = side.seat
    out: list[Command] = []
    fresh = not state.moved and not state.attacked
    if not state.attacked:
        for args in attack_args_from(state, index, side.position):
            if fresh:
                out.append(Command(seat, "attack", {**args, "then": "stay"}))
                out.append(Command(seat, "attack", {**args, "then": "move"}))
            else:  # a move made before the attack (a turn begun under the step-by-step rules)
                out.append(Command(seat, "attack", args))
    if not state.moved:
        reach, powers = normal_reach(side), speed_attacks(side)
        opponent = state.other(index).position
        for dest, path in moves(state, index):
            move = move_command(seat, dest, path)
            out.append(move)
            if fresh:
                for args in _attacks_at(distance(dest, opponent), reach, powers):
                    out.append(Command(seat, "move", {**move.args, "attack": args}))
    out.append(Command(seat, "end_turn", {}))
    return tuple(out)


def turn_is_over(state: FightState) -> bool:
    """Nothing is left to do in the active fighter's turn ("Danach endet die Kampfrunde"): it
    moved and attacked, or it attacked and chose to stay, or the one thing left is impossible."""
    if state.attacked and (state.moved or state.staying):
        return True
    index = state.active
    side = state.sides[index]
    can_attack = not state.attacked and bool(attack_args_from(state, index, side.position))
    can_move = not state.moved and bool(moves(state, index))
    return not can_attack and not can_move


# --- rerolls -----------------------------------------------------------------------------------

def roll_role(state: FightState, index: int) -> str:
    """Which roll a side's dice are, for reroll powers: initiative, attack or defence."""
    roll = state.roll
    assert roll is not None
    if roll.purpose == "initiative":
        return "initiative"
    return "attack" if index == roll.attacker else "defence"


def reroll_powers(side: SideState, role: str) -> tuple[Power, ...]:
    return tuple(p for p in side.fighter.having("reroll") if p.p("roll") == role and available(p, side.used))


def reroll_allowance(side: SideState, role: str, dice: int) -> int:
    """How many of its own dice a fighter may reroll on this roll ("Unless stated
    otherwise, rerolls can only be used on one's own rolls", Wiederholungswürfe)."""
    return min(dice, sum(p.p("dice") for p in reroll_powers(side, role)))


def spend_rerolls(side: SideState, role: str, count: int) -> tuple[str, ...]:
    """The once-per-fight powers a reroll of ``count`` dice uses up: every-roll powers are
    drawn on first, so a once-per-fight reroll is kept for when it is needed."""
    spent = []
    left = count
    for power in sorted(reroll_powers(side, role), key=lambda p: p.p("uses") == "once_per_fight"):
        if left <= 0:
            break
        left -= power.p("dice")
        if power.p("uses") == "once_per_fight":
            spent.append(power.key)
    return tuple(spent)


def reroll_subsets(dice: tuple[int, ...], allowance: int) -> list[tuple[int, ...]]:
    """The reroll choices: subsets of the dice (by position in the sorted roll) of at most
    ``allowance`` dice; subsets showing the same values are one choice (the lowest-placed
    dice of each value stand for them)."""
    out: list[tuple[int, ...]] = []
    seen: set[tuple[int, ...]] = set()
    positions = list(range(len(dice)))
    for size in range(allowance + 1):
        for subset in combinations(reversed(positions), size):
            chosen = tuple(sorted(subset))
            values = tuple(sorted(dice[i] for i in chosen))
            if values not in seen:
                seen.add(values)
                out.append(chosen)
    return out


def initiative_dice(side: SideState) -> int:
    """Speed dice rolled for the initiative: its speed plus any ``initiative_bonus``."""
    return side.speed + sum(p.p("dice") for p in side.fighter.having("initiative_bonus"))


def ready_net(side: SideState) -> Optional[Power]:
    """The fighter's net, if not thrown yet ("the Net card is exhausted", Netz)."""
    return next((p for p in side.fighter.having("net") if p.key not in side.used), None)
