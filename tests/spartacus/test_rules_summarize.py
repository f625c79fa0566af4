"""The games' ``summarize``: a fight told in one paragraph, from what a viewer may see."""

from __future__ import annotations

import random

from engine import registry
from engine.core.playout import play_out
from engine.spartacus.arena import fight


def test_the_duel_summary_is_the_fight_summary_for_each_viewer():
    rules = registry.get("spartacus_arena")
    state, events = play_out(rules, rules.initial_state(2, {}), random.Random(3))
    for viewer in (0, 1, None):
        text = rules.summarize(events, viewer)
        assert text == fight.summary(events, viewer)
        assert "faced" in text and text.endswith("won.")


def test_the_game_summary_tells_its_latest_fight_and_nothing_before_one():
    rules = registry.get("spartacus")
    state, events = play_out(rules, rules.initial_state(3, {"max_rounds": 2}), random.Random(5))
    begun = [i for i, e in enumerate(events) if e.type == "FightBegan"]
    assert begun, "two rounds hold at least one arena phase"
    assert rules.summarize(events[: begun[0]], 0) == ""
    last = rules.summarize(events, None)
    assert last == fight.summary([e for e in events[begun[-1]:] if e.type in fight_types(events)], None)


def fight_types(events):
    from engine.spartacus.arena.events import is_fight_event

    return {e.type for e in events if is_fight_event(e)}


def test_a_speed_attack_is_told_from_one_hex_or_from_hexes():
    from engine.core.types import Event
    from engine.spartacus.arena.summary import summarize

    def told(distance):
        began = Event("FightBegan", {"sides": [
            {"name": "Crixus", "attack": 3, "defence": 3, "speed": 3,
             "equipment": [{"card": "javelin", "name": "Javelin"}]},
            {"name": "Varro", "attack": 2, "defence": 3, "speed": 2, "equipment": []}]})
        declared = Event("AttackDeclared", {"side": 0, "style": "speed", "source": "javelin",
                                            "distance": distance, "round": 1})
        return summarize([began, declared])

    assert "with the Javelin from 1 hex in round 1" in told(1)
    assert "with the Javelin from 3 hexes in round 1" in told(3)
