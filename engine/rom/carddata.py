"""Card sets as data: loading and validating ``engine/rom/cards/<name>.json``.

A card set holds every number the rulebook leaves to the components: the 20 provinces
(epoch, strength, resource, symbol, region, map position), the 25 senate cards (epoch,
symbols, effect from :mod:`engine.rom.vocabulary`), the 31 arena cards (type, cost),
the arena rank table with its VP values, the forum track maxima and the per-seat counts.
The structure is checked against ``cards/schema.json`` (the kernel's schema subset);
everything that refers across lists is checked here, with messages that name the card.
A group that owns the physical game can load its own values with :func:`load_card_set`
or :func:`card_set_from_dict`.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from typing import Any, Mapping, Optional

from engine.core import schema as schema_mod
from engine.core.errors import BadArguments
from engine.rom import vocabulary

CARDS_DIR = os.path.join(os.path.dirname(__file__), "cards")
_SCHEMA_FILE = "schema.json"


class CardSetError(ValueError):
    """A card set that does not fit the schema or refers to things it does not define."""


@dataclass(frozen=True)
class Province:
    id: str
    name: str
    epoch: int
    strength: int
    resource: str
    symbol: str
    region: str
    x: int
    y: int


@dataclass(frozen=True)
class SenateCard:
    id: str
    name: str
    epoch: int
    symbols: tuple[str, ...]
    kind: str
    params: tuple[tuple[str, Any], ...]
    text: str
    intrigue: bool
    two_player_removed: bool
    variant_of: str = ""
    note: str = ""

    @property
    def timing(self) -> str:
        return vocabulary.KINDS[self.kind].timing

    @property
    def is_scoring(self) -> bool:
        return self.timing in vocabulary.SCORING_TIMINGS

    def param(self, name: str) -> Any:
        return dict(self.params)[name]


@dataclass(frozen=True)
class ArenaCard:
    id: str
    name: str
    type: str
    cost: int


@dataclass(frozen=True)
class Clause:
    """At least ``count`` cards (of ``type``, or of any type), with different names if
    ``distinct``."""

    count: int
    type: str = ""
    distinct: bool = False


@dataclass(frozen=True)
class ArenaRank:
    rank: int
    id: str
    name: str
    vp: int
    any_of: tuple[tuple[Clause, ...], ...]


@dataclass(frozen=True)
class CardSet:
    name: str
    title: str
    version: int
    rounds: int
    scoring_rounds: tuple[int, ...]
    dice_per_player: int
    sections: int
    track_cards: tuple[tuple[int, int], ...]
    arena_market: int
    hidden_arena_cost: int
    senate_deck_size: tuple[tuple[int, int], ...]
    scoring_cards_at_bottom: tuple[tuple[int, int], ...]
    two_player_removed_regions: tuple[str, ...]
    forum_max: tuple[int, int, int]
    region_vp_majority: int
    region_vp_all: int
    region_vp_tied: int
    best_performance_vp: int
    regions: tuple[tuple[str, str], ...]
    provinces: tuple[Province, ...]
    senate: tuple[SenateCard, ...]
    arena: tuple[ArenaCard, ...]
    ranks: tuple[ArenaRank, ...]
    _index: dict = field(default_factory=dict, compare=False, repr=False)

    def __post_init__(self) -> None:
        index = {("p", c.id): c for c in self.provinces}
        index.update({("s", c.id): c for c in self.senate})
        index.update({("a", c.id): c for c in self.arena})
        object.__setattr__(self, "_index", index)

    def province(self, card_id: str) -> Province:
        return self._index[("p", card_id)]

    def senate_card(self, card_id: str) -> SenateCard:
        return self._index[("s", card_id)]

    def arena_card(self, card_id: str) -> ArenaCard:
        return self._index[("a", card_id)]

    def per_seats(self, table: tuple[tuple[int, int], ...], seats: int) -> int:
        return dict(table)[seats]

    def region_name(self, region: str) -> str:
        return dict(self.regions)[region]


def available_card_sets() -> list[str]:
    """Names of the card sets shipped in ``engine/rom/cards``."""
    return sorted(
        name[:-5] for name in os.listdir(CARDS_DIR) if name.endswith(".json") and name != _SCHEMA_FILE
    )


_CACHE: dict[str, CardSet] = {}


def load_card_set(name_or_path: str) -> CardSet:
    """A shipped card set by name (``"default"``) or any card-set file by path."""
    if os.sep in name_or_path or name_or_path.endswith(".json"):
        path = name_or_path
    else:
        if name_or_path not in available_card_sets():
            raise CardSetError(f"no card set named {name_or_path!r}; shipped: {available_card_sets()}")
        path = os.path.join(CARDS_DIR, name_or_path + ".json")
    if path in _CACHE:
        return _CACHE[path]
    with open(path, encoding="utf-8") as handle:
        try:
            data = json.load(handle)
        except json.JSONDecodeError as err:
            raise CardSetError(f"{path}: not JSON: {err}") from err
    card_set = card_set_from_dict(data)
    _CACHE[path] = card_set
    return card_set


def _schema() -> dict:
    with open(os.path.join(CARDS_DIR, _SCHEMA_FILE), encoding="utf-8") as handle:
        return json.load(handle)


def card_set_from_dict(data: Mapping[str, Any]) -> CardSet:
    """Validate ``data`` (the JSON of a card set) and build the :class:`CardSet`.

    Raises :class:`CardSetError` with a message naming the first problem found.
    """
    try:
        schema_mod.validate(_schema(), data, "card set")
    except BadArguments as err:
        raise CardSetError(err.message) from err
    problems: list[str] = []
    _check_references(data, problems)
    if problems:
        raise CardSetError("card set: " + "; ".join(problems))
    return _build(data)


def _duplicates(items: list[str]) -> list[str]:
    seen: set[str] = set()
    return sorted({i for i in items if i in seen or seen.add(i)})


def _check_references(data: Mapping[str, Any], problems: list[str]) -> None:
    rules = data["rules"]
    regions = [r["id"] for r in data["regions"]]
    # One id names one thing: a card's id never doubles as another card's or a region's.
    for dup in _duplicates(regions + [c["id"] for key in ("provinces", "senate", "arena") for c in data[key]]):
        problems.append(f"id {dup!r} is used twice")
    for p in data["provinces"]:
        if p["region"] not in regions:
            problems.append(f"province {p['id']!r}: unknown region {p['region']!r}")
    for r in rules["two_player_removed_regions"]:
        if r not in regions:
            problems.append(f"rules.two_player_removed_regions: unknown region {r!r}")
    for region in regions:
        if not any(p["region"] == region for p in data["provinces"]):
            problems.append(f"region {region!r} has no province")
    for round_ in rules["scoring_rounds"]:
        if round_ > rules["rounds"]:
            problems.append(f"rules.scoring_rounds: round {round_} is after the last round {rules['rounds']}")
    if rules["rounds"] not in rules["scoring_rounds"]:
        problems.append("rules.scoring_rounds must include the last round (the game ends after its scoring)")
    names = {c["id"] for c in data["senate"]}
    for card in data["senate"]:
        effect = card["effect"]
        kind = effect.get("kind")
        where = f"senate card {card['id']!r}"
        if kind not in vocabulary.KINDS:
            problems.append(f"{where}: unknown effect kind {kind!r}; known: {sorted(vocabulary.KINDS)}")
            continue
        try:
            schema_mod.validate(vocabulary.params_schema(kind), effect, f"{where}.effect")
        except BadArguments as err:
            problems.append(err.message)
        if card.get("variant_of") and card["variant_of"] not in names:
            problems.append(f"{where}: variant_of names unknown card {card['variant_of']!r}")
        if card.get("variant_of") and not card["intrigue"]:
            problems.append(f"{where}: only intrigue cards are variants of another card")
    ranks = [r["rank"] for r in data["arena_ranks"]]
    if sorted(ranks) != list(range(1, len(ranks) + 1)):
        problems.append("arena_ranks: ranks must be 1, 2, 3, ... without gaps")
    for rank in data["arena_ranks"]:
        for alternative in rank["any_of"]:
            typed = [c for c in alternative if "type" in c]
            if typed and len(typed) != len(alternative):
                problems.append(f"arena rank {rank['id']!r}: do not mix clauses with and without a type")
            if len({c.get("type") for c in typed}) != len(typed):
                problems.append(f"arena rank {rank['id']!r}: one clause per type")
        if min(sum(c["count"] for c in alt) for alt in rank["any_of"]) < 3:
            problems.append(f"arena rank {rank['id']!r}: a set has at least 3 cards")


def _pairs(table: Mapping[str, int]) -> tuple[tuple[int, int], ...]:
    return tuple((int(k), v) for k, v in sorted(table.items()))


def _build(data: Mapping[str, Any]) -> CardSet:
    rules = data["rules"]
    return CardSet(
        name=data["name"],
        title=data["title"],
        version=data["version"],
        rounds=rules["rounds"],
        scoring_rounds=tuple(sorted(rules["scoring_rounds"])),
        dice_per_player=rules["dice_per_player"],
        sections=rules["sections"],
        track_cards=_pairs(rules["track_cards"]),
        arena_market=rules["arena_market"],
        hidden_arena_cost=rules["hidden_arena_cost"],
        senate_deck_size=_pairs(rules["senate_deck_size"]),
        scoring_cards_at_bottom=_pairs(rules["scoring_cards_at_bottom"]),
        two_player_removed_regions=tuple(rules["two_player_removed_regions"]),
        forum_max=tuple(rules["forum_max"][r] for r in vocabulary.RESOURCES),
        region_vp_majority=rules["region_vp"]["majority"],
        region_vp_all=rules["region_vp"]["all"],
        region_vp_tied=rules["region_vp"]["tied"],
        best_performance_vp=rules["best_performance_vp"],
        regions=tuple((r["id"], r["name"]) for r in data["regions"]),
        provinces=tuple(
            Province(p["id"], p["name"], p["epoch"], p["strength"], p["resource"], p["symbol"], p["region"],
                     p["map"]["x"], p["map"]["y"])
            for p in data["provinces"]
        ),
        senate=tuple(
            SenateCard(
                id=c["id"], name=c["name"], epoch=c["epoch"], symbols=tuple(c["symbols"]), kind=c["effect"]["kind"],
                params=tuple(sorted((k, v) for k, v in c["effect"].items() if k != "kind")), text=c["text"],
                intrigue=c["intrigue"], two_player_removed=c["two_player_removed"],
                variant_of=c.get("variant_of", ""), note=c.get("note", ""),
            )
            for c in data["senate"]
        ),
        arena=tuple(ArenaCard(a["id"], a["name"], a["type"], a["cost"]) for a in data["arena"]),
        ranks=tuple(
            ArenaRank(
                r["rank"], r["id"], r["name"], r["vp"],
                tuple(
                    tuple(Clause(c["count"], c.get("type", ""), c.get("distinct", False)) for c in alt)
                    for alt in r["any_of"]
                ),
            )
            for r in sorted(data["arena_ranks"], key=lambda r: r["rank"])
        ),
    )


def standard_senate_deck(card_set: CardSet, seats: int, intrigue: bool) -> list[str]:
    """The senate cards in play without a custom deck (rulebook "Spielaufbau", p. 2;
    "Regeln für 2 Spieler", p. 7).

    "For the first game the intrigue cards are removed" -- with ``intrigue`` each base card
    is exchanged for the intrigue card of the same name.  "2 players: all senate cards
    with this symbol are removed from the game."
    """
    replaced = {c.variant_of: c.id for c in card_set.senate if c.intrigue and c.variant_of}
    deck = []
    for card in card_set.senate:
        if card.intrigue:
            continue
        chosen = card_set.senate_card(replaced[card.id]) if intrigue and card.id in replaced else card
        if seats == 2 and chosen.two_player_removed:
            continue
        deck.append(chosen.id)
    return deck


def check_senate_deck(card_set: CardSet, seats: int, deck: list[str]) -> Optional[str]:
    """Why ``deck`` may not be played by ``seats`` players, or ``None`` if it may.

    "With 3-4 players there must always be 20 senate cards in play, with 2 players 15.
    Also, 4 (3 with 2 players) scoring cards of epoch III must always lie at the bottom
    of the senate deck." (p. 7, "Maßgeschneiderter Senatskartenstapel")  And with 2
    players "all senate cards with this symbol are removed from the game" ("Regeln für
    2 Spieler", p. 7): a custom deck does not bring them back.
    """
    size = card_set.per_seats(card_set.senate_deck_size, seats)
    if len(deck) != size:
        return f"a senate deck for {seats} players has {size} cards, not {len(deck)}"
    known = {c.id for c in card_set.senate}
    unknown = [c for c in deck if c not in known]
    if unknown:
        return f"unknown senate cards {unknown}"
    if len(set(deck)) != len(deck):
        return "a senate card appears twice in the deck"
    if seats == 2:
        marked = [c for c in deck if card_set.senate_card(c).two_player_removed]
        if marked:
            return f"senate cards marked for 3 or more players are out of a 2-player game: {marked}"
    bottom = card_set.per_seats(card_set.scoring_cards_at_bottom, seats)
    scoring_iii = [c for c in deck if card_set.senate_card(c).epoch == 3 and card_set.senate_card(c).is_scoring]
    if len(scoring_iii) < bottom:
        return f"the deck needs at least {bottom} scoring cards of epoch III, it has {len(scoring_iii)}"
    return None
