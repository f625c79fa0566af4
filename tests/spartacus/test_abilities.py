"""Every combat effect of the vocabulary, and the rulebook's examples of abilities and
equipment ("Spezialfähigkeiten", "Fähigkeiten von Ausrüstung"), with scripted dice."""

from __future__ import annotations

from engine.spartacus.arena import combat, fight
from tests.spartacus.support import Bout


def _attacks(bout: Bout) -> list[dict]:
    """The attacks fighter I may make from where it stands (whatever it does afterwards)."""
    out = []
    for c in bout.decision(0).options:
        args = {k: v for k, v in c.args.items() if k != "then"}
        if c.type == "attack" and args not in out:
            out.append(args)
    return out


# --- Wiederholungswürfe -------------------------------------------------------------------------

def test_sallys_sword_turns_one_wound_into_two():
    # "Im Kampf würfelt sie: 6-4-3. Ihr Gegner würfelt: 6-4-2 ... Sally entscheidet sich die '3'
    #  erneut zu würfeln und erzielt eine '5'. Somit lautet ihr Wurfergebnis 6-5-4 und sie erzielt 2 Wunden!"
    bout = Bout("murmillo", "murmillo", kit_i={"weapon": "sword#1"}).to_first_turn(0).adjacent()
    bout.attack(0, [6, 4, 3], [6, 4, 2])
    decision = bout.decision(0)
    assert decision.mode == "simultaneous" and decision.context["allowance"] == 1
    assert [c.args["dice"] for c in decision.options] == [[], [2], [1], [0]]
    assert bout.decisions(1) == []  # the defender has nothing to reroll
    bout.act(0, "reroll", dice=[2])
    assert bout.chance().draws["I"].count == 1
    bout.roll(I=[5])
    resolved = bout.last("AttackResolved")
    assert resolved["attack"] == [6, 5, 4] and resolved["to_defender"] == 2


def test_without_the_reroll_sally_deals_one_wound():
    bout = Bout("murmillo", "murmillo", kit_i={"weapon": "sword"}).to_first_turn(0).adjacent()
    bout.attack(0, [6, 4, 3], [6, 4, 2])
    bout.act(0, "reroll", dice=[])
    assert bout.chance() is None
    assert bout.last("AttackResolved")["to_defender"] == 1


def test_agrons_helmet_reroll_makes_a_defence_triple_that_wounds_the_attacker():
    # "Seine 4 Verteidigungswürfel zeigen 4,3,3,2. Sein Helm erlaubt Agron einen Würfel zu wiederholen
    #  ... erzielt eine '3'. ... 4,3,3,3. Dreierpasch! Unabhängig vom Angriffswurfs seines Gegners
    #  verursacht Agron automatisch eine Wunde beim Angreifer."
    bout = Bout("murmillo", "agron", kit_ii={"armour": "helmet#2"}).to_first_turn(0).adjacent()
    bout.attack(0, [6, 6, 6], [4, 3, 3, 2])
    bout.act(1, "reroll", dice=[3])
    bout.roll(II=[3])
    resolved = bout.last("AttackResolved")
    assert resolved["defence"] == [4, 3, 3, 3]
    assert resolved["to_attacker"] == 1 and resolved["to_defender"] == 3
    assert [p["name"] for p in resolved["powers"]] == ["Counter-attack"]
    bout.act(1, "allocate_wounds", attack=1, defence=1, speed=1)  # Agron's wounds come first
    context = bout.decision(0).context
    assert context["count"] == 1 and context["reason"] == "counter"
    bout.act(0, "allocate_wounds", attack=0, defence=0, speed=1)
    assert bout.last("WoundsTaken")["reason"] == "counter"
    assert bout.state.sides[0].dice == (3, 3, 2)


def test_rerolls_of_both_sides_are_chosen_in_secret_and_rolled_together():
    bout = Bout("murmillo", "murmillo", kit_i={"weapon": "sword"}, kit_ii={"armour": "helmet"})
    bout.to_first_turn(0).adjacent()
    bout.attack(0, [6, 4, 3], [6, 4, 2])
    assert {d.seat for d in bout.decisions()} == {0, 1}
    assert len({d.group for d in bout.decisions()}) == 1
    chosen = bout.act(1, "reroll", dice=[2])
    [secret] = [e for e in chosen if e.type == "RerollChosen"]
    assert fight.visible(secret, 1)["data"]["dice"] == [2]
    assert "dice" not in fight.visible(secret, 0)["data"]
    assert fight.view(bout.state, 0)["roll"]["chosen"] == [None, True]
    assert bout.of("RerollsRevealed") == []
    bout.act(0, "reroll", dice=[2])
    assert bout.last("RerollsRevealed")["choices"] == [[2], [2]]
    assert set(bout.chance().draws) == {"I", "II"}
    bout.roll(I=[5], II=[6])
    resolved = bout.last("AttackResolved")
    assert resolved["attack"] == [6, 5, 4] and resolved["defence"] == [6, 6, 4]
    assert resolved["to_defender"] == 0


def test_a_helmet_cannot_make_the_opponent_reroll():
    bout = Bout("murmillo", "murmillo", kit_i={"armour": "helmet"}).to_first_turn(0).adjacent()
    bout.attack(0, [6, 4, 3], [6, 4, 2])
    # the attacker's helmet does not help its attack, nor touch the defence
    assert not [d for d in bout.decisions() if d.prompt_key.endswith("reroll")]


def test_a_once_per_fight_reroll_is_spent_only_when_used():
    bout = Bout("dimachaerus", "murmillo").to_first_turn(0).adjacent()
    bout.attack(0, [6, 4, 2, 1], [6, 5, 4])
    assert bout.decision(0).context["allowance"] == 2
    bout.act(0, "reroll", dice=[])
    assert bout.state.sides[0].used == ()
    bout.act(1, "end_turn")  # the attack was made "and stay": fighter I's turn ended with it
    bout.to_first_turn(0)
    bout.attack(0, [6, 4, 2, 1], [6, 5, 4])
    bout.act(0, "reroll", dice=[2, 3])
    bout.roll(I=[6, 6])
    assert bout.state.sides[0].used == ("ability:dimachaerus:0",)


def test_an_initiative_reroll_is_offered_on_the_initiative_roll():
    bout = Bout("murmillo", "murmillo", kit_i={"special": "crowds-roar"})
    bout.roll(I=[1, 4, 4], II=[4, 4, 3])
    decision = bout.decision(0)
    assert decision.context["role"] == "initiative" and decision.context["allowance"] == 1
    bout.act(0, "reroll", dice=[2])
    bout.roll(I=[6])
    assert bout.last("InitiativeDecided")["sums"] == [14, 11]  # settled after the reroll: its own event


def test_a_reroll_that_cannot_end_better_is_not_asked():
    # "Nicht jeden Wurf wiederholen, den man wiederholen darf": 1-2-3 against 4-4-4 stays behind
    # whatever one die shows, so keeping every die is the answer and nobody is asked
    bout = Bout("murmillo", "murmillo", kit_i={"special": "crowds-roar"})
    bout.roll(I=[1, 2, 3], II=[4, 4, 4])
    chosen = bout.last("RerollChosen")
    assert chosen["dice"] == [] and chosen["settled"] and not chosen["planned"]
    assert bout.last("InitiativeDecided")["winner"] == 1  # after the settled reroll choice: its own event


def test_a_reroll_is_asked_when_the_opponents_reroll_could_make_it_count():
    # 6-6-2 against 6-5-1 deals two wounds, and rerolling the 2 could not add one -- unless the
    # defender's helmet turns the 1 into a 5 or 6, which the attacker cannot know when choosing
    bout = Bout("murmillo", "murmillo", kit_i={"weapon": "sword"}, kit_ii={"armour": "helmet"})
    bout.to_first_turn(0).adjacent()
    bout.attack(0, [6, 6, 2], [6, 5, 1])
    assert {d.seat for d in bout.decisions()} == {0, 1}


# --- Zweier- & Dreierpasch ----------------------------------------------------------------------

def test_each_die_counts_once_for_pairs_and_triples():
    assert combat.count_sets([5, 5, 5], pairs=True, triples=False) == (1, 0)
    assert combat.count_sets([5, 5, 5], pairs=False, triples=True) == (0, 1)
    assert combat.count_sets([5, 5, 5], pairs=True, triples=True) == (0, 1)
    assert combat.count_sets([5, 5, 5, 5], pairs=True, triples=False) == (2, 0)
    assert combat.count_sets([2, 2, 1, 1], pairs=True, triples=False) == (2, 0)


def test_spartacus_pairs_deal_two_automatic_wounds():
    # "Er greift an und würfelt 2-2-1-1: Normalerweise ein miserabler Angriff. Durch seine Sonderregel
    #  verursacht er durch die beiden Zweierpasch aber zwei automatische Wunden."
    bout = Bout("spartacus", "murmillo").to_first_turn(0).adjacent()
    bout.attack(0, [2, 2, 1, 1], [6, 5, 4])
    resolved = bout.last("AttackResolved")
    assert resolved["hits"] == 0 and resolved["to_defender"] == 2
    assert resolved["powers"] == [{"side": "attacker", "key": "ability:spartacus:0", "name": "Vengeful",
                                   "kind": "extra_wound", "amount": 2}]


def test_rhaskos_triple_deals_two_extra_wounds():
    bout = Bout("rhaskos", "murmillo").to_first_turn(0).adjacent()
    bout.attack(0, [4, 4, 4, 1], [6, 5, 5])
    assert bout.last("AttackResolved")["to_defender"] == 2


# --- Reichweite, Schnelle Attacken, Netz ------------------------------------------------------------

def test_the_javelin_attacks_with_speed_dice_from_range_three_once_per_fight():
    bout = Bout("retiarius", "murmillo", kit_i={"special": "javelin#2"}).to_first_turn(0)
    bout.place(0, (0, 0)).place(1, (3, 0))
    assert _attacks(bout) == [{"style": "speed", "source": "javelin"}]
    bout.act(0, "attack", style="speed", source="javelin", then="stay")
    assert bout.chance().draws["attack"].count == 4  # the Retiarius's speed, not its 3 attack dice
    bout.roll(attack=[6, 5, 4, 3], defence=[1, 1, 1])
    assert bout.last("AttackResolved")["to_defender"] == 4
    bout.act(1, "allocate_wounds", attack=1, defence=2, speed=1)
    assert bout.state.sides[1].dice == (2, 1, 2)


def test_a_speed_attack_replaces_the_normal_attack_and_the_javelin_is_thrown_once():
    bout = Bout("retiarius", "murmillo", kit_i={"special": "javelin"}).to_first_turn(0).adjacent()
    assert _attacks(bout) == [{"style": "normal"}, {"style": "speed", "source": "javelin"}]
    bout.attack(0, [1, 1, 1, 1], [6, 6, 6], style="speed", source="javelin", then="move")
    assert "attack" not in {c.type for c in bout.decision(0).options}
    bout.act(0, "end_turn")
    bout.act(1, "end_turn")
    bout.to_first_turn(0)
    assert _attacks(bout) == [{"style": "normal"}]


def test_the_hasta_lunges_with_speed_dice_every_turn():
    bout = Bout("murmillo", "murmillo", kit_i={"weapon": "hasta"}).to_first_turn(0)
    bout.place(0, (0, 0)).place(1, (2, 0))
    bout.attack(0, [1, 1, 1], [6, 6, 6], style="speed", source="hasta")
    bout.act(1, "end_turn")
    bout.to_first_turn(0)
    assert {"style": "speed", "source": "hasta"} in _attacks(bout)


def test_a_thrown_net_is_reported_exhausted_in_the_result():
    bout = Bout("murmillo", "murmillo", kit_i={"special": "net#2"})
    bout.act(0, "use_net", use=True)
    bout.act(0, "choose_order", first=True)
    bout.adjacent().set_dice(1, (1, 1, 1))
    bout.attack(0, [6, 6, 6], [1])
    assert bout.state.result.exhausted == ("net#2",)


# --- extra and ignored wounds ------------------------------------------------------------------------

def test_extra_wounds_come_before_ignored_wounds_and_never_go_below_zero():
    bout = Bout("gallus", "murmillo", kit_ii={"armour": "scutum"}).to_first_turn(0).adjacent()
    bout.attack(0, [6, 1, 1, 1], [1, 1, 1])
    bout.act(0, "use_power", use=True)
    resolved = bout.last("AttackResolved")
    # one hit + Brawler's extra wound = 2, and the Scutum ignores one of an attack of two or more
    assert resolved["hits"] == 1 and resolved["to_defender"] == 1
    assert [p["kind"] for p in resolved["powers"]] == ["extra_wound", "ignore_wound"]
    assert resolved["spent"]["attacker"] == ["ability:gallus:0"]


def test_the_scutum_ignores_nothing_of_a_single_wound():
    bout = Bout("murmillo", "murmillo", kit_ii={"armour": "scutum"}).to_first_turn(0).adjacent()
    bout.attack(0, [6, 1, 1], [1, 1, 1])
    assert bout.last("AttackResolved")["to_defender"] == 1


def test_the_lorica_ignores_one_wound_once_per_fight():
    bout = Bout("murmillo", "murmillo", kit_ii={"armour": "lorica"}).to_first_turn(0).adjacent()
    bout.attack(0, [6, 1, 1], [1, 1, 1])
    bout.act(1, "use_power", use=True)
    assert bout.last("AttackResolved")["to_defender"] == 0
    assert bout.state.sides[1].used == ("armour:lorica:0",)
    bout.attack(1, [1, 1, 1], [6, 6, 6])
    bout.to_first_turn(0)
    bout.attack(0, [6, 1, 1], [1, 1, 1])
    assert bout.last("AttackResolved")["to_defender"] == 1


def test_the_manica_ignores_a_wound_per_pair_of_defence_dice():
    bout = Bout("murmillo", "murmillo", kit_ii={"armour": "manica"}).to_first_turn(0).adjacent()
    bout.attack(0, [6, 6, 6], [2, 2, 1])
    assert bout.last("AttackResolved")["to_defender"] == 2


def test_the_gladius_needs_a_wounding_attack():
    bout = Bout("murmillo", "murmillo", kit_i={"weapon": "gladius"}).to_first_turn(0).adjacent()
    bout.attack(0, [1, 1, 1], [6, 6, 6])
    assert bout.last("AttackResolved")["to_defender"] == 0 and bout.state.sides[0].used == ()


# --- fighters' abilities ----------------------------------------------------------------------------

def test_crixus_wins_ties_when_attacking():
    bout = Bout("crixus", "murmillo").to_first_turn(0).adjacent()
    bout.attack(0, [6, 4, 3, 1], [6, 4, 2])
    assert bout.last("AttackResolved")["hits"] == 3


def test_crixus_does_not_win_ties_when_defending():
    bout = Bout("crixus", "murmillo").to_first_turn(1).adjacent()
    bout.attack(1, [6, 4, 3], [6, 4, 2])
    assert bout.last("AttackResolved")["hits"] == 1


def test_oenomaus_negates_spartacus_but_not_his_equipment():
    bout = Bout("spartacus", "oenomaus", kit_i={"weapon": "sica"}).to_first_turn(0).adjacent()
    assert bout.state.sides[0].fighter.negated and not bout.state.sides[1].fighter.negated
    bout.attack(0, [2, 2, 1, 1], [6, 5, 4, 3])
    resolved = bout.last("AttackResolved")
    assert [p["name"] for p in resolved["powers"]] == ["Sica"] and resolved["to_defender"] == 2


def test_segovax_defends_with_speed_while_he_has_more_speed_dice():
    bout = Bout("murmillo", "segovax").to_first_turn(0).adjacent()
    bout.act(0, "attack", style="normal", then="stay")
    assert bout.chance().draws["defence"].count == 4
    assert bout.last("AttackDeclared")["pools"] == ["attack", "speed"]


def test_barca_injures_an_opponent_he_defeats():
    bout = Bout("barca", "murmillo").to_first_turn(0).adjacent().set_dice(1, (1, 1, 1))
    bout.attack(0, [6, 1, 1, 1], [1])
    result = bout.state.result
    assert result.kind == "injured" and len(result.zeros) == 1


def test_the_retiarius_rolls_an_extra_speed_die_for_the_initiative_only():
    bout = Bout("retiarius", "murmillo")
    assert bout.chance().draws["I"].count == 5
    bout.to_first_turn(0, speeds=([6] * 5, [1] * 3))
    assert max(len(c.args["path"]) for c in bout.decision(0).options if c.type == "move") == 4


def test_auctus_shield_wall_and_theokoles_shadow_of_death():
    bout = Bout("murmillo", "auctus").to_first_turn(0).adjacent()
    bout.attack(0, [6, 6, 6], [5, 5, 1, 1])
    assert bout.last("AttackResolved")["to_defender"] == 1  # three hits, two pairs ignore two
    bout = Bout("murmillo", "theokoles").to_first_turn(0).adjacent()
    bout.attack(0, [6, 6, 1], [5, 5, 1, 1, 1])
    assert bout.last("AttackResolved")["to_defender"] == 1
