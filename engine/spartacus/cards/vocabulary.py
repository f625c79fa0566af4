"""The market cards' effect vocabulary: every kind of ability a market card may carry, as data.

An ability on a card names one ``kind`` from :data:`KINDS`, the ``phase`` in which it
works, and the kind's parameters; the loader checks the parameters against the kind's
schema (the kernel's JSON schema subset) and fills in the defaults, so a typo in a card
file is refused with a clear message when the file is loaded.

Phases:

``combat``   during a fight in the arena; implemented by :mod:`engine.spartacus.arena`.
``intrigue`` in the intrigue phase (Sonderregeln von Karten: most "(Intrigue)" abilities
             exhaust the card); implemented by the Spartacus game.
``upkeep``   in the upkeep phase (healing, balancing the accounts); the game.
``victory``  after a fight is decided, when the arena phase settles; the game.
``always``   a standing property of the card (counting as two slaves); the game.

Every ability outside combat has an ``exhaust`` flag: whether using it exhausts the card
("for most of these special rules the card must be exhausted", Sonderregeln von Karten);
the data always spells it out.

Triggers (``trigger``) of combat kinds refer to the *final* roll, after every reroll:
``attack_doubles`` / ``attack_triples`` count pairs / triples among the dice the fighter
rolled to attack, ``defence_doubles`` / ``defence_triples`` among the dice it rolled to
defend.  "Each die can be used only once to make a double or a triple" (Zweier- &
Dreierpasch): a trigger effect fires once per disjoint pair (or triple), and a fighter with
both a pair and a triple trigger on the same roll counts triples first.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

PHASES = ("combat", "intrigue", "upkeep", "victory", "always")

ROLLS = ("attack", "defence", "initiative")


@dataclass(frozen=True)
class Kind:
    """One kind of effect: where it works, its parameters (schema + defaults), what it does."""

    phases: tuple[str, ...]
    params: Mapping[str, Any]
    defaults: Mapping[str, Any]
    summary: str

    @property
    def implemented_by(self) -> str:
        return "arena" if "combat" in self.phases else "game"

    def schema(self) -> dict:
        return {"type": "object", "properties": dict(self.params), "additionalProperties": False}


def _int(lo: int, hi: int) -> dict:
    return {"type": "integer", "minimum": lo, "maximum": hi}


def _enum(*values: str) -> dict:
    return {"type": "string", "enum": list(values)}


_BOOL = {"type": "boolean"}

KINDS: dict[str, Kind] = {
    # --- combat: the arena implements these ------------------------------------------------
    "reroll": Kind(
        ("combat",),
        {"roll": _enum(*ROLLS), "dice": _int(1, 3), "uses": _enum("every_roll", "once_per_fight")},
        {"dice": 1, "uses": "every_roll"},
        "After seeing the roll, the owner may reroll up to `dice` of its own dice of the `roll` "
        "(the attack roll when attacking, the defence roll when defending, the initiative roll), "
        "on every such roll or once per fight."),
    "extra_wound": Kind(
        ("combat",),
        {"count": _int(1, 3), "trigger": _enum("always", "attack_doubles", "attack_triples"),
         "requires_hit": _BOOL, "uses": _enum("every_attack", "once_per_fight")},
        {"count": 1, "trigger": "always", "requires_hit": False, "uses": "every_attack"},
        "The fighter's attack deals `count` more wounds after the dice are compared (per pair or "
        "triple of its attack dice with a trigger; only if the comparison wounded with "
        "`requires_hit`); every attack or once per fight."),
    "ignore_wound": Kind(
        ("combat",),
        {"count": _int(1, 3), "trigger": _enum("always", "defence_doubles", "defence_triples"),
         "min_wounds": _int(1, 6), "uses": _enum("every_attack", "once_per_fight")},
        {"count": 1, "trigger": "always", "min_wounds": 1, "uses": "every_attack"},
        "Of the wounds the fighter is about to take from one attack (at least `min_wounds` of "
        "them), `count` are ignored (per pair or triple of its defence dice with a trigger); every "
        "attack or once per fight."),
    "counter_wound": Kind(
        ("combat",),
        {"count": _int(1, 3), "trigger": _enum("defence_doubles", "defence_triples")},
        {"count": 1},
        "When the fighter defends, the attacker takes `count` wounds per pair or triple of the "
        "defence dice, whatever the attack roll."),
    "range": Kind(
        ("combat",),
        {"hexes": _int(2, 4)},
        {},
        "Normal attacks reach `hexes` hexes instead of only the adjacent ones."),
    "speed_attack": Kind(
        ("combat",),
        {"range": _int(1, 4), "uses": _enum("every_turn", "once_per_fight")},
        {"range": 1, "uses": "every_turn"},
        "Instead of its normal attack the fighter may attack with its speed dice (blue) in place of "
        "its attack dice, reaching `range` hexes; every turn or once per fight."),
    "net": Kind(
        ("combat",),
        {},
        {},
        "Before the initiative roll of a round, the owner may exhaust the card to win the "
        "initiative outright; if both fighters do, both cards are exhausted and the dice are rolled."),
    "initiative_bonus": Kind(
        ("combat",),
        {"dice": _int(1, 2)},
        {},
        "The fighter rolls `dice` more speed dice for the initiative (not for moving)."),
    "wins_ties": Kind(
        ("combat",),
        {},
        {},
        "When the fighter attacks, a pair of equal attack and defence dice wounds."),
    "negate_ability": Kind(
        ("combat",),
        {},
        {},
        "The opposing fighter's own ability (printed on its card, not its equipment's) has no "
        "effect in this fight."),
    "speed_defence": Kind(
        ("combat",),
        {},
        {},
        "The fighter defends with its speed dice instead of its defence dice whenever it has more "
        "speed dice than defence dice."),
    "brutal": Kind(
        ("combat",),
        {},
        {},
        "An opponent this fighter defeats by wounds is at least injured (two attributes at 0) even "
        "if only one attribute reached 0."),
    # --- outside combat: the Spartacus game implements these ---------------------------------
    "gain_gold": Kind(
        ("intrigue",),
        {"amount": _int(1, 5), "exhaust": _BOOL},
        {"exhaust": True},
        "Exhaust the card (with `exhaust`) to take `amount` gold from the bank."),
    "peek_hand": Kind(
        ("intrigue",),
        {"exhaust": _BOOL},
        {"exhaust": True},
        "Exhaust the card to look at one intrigue card drawn at random from an opponent's hand."),
    "replace_hand": Kind(
        ("intrigue",),
        {"count": _int(1, 3), "exhaust": _BOOL},
        {"count": 1, "exhaust": True},
        "Exhaust the card to discard up to `count` intrigue cards of your choice and draw as many."),
    "reroll_healing": Kind(
        ("upkeep",),
        {"exhaust": _BOOL},
        {"exhaust": False},
        "Reroll a failed healing roll of one of your injured fighters (once per upkeep)."),
    "reroll_guard": Kind(
        ("intrigue",),
        {"exhaust": _BOOL},
        {"exhaust": True},
        "Exhaust the card to reroll a failed guard roll."),
    "counts_as_slaves": Kind(
        ("always",),
        {"count": _int(2, 3), "exhaust": _BOOL},
        {"count": 2, "exhaust": False},
        "While ready, the card counts as `count` slaves (upkeep income, schemes counting ready slaves)."),
    "no_upkeep": Kind(
        ("upkeep",),
        {"exhaust": _BOOL},
        {"exhaust": False},
        "The gladiator costs no gold when the accounts are balanced."),
    "victory_gold": Kind(
        ("victory",),
        {"amount": _int(1, 5), "exhaust": _BOOL},
        {"exhaust": False},
        "When this fighter wins a fight, its dominus takes `amount` gold from the bank."),
}

#: Kinds the arena implements (their phase is ``combat``).
COMBAT_KINDS = tuple(k for k, v in KINDS.items() if v.implemented_by == "arena")
