"""Property cards as data: the card type, the seven categories, and the card-set loader.

A card set is a JSON file ``engine/pax/cards/<name>.json``::

    {"name": "default", "description": "...", "cards": [
        {"id": "W01", "category": "wealth", "symbols": 1, "price": 1, "name": "in floribus"}, ...]}

The loader checks it with the standard library alone and names the first problem it finds,
so a group that loads the values of its physical copy gets a clear message for a typo.
"""

from __future__ import annotations

import functools
import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Mapping

#: The seven categories, in the order the rulebook's scoring lists them.
CATEGORIES = ("wealth", "fleet", "army", "religion", "senator", "land", "intrigue")

#: The Latin name printed on the cards of each category.
LATIN_NAMES = {
    "wealth": "in floribus",
    "fleet": "navis longa",
    "army": "legionarius",
    "religion": "religio",
    "senator": "senator",
    "land": "praedium",
    "intrigue": "conspiratio",
}

#: Rulebook, Components: "74 property cards: 10 each of wealth, fleet, army, religion,
#: senator; 12 each of land and intrigue".  Every card set keeps these counts.
PUBLISHED_COUNTS = {
    "wealth": 10, "fleet": 10, "army": 10, "religion": 10, "senator": 10, "land": 12, "intrigue": 12,
}

SYMBOLS_RANGE = (1, 3)
PRICE_RANGE = (1, 4)

#: Card ids of the second copy of PAX (games of 5 to 8) carry this prefix.
SECOND_COPY_PREFIX = "b"

_CARD_FIELDS = ("id", "category", "symbols", "price", "name")
_SET_NAME = re.compile(r"^[a-z0-9][a-z0-9_-]{0,63}$")
_CARDS_DIR = Path(__file__).with_name("cards")


class CardSetError(ValueError):
    """A card-set file is missing or breaks the card-set format."""


@dataclass(frozen=True)
class Card:
    """One property card: its category, the symbols in its top left corner, its price in aurei."""

    id: str
    category: str
    symbols: int
    price: int
    name: str

    def to_json(self) -> dict:
        return {"id": self.id, "category": self.category, "symbols": self.symbols,
                "price": self.price, "name": self.name}


@dataclass(frozen=True)
class CardSet:
    """A named, validated deck of 74 property cards."""

    name: str
    cards: tuple[Card, ...]


def available_card_sets() -> list[str]:
    """Names of the card-set files shipped beside the code."""
    return sorted(p.stem for p in _CARDS_DIR.glob("*.json"))


@functools.lru_cache(maxsize=16)
def load_card_set(name: str = "default") -> CardSet:
    """Read and validate ``cards/<name>.json``; raise :class:`CardSetError` naming the problem."""
    if not isinstance(name, str) or not _SET_NAME.match(name):
        raise CardSetError(f"card set name {name!r} must be lower-case letters, digits, '-' or '_'")
    path = _CARDS_DIR / f"{name}.json"
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise CardSetError(
            f"no card set {name!r}; available: {', '.join(available_card_sets()) or 'none'}"
        ) from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as err:
        raise CardSetError(f"card set {name!r}: not valid JSON ({err})") from None
    return parse_card_set(data, name)


def parse_card_set(data: Any, name: str) -> CardSet:
    """Validate the decoded JSON of a card set: fields, types, ranges, unique ids, counts."""
    where = f"card set {name!r}"
    if not isinstance(data, Mapping) or not isinstance(data.get("cards"), list):
        raise CardSetError(f"{where}: expected an object with a list 'cards'")
    cards: list[Card] = []
    seen: set[str] = set()
    for index, raw in enumerate(data["cards"], start=1):
        label = f"{where}: card #{index}"
        if not isinstance(raw, Mapping):
            raise CardSetError(f"{label} must be an object")
        missing = [f for f in _CARD_FIELDS if f not in raw]
        extra = sorted(set(raw) - set(_CARD_FIELDS))
        if missing or extra:
            raise CardSetError(f"{label}: missing fields {missing}, unknown fields {extra}")
        card_id, category, symbols, price, card_name = (raw[f] for f in _CARD_FIELDS)
        if not isinstance(card_id, str) or not re.match(r"^[A-Za-z0-9_-]{1,32}$", card_id):
            raise CardSetError(f"{label}: id {card_id!r} must be 1-32 letters, digits, '-' or '_'")
        label = f"{where}: card {card_id}"
        if card_id in seen:
            raise CardSetError(f"{label}: id used twice")
        seen.add(card_id)
        if category not in CATEGORIES:
            raise CardSetError(f"{label}: category {category!r} is not one of {', '.join(CATEGORIES)}")
        if type(symbols) is not int or not SYMBOLS_RANGE[0] <= symbols <= SYMBOLS_RANGE[1]:
            raise CardSetError(f"{label}: symbols {symbols!r} must be an integer {SYMBOLS_RANGE[0]}..{SYMBOLS_RANGE[1]}")
        if type(price) is not int or not PRICE_RANGE[0] <= price <= PRICE_RANGE[1]:
            raise CardSetError(f"{label}: price {price!r} must be an integer {PRICE_RANGE[0]}..{PRICE_RANGE[1]}")
        if not isinstance(card_name, str) or not card_name.strip():
            raise CardSetError(f"{label}: name must be a non-empty string")
        cards.append(Card(card_id, category, symbols, price, card_name))
    clashes = sorted(i for i in seen if SECOND_COPY_PREFIX + i in seen)
    if clashes:
        raise CardSetError(
            f"{where}: ids {clashes} clash with the second copy's ids (prefix {SECOND_COPY_PREFIX!r})"
        )
    for category, expected in PUBLISHED_COUNTS.items():
        count = sum(1 for c in cards if c.category == category)
        if count != expected:
            raise CardSetError(f"{where}: {count} {category} cards, the game has {expected}")
    return CardSet(name=name, cards=tuple(cards))


def second_copy(cards: tuple[Card, ...]) -> tuple[Card, ...]:
    """The cards of a second copy of PAX (games of 5-8), with distinct ids."""
    return tuple(
        Card(SECOND_COPY_PREFIX + c.id, c.category, c.symbols, c.price, c.name) for c in cards
    )
