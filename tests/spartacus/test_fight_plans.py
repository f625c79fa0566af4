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


# --- once-per-fight powers the card says a fighter *may* use ------------------------------------------

def test_the_lorica_is_the_players_choice_and_a_declined_one_is_kept():
    # "Einige Gegenstände können in jeder Kampfrunde benutzt werden, andere dagegen nur ein
    #  einziges Mal pro Kampf": once, and when its player chooses -- never spent on its own
    bout = Bout("murmillo", "murmillo", kit_ii={"armour": "lorica"}).to_first_turn(0).adjacent()
    bout.attack(0, [6, 1, 1], [1, 1, 1])
    decision = bout.decision(1)
    assert decision.prompt_key == "spartacus_arena.use_power" and decision.context["wounds"] == 1
    assert bout.of("AttackResolved") == []  # the wounds wait for the answer
    bout.act(1, "use_power", use=False)
    assert bout.last("AttackResolved")["to_defender"] == 1 and bout.state.sides[1].used == ()
    bout.act(1, "allocate_wounds", attack=0, defence=0, speed=1)
    bout.attack(1, [1, 1, 1], [6, 6, 6])
    bout.to_first_turn(0)
    bout.attack(0, [6, 6, 1], [1, 1, 1])
    bout.act(1, "use_power", use=True)
    resolved = bout.last("AttackResolved")
    assert resolved["to_defender"] == 1 and resolved["spent"]["defender"] == ["armour:lorica:0"]


def test_a_gladius_extra_wound_is_asked_only_of_an_attack_that_wounds():
    bout = Bout("murmillo", "murmillo", kit_i={"weapon": "gladius"}).to_first_turn(0).adjacent()
    bout.attack(0, [6, 1, 1], [1, 1, 1])
    decision = bout.decision(0)
    assert decision.prompt_key == "spartacus_arena.use_power" and decision.context["kind"] == "extra_wound"
    bout.act(0, "use_power", use=True)
    assert bout.last("AttackResolved")["to_defender"] == 2


def test_a_plan_keeps_the_lorica_for_the_blow_that_would_end_the_fight():
    plan = FightPlan(ignore_wound="to_survive")
    bout = Bout("murmillo", "murmillo", kit_ii={"armour": "lorica"}, plans=(None, plan)).to_first_turn(0).adjacent()
    bout.attack(0, [6, 1, 1], [1, 1, 1])  # one wound of nine dice: keep the Lorica
    assert bout.last("PowerChosen")["use"] is False and bout.last("PowerChosen")["planned"]
    assert bout.state.sides[1].used == ()
    bout.roll(attack=[1, 1, 1], defence=[6, 6, 6])  # fighter II strikes back by its plan, and stays
    bout.set_dice(1, (1, 1, 1))
    bout.to_first_turn(0)
    bout.attack(0, [6, 1, 1], [1])  # this wound would end the fight: the Lorica saves it
    assert bout.last("PowerChosen")["use"] is True and bout.state.result is None


def test_a_plan_uses_the_gladius_to_finish_the_fight():
    plan = FightPlan(extra_wound="to_finish")
    bout = Bout("murmillo", "murmillo", kit_i={"weapon": "gladius"}, plans=(plan, None))
    bout.adjacent().set_dice(1, (2, 1, 1))
    bout.roll(I=[6, 6, 6], II=[1])  # the plan moves first and strikes at once
    bout.roll(attack=[6, 1, 1], defence=[1])  # one wound, and the Gladius's makes two: 4 - 2 < 3
    assert bout.last("PowerChosen")["use"] is True and bout.state.result is not None


# --- plans that leave some decisions to the player ---------------------------------------------------

def test_a_plan_that_says_ask_leaves_those_decisions_to_the_player():
    plan = FightPlan(approach="ask", wound_order=("defence", "speed", "attack"))
    bout = Bout("murmillo", "murmillo", plans=(None, plan)).to_first_turn(0).adjacent()
    bout.attack(0, [6, 6, 1], [1, 1, 1])
    assert bout.last("WoundsTaken")["planned"]  # the plan loses the dice
    assert bout.decision(1).prompt_key == "spartacus_arena.turn"  # the turn is asked


def test_a_plan_that_asks_for_the_wounds_asks_for_them():
    plan = FightPlan(wounds="ask")
    bout = Bout("murmillo", "murmillo", plans=(None, plan)).to_first_turn(0).adjacent()
    bout.attack(0, [6, 6, 1], [1, 1, 1])
    assert bout.decision(1).prompt_key == "spartacus_arena.allocate_wounds"


def test_the_initiative_winner_may_answer_with_its_whole_turn():
    bout = Bout("murmillo", "murmillo").adjacent()
    bout.roll(I=[6, 6, 6], II=[1, 1, 1])
    decision = bout.decision(0)
    assert decision.prompt_key == "spartacus_arena.choose_order"
    strike = next(c for c in decision.options if c.type == "attack" and c.args["then"] == "stay")
    events = bout.submit(strike)
    assert [e.type for e in events][:2] == ["OrderChosen", "AttackDeclared"]
    assert bout.last("OrderChosen")["first_side"] == 0


# --- the duel's first question ------------------------------------------------------------------------

def test_a_duel_asks_both_players_how_they_fight_then_runs_on_their_plans():
    state = RULES.initial_state(2, {})
    first = [d for d in RULES.pending(state).decisions if d.mode != "free"]
    assert {d.seat for d in first} == {0, 1} and {d.mode for d in first} == {"simultaneous"}
    assert all(d.prompt_key == "spartacus_arena.prepare" and d.command_type == "set_fight_plan" for d in first)
    state, events = step(RULES, state, Command(0, "set_fight_plan", {"approach": "keep_distance"}))
    assert RULES.pending(state).chance is None  # nothing begins until both have answered
    assert all(RULES.visible(e, 1) is None for e in events)
    state, _ = step(RULES, state, Command(1, "set_fight_plan", {}))
    rng = random.Random(8)
    while RULES.outcome(state) is None:
        pending = RULES.pending(state)
        assert pending.chance is not None and not [d for d in pending.decisions if d.mode != "free"]
        state, _ = step(RULES, state, _chance(state, rng))
