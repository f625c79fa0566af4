"""The market deck's data: the published facts, the validator's messages, the docs page."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from engine.spartacus.cards import catalogue
from engine.spartacus.cards.market import MarketCardError, load_market, parse_market
from engine.spartacus.cards.vocabulary import COMBAT_KINDS, KINDS

ROOT = Path(__file__).resolve().parents[2]
RAW = json.loads((ROOT / "engine/spartacus/cards/market.json").read_text(encoding="utf-8"))
DECK = load_market()


def ability(card_id: str):
    [a] = DECK.card(card_id).abilities
    return a.kind, a.phase, dict(a.params)


def test_sixty_two_cards_with_eight_starting_gladiators_and_eight_starting_slaves():
    assert sum(c.count for c in DECK.cards) == 62
    assert sum(c.count for c in DECK.cards if c.type == "gladiator" and c.starting) == 8
    assert sum(c.count for c in DECK.cards if c.type == "slave" and c.starting) == 8
    assert len(DECK.copies()) == 62 and DECK.card("net#2").name == "Net"


def test_every_card_the_rulebooks_name_is_in_the_deck():
    named = {"Pietros", "Indus", "Medicus", "Agron", "Spartacus", "Theokoles", "Crixus", "Gannicus", "Barca",
             "Oenomaus", "Sword", "Helmet", "Trident", "Javelin", "Net"}
    assert named <= {c.name for c in DECK.cards}
    assert "Galea" in DECK.card("helmet").aliases and "Dreizack" in DECK.card("trident").aliases


def test_the_abilities_the_rulebooks_print():
    assert ability("sword") == ("reroll", "combat", {"roll": "attack", "dice": 1, "uses": "every_roll"})
    assert ability("helmet") == ("reroll", "combat", {"roll": "defence", "dice": 1, "uses": "every_roll"})
    assert ability("trident") == ("range", "combat", {"hexes": 2})
    assert ability("javelin")[0] == "speed_attack" and ability("net")[0] == "net"
    assert DECK.card("javelin").type == DECK.card("net").type == "special"
    assert ability("agron") == ("counter_wound", "combat", {"count": 1, "trigger": "defence_triples"})
    assert ability("spartacus")[2]["trigger"] == "attack_doubles"
    assert DECK.card("spartacus").attack == DECK.card("spartacus").defence == DECK.card("spartacus").speed == 4
    assert ability("pietros") == ("gain_gold", "intrigue", {"amount": 1, "exhaust": True})
    assert ability("indus")[:2] == ("peek_hand", "intrigue")
    assert ability("medicus")[:2] == ("reroll_healing", "upkeep")
    assert DECK.card("thraex").gold == min(c.gold for c in DECK.cards if c.type == "gladiator")


def test_the_deck_uses_every_kind_of_combat_effect():
    used = {a.kind for c in DECK.cards for a in c.abilities}
    assert set(COMBAT_KINDS) <= used and used <= set(KINDS)


def _broken(mutate):
    data = copy.deepcopy(RAW)
    mutate(data)
    with pytest.raises(MarketCardError) as info:
        parse_market(data, "test")
    return str(info.value)


def _card(data, card_id):
    return next(c for c in data["cards"] if c["id"] == card_id)


@pytest.mark.parametrize("mutate, message", [
    (lambda d: _card(d, "sword")["abilities"][0].update(kind="stab"), "kind 'stab' is not in the vocabulary"),
    (lambda d: _card(d, "sword")["abilities"][0].update(phase="intrigue"), "works in phase combat, not 'intrigue'"),
    (lambda d: _card(d, "sword")["abilities"][0].update(dice=9), "parameters.dice must be at most 3"),
    (lambda d: _card(d, "sword")["abilities"][0].update(colour="red"), "unknown fields ['colour']"),
    (lambda d: _card(d, "trident")["abilities"][0].pop("hexes"), "needs parameters ['hexes']"),
    (lambda d: _card(d, "agron").pop("attack"), "a gladiator needs attack"),
    (lambda d: _card(d, "agron").update(attack=0), "attack 0 must be an integer 1..6"),
    (lambda d: _card(d, "sword").update(attack=3), "equipment has no attack"),
    (lambda d: _card(d, "sword").update(count=3), "63 cards (counting copies), the game has 62"),
    (lambda d: _card(d, "murmillo").update(starting=False), "7 white-bordered starting gladiators"),
    (lambda d: _card(d, "net").update(starting=True), "only gladiators and slaves can be starting cards"),
    (lambda d: _card(d, "crixus").update(id="agron"), "card agron: id used twice"),
    (lambda d: _card(d, "crixus").update(id="Crixus!"), "must start with a letter"),
    (lambda d: _card(d, "crixus")["abilities"].append(
        {"name": "x", "text": "y", "phase": "combat", "kind": "net"}), "must be an equipment card"),
    (lambda d: _card(d, "crixus").update(type="beast"), "type 'beast' is not one of"),
])
def test_the_validator_names_the_problem(mutate, message):
    assert message in _broken(mutate)


def test_the_docs_page_lists_every_card_and_matches_the_data():
    page = (ROOT / "docs/spartacus-market-cards.md").read_text(encoding="utf-8")
    assert page == catalogue.render(DECK), "run: python -m engine.spartacus.cards.catalogue > docs/spartacus-market-cards.md"
    for card in DECK.cards:
        assert f"| `{card.id}` | {card.name} |" in page
