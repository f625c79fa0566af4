"""Spartacus card sets as data: houses, intrigue deck, market deck.

A card set is three JSON files: ``houses.json`` and ``intrigue.json`` (this module's) and
``market.json`` (the arena's: gladiators, slaves, equipment).  The default set lives in
``engine/spartacus/cards/``; a game may load another set (the players' own values) by
passing the three documents inline as the ``custom_cards`` option.  Every file is checked
against :data:`INTRIGUE_SCHEMA` / :data:`HOUSE_SCHEMA` and the effect vocabulary below
before a game starts, so a broken set is refused at creation, never mid-game.

Effect vocabulary (``{"op": ..., ...}``; ``who`` is ``"actor"`` -- the dominus playing the
card -- or ``"target"``; an effect marked ``"cost": true`` must be affordable when the card
is played and is paid when it resolves, so a foiled card costs nothing):

==================  ========================================================================
``gain_gold``        ``who`` gains ``amount`` gold from the bank
``lose_gold``        ``who`` pays up to ``amount`` gold to the bank
``pay_gold``         ``who`` pays exactly ``amount`` gold to the bank (a cost)
``pay_each``         ``who`` pays ``amount`` gold to every other dominus (a cost)
``take_gold``        the actor takes up to ``amount`` gold from the target
``gold_per_ready``   ``who`` gains ``amount`` gold per ready card of ``kind``
``gain_influence``   ``who`` gains ``amount`` influence
``lose_influence``   ``who`` loses ``amount`` influence
``draw``             ``who`` draws ``count`` intrigue cards
``discard_hand``     ``who`` discards ``count`` intrigue cards of their choice
``replace_hand``     ``who`` discards up to ``count`` hand cards of their choice, draws as many
``discard_property`` ``who`` discards ``count`` ready cards of ``kind`` of their choice
``exhaust_property`` ``who`` exhausts ``count`` ready cards of ``kind`` of their choice
``injure``           a ready card of ``kind`` of ``who`` (their choice) is injured
``favour``           a ready gladiator of ``who`` (their choice) gains a favour token
``foil``             the scheme or reaction this reaction answers is foiled
``retrieve_guard``   the top guard of the intrigue discard pile goes onto ``who``'s table
``replace_fighter``  ``who`` must send another ready fighter to the arena, if they have one
``scheme_discount``  the actor's next scheme this turn needs ``amount`` less influence
==================  ========================================================================

``kind`` is one of ``gladiator``, ``slave``, ``fighter`` (gladiator or slave), ``guard``
(a guard on the table) or ``equipment``.  ``amount`` may be ``"x"`` for abilities that take
a number (Solonius's bribes).
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Mapping, Optional

from engine.core.errors import BadArguments

CARDS_DIR = os.path.join(os.path.dirname(os.path.dirname(__file__)), "cards")

PROPERTY_KINDS = ("gladiator", "slave", "fighter", "guard", "equipment")
EQUIPMENT_KINDS = ("weapon", "armour", "special")
MARKET_KINDS = ("gladiator", "slave") + EQUIPMENT_KINDS
WHO = ("actor", "target")
MOMENTS = ("scheme", "reaction", "gold_emptied", "scheme_succeeded", "bets_placed", "fighter_died")
REQUIRES = (
    "target_has_no_gold",
    "target_has_no_ready_slaves",
    "target_has_no_ready_gladiators",
)

#: op -> (required params, optional params)
EFFECTS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "gain_gold": (("who", "amount"), ("cost",)),
    "lose_gold": (("who", "amount"), ("cost",)),
    "pay_gold": (("who", "amount"), ("cost",)),
    "pay_each": (("who", "amount"), ("cost",)),
    "take_gold": (("amount",), ("cost",)),
    "gold_per_ready": (("who", "kind", "amount"), ("cost",)),
    "gain_influence": (("who", "amount"), ("cost",)),
    "lose_influence": (("who", "amount"), ("cost",)),
    "draw": (("who", "count"), ("cost",)),
    "discard_hand": (("who", "count"), ("cost",)),
    "replace_hand": (("who", "count"), ("cost",)),
    "discard_property": (("who", "kind", "count"), ("cost",)),
    "exhaust_property": (("who", "kind", "count"), ("cost",)),
    "injure": (("who", "kind"), ("cost",)),
    "favour": (("who",), ("cost",)),
    "foil": ((), ()),
    "retrieve_guard": (("who",), ()),
    "replace_fighter": (("who",), ()),
    "scheme_discount": (("amount",), ()),
}


class CardSetError(BadArguments):
    """A card file does not fit the schema or the effect vocabulary."""

    code = "bad_card_set"


@dataclass(frozen=True)
class IntrigueCard:
    id: str
    name: str
    type: str  # scheme | reaction | guard
    influence: int
    gold: int
    count: int
    text: str
    effects: tuple = ()
    moments: tuple[str, ...] = ()
    scope: str = "any"
    requires: tuple[str, ...] = ()
    name_de: str = ""


@dataclass(frozen=True)
class HouseAbility:
    id: str
    name: str
    text: str
    effects: tuple = ()
    x_min: int = 0
    x_max: int = 0


@dataclass(frozen=True)
class HouseCard:
    id: str
    name: str
    dominus: str
    gladiators: int
    slaves: int
    guards: int
    gold: int
    hand_limit: tuple[int, ...]
    abilities: tuple[HouseAbility, ...]

    def limit(self, influence: int) -> int:
        return self.hand_limit[max(0, min(influence, len(self.hand_limit) - 1))]


@dataclass(frozen=True)
class MarketAbility:
    """A non-combat ability of a market card (combat ones are the arena's)."""

    phase: str  # intrigue | upkeep
    op: str  # exhaust_gain_gold | exhaust_peek_hand | reroll_healing
    amount: int = 0
    exhaust: bool = True
    text: str = ""


@dataclass(frozen=True)
class MarketCard:
    id: str
    name: str
    kind: str  # gladiator | slave | weapon | armour | special
    value: int
    count: int
    starting: bool
    attack: int = 0
    defence: int = 0
    speed: int = 0
    text: str = ""
    abilities: tuple[MarketAbility, ...] = ()


@dataclass(frozen=True)
class CardSet:
    name: str
    houses: tuple[HouseCard, ...]
    intrigue: tuple[IntrigueCard, ...]
    market: tuple[MarketCard, ...]
    deck: Any = field(default=None, compare=False, repr=False)  # the arena's MarketDeck
    _by_id: tuple = field(default=(), compare=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_by_id", ({c.id: c for c in self.intrigue}, {c.id: c for c in self.market}))

    # -- look-ups (cards are few; linear scans over small tuples are cheap and picklable)
    def house(self, house_id: str) -> HouseCard:
        for h in self.houses:
            if h.id == house_id:
                return h
        raise KeyError(house_id)

    def intrigue_card(self, instance: str) -> IntrigueCard:
        return self._by_id[0][instance.partition("#")[0]]  # card_key, inlined: asked on every step

    def market_card(self, instance: str) -> MarketCard:
        return self._by_id[1][instance.partition("#")[0]]

    def intrigue_instances(self) -> list[str]:
        return [f"{c.id}#{n}" for c in self.intrigue for n in range(1, c.count + 1)]

    def market_instances(self) -> list[str]:
        return [f"{c.id}#{n}" for c in self.market for n in range(1, c.count + 1)]

    def has_moment(self, moment: str) -> bool:
        for c in self.intrigue:
            if moment in c.moments:
                return True
        return False


def card_key(instance: str) -> str:
    """``"guard#3"`` -> ``"guard"``: the card an instance is a copy of."""
    return instance.partition("#")[0]


# ----------------------------------------------------------------------------- validation

def _need(cond: bool, where: str, message: str) -> None:
    if not cond:
        raise CardSetError(f"{where}: {message}")


def _int(value: Any, where: str, lo: int = 0, hi: int = 99) -> int:
    _need(type(value) is int and lo <= value <= hi, where, f"must be an integer {lo}..{hi}")
    return value


def _str(value: Any, where: str) -> str:
    _need(isinstance(value, str) and value != "", where, "must be a non-empty string")
    return value


def validate_effects(effects: Any, where: str, *, allow_x: bool = False) -> tuple:
    """Check an effect list against the vocabulary; return it frozen as a tuple of dicts."""
    _need(isinstance(effects, list), where, "effects must be a list")
    out = []
    for i, eff in enumerate(effects):
        w = f"{where}.effects[{i}]"
        _need(isinstance(eff, Mapping) and "op" in eff, w, "needs an op")
        op = eff["op"]
        _need(op in EFFECTS, w, f"unknown op {op!r}; known: {sorted(EFFECTS)}")
        required, optional = EFFECTS[op]
        extra = set(eff) - {"op"} - set(required) - set(optional)
        _need(not extra, w, f"unknown fields {sorted(extra)}")
        for name in required:
            _need(name in eff, w, f"{op} needs {name}")
        if "who" in eff:
            _need(eff["who"] in WHO, w, f"who must be one of {WHO}")
        if "kind" in eff:
            _need(eff["kind"] in PROPERTY_KINDS, w, f"kind must be one of {PROPERTY_KINDS}")
        for name in ("amount", "count"):
            if name in eff:
                if allow_x and eff[name] == "x":
                    continue
                _int(eff[name], f"{w}.{name}", 0, 20)
        if "cost" in eff:
            _need(type(eff["cost"]) is bool, w, "cost must be true or false")
        out.append(dict(eff))
    _check_gold_costs_come_first(out, where)
    return tuple(out)


def _check_gold_costs_come_first(effects: list[dict], where: str) -> None:
    """'Any costs of the card must be paid at once' (p. 7): a gold cost is checked when the
    effects begin and paid in that same step, before any effect that may wait for a player
    (a choice, a window).  A gold cost after such an effect could find the gold given away
    meanwhile, so the card data may not put one there."""
    other = False
    for i, eff in enumerate(effects):
        gold_cost = bool(eff.get("cost")) and eff["op"] in ("pay_gold", "pay_each")
        _need(not (gold_cost and other), f"{where}.effects[{i}]", "a gold cost must come before every other effect")
        other = other or not gold_cost


def parse_intrigue(doc: Any) -> tuple[IntrigueCard, ...]:
    """Validate an intrigue document (schema and effect vocabulary); return its cards."""
    _need(isinstance(doc, Mapping) and isinstance(doc.get("cards"), list), "intrigue", "needs a cards list")
    cards: list[IntrigueCard] = []
    seen: set[str] = set()
    for i, c in enumerate(doc["cards"]):
        w = f"intrigue.cards[{i}]"
        _need(isinstance(c, Mapping), w, "must be an object")
        cid = _str(c.get("id"), f"{w}.id")
        _need("#" not in cid and cid not in seen, w, f"id {cid!r} repeated or contains '#'")
        seen.add(cid)
        kind = c.get("type")
        _need(kind in ("scheme", "reaction", "guard"), w, "type must be scheme, reaction or guard")
        moments: tuple[str, ...] = ()
        if kind == "reaction":
            moments = tuple(c.get("moments") or ())
            _need(bool(moments) and all(m in MOMENTS for m in moments), w, f"moments must be a subset of {MOMENTS}")
        scope = c.get("scope", "any")
        _need(scope in ("any", "targeting_you"), w, "scope must be any or targeting_you")
        requires = tuple(c.get("requires") or ())
        _need(all(r in REQUIRES for r in requires), w, f"requires must be a subset of {REQUIRES}")
        effects = validate_effects(c.get("effects", []), w)
        if kind == "reaction" and ("scheme" in moments or "reaction" in moments) and set(moments) - {"scheme", "reaction"}:
            raise CardSetError(f"{w}: a foiling reaction answers schemes/reactions only")
        cards.append(
            IntrigueCard(
                id=cid,
                name=_str(c.get("name"), f"{w}.name"),
                type=kind,
                influence=_int(c.get("influence", 0), f"{w}.influence", 0, 20),
                gold=_int(c.get("gold", 0), f"{w}.gold", 0, 20),
                count=_int(c.get("count", 1), f"{w}.count", 1, 60),
                text=_str(c.get("text"), f"{w}.text"),
                effects=effects,
                moments=moments,
                scope=scope,
                requires=requires,
                name_de=str(c.get("name_de", "")),
            )
        )
    _need(any(c.type == "guard" for c in cards), "intrigue", "needs a guard card")
    return tuple(cards)


def parse_houses(doc: Any) -> tuple[HouseCard, ...]:
    """Validate a houses document; return its house cards."""
    _need(isinstance(doc, Mapping) and isinstance(doc.get("houses"), list), "houses", "needs a houses list")
    out = []
    for i, h in enumerate(doc["houses"]):
        w = f"houses[{i}]"
        _need(isinstance(h, Mapping), w, "must be an object")
        start = h.get("start") or {}
        limits = h.get("hand_limit")
        _need(isinstance(limits, list) and len(limits) >= 1, f"{w}.hand_limit", "must be a list (index = influence)")
        abilities = []
        for j, a in enumerate(h.get("abilities") or []):
            aw = f"{w}.abilities[{j}]"
            x = a.get("x") or {}
            abilities.append(
                HouseAbility(
                    id=_str(a.get("id"), f"{aw}.id"),
                    name=_str(a.get("name"), f"{aw}.name"),
                    text=_str(a.get("text"), f"{aw}.text"),
                    effects=validate_effects(a.get("effects", []), aw, allow_x=bool(x)),
                    x_min=_int(x.get("min", 0), f"{aw}.x.min", 0, 20),
                    x_max=_int(x.get("max", 0), f"{aw}.x.max", 0, 20),
                )
            )
        out.append(
            HouseCard(
                id=_str(h.get("id"), f"{w}.id"),
                name=_str(h.get("name"), f"{w}.name"),
                dominus=str(h.get("dominus", "")),
                gladiators=_int(start.get("gladiators"), f"{w}.start.gladiators", 0, 8),
                slaves=_int(start.get("slaves"), f"{w}.start.slaves", 0, 8),
                guards=_int(start.get("guards"), f"{w}.start.guards", 0, 8),
                gold=_int(start.get("gold"), f"{w}.start.gold", 0, 99),
                hand_limit=tuple(_int(v, f"{w}.hand_limit", 0, 20) for v in limits),
                abilities=tuple(abilities),
            )
        )
    _need(len(out) >= 2, "houses", "needs at least two houses")
    return tuple(out)


# --- the market deck belongs to the arena (engine.spartacus.cards.market); the game reads
# from it what the phases need and implements the abilities recorded with a non-combat phase.


def parse_market(doc: Any) -> tuple[tuple[MarketCard, ...], Any]:
    """Validate a market document with the arena's loader; return (cards, the arena's deck)."""
    from engine.spartacus.cards import market as market_mod

    try:
        deck = market_mod.parse_market(doc, "custom")
    except market_mod.MarketCardError as err:
        raise CardSetError(str(err)) from None
    return _from_deck(deck), deck


def _from_deck(deck: Any) -> tuple[MarketCard, ...]:
    out = []
    for c in deck.cards:
        abilities = []
        for ab in c.abilities:
            if ab.phase == "combat":
                continue
            params = dict(ab.params)
            abilities.append(MarketAbility(
                phase=ab.phase, op=ab.kind, amount=int(params.get("amount", params.get("count", 0)) or 0),
                exhaust=bool(params.get("exhaust", False)), text=ab.text,
            ))
        out.append(MarketCard(
            id=c.id, name=c.name, kind=c.type, value=c.gold, count=c.count, starting=c.starting,
            attack=c.attack, defence=c.defence, speed=c.speed, text=c.text, abilities=tuple(abilities),
        ))
    return tuple(out)


def build_set(name: str, houses_doc: Any, intrigue_doc: Any, market_doc: Any) -> CardSet:
    """Validate three documents and return the card set."""
    market, deck = parse_market(market_doc)
    return CardSet(name=name, houses=parse_houses(houses_doc), intrigue=parse_intrigue(intrigue_doc),
                   market=market, deck=deck)


def _read(path: str) -> Any:
    with open(path, encoding="utf-8") as fh:
        return json.load(fh)


def available_sets() -> list[str]:
    """Names of the card sets shipped with Capua."""
    return ["default"]


@lru_cache(maxsize=8)
def load_set(name: str = "default") -> CardSet:
    """The shipped card set ``name`` (validated)."""
    if name not in available_sets():
        raise CardSetError(f"no card set {name!r}; available: {available_sets()}")
    from engine.spartacus.cards import market as market_mod

    deck = market_mod.load_market("default")
    return CardSet(
        name=name,
        houses=parse_houses(_read(os.path.join(CARDS_DIR, "houses.json"))),
        intrigue=parse_intrigue(_read(os.path.join(CARDS_DIR, "intrigue.json"))),
        market=_from_deck(deck),
        deck=deck,
    )


def set_from_options(options: Mapping[str, Any]) -> CardSet:
    """The card set a game's options ask for: a shipped set, or ``custom_cards`` inline.

    ``custom_cards`` may hold any of ``houses``, ``intrigue`` and ``market`` documents (the
    same shapes as the files); decks it leaves out come from ``card_set``.
    """
    base = load_set(options.get("card_set", "default"))
    custom = options.get("custom_cards")
    if not custom:
        return base
    _need(isinstance(custom, Mapping), "custom_cards", "must be an object")
    market, deck = (base.market, base.deck) if custom.get("market") is None else parse_market(custom["market"])
    return CardSet(
        name="custom",
        houses=parse_houses(custom["houses"]) if custom.get("houses") is not None else base.houses,
        intrigue=parse_intrigue(custom["intrigue"]) if custom.get("intrigue") is not None else base.intrigue,
        market=market,
        deck=deck,
    )


# ----------------------------------------------------------------------------- describing

def describe_set(name: str = "default") -> list[dict]:
    """Every card of set ``name`` as plain rows, for ``capua cards list spartacus``."""
    cs = load_set(name)
    rows: list[dict] = []
    for h in cs.houses:
        rows.append({
            "deck": "house", "id": h.id, "name": h.name, "count": 1,
            "start": {"gladiators": h.gladiators, "slaves": h.slaves, "guards": h.guards, "gold": h.gold},
            "hand_limit": list(h.hand_limit),
            "text": " / ".join(a.text for a in h.abilities),
        })
    for c in cs.intrigue:
        rows.append({
            "deck": "intrigue", "id": c.id, "name": c.name, "type": c.type, "count": c.count,
            "influence": c.influence, "gold": c.gold, "text": c.text,
        })
    for m in cs.market:
        row = {
            "deck": "market", "id": m.id, "name": m.name, "type": m.kind, "count": m.count,
            "gold": m.value, "starting": m.starting, "text": m.text,
        }
        if m.kind in ("gladiator", "slave"):
            row.update(attack=m.attack, defence=m.defence, speed=m.speed)
        rows.append(row)
    return rows


def market_card_or_none(cs: CardSet, instance: str) -> Optional[MarketCard]:
    """The market card of an instance, or ``None`` for an intrigue card."""
    return cs._by_id[1].get(card_key(instance))
