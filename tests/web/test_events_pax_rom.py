"""PAX and Rom tell every event in one sentence in their own words: each event a played
game records, as each seat (and a spectator) may see it, is told in English, German and
Russian by the game's ``describe_event`` -- never by the generic fallback."""

from __future__ import annotations

import random
import re

import pytest

from engine import registry
from engine.core.playout import play_out
from engine.core.types import Event
from engine.pax.events import EVENT_VERSIONS as PAX_EVENT_TYPES
from engine.rom.events import EVENT_TYPES as ROM_EVENT_TYPES
from service.words import telling
from service.words.terms import pax as pax_terms, rom as rom_terms

SEAT_NAMES = {0: "Ann", 1: "Bob"}
TERMS = {"pax": pax_terms, "rom": rom_terms}
RAW_TYPE = re.compile(r"\b[A-Z][a-z]+(?:[A-Z][a-z]+)+\b")  # CamelCase event type names


def _played(game: str, seats: int, seed: int) -> list[Event]:
    rules = registry.get(game)
    _state, log = play_out(rules, rules.initial_state(seats, {}), random.Random(seed))
    return log


def _views(game: str, seats: int, events: list[Event]):
    """Every event as each seat and a spectator see it, shaped as the pages get it."""
    rules = registry.get(game)
    for seq, event in enumerate(events, start=1):
        for viewer in [*range(seats), None]:
            data = rules.visible(event, viewer)
            if data is not None:
                yield viewer, {"seq": seq, "type": event.type, "data": data}


def _check(game: str, event: dict, viewer) -> None:
    terms = TERMS[game]
    english = terms.describe_event(event, "en", SEAT_NAMES)
    assert english, f"{game} {event['type']} (viewer {viewer}) is not told"
    for language in ("en", "de", "ru"):
        text = terms.describe_event(event, language, SEAT_NAMES)
        assert text and text.strip(), (game, event["type"], language)
        assert "%(" not in text, text
        assert event["type"] not in text and not RAW_TYPE.search(text), text
        if language != "en":
            assert text != english, f"{game} {event['type']} is English in {language}: {text}"
        # the page's own entry point uses the hook too
        assert telling.describe_event(language, event, SEAT_NAMES, "UTC", game) == text


@pytest.mark.parametrize("game, seats, all_types", [("pax", 4, PAX_EVENT_TYPES), ("rom", 3, ROM_EVENT_TYPES)])
def test_every_event_of_a_played_game_is_told_in_each_language(game, seats, all_types):
    seen: set[str] = set()
    for seed in range(3):
        for viewer, event in _views(game, seats, _played(game, seats, seed)):
            seen.add(event["type"])
            _check(game, event, viewer)
    assert seen <= set(all_types)
    assert {"TurnStarted" if game == "pax" else "PowerDiePlaced", "GameEnded"} <= seen


#: Events a short bot game may never record, as the engine makes them (engine/pax/interrupt.py,
#: engine/pax/flow.py, engine/rom/effects.py, engine/rom/flow.py).
RARE = {
    "pax": [
        Event("InterruptOpened", {"seat": 1, "responders": [2, 3, 0]}),
        Event("InterruptPassed", {"seat": 2}),
        Event("InterruptClosed", {"seat": 1}),
        Event("CardLaid", {"seat": 3, "card": {"id": "F01", "category": "fleet", "symbols": 1, "price": 1,
                                               "name": "navis longa"}, "cost": 1, "during": "interrupt"}),
        Event("PrimusConspiratusMoved", {"from": 1, "to": None}),
        Event("RomePeeked", {"seat": 0, "aurei": 2}),
    ],
    "rom": [
        Event("RerollDeclined", {"seat": 0, "card": "military_tribune"}),
        Event("ResourceStolen", {"seat": 1, "card": "fur", "target": 0, "resource": "jewel", "lost": 1,
                                 "gained": 1}),
        Event("SenateCardDiscarded", {"seat": 1, "card": "tribunus"}),
        Event("ProvinceDiscarded", {"seat": 1, "card": "censor", "owner": 0, "province": "latium",
                                    "resource": "olive"}),
        Event("HiddenArenaCardBought", {"seat": 0, "card": "lion_2", "cost": 5}),
        Event("ArenaSetsRevealed", {"round": 3, "sets": {"0": ["lion_1", "lion_2", "gladiator_1"]},
                                    "ranks": {"0": 1}, "points": {"0": 5}, "best": 0, "next": "cleanup"}),
    ],
}


@pytest.mark.parametrize("game, seats", [("pax", 4), ("rom", 3)])
def test_events_a_short_game_may_miss_are_told_too(game, seats):
    for viewer, event in _views(game, seats, RARE[game]):
        _check(game, event, viewer)


def test_every_event_type_has_a_sentence():
    assert set(PAX_EVENT_TYPES) <= {key.split(".")[0] for key in pax_terms.EVENT_SENTENCES}
    assert set(ROM_EVENT_TYPES) <= {key.split(".")[0] for key in rom_terms.EVENT_SENTENCES}


def test_a_secret_stays_secret_in_the_sentence():
    kept = Event("StartCardChosen", {"seat": 0, "card": "S01"})
    bought = Event("HiddenArenaCardBought", {"seat": 0, "card": "lion_2", "cost": 5})
    for game, event, secret in (("pax", kept, pax_terms.card_name("S01", "en")),
                                ("rom", bought, "Lion")):
        rules = registry.get(game)
        own = TERMS[game].describe_event({"type": event.type, "data": rules.visible(event, 0)}, "en", SEAT_NAMES)
        other = TERMS[game].describe_event({"type": event.type, "data": rules.visible(event, 1)}, "en", SEAT_NAMES)
        assert secret in own and secret not in other
