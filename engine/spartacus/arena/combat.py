"""The rules of the arena fight as pure functions: dice comparison, pairs and triples,
attack resolution with every combat power, the rule of one, and defeat.

Section names are those of the German rulebook ("Regeln des Arenakampfes", "Weitere
Beispiele", "Besiegt", "Spezialfähigkeiten"); quotes are short English renderings.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Iterable, Mapping, Optional, Sequence

from engine.spartacus.arena.fighters import Fighter, Power

ATTRIBUTES = ("attack", "defence", "speed")

#: Result kinds, by the number of attributes at 0 ("Besiegt").
KINDS_BY_ZEROS = {1: "defeated", 2: "injured", 3: "decapitated"}

#: Unblocked attack dice wound on this value or more ("Unverteidigte Angriffswürfel").
UNBLOCKED_WOUNDS_FROM = 3


def sort_high(values: Iterable[int]) -> tuple[int, ...]:
    """Dice lined up "beginning with the highest and ending with the lowest"."""
    return tuple(sorted(values, reverse=True))


@dataclass(frozen=True)
class Comparison:
    """Attack against defence: ``pairs`` (attack die, defence die, wounded?), the
    ``unblocked`` attack dice (die, wounded?), the ``unused`` defence dice, ``hits``."""

    pairs: tuple[tuple[int, int, bool], ...]
    unblocked: tuple[tuple[int, bool], ...]
    unused: tuple[int, ...]
    hits: int


def compare(attack: Sequence[int], defence: Sequence[int], *, attacker_wins_ties: bool = False) -> Comparison:
    """Compare an attack roll with a defence roll (Angreifen).

    "The dice of attacker and defender are compared one by one in descending order, the
    highest with the highest ... If the attacker's number is higher than the defender's,
    it causes a wound. On a tie the defender wins."  "Unblocked attack dice: each attack
    die without a defence die causes a wound on 3+; on 1 or 2 the attack fails."  "Surplus
    defence dice: only the highest are counted, the lowest are ignored."  A ``wins_ties``
    power ("the card text takes precedence", Spezialfähigkeiten) lets the attacker win tied pairs.
    """
    a, d = sort_high(attack), sort_high(defence)
    pairs = tuple(
        (x, y, x > y or (attacker_wins_ties and x == y)) for x, y in zip(a, d)
    )
    unblocked = tuple((x, x >= UNBLOCKED_WOUNDS_FROM) for x in a[len(d):])
    unused = d[len(a):]
    hits = sum(1 for *_, hit in pairs if hit) + sum(1 for _, hit in unblocked if hit)
    return Comparison(pairs, unblocked, unused, hits)


def count_sets(values: Sequence[int], *, pairs: bool, triples: bool) -> tuple[int, int]:
    """How many disjoint pairs and triples a roll holds (Zweier- & Dreierpasch).

    "Each die can only be used once to make a double or a triple. Three 5s count either as
    a double or as a triple, but not as several doubles."  When a fighter has powers on
    both, triples are counted first and pairs among the dice left over.
    """
    counts = Counter(values)
    n_triples = sum(c // 3 for c in counts.values()) if triples else 0
    if triples:
        counts = Counter({v: c % 3 for v, c in counts.items()})
    n_pairs = sum(c // 2 for c in counts.values()) if pairs else 0
    return n_pairs, n_triples


def _trigger(power: Power) -> str:
    return dict(power.params).get("trigger", "always")


def _sets_for(power: Power, sets: tuple[int, int]) -> int:
    trigger = _trigger(power)
    if trigger == "always":
        return 1
    return sets[0] if trigger.endswith("doubles") else sets[1]


def _roll_sets(fighter: Fighter, roll: Sequence[int], prefix: str) -> tuple[int, int]:
    triggers = {_trigger(p) for p in fighter.powers if _trigger(p).startswith(prefix)}
    return count_sets(roll, pairs=f"{prefix}_doubles" in triggers, triples=f"{prefix}_triples" in triggers)


def optional(power: Power) -> bool:
    """A once-per-fight extra or ignored wound (Gladius, Brawler, Lorica, Bodyguard): the card
    says the fighter *may* use it once, so its player chooses the blow ("Some items can be
    used in every combat round, others only once per fight", Fähigkeiten von Ausrüstung)."""
    return power.kind in ("extra_wound", "ignore_wound") and dict(power.params).get("uses") == "once_per_fight"


def available(power: Power, used: Iterable[str]) -> bool:
    """A power is spent only if it works "once per fight" and was used ("Some items can
    be used in every combat round, others only once per fight", Fähigkeiten von Ausrüstung)."""
    uses = dict(power.params).get("uses", "")
    return uses != "once_per_fight" or power.key not in set(used)


@dataclass(frozen=True)
class PowerUse:
    """A power that changed the outcome of an attack: ``side`` is ``"attacker"`` or
    ``"defender"`` (whose power), ``amount`` the wounds it added or ignored."""

    side: str
    key: str
    name: str
    kind: str
    amount: int

    def to_json(self) -> dict:
        return {"side": self.side, "key": self.key, "name": self.name, "kind": self.kind, "amount": self.amount}


@dataclass(frozen=True)
class AttackOutcome:
    comparison: Comparison
    uses: tuple[PowerUse, ...]
    to_defender: int
    to_attacker: int
    spent_attacker: tuple[str, ...]
    spent_defender: tuple[str, ...]
    #: The first :func:`optional` power (``"attacker"``/``"defender"``, power) that would
    #: change this attack and has no answer in ``choices`` yet (counted as not used).
    undecided: Optional[tuple[str, Power]] = None


def resolve_attack(
    attacker: Fighter,
    defender: Fighter,
    attack: Sequence[int],
    defence: Sequence[int],
    used_attacker: Iterable[str] = (),
    used_defender: Iterable[str] = (),
    choices: Optional[Mapping[str, bool]] = None,
) -> AttackOutcome:
    """The wounds one attack causes, once every reroll is done.

    Order, as the rulebook puts it: compare the dice (Angreifen); then "after the roll,
    but before attributes are lowered by wounds, an extra wound is caused" (Zusätzliche
    Wunden) and "once it is settled how many wounds are to be dealt, that number is lowered
    by one wound" (Wunden ignorieren) -- extra wounds first, then ignored wounds, never below
    zero.  Pair and triple powers look at the final roll ("A reroll can produce a double or a
    triple", Zweier- & Dreierpasch); Agron's triple wounds the attacker
    "regardless of his opponent's attack roll", and Spartacus's pairs wound "regardless of
    the defender's roll".  A once-per-fight power is spent only when it changed something.

    ``choices`` holds the players' answers for :func:`optional` powers (power key -> use?);
    without it every such power is used at its first chance (the reckoning of a fight plan's
    reroll estimates).  Ignored wounds: the powers that always work come first, then the
    optional ones, so their player chooses knowing the wounds still due.
    """
    used_a, used_d = set(used_attacker), set(used_defender)
    comparison = compare(attack, defence, attacker_wins_ties=attacker.has("wins_ties"))
    uses: list[PowerUse] = []
    spent_a: list[str] = []
    spent_d: list[str] = []
    undecided: list[tuple[str, Power]] = []
    attack_sets = _roll_sets(attacker, attack, "attack")
    defence_sets = _roll_sets(defender, defence, "defence")

    to_defender = comparison.hits
    for power in attacker.having("extra_wound"):
        if not available(power, used_a):
            continue
        if power.p("requires_hit") and comparison.hits == 0:
            continue
        amount = power.p("count") * _sets_for(power, attack_sets)
        if amount > 0 and not _chosen(power, "attacker", choices, undecided):
            continue
        if amount > 0:
            to_defender += amount
            uses.append(PowerUse("attacker", power.key, power.name, power.kind, amount))
            if power.p("uses") == "once_per_fight":
                spent_a.append(power.key)

    to_attacker = 0
    for power in defender.having("counter_wound"):
        amount = power.p("count") * _sets_for(power, defence_sets)
        if amount > 0:
            to_attacker += amount
            uses.append(PowerUse("defender", power.key, power.name, power.kind, amount))

    to_defender = _ignore(defender, "defender", to_defender, defence, defence_sets, used_d, uses, spent_d,
                          choices, undecided)
    to_attacker = _ignore(attacker, "attacker", to_attacker, (), (0, 0), used_a, uses, spent_a, choices, undecided)
    return AttackOutcome(comparison, tuple(uses), to_defender, to_attacker, tuple(spent_a), tuple(spent_d),
                         undecided[0] if undecided else None)


def _chosen(power: Power, role: str, choices: Optional[Mapping[str, bool]],
            undecided: list[tuple[str, Power]]) -> bool:
    """Whether an applicable power is used: always, unless it is :func:`optional` and its
    player has not chosen to (an unanswered one is noted in ``undecided``)."""
    if choices is None or not optional(power):
        return True
    if power.key not in choices:
        undecided.append((role, power))
        return False
    return bool(choices[power.key])


def _ignore(fighter: Fighter, role: str, wounds: int, roll: Sequence[int], sets: tuple[int, int],
            used: set, uses: list, spent: list, choices: Optional[Mapping[str, bool]],
            undecided: list[tuple[str, Power]]) -> int:
    due = wounds
    for power in sorted(fighter.having("ignore_wound"), key=optional):
        if wounds <= 0:
            break
        if not available(power, used) or due < power.p("min_wounds"):
            continue
        if _trigger(power) != "always" and not roll:
            continue
        amount = min(wounds, power.p("count") * _sets_for(power, sets))
        if amount > 0 and not _chosen(power, role, choices, undecided):
            continue
        if amount > 0:
            wounds -= amount
            uses.append(PowerUse(role, power.key, power.name, power.kind, amount))
            if power.p("uses") == "once_per_fight":
                spent.append(power.key)
    return wounds


# --- wounds, the rule of one and defeat -------------------------------------------------------

def legal_allocations(dice: Sequence[int], wounds: int) -> list[tuple[int, int, int]]:
    """Every way to remove ``wounds`` dice from (attack, defence, speed), as dice removed per
    attribute, that the rule of one allows.

    "For every wound the fighter loses one die of any attribute" (Wunden erhalten).  "An
    attribute cannot fall below 1 as long as another attribute is above 1. If one is forced
    to lower an attribute to zero, the fight ends in defeat" (Die Regel der Eins).  So a
    final state with a zero is legal only if no attribute is above 1; wounds beyond the
    dice a fighter has are lost with it.
    """
    total = sum(dice)
    wounds = min(wounds, total)
    out = []
    for x in range(min(wounds, dice[0]) + 1):
        for y in range(min(wounds - x, dice[1]) + 1):
            z = wounds - x - y
            if z > dice[2]:
                continue
            after = (dice[0] - x, dice[1] - y, dice[2] - z)
            if min(after) == 0 and max(after) > 1:
                continue
            out.append((x, y, z))
    return out


def zeros(dice: Sequence[int]) -> tuple[str, ...]:
    return tuple(a for a, v in zip(ATTRIBUTES, dice) if v <= 0)


def defeat_kind(dice: Sequence[int]) -> Optional[str]:
    """The result for a fighter with these dice, or ``None`` if it fights on (Besiegt).

    "If at least one attribute is lowered to 0 the fighter loses. YIELD: exactly one
    attribute at 0 ... INJURY: exactly two attributes at 0, the card counts as exhausted
    and gets an injury token ... DECAPITATION: all three at 0, the card is discarded and
    the equipment stays with its dominus."
    """
    return KINDS_BY_ZEROS.get(len(zeros(dice)))


def outcome_is_settled(dice: Sequence[int], wounds: int) -> bool:
    """True when every legal allocation ends the fight the same way: under the rule of one
    the number of attributes at 0 is ``3 - (dice left)`` once at most two dice are left,
    so only which attribute shows the 0 is left to choose, and that changes nothing."""
    return sum(dice) - wounds <= 2


def allocate_in_order(dice: Sequence[int], wounds: int, order: Sequence[str], spread: bool) -> tuple[int, int, int]:
    """Remove ``wounds`` dice one at a time, each from the first attribute of ``order`` the
    rule of one lets lose a die (with ``spread``, the order turns after every die)."""
    left = list(dice)
    removed = [0, 0, 0]
    turn = list(order)
    for _ in range(min(wounds, sum(dice))):
        for name in turn:
            i = ATTRIBUTES.index(name)
            if left[i] > 1 or (left[i] == 1 and max(left) <= 1):
                left[i] -= 1
                removed[i] += 1
                if spread:
                    turn.remove(name)
                    turn.append(name)
                break
    return removed[0], removed[1], removed[2]


def initiative_winner(sums: Sequence[int]) -> Optional[int]:
    """"The player with the higher total may decide ... On a tie the dice are rolled again"
    (Initiative im Kampf): the side with the higher sum, or ``None`` on a tie."""
    if sums[0] == sums[1]:
        return None
    return 0 if sums[0] > sums[1] else 1
