"""A Spartacus game recorded by earlier rules (``rules_version`` 4), for the upcaster's tests.

``tests/fixtures/spartacus_4p_rules4_events.json.gz`` holds the first 865 steps of a seeded
random 4-player game (``random.Random(0)``, default options) as the engine of rules
version 4 played it: each step's command and the events it recorded, 2,502 in all, with
windows closed by a separate ``WindowClosed``, moves followed by ``TurnEnded`` and rounds
ended by ``RoundEnded``.  It stops where no chance is pending.  The fight plans and their
policy never decide anything in it (no event is ``planned``).
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Any

from engine.core.types import Command, Event

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "spartacus_4p_rules4_events.json.gz"


def load() -> dict[str, Any]:
    with gzip.open(FIXTURE, "rt", encoding="utf-8") as f:
        return json.load(f)


def commands(doc: dict[str, Any]) -> list[Command]:
    return [Command(s["command"]["seat"], s["command"]["type"], s["command"]["args"]) for s in doc["steps"]]


def old_events(doc: dict[str, Any]) -> list[Event]:
    return [Event.from_json(e) for s in doc["steps"] for e in s["events"]]
