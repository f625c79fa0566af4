"""``spartacus_arena`` as a game type: options, the kernel's API, random bots, views, summary."""

from __future__ import annotations

import json
import random

import pytest

from engine import registry
from engine.core.game import replay, step
from engine.core.types import Command
from engine.core.playout import play_out
from engine.core import schema as schema_mod
from engine.core.errors import BadArguments
from engine.spartacus.arena import fight
from engine.spartacus.arena.rules import RULES
from engine.spartacus.arena.simulation import duels
from engine.spartacus.arena.fighters import Entrant
from engine.spartacus.cards.market import load_market

DECK = load_market()


def test_the_duel_is_in_the_registry():
    assert "spartacus_arena" in registry.names()
    rules = registry.get("spartacus_arena")
    assert rules is RULES and rules.title == "Spartacus: Arena duel" and list(rules.seat_counts({})) == [2]


def test_options_choose_fighters_and_equipment_by_card_id_with_defaults():
    schema = RULES.options_schema()
    assert set(schema["properties"]["weapon_i"]["enum"]) == {"none", "sword", "gladius", "trident", "hasta", "sica",
                                                             "twin-blades"}
    state = RULES.initial_state(2, {})
    assert [s.fighter.card for s in state.sides] == ["spartacus", "crixus"]
    state = RULES.initial_state(2, {"fighter_ii": "pietros", "special_ii": "javelin", "armour_i": "helmet"})
    assert state.sides[1].fighter.name == "Pietros" and state.sides[1].fighter.equipment[0].card == "javelin"
    with pytest.raises(BadArguments):
        RULES.initial_state(2, {"weapon_i": "helmet"})
    with pytest.raises(BadArguments):
        RULES.initial_state(2, {"fighter_i": "sword"})


@pytest.mark.parametrize("fighter", [c.id for c in DECK.cards if c.is_fighter])
def test_every_fighter_fights_to_a_result_under_random_bots(fighter):
    rng = random.Random(fighter)
    kit = {f"{slot}_i": rng.choice([c.id for c in DECK.of_type(slot)]) for slot in ("weapon", "armour", "special")}
    opponent = rng.choice([c.id for c in DECK.cards if c.is_fighter])
    initial = RULES.initial_state(2, {"fighter_i": fighter, "fighter_ii": opponent, **kit})
    final, events = play_out(RULES, initial, rng)
    outcome = RULES.outcome(final)
    assert outcome is not None and sorted(outcome.ranking) == [0, 1]
    assert replay(RULES, initial, events) == final
    for viewer in (0, 1, None):
        json.dumps(RULES.view(final, viewer))
        json.dumps([RULES.visible(e, viewer) for e in events])
    json.dumps([e.to_json() for e in events])


def test_every_pair_of_market_gladiators_fights_to_a_result_under_plans():
    gladiators = [c.id for c in DECK.cards if c.type == "gladiator"]
    rng = random.Random(8)
    for a in gladiators:
        b = rng.choice(gladiators)
        tally = duels(Entrant(0, a, weapon="sword"), Entrant(1, b, special="net"), 1, rng.randrange)
        assert tally.fights == 1 and sum(tally.kinds.values()) == 1


def test_pending_decisions_are_json_and_have_legal_defaults():
    state = RULES.initial_state(2, {"special_i": "net", "armour_ii": "helmet"})
    first = RULES.pending(state)
    assert {d.prompt_key for d in first.decisions} == {"spartacus_arena.prepare"}
    for seat in (0, 1):  # both fight blow by blow
        state, _ = step(RULES, state, Command(seat, "set_fight_plan", {"active": False}))
    pending = RULES.pending(state)
    for decision in first.decisions + pending.decisions:
        json.dumps(decision.to_json())
        json.dumps(decision.to_json(with_options=False))
        assert decision.default.type == "set_fight_plan"
        schema_mod.validate(fight.flow.PLAN_SCHEMA, dict(decision.default.args))
    assert {d.prompt_key for d in pending.decisions} == {"spartacus_arena.use_net", "spartacus_arena.set_fight_plan"}


def test_the_summary_tells_the_fight_in_one_paragraph():
    rng = random.Random(12)
    state = fight.start_fight(Entrant(0, "spartacus", weapon="sword"), Entrant(1, "agron", special="net"),
                              plans=(fight.FightPlan(), fight.FightPlan(net="first_round")))
    from engine.spartacus.arena.simulation import run_to_end
    end, events = run_to_end(state, rng.randrange)
    text = fight.summary(events)
    assert "\n" not in text and text.startswith("Spartacus (4/4/4, with Sword) faced Agron (3/4/3, with Net)")
    assert "threw the net" in text
    result = fight.result(end)
    winner = "Spartacus" if result.winner == 0 else "Agron"
    assert text.endswith(f"{winner} won.")
    assert {"yielded": "defeated", "injured": "injured", "decapitated": "decapitated"}[
        next(w for w in ("yielded", "injured", "decapitated") if w in text)] == result.kind


def test_apply_is_total():
    from engine.core.types import Event
    state = RULES.initial_state(2, {})
    assert RULES.apply(state, Event("GoldGiven", {"seat": 1})) is state
    assert RULES.apply(state, Event("RerollChosen", {"fight": "duel", "roll": 1, "side": 0, "dice": []})) is state


def test_two_fights_nest_side_by_side_in_one_host():
    a = fight.start_fight(Entrant(0, "murmillo", special="net"), Entrant(1, "crixus"), fight_id="t:1")
    b = fight.start_fight(Entrant(2, "varro", special="net"), Entrant(3, "barca"), fight_id="t:2")
    ids = [d.id for d in fight.pending(a).decisions] + [d.id for d in fight.pending(b).decisions]
    assert len(ids) == len(set(ids)) and all(i.startswith(("t:1:", "t:2:")) for i in ids)
    events = fight.decide(a, fight.pending(a).decisions[0].options[0])
    assert all(e.data["fight"] == "t:1" for e in events) and all(fight.is_fight_event(e) for e in events)
    with pytest.raises(fight.FightSetupError):
        fight.start_fight(Entrant(0, "murmillo"), Entrant(0, "crixus"))
    with pytest.raises(fight.FightSetupError):
        fight.start_fight(Entrant(0, "murmillo", weapon="net"), Entrant(1, "crixus"))
