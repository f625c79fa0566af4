"""Fighters entering the arena: a card, up to one weapon, armour and special, their powers.

"Once a gladiator or slave is chosen for the arena, it can be equipped with one equipment
card of each type: at most one weapon, one armour and one special" (Einen Gladiator
ausrüsten).

A :class:`Fighter` is compiled once when the fight starts: its printed dice and the combat
abilities of its card and equipment as :class:`Power` objects.  Abilities of other phases
(Pietros's gold, Medicus's healing) are not powers: the Spartacus game handles them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping, Optional

from engine.spartacus.cards.market import FIGHTER_TYPES, MarketDeck

SLOTS = ("weapon", "armour", "special")


class FightSetupError(ValueError):
    """The entrants of a fight are not a legal pairing (a programming error of the caller)."""


@dataclass(frozen=True)
class Entrant:
    """What a dominus sends into the arena: ``fighter`` and equipment are card ids or copies
    (``"sword#2"``); an empty string is an empty slot.  ``seat`` is the controlling player."""

    seat: int
    fighter: str
    weapon: str = ""
    armour: str = ""
    special: str = ""


@dataclass(frozen=True)
class Equipment:
    slot: str
    card: str
    copy: str
    name: str


@dataclass(frozen=True)
class Power:
    """One combat ability in play: its vocabulary ``kind`` and parameters, and where it comes
    from (``slot`` is ``"ability"`` for the fighter's own card)."""

    key: str
    kind: str
    name: str
    source: str
    source_name: str
    slot: str
    params: tuple[tuple[str, Any], ...] = ()

    def p(self, name: str) -> Any:
        for key, value in self.params:
            if key == name:
                return value
        raise KeyError(f"{self.kind} power {self.key} has no parameter {name!r}")

    def to_json(self) -> dict:
        return {"key": self.key, "kind": self.kind, "name": self.name, "source": self.source,
                "source_name": self.source_name, "slot": self.slot, **dict(self.params)}


@dataclass(frozen=True)
class Fighter:
    """A fighter as it enters the fight (printed dice, equipment, the powers in play)."""

    card: str
    copy: str
    name: str
    type: str
    attack: int
    defence: int
    speed: int
    equipment: tuple[Equipment, ...] = ()
    powers: tuple[Power, ...] = ()
    ability: str = ""
    negated: bool = False
    _by_kind: Mapping[str, tuple[Power, ...]] = field(default_factory=dict, compare=False, repr=False)

    def __post_init__(self) -> None:
        by_kind: dict[str, tuple[Power, ...]] = {}
        for power in self.powers:
            by_kind[power.kind] = by_kind.get(power.kind, ()) + (power,)
        object.__setattr__(self, "_by_kind", by_kind)

    @property
    def printed(self) -> tuple[int, int, int]:
        return (self.attack, self.defence, self.speed)

    def having(self, kind: str) -> tuple[Power, ...]:
        return self._by_kind.get(kind, ())

    def has(self, kind: str) -> bool:
        return kind in self._by_kind

    def equipment_in(self, slot: str) -> Optional[Equipment]:
        return next((e for e in self.equipment if e.slot == slot), None)

    def to_json(self) -> dict:
        return {
            "card": self.card, "copy": self.copy, "name": self.name, "type": self.type,
            "attack": self.attack, "defence": self.defence, "speed": self.speed,
            "equipment": [{"slot": e.slot, "card": e.card, "copy": e.copy, "name": e.name}
                          for e in self.equipment],
            "ability": self.ability, "negated": self.negated,
            "powers": [p.to_json() for p in self.powers],
        }


def _combat_powers(deck: MarketDeck, copy: str, slot: str) -> tuple[Power, ...]:
    card = deck.card(copy)
    return tuple(
        Power(key=f"{slot}:{card.id}:{i}", kind=a.kind, name=a.name, source=card.id,
              source_name=card.name, slot=slot, params=a.params)
        for i, a in enumerate(card.abilities)
        if a.phase == "combat"
    )


def build_fighters(first: Any, second: Any, deck: MarketDeck) -> tuple[Fighter, Fighter]:
    """Compile the two entrants (anything with ``fighter``, ``weapon``, ``armour``,
    ``special`` attributes, such as :class:`Entrant`).

    "These abilities may contradict the normal rules; then the card text takes precedence"
    (Spezialfähigkeiten).  A ``negate_ability`` power
    switches off the *opposing fighter's own* ability for the fight; when both fighters
    carry one, both abilities are off (each cancels the other).
    """
    raw = [_compile(e, deck) for e in (first, second)]
    negates = [any(p.kind == "negate_ability" for p in powers if p.slot == "ability") for _, powers in raw]
    fighters = []
    for index, (fighter, powers) in enumerate(raw):
        negated = negates[1 - index] and any(p.slot == "ability" for p in powers)
        kept = tuple(p for p in powers if not (negated and p.slot == "ability"))
        fighters.append(Fighter(**{**fighter, "powers": kept, "negated": negated}))
    return fighters[0], fighters[1]


def _compile(entrant: Any, deck: MarketDeck) -> tuple[dict, tuple[Power, ...]]:
    copy = getattr(entrant, "fighter", "")
    card = deck.get(copy) if isinstance(copy, str) else None
    if card is None or card.type not in FIGHTER_TYPES:
        raise FightSetupError(f"{copy!r} is not a gladiator or slave of market deck {deck.name!r}")
    powers = list(_combat_powers(deck, copy, "ability"))
    equipment = []
    for slot in SLOTS:
        item = getattr(entrant, slot, "") or ""
        if not item:
            continue
        item_card = deck.get(item) if isinstance(item, str) else None
        if item_card is None or item_card.type != slot:
            raise FightSetupError(f"{item!r} is not a {slot} card of market deck {deck.name!r}")
        equipment.append(Equipment(slot=slot, card=item_card.id, copy=item, name=item_card.name))
        powers.extend(_combat_powers(deck, item, slot))
    ability = next((a.name for a in card.abilities), "")
    fields = dict(card=card.id, copy=copy, name=card.name, type=card.type, attack=card.attack,
                  defence=card.defence, speed=card.speed, equipment=tuple(equipment), ability=ability)
    return fields, tuple(powers)

