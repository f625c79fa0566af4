"""Fight plans: decisions a plan answers are never asked; an absent player costs one deadline."""

from __future__ import annotations

import random

import pytest

from engine.core.chance import RESOLVE_CHANCE, draw_outcome
from engine.core.errors import BadArguments, NotYourDecision
from engine.core.game import step
from engine.core.types import SYSTEM_SEAT, Command
from engine.spartacus.arena import fight
from engine.spartacus.arena.plan import DEFAULT_PLAN, FightPlan
from engine.spartacus.arena.rules import RULES
from engine.spartacus.arena.simulation import run_to_end
from tests.spartacus.support import Bout


def _chance(state, rng):
    request = fight.pending(state).chance
    return Command(SYSTEM_SEAT, RESOLVE_CHANCE, {"id": request.id, "outcome": draw_outcome(request, rng.randrange)})


@pytest.mark.parametrize("seed", range(5))
def test_two_planned_fighters_need_nothing_but_chance(seed):
    rng = random.Random(seed)
    bout = Bout("spartacus", "crixus", kit_i={"weapon": "sword", "armour": "helmet"},
                kit_ii={"special": "net", "weapon": "trident"},
                plans=(DEFAULT_PLAN, FightPlan(approach="keep_distance", net="first_round", reroll="lowest")))
    steps = 0
    while bout.state.result is None:
        pending = fight.pending(bout.state)
        assert pending.chance is not None and pending.decisions == ()
        bout.submit(_chance(bout.state, rng))
        steps += 1
    assert steps < 200
    planned = [e for e in bout.events if e.data.get("planned")]
    assert planned and {e.type for e in planned} <= {"NetDeclared", "OrderChosen", "FighterMoved",
                                                     "AttackDeclared", "TurnEnded", "RerollChosen", "WoundsTaken"}


def test_a_plan_set_during_the_fight_answers_the_open_decision_at_once():
    bout = Bout("murmillo", "murmillo").to_first_turn(0)
    assert bout.decision(0).prompt_key == "spartacus_arena.turn"
    events = bout.act(0, "set_fight_plan", approach="close")
    assert events[0].type == "FightPlanSet"
    assert any(e.type == "FighterMoved" and e.data["planned"] for e in events)
    assert bout.decisions(0) == []


def test_every_decisions_default_adopts_the_default_plan_and_the_fight_then_asks_that_seat_no_more():
    rng = random.Random(3)
    state = RULES.initial_state(2, {"special_i": "net", "weapon_ii": "sword"})
    asked = {0: 0, 1: 0}
    while RULES.outcome(state) is None:
        pending = RULES.pending(state)
        if pending.chance is not None:
            state, _ = step(RULES, state, _chance(state, rng))
            continue
        decision = next(d for d in pending.decisions if d.mode != "free")
        assert decision.default.type == "set_fight_plan"
        asked[decision.seat] += 1
        # seat 0 is away: its deadline passes; seat 1 answers with the engine's suggestion
        if decision.seat == 0:
            state, _ = step(RULES, state, decision.default)
        else:
            suggested = decision.context["suggested"]
            state, _ = step(RULES, state, Command(1, suggested["type"], suggested["args"]))
    assert asked[0] == 1


def test_the_plan_is_private_to_its_seat():
    bout = Bout("murmillo", "murmillo", kit_i={"special": "net"})
    events = bout.act(0, "set_fight_plan", net="never", wound_order=["defence", "speed", "attack"])
    plan_event = next(e for e in events if e.type == "FightPlanSet")
    assert fight.visible(plan_event, 0)["data"]["plan"]["net"] == "never"
    assert fight.visible(plan_event, 1) is None and fight.visible(plan_event, None) is None
    assert fight.view(bout.state, 0)["fighters"][0]["plan"]["wound_order"] == ["defence", "speed", "attack"]
    assert "plan" not in fight.view(bout.state, 1)["fighters"][0]
    assert "plan" not in fight.view(bout.state, None)["fighters"][0]


def test_a_plan_can_be_dropped_and_the_decisions_come_back():
    bout = Bout("murmillo", "murmillo", kit_i={"special": "net"}, plans=(FightPlan(net="never"), None))
    assert bout.decisions(0) == []
    bout.to_first_turn(1)
    bout.act(1, "set_fight_plan", active=False)  # seat 1 had none: still manual
    bout.act(0, "set_fight_plan", active=False)
    bout.act(1, "end_turn")
    assert bout.decision(0).prompt_key == "spartacus_arena.turn"


def test_a_plan_cannot_be_set_while_dice_are_waiting_to_be_rolled():
    bout = Bout("murmillo", "murmillo")
    assert bout.chance() is not None
    with pytest.raises(NotYourDecision):
        bout.act(0, "set_fight_plan", approach="close")


def test_a_bad_plan_is_refused():
    bout = Bout("murmillo", "murmillo").to_first_turn(0)
    with pytest.raises(BadArguments):
        bout.act(0, "set_fight_plan", approach="run_away")
    with pytest.raises(BadArguments):
        bout.act(0, "set_fight_plan", wound_order=["speed", "speed", "attack"])


def test_the_wound_order_plan_keeps_attack_dice_and_spreads_when_asked():
    bout = Bout("murmillo", "murmillo", plans=(None, FightPlan(wound_order=("defence", "speed", "attack"), spread=True)))
    bout.to_first_turn(0).adjacent()
    bout.attack(0, [6, 6, 1], [1, 1, 1])
    taken = bout.last("WoundsTaken")
    assert taken["planned"] and taken["removed"] == {"attack": 0, "defence": 1, "speed": 1}


def test_keep_distance_strikes_and_steps_back():
    bout = Bout("murmillo", "murmillo").to_first_turn(0).adjacent()
    bout.act(0, "set_fight_plan", approach="keep_distance")
    assert bout.last("AttackDeclared")["planned"]
    bout.roll(attack=[1, 1, 1], defence=[6, 6, 6])
    moved = bout.last("FighterMoved")
    assert moved["planned"] and moved["from"] == [0, 0]
    from engine.spartacus.arena.board import distance
    assert distance(tuple(moved["to"]), (1, 0)) > 1


def test_a_planned_fight_runs_to_its_end_in_one_go():
    state = fight.start_fight(fight.Entrant(5, "theokoles"), fight.Entrant(9, "agron", armour="helmet"),
                              plans=(DEFAULT_PLAN, DEFAULT_PLAN), fight_id="games:7")
    end, events = run_to_end(state, random.Random(1).randrange)
    result = fight.result(end)
    assert result is not None and {result.winner_seat, result.loser_seat} == {5, 9}
    assert all(e.data["fight"] == "games:7" for e in events)
    assert fight.replay(state, events) == end
