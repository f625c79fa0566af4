"""The market deck as data: gladiators, slaves and equipment, loaded and validated.

A market file is JSON (``engine/spartacus/cards/market.json`` is the default set)::

    {"name": "default", "description": "...", "cards": [
      {"id": "spartacus", "name": "Spartacus", "type": "gladiator", "count": 1, "starting": false,
       "gold": 8, "attack": 4, "defence": 4, "speed": 4, "aliases": ["Спартак"],
       "text": "Vengeful: 2x ATK: every pair of attack dice deals one extra wound.",
       "abilities": [{"name": "Vengeful", "phase": "combat", "kind": "extra_wound",
                      "trigger": "attack_doubles", "count": 1,
                      "text": "2x ATK: every pair of attack dice deals one extra wound."}]},
      {"id": "sword", "name": "Sword", "type": "weapon", "count": 2, "gold": 2, ...}]}

``type`` is ``gladiator`` or ``slave`` (fighters: ``attack``, ``defence``, ``speed`` dice and
the white-bordered ``starting`` flag) or ``weapon``, ``armour``, ``special`` (equipment).
``count`` is the number of copies in the deck; a copy is addressed as ``"sword#2"``.
Each ability is one effect of the vocabulary in :mod:`engine.spartacus.cards.vocabulary`
with its ``phase`` and parameters.

The loader uses the standard library alone and names the first problem it finds, so a
group that types in the values of its own copy gets a clear message for a typo.
"""

from __future__ import annotations

import functools
import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping, Optional

from engine.core import schema as schema_mod
from engine.core.errors import BadArguments
from engine.spartacus.cards.vocabulary import KINDS, PHASES

FIGHTER_TYPES = ("gladiator", "slave")
EQUIPMENT_TYPES = ("weapon", "armour", "special")
CARD_TYPES = FIGHTER_TYPES + EQUIPMENT_TYPES

#: "Marktkarten (62 Karten)" (Inhalt) and "Sortiere die weiß-umrandeten Startgladiatoren und
#: Startsklaven aus dem Marktdeck. Es gibt 8 von jeder Sorte." (Gladiatoren und Sklaven).
MARKET_SIZE = 62
STARTING_GLADIATORS = 8
STARTING_SLAVES = 8

ATTRIBUTE_RANGE = (1, 6)
GOLD_RANGE = (0, 12)
COUNT_RANGE = (1, 6)

_CARD_FIELDS = {"id", "name", "type", "count", "starting", "gold", "attack", "defence", "speed",
                "text", "aliases", "abilities"}
_REQUIRED = ("id", "name", "type", "gold")
_ABILITY_BASE = {"name", "text", "phase", "kind"}
_ID = re.compile(r"^[a-z][a-z0-9-]{0,39}$")
_SET_NAME = re.compile(r"^[a-z0-9][a-z0-9_-]{0,63}$")
_CARDS_DIR = Path(__file__).resolve().parent


class MarketCardError(ValueError):
    """A market file is missing or breaks the market format."""


@dataclass(frozen=True)
class Ability:
    """One ability of a card: a vocabulary ``kind`` working in ``phase``, with its parameters
    (defaults filled in) as sorted ``(name, value)`` pairs."""

    name: str
    text: str
    phase: str
    kind: str
    params: tuple[tuple[str, Any], ...] = ()

    def param(self, name: str) -> Any:
        for key, value in self.params:
            if key == name:
                return value
        raise KeyError(f"{self.kind} has no parameter {name!r}")

    def to_json(self) -> dict:
        return {"name": self.name, "text": self.text, "phase": self.phase, "kind": self.kind,
                **dict(self.params)}


@dataclass(frozen=True)
class MarketCard:
    """A gladiator, slave, weapon, armour or special card (``count`` copies in the deck)."""

    id: str
    name: str
    type: str
    gold: int
    count: int = 1
    starting: bool = False
    attack: int = 0
    defence: int = 0
    speed: int = 0
    text: str = ""
    aliases: tuple[str, ...] = ()
    abilities: tuple[Ability, ...] = ()

    @property
    def is_fighter(self) -> bool:
        return self.type in FIGHTER_TYPES

    def to_json(self) -> dict:
        out: dict[str, Any] = {"id": self.id, "name": self.name, "type": self.type,
                               "count": self.count, "gold": self.gold}
        if self.is_fighter:
            out.update(starting=self.starting, attack=self.attack, defence=self.defence, speed=self.speed)
        out.update(text=self.text, aliases=list(self.aliases),
                   abilities=[a.to_json() for a in self.abilities])
        return out


@dataclass(frozen=True)
class MarketDeck:
    """A named, validated market deck."""

    name: str
    description: str
    cards: tuple[MarketCard, ...]
    _by_id: Mapping[str, MarketCard] = field(default_factory=dict, compare=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_by_id", {c.id: c for c in self.cards})

    def __reduce__(self):
        return (MarketDeck, (self.name, self.description, self.cards))

    def card(self, card_or_copy: str) -> MarketCard:
        """The card with this id, or of this copy (``"sword#2"``); ``KeyError`` if unknown."""
        return self._by_id[card_key(card_or_copy)]

    def get(self, card_or_copy: str) -> Optional[MarketCard]:
        return self._by_id.get(card_key(card_or_copy))

    def of_type(self, *types: str) -> tuple[MarketCard, ...]:
        return tuple(c for c in self.cards if c.type in types)

    def copies(self) -> list[str]:
        """Every physical card of the deck, ``"id#n"``."""
        return [f"{c.id}#{n}" for c in self.cards for n in range(1, c.count + 1)]


def card_key(card_or_copy: str) -> str:
    """``"sword#2"`` -> ``"sword"``; a plain id is returned as it is."""
    return card_or_copy.split("#", 1)[0]


def available_decks() -> list[str]:
    """Names of the market files shipped beside the code (``market.json`` is ``default``)."""
    names = ["default"] if (_CARDS_DIR / "market.json").exists() else []
    names += sorted(p.stem[len("market-"):] for p in _CARDS_DIR.glob("market-*.json"))
    return names


@functools.lru_cache(maxsize=8)
def load_market(name: str = "default") -> MarketDeck:
    """Read and validate a shipped market file; raise :class:`MarketCardError` naming the problem.

    ``default`` is ``market.json``; any other name ``market-<name>.json`` beside it.
    """
    if not isinstance(name, str) or not _SET_NAME.match(name):
        raise MarketCardError(f"market deck name {name!r} must be lower-case letters, digits, '-' or '_'")
    path = _CARDS_DIR / ("market.json" if name == "default" else f"market-{name}.json")
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise MarketCardError(
            f"no market deck {name!r}; available: {', '.join(available_decks()) or 'none'}") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as err:
        raise MarketCardError(f"market deck {name!r}: not valid JSON ({err})") from None
    return parse_market(data, name)


def parse_market(data: Any, name: str = "custom") -> MarketDeck:
    """Validate the decoded JSON of a market deck: fields, types, ranges, abilities, counts."""
    where = f"market deck {name!r}"
    if not isinstance(data, Mapping) or not isinstance(data.get("cards"), list):
        raise MarketCardError(f"{where}: expected an object with a list 'cards'")
    extra = sorted(set(data) - {"name", "description", "cards"})
    if extra:
        raise MarketCardError(f"{where}: unknown top-level fields {extra}")
    description = data.get("description", "")
    if not isinstance(description, str):
        raise MarketCardError(f"{where}: description must be a string")
    cards: list[MarketCard] = []
    seen: set[str] = set()
    for index, raw in enumerate(data["cards"], start=1):
        card = _parse_card(raw, f"{where}: card #{index}")
        if card.id in seen:
            raise MarketCardError(f"{where}: card {card.id}: id used twice")
        seen.add(card.id)
        cards.append(card)
    total = sum(c.count for c in cards)
    if total != MARKET_SIZE:
        raise MarketCardError(f"{where}: {total} cards (counting copies), the game has {MARKET_SIZE}")
    for kind, expected in (("gladiator", STARTING_GLADIATORS), ("slave", STARTING_SLAVES)):
        found = sum(c.count for c in cards if c.type == kind and c.starting)
        if found != expected:
            raise MarketCardError(
                f"{where}: {found} white-bordered starting {kind}s, the game has {expected}")
    return MarketDeck(name=name, description=description, cards=tuple(cards))


def _parse_card(raw: Any, label: str) -> MarketCard:
    if not isinstance(raw, Mapping):
        raise MarketCardError(f"{label} must be an object")
    missing = [f for f in _REQUIRED if f not in raw]
    unknown = sorted(set(raw) - _CARD_FIELDS)
    if missing or unknown:
        raise MarketCardError(f"{label}: missing fields {missing}, unknown fields {unknown}")
    card_id = raw["id"]
    if not isinstance(card_id, str) or not _ID.match(card_id):
        raise MarketCardError(
            f"{label}: id {card_id!r} must start with a letter and use lower-case letters, digits, '-'")
    label = f"{label.rsplit(':', 1)[0]}: card {card_id}"
    card_name = raw["name"]
    if not isinstance(card_name, str) or not card_name.strip():
        raise MarketCardError(f"{label}: name must be a non-empty string")
    card_type = raw["type"]
    if card_type not in CARD_TYPES:
        raise MarketCardError(f"{label}: type {card_type!r} is not one of {', '.join(CARD_TYPES)}")
    gold = _int_field(raw, "gold", GOLD_RANGE, label)
    count = _int_field(raw, "count", COUNT_RANGE, label) if "count" in raw else 1
    fighter = card_type in FIGHTER_TYPES
    stats = {}
    for attr in ("attack", "defence", "speed"):
        if fighter:
            if attr not in raw:
                raise MarketCardError(f"{label}: a {card_type} needs {attr} (its number of dice)")
            stats[attr] = _int_field(raw, attr, ATTRIBUTE_RANGE, label)
        elif attr in raw:
            raise MarketCardError(f"{label}: equipment has no {attr}")
    starting = raw.get("starting", False)
    if type(starting) is not bool:
        raise MarketCardError(f"{label}: starting must be true or false")
    if starting and not fighter:
        raise MarketCardError(f"{label}: only gladiators and slaves can be starting cards")
    aliases = raw.get("aliases", [])
    if not isinstance(aliases, list) or any(not isinstance(a, str) or not a.strip() for a in aliases):
        raise MarketCardError(f"{label}: aliases must be a list of non-empty strings")
    raw_abilities = raw.get("abilities", [])
    if not isinstance(raw_abilities, list):
        raise MarketCardError(f"{label}: abilities must be a list")
    abilities = tuple(
        _parse_ability(a, f"{label}: ability #{i}", card_type) for i, a in enumerate(raw_abilities, 1))
    text = raw.get("text")
    if text is None:
        text = " ".join(f"{a.name}: {a.text}" for a in abilities)
    if not isinstance(text, str):
        raise MarketCardError(f"{label}: text must be a string")
    return MarketCard(id=card_id, name=card_name.strip(), type=card_type, gold=gold, count=count,
                      starting=starting, text=text, aliases=tuple(aliases), abilities=abilities,
                      **stats)


def _parse_ability(raw: Any, label: str, card_type: str) -> Ability:
    if not isinstance(raw, Mapping):
        raise MarketCardError(f"{label} must be an object")
    missing = sorted(_ABILITY_BASE - set(raw))
    if missing:
        raise MarketCardError(f"{label}: missing fields {missing}")
    kind_name = raw["kind"]
    kind = KINDS.get(kind_name) if isinstance(kind_name, str) else None
    if kind is None:
        raise MarketCardError(f"{label}: kind {kind_name!r} is not in the vocabulary ({', '.join(KINDS)})")
    label = f"{label} ({kind_name})"
    for key in ("name", "text"):
        if not isinstance(raw[key], str) or not raw[key].strip():
            raise MarketCardError(f"{label}: {key} must be a non-empty string")
    phase = raw["phase"]
    if phase not in PHASES:
        raise MarketCardError(f"{label}: phase {phase!r} is not one of {', '.join(PHASES)}")
    if phase not in kind.phases:
        raise MarketCardError(f"{label}: works in phase {', '.join(kind.phases)}, not {phase!r}")
    if kind_name == "net" and card_type not in EQUIPMENT_TYPES:
        raise MarketCardError(f"{label}: a net is exhausted to use it, so it must be an equipment card")
    params = {k: v for k, v in raw.items() if k not in _ABILITY_BASE}
    try:
        schema_mod.validate(kind.schema(), params, path="parameters")
    except BadArguments as err:
        raise MarketCardError(f"{label}: {err.message}") from None
    required = sorted(set(kind.params) - set(kind.defaults) - set(params))
    if required:
        raise MarketCardError(f"{label}: needs parameters {required}")
    merged = {**kind.defaults, **params}
    return Ability(name=raw["name"].strip(), text=raw["text"].strip(), phase=phase, kind=kind_name,
                   params=tuple(sorted(merged.items())))


def _int_field(raw: Mapping[str, Any], name: str, bounds: tuple[int, int], label: str) -> int:
    value = raw[name]
    if type(value) is not int or not bounds[0] <= value <= bounds[1]:
        raise MarketCardError(f"{label}: {name} {value!r} must be an integer {bounds[0]}..{bounds[1]}")
    return value
