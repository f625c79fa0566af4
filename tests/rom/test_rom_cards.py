"""Card data: the default set's counts, the validator's messages, loading alternatives, the
documentation, and the engine's purity."""

from __future__ import annotations

import copy
import json
import os
import subprocess
import sys
from collections import Counter

import pytest

from engine.rom import vocabulary
from engine.rom.carddata import CARDS_DIR, CardSetError, card_set_from_dict, load_card_set

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


@pytest.fixture(scope="module")
def raw():
    with open(os.path.join(CARDS_DIR, "default.json"), encoding="utf-8") as handle:
        return json.load(handle)


def test_default_set_follows_the_component_counts():
    """20 province cards, 25 senate cards, 31 arena cards; 7 regions (p. 1, 7)."""
    cards = load_card_set("default")
    assert len(cards.provinces) == 20 and len(cards.senate) == 25 and len(cards.arena) == 31
    assert len(cards.regions) == 7
    assert {"gallia", "greko", "hispania", "asia"} <= {r for r, _ in cards.regions}
    assert Counter(p.epoch for p in cards.provinces) == {1: 8, 2: 8, 3: 4}
    two = [p for p in cards.provinces if p.region not in cards.two_player_removed_regions]
    assert Counter(p.epoch for p in two) == {1: 6, 2: 6, 3: 3}
    assert Counter(a.type for a in cards.arena) == {"roman": 12, "beast": 10, "barbarian": 9}
    assert sum(1 for c in cards.senate if c.intrigue) == 5
    assert {c.kind for c in cards.senate} == set(vocabulary.KINDS)


def test_the_rulebook_examples_fit_the_default_provinces():
    """Gallia: strengths 9 and 7; Greko: 7 + 7 and 9 + 5 (p. 7)."""
    cards = load_card_set("default")
    strengths = {r: sorted(p.strength for p in cards.provinces if p.region == r) for r, _ in cards.regions}
    assert {9, 7} <= set(strengths["gallia"])
    assert sorted(strengths["greko"]) == [5, 7, 7, 9]


def test_every_senate_card_of_the_rulebook_is_there():
    names = Counter(c.name for c in load_card_set("default").senate)
    for name in ("Legatus", "Magistrate", "Military Tribune", "Censor", "Consul", "Quaestor", "Tribunus", "Senator",
                 "Aedile", "Magister Equitum", "Proconsul", "Asianus", "Ludi Maximus", "Imperator", "Praetor"):
        assert names[name] >= 1, name
    for name in ("Vicarius", "Hispania Maximus", "Tribunus", "Greko Maximus", "Africanus Maximus"):
        assert names[name] >= 2, name  # a base card and its intrigue card


def test_arena_rank_vp_increase_with_rank(raw):
    ranks = sorted(raw["arena_ranks"], key=lambda r: r["rank"])
    assert [r["vp"] for r in ranks] == sorted({r["vp"] for r in ranks})


@pytest.mark.parametrize("break_it,message", [
    (lambda d: d["senate"][0]["effect"].update(kind="fly"), "unknown effect kind 'fly'"),
    (lambda d: d["senate"][0]["effect"].update(delta=9), "senate card 'vicarius'.effect.delta must be at most 5"),
    (lambda d: d["provinces"][0].update(region="atlantis"), "province 'latium': unknown region 'atlantis'"),
    (lambda d: d["arena"][1].update(id="gladiator_1"), "id 'gladiator_1' is used twice"),
    (lambda d: d["provinces"][0].update(symbol="temple"), "card set.provinces[0].symbol must be one of"),
    (lambda d: d["rules"].update(scoring_rounds=[3]), "must include the last round"),
    (lambda d: d["senate"][1].update(variant_of="nobody"), "variant_of names unknown card 'nobody'"),
    (lambda d: d["arena_ranks"][0]["any_of"][0][0].update(count=2), "a set has at least 3 cards"),
])
def test_the_validator_names_the_problem(raw, break_it, message):
    data = copy.deepcopy(raw)
    break_it(data)
    with pytest.raises(CardSetError) as err:
        card_set_from_dict(data)
    assert message in str(err.value)


def test_an_alternative_card_set_loads_from_a_file(raw, tmp_path):
    data = copy.deepcopy(raw)
    data["name"] = "as_printed"
    for card in data["senate"]:
        if card["id"] == "hispania_maximus":
            card["effect"]["advance"] = "olive"  # a group reading the card as a misprint
        if card["name"] == "Vicarius":
            card["epoch"] = 2  # without the erratum
    path = tmp_path / "as_printed.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    cards = load_card_set(str(path))
    assert cards.name == "as_printed" and cards.senate_card("hispania_maximus").param("advance") == "olive"
    assert cards.senate_card("vicarius").epoch == 2


def test_docs_list_every_card():
    with open(os.path.join(ROOT, "docs", "rom.md"), encoding="utf-8") as handle:
        doc = handle.read()
    cards = load_card_set("default")
    for item in (*cards.provinces, *cards.senate, *cards.arena):
        assert f"`{item.id}`" in doc, item.id
    for kind in vocabulary.KINDS:
        assert f"`{kind}`" in doc, kind


def test_the_engine_imports_only_the_standard_library():
    code = (
        "import sys, json\n"
        "import engine.rom.rules\n"
        "print(json.dumps(sorted(m.split('.')[0] for m in sys.modules)))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    roots = set(json.loads(out.stdout))
    foreign = {m for m in roots if m not in sys.stdlib_module_names and m not in ("engine", "__main__")
               and not m.startswith("_")}
    assert not foreign, foreign
    source = ""
    for name in os.listdir(os.path.join(ROOT, "engine", "rom")):
        if name.endswith(".py"):
            with open(os.path.join(ROOT, "engine", "rom", name), encoding="utf-8") as handle:
                source += handle.read()
    assert "import random" not in source and "import time" not in source and "datetime" not in source
