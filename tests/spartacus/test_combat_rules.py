"""One test per rule of the arena fight ("Regeln des Arenakampfes", "Besiegt",
"Spezialfähigkeiten"), on hand-built positions with scripted dice."""

from __future__ import annotations

import pytest

from engine.core.errors import BadArguments, IllegalCommand, NotYourDecision, RuleViolation
from engine.spartacus.arena import combat
from engine.spartacus.arena.board import distance
from tests.spartacus.support import Bout


# --- Initiative im Kampf -----------------------------------------------------------------------

def test_initiative_rolls_each_fighters_speed_dice_and_the_higher_sum_chooses():
    bout = Bout("murmillo", "spartacus")
    request = bout.chance()
    assert (request.draws["I"].count, request.draws["II"].count) == (3, 4)
    bout.roll(I=[6, 6, 6], II=[1, 1, 1, 1])
    assert bout.initiative()["winner"] == 0
    assert bout.last("InitiativeRolled")["winner"] == 0 and bout.of("InitiativeDecided") == []  # one event
    decision = bout.decision(0)
    orders = {c.args["first"] for c in decision.options if c.type == "choose_order"}
    assert orders == {True, False}
    # moving first, the winner may give its whole turn as the answer
    assert {c.type for c in decision.options} == {"choose_order", "move", "end_turn"}
    assert bout.decisions(1) == []


def test_the_rulebook_initiative_example_sally_waits_so_john_moves_first():
    # "Johns Gladiator hat 3 Würfel ..., Sallys hat 4. John wirft insgesamt eine 8; Sally eine 11.
    #  Sally entscheidet sich abzuwarten, John beginnt also in dieser Kampfrunde."
    bout = Bout("murmillo", "spartacus")
    bout.roll(I=[4, 3, 1], II=[5, 3, 2, 1])
    assert bout.initiative()["sums"] == [8, 11]
    bout.act(1, "choose_order", first=False)
    assert bout.state.first == 0 and bout.state.active == 0
    assert bout.decision(0).prompt_key == "spartacus_arena.turn"


def test_an_initiative_tie_is_rolled_again():
    bout = Bout("murmillo", "murmillo")
    first_id = bout.chance().id
    bout.roll(I=[3, 3, 3], II=[4, 4, 1])
    assert bout.initiative()["tied"] and bout.chance().id != first_id
    assert bout.last("InitiativeRolled")["tied"] and bout.of("InitiativeTied") == []  # the roll says it
    bout.roll(I=[3, 3, 3], II=[4, 4, 2])
    assert bout.initiative()["winner"] == 1 and not bout.initiative()["tied"]


def test_a_single_net_wins_the_initiative_outright_without_a_roll():
    bout = Bout("murmillo", "murmillo", kit_ii={"special": "net#1"})
    decision = bout.decision(1)
    assert decision.mode == "simultaneous" and decision.prompt_key == "spartacus_arena.use_net"
    assert bout.decisions(0) == []
    bout.act(1, "use_net", use=True)
    assert bout.last("NetsRevealed")["winner"] == 1
    assert bout.chance() is None and bout.state.initiative == 1
    assert bout.state.sides[1].used  # the net card is exhausted
    assert bout.of("InitiativeRolled") == []
    # later rounds: no net left to throw
    bout.act(1, "choose_order", first=True)
    bout.act(1, "end_turn")
    bout.act(0, "end_turn")
    assert bout.chance() is not None and bout.chance().reason.startswith("initiative, round 2")


def test_both_nets_are_exhausted_and_the_initiative_is_rolled_normally():
    bout = Bout("murmillo", "murmillo", kit_i={"special": "net#1"}, kit_ii={"special": "net#2"})
    bout.act(0, "use_net", use=True)
    assert bout.of("NetsRevealed") == []  # secret until both have declared
    bout.act(1, "use_net", use=True)
    revealed = bout.last("NetsRevealed")
    assert revealed["winner"] == -1 and revealed["exhausted"] == ["net#1", "net#2"]
    assert bout.chance() is not None
    assert all(s.used for s in bout.state.sides)


def test_the_opponent_has_a_net_hint_stays_true_after_the_opponent_declares():
    # the hint tells what the table shows (a ready Net card), not whether it was declared
    bout = Bout("murmillo", "murmillo", kit_i={"special": "net#1"}, kit_ii={"special": "net#2"})
    before = dict(bout.decision(1).context)
    assert before["opponent_has_net"] is True
    bout.act(0, "use_net", use=False)
    assert dict(bout.decision(1).context) == before


def test_net_declarations_stay_secret_until_both_are_in():
    from engine.spartacus.arena import fight
    bout = Bout("murmillo", "murmillo", kit_i={"special": "net"}, kit_ii={"special": "net"})
    [declared] = [e for e in bout.act(0, "use_net", use=True) if e.type == "NetDeclared"]
    assert fight.visible(declared, 0)["data"]["use"] is True
    assert "use" not in fight.visible(declared, 1)["data"]
    assert "use" not in fight.visible(declared, None)["data"]
    assert fight.view(bout.state, 1)["fighters"][0]["net_declared"] is True  # declared, not what


# --- Kampfrunde, Bewegen, Angreifen --------------------------------------------------------------

def test_a_fighter_moves_up_to_its_speed_and_never_onto_or_through_its_opponent():
    bout = Bout("murmillo", "murmillo").to_first_turn(0)
    moves = [c for c in bout.decision(0).options if c.type == "move"]
    start = bout.state.sides[0].position
    opponent = bout.state.sides[1].position
    assert moves and all(1 <= distance(start, tuple(c.args["to"])) <= 3 for c in moves)
    for c in moves:
        path = [tuple(h) for h in c.args["path"]]
        assert path[-1] == tuple(c.args["to"]) and len(path) <= 3 and opponent not in path
        assert all(distance(a, b) == 1 for a, b in zip([start] + path, path))


def test_move_then_attack_or_attack_then_move_once_each_per_turn():
    # "Während der Kampfrunde führt jeder Kämpfer eine Bewegung und einen Angriff aus. Die
    #  Reihenfolge ist beliebig (erst bewegen und dann angreifen oder umgekehrt)."
    bout = Bout("murmillo", "murmillo").to_first_turn(0)
    bout.place(0, (0, 0)).place(1, (3, 0))
    step = next(c for c in bout.decision(0).options
                if c.type == "move" and c.args["to"] == [2, 0] and "attack" in c.args)
    assert step.args["attack"] == {"style": "normal"}
    bout.submit(step)  # move and attack: one command
    bout.roll(attack=[1, 1, 1], defence=[6, 6, 6])
    assert bout.state.active == 1  # moved and attacked: the turn is over
    # the other way round: attack first, then step away
    bout.set_dice(1, (3, 3, 3))
    bout.attack(1, [1, 1, 1], [6, 6, 6], then="move")
    kinds = {c.type for c in bout.decision(1).options}
    assert kinds == {"move", "end_turn"}
    away = next(c for c in bout.decision(1).options if c.type == "move" and c.args["to"] == [4, 0])
    made = [e.type for e in bout.submit(away)]
    moved = bout.last("FighterMoved")  # the move that ends the turn says so: no TurnEnded follows
    assert moved["round"] == 1 and moved["side"] == 1 and moved["ends_turn"] is True
    assert "TurnEnded" not in made and "RoundEnded" not in made
    assert bout.last("RoundStarted")["round"] == 2  # moved after attacking: the round is over


def test_a_move_without_an_attack_ends_the_turn():
    bout = Bout("murmillo", "murmillo").to_first_turn(0)
    bout.place(0, (0, 0)).place(1, (3, 0))
    made = [e.type for e in bout.act(0, "move", to=[1, 0], path=[[1, 0]])]
    moved = bout.last("FighterMoved")
    assert moved["side"] == 0 and moved["ends_turn"] is True and bout.state.active == 1
    assert made == ["FighterMoved"]  # one event says both


def test_attack_and_stay_ends_the_turn_after_the_roll():
    bout = Bout("murmillo", "murmillo").to_first_turn(0).adjacent()
    bout.attack(0, [1, 1, 1], [6, 6, 6], then="stay")
    assert bout.state.active == 1 and bout.last("TurnEnded")["side"] == 0


def test_an_attack_needs_an_adjacent_opponent():
    bout = Bout("murmillo", "murmillo").to_first_turn(0)
    bout.place(0, (0, 0)).place(1, (2, 0))
    assert "attack" not in {c.type for c in bout.decision(0).options}
    with pytest.raises(RuleViolation):
        bout.act(0, "attack", style="normal", then="stay")
    bout.place(1, (1, 0))
    assert {"style": "normal", "then": "stay"} in [dict(c.args) for c in bout.decision(0).options
                                                    if c.type == "attack"]


def test_the_trident_reaches_over_one_free_hex_but_no_further():
    bout = Bout("murmillo", "murmillo", kit_i={"weapon": "trident"}).to_first_turn(0)
    bout.place(0, (0, 0)).place(1, (2, 0))
    assert {"style": "normal", "then": "stay"} in [dict(c.args) for c in bout.decision(0).options
                                                    if c.type == "attack"]
    bout.place(1, (3, 0))
    assert "attack" not in {c.type for c in bout.decision(0).options}


def test_only_the_active_fighter_acts():
    bout = Bout("murmillo", "murmillo").to_first_turn(0)
    with pytest.raises(NotYourDecision):
        bout.act(1, "end_turn")


# --- Würfel vergleichen ------------------------------------------------------------------------------

def test_dice_are_compared_highest_with_highest_and_ties_go_to_the_defender():
    c = combat.compare([6, 4, 3], [6, 4, 2])
    assert [hit for *_, hit in c.pairs] == [False, False, True] and c.hits == 1


def test_unblocked_attack_dice_wound_on_three_or_more():
    c = combat.compare([5, 3, 2, 1], [6, 1])
    assert c.unblocked == ((2, False), (1, False)) and c.hits == 1
    assert combat.compare([6, 5, 4, 3], [1]).hits == 4


def test_surplus_defence_dice_are_ignored_from_the_lowest():
    c = combat.compare([5, 5], [6, 4, 3, 3])
    assert c.unused == (3, 3) and c.hits == 1


def test_the_attackers_five_cannot_be_left_unblocked():
    # "Beim Vergleichen der Würfel beginnt man immer mit den beiden höchsten. In diesem Beispiel
    #  kann man sich nicht aussuchen, die '5' des Angreifers unverteidigt zu lassen."
    c = combat.compare([5, 4, 3], [6, 2])
    assert c.pairs == ((5, 6, False), (4, 2, True)) and c.unblocked == ((3, True),) and c.hits == 2


def test_twice_the_dice_can_still_show_weakness():
    # "Der Angreifer verursacht 2 Wunden. Auch mit der doppelten Anzahl an Würfeln kann man Schwäche zeigen!"
    c = combat.compare([6, 6, 2, 2, 1, 1], [5, 5, 3])
    assert c.hits == 2


def test_an_attack_rolls_attack_dice_against_defence_dice_and_wounds_follow():
    bout = Bout("murmillo", "spartacus").to_first_turn(0).adjacent()
    bout.act(0, "attack", style="normal", then="stay")
    draws = bout.chance().draws
    assert (draws["attack"].count, draws["defence"].count) == (3, 4)
    bout.roll(attack=[6, 5, 4], defence=[5, 3, 3, 1])
    resolved = bout.last("AttackResolved")
    assert resolved["hits"] == 3 and resolved["to_defender"] == 3
    assert bout.decision(1).prompt_key == "spartacus_arena.allocate_wounds"


# --- Wunden erhalten, Regel der Eins, Besiegt ----------------------------------------------------

def test_petes_wound_choice_keeps_full_attack():
    # "Pete hat einen Gladiator mit Angriff 3, Verteidigung 3 und Schnelligkeit 3 und erhält zwei
    #  Wunden ... entfernt Pete je einen Würfel von Verteidigung und Schnelligkeit."
    bout = Bout("murmillo", "murmillo").to_first_turn(0).adjacent()
    bout.attack(0, [6, 6, 1], [1, 1, 1])
    decision = bout.decision(1)
    allocations = {tuple(c.args[a] for a in combat.ATTRIBUTES) for c in decision.options}
    assert allocations == {(2, 0, 0), (1, 1, 0), (1, 0, 1), (0, 2, 0), (0, 1, 1), (0, 0, 2)}
    bout.act(1, "allocate_wounds", attack=0, defence=1, speed=1)
    assert bout.state.sides[1].dice == (3, 2, 2)


def test_sally_and_the_rule_of_one():
    # "Angriff 2, Verteidigung 2 und Schnelligkeit 1 ... erhält 2 weitere Wunden. Sally darf nicht
    #  zuerst die Schnelligkeit auf 0 reduzieren ... Sollte der Gladiator noch eine Wunde kassieren,
    #  dann ist er besiegt."
    assert combat.legal_allocations((2, 2, 1), 2) == [(1, 1, 0)]
    bout = Bout("murmillo", "murmillo").to_first_turn(0).adjacent().set_dice(1, (2, 2, 1))
    bout.attack(0, [6, 6, 1], [1, 1])
    taken = bout.last("WoundsTaken")
    assert taken["forced"] and taken["dice"] == {"attack": 1, "defence": 1, "speed": 1}
    assert bout.state.result is None
    bout.set_dice(1, (1, 1, 1))
    bout.act(1, "end_turn")
    bout.to_first_turn(0)
    bout.attack(0, [6, 1, 1], [1])
    assert bout.state.result.kind == "defeated" and bout.state.result.zeros and len(bout.state.result.zeros) == 1


@pytest.mark.parametrize("wounds, kind", [(1, "defeated"), (2, "injured"), (3, "decapitated"), (5, "decapitated")])
def test_attributes_at_zero_decide_the_result_kind(wounds, kind):
    # "AUFGEBEN: genau eine Eigenschaft auf 0 ... VERLETZUNG: genau zwei ... ENTHAUPTUNG: alle drei"
    bout = Bout("murmillo", "murmillo").to_first_turn(0).adjacent()
    bout.set_dice(0, (5, 3, 3)).set_dice(1, (1, 1, 1))
    bout.attack(0, [6] * wounds + [1] * (5 - wounds), [1])
    result = bout.state.result
    assert result is not None and result.kind == kind and result.winner == 0 and result.loser_seat == 1
    assert len(result.zeros) == min(wounds, 3)
    assert bout.last("FightEnded")["kind"] == kind


def test_the_fight_stops_at_the_first_defeat_and_a_counter_wound_comes_too_late():
    bout = Bout("murmillo", "agron").to_first_turn(0).adjacent().set_dice(1, (1, 3, 1))
    bout.attack(0, [6, 6, 6], [3, 3, 3])
    assert bout.state.result.winner == 0
    assert bout.state.sides[0].dice == (3, 3, 3)


def test_a_wound_allocation_outside_the_rule_of_one_is_refused():
    bout = Bout("murmillo", "murmillo").to_first_turn(0).adjacent().set_dice(1, (3, 1, 2))
    bout.attack(0, [6, 6, 1], [1])
    with pytest.raises(IllegalCommand):
        bout.act(1, "allocate_wounds", attack=0, defence=1, speed=1)


# --- chance is checked ---------------------------------------------------------------------------------

def test_a_forged_roll_is_refused():
    bout = Bout("murmillo", "murmillo")
    with pytest.raises(BadArguments):
        bout.roll(I=[7, 1, 1], II=[1, 1, 1])
    with pytest.raises(BadArguments):
        bout.roll(I=[1, 1], II=[1, 1, 1])
