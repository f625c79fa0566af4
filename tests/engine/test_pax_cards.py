"""Cards as data: the default deck's design and the loader's checks."""

from __future__ import annotations

import json

import pytest

from engine.pax.card_set import (
    CATEGORIES, LATIN_NAMES, PUBLISHED_COUNTS, CardSetError, load_card_set, parse_card_set, second_copy,
)
from engine.pax.rules import RULES
from engine.core.errors import BadArguments


def _raw():
    return json.loads(json.dumps({"cards": [c.to_json() for c in load_card_set().cards]}))


def test_default_deck_has_the_published_74_cards():
    deck = load_card_set("default").cards
    assert len(deck) == 74
    for category in CATEGORIES:
        assert sum(c.category == category for c in deck) == PUBLISHED_COUNTS[category]
    assert len({c.id for c in deck}) == 74


def test_default_deck_prices_grow_with_symbols():
    deck = load_card_set().cards
    for c in deck:
        assert 1 <= c.symbols <= 3 and 1 <= c.price <= 4
        assert c.symbols <= c.price <= c.symbols + 1, c
        assert c.name == LATIN_NAMES[c.category]
    for category in CATEGORIES:
        mine = [c for c in deck if c.category == category]
        mean = {s: sum(c.price for c in mine if c.symbols == s) / sum(c.symbols == s for c in mine)
                for s in (1, 2, 3)}
        assert mean[1] < mean[2] < mean[3]


def test_second_copy_has_distinct_ids():
    deck = load_card_set().cards
    copy = second_copy(deck)
    assert {c.id for c in deck}.isdisjoint({c.id for c in copy})
    assert [(c.category, c.symbols, c.price) for c in copy] == [(c.category, c.symbols, c.price) for c in deck]


@pytest.mark.parametrize("mutate, message", [
    (lambda d: d["cards"][0].update(category="gold"), "category 'gold'"),
    (lambda d: d["cards"][0].update(price=5), "price 5"),
    (lambda d: d["cards"][0].update(symbols=0), "symbols 0"),
    (lambda d: d["cards"][0].update(price="2"), "price '2'"),
    (lambda d: d["cards"][0].pop("name"), "missing fields ['name']"),
    (lambda d: d["cards"][0].update(colour="red"), "unknown fields ['colour']"),
    (lambda d: d["cards"][1].update(id=d["cards"][0]["id"]), "id used twice"),
    (lambda d: d["cards"].pop(), "11 intrigue cards, the game has 12"),
    (lambda d: d["cards"][0].update(id="bX1") or d["cards"][1].update(id="X1"), "clash"),
    (lambda d: d.pop("cards"), "list 'cards'"),
])
def test_loader_names_the_problem(mutate, message):
    data = _raw()
    mutate(data)
    with pytest.raises(CardSetError, match=message.replace("[", r"\[").replace("]", r"\]").replace("(", r"\(")):
        parse_card_set(data, "broken")


@pytest.mark.parametrize("name", ["nope", "../rules", "Default", ""])
def test_unknown_or_unsafe_card_set_names_are_refused(name):
    with pytest.raises(CardSetError):
        load_card_set(name)


def test_card_set_option_selects_the_file_and_bad_names_are_bad_arguments():
    assert RULES.initial_state(2, {"card_set": "default"}).card_set.name == "default"
    with pytest.raises(BadArguments, match="no card set"):
        RULES.initial_state(2, {"card_set": "nope"})
