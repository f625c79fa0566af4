"""Senate cards: activation on matching provinces (p. 4) and every card's ability (p. 8)."""

from __future__ import annotations

from dataclasses import replace

import pytest
from rom_support import BLUE, RED, YELLOW, Group, act, chance, decision, find, options, placement_state, settle, types

from engine.core.types import Command, Event
from engine.rom import flow
from engine.rom.errors import BadCardTarget, CardNotUsable, ProvincesDoNotMatch
from engine.rom.rules import RULES

# arena: etruria achaea thracia lusitania africa_proconsularis cyrenaica aegyptus
# camp:  sicilia gallia_cisalpina gallia_comata macedonia tarraconensis bithynia numidia
# villa: latium gallia_narbonensis epirus baetica pergamon mauretania


def red_turn(senate, provinces, dice=(2, 3, 4, 5), **kw):
    return placement_state(dice={RED: list(dice), BLUE: [6, 6, 6, 6], YELLOW: [6, 6, 6, 6]},
                           order=[RED, BLUE, YELLOW], p0={"senate": tuple(senate), "provinces": tuple(provinces)}, **kw)


def activate(state, seat=RED, **args):
    return act(state, seat, "activate_card", **args)


# ---------------------------------------------------------------- activation (p. 4)


def test_a_card_is_laid_on_a_province_with_the_same_symbol():
    """"To activate it, lay it on one of your province cards with the same province symbol." """
    state = red_turn(["consul", "quaestor_1"], ["latium"])
    acts = options(state, RED, "activate_card")
    assert {"card": "quaestor_1", "provinces": ["latium"], "value": 2} in acts
    assert not any(a["card"] == "consul" for a in acts)
    with pytest.raises(ProvincesDoNotMatch):
        RULES.decide(state, Command(RED, "activate_card", {"card": "quaestor_1", "provinces": ["etruria"],
                                                           "value": 2}))


def test_a_card_with_two_symbols_needs_two_provinces():
    """"Magister Equitum needs two province cards with the same symbol (army camp)." """
    one = red_turn(["magister_equitum"], ["sicilia", "latium"])
    assert options(one, RED, "activate_card") == []
    two = red_turn(["magister_equitum"], ["sicilia", "latium", "numidia"])
    assert options(two, RED, "activate_card") == [{"card": "magister_equitum", "provinces": ["sicilia", "numidia"]}]
    proconsul = red_turn(["proconsul"], ["etruria", "latium"])
    assert {"card": "proconsul", "provinces": ["etruria", "latium"], "values": [2]} in options(proconsul, RED)


def test_an_exhausted_province_takes_no_second_card_and_the_card_is_exhausted():
    """"A province card with a senate card on it is exhausted: no further senate card may be
    laid on it this round.  An activated senate card is exhausted too." """
    state = red_turn(["quaestor_1", "censor"], ["latium"])
    state, _ = activate(state, card="quaestor_1", provinces=["latium"], value=2)
    assert "latium" in state.exhausted_provinces and "quaestor_1" in state.exhausted_senate
    assert options(state, RED, "activate_card") == []
    with pytest.raises(ProvincesDoNotMatch, match="exhausted"):
        RULES.decide(state, Command(RED, "activate_card", {"card": "censor", "provinces": ["latium"], "values": [3]}))
    state = red_turn(["quaestor_1"], ["latium", "epirus"])
    state, _ = activate(state, card="quaestor_1", provinces=["latium"], value=2)
    with pytest.raises(CardNotUsable, match="exhausted"):
        RULES.decide(state, Command(RED, "activate_card", {"card": "quaestor_1", "provinces": ["epirus"],
                                                           "value": 3}))


def test_provinces_of_one_symbol_and_resource_are_offered_once():
    state = red_turn(["quaestor_1"], ["gallia_narbonensis", "latium", "epirus"])  # villa wine, villa wine, villa olive
    provinces = {tuple(a["provinces"]) for a in options(state, RED, "activate_card")}
    assert provinces == {("gallia_narbonensis",), ("epirus",)}


def test_cards_may_be_activated_before_and_after_placing():
    state = red_turn(["quaestor_1", "vicarius"], ["latium", "etruria"])
    state, _ = activate(state, card="quaestor_1", provinces=["latium"], value=2)  # 2 -> 5
    assert decision(state).id.startswith("place:")
    state, _ = act(state, RED, "place_die", value=5, track="senate")
    assert decision(state).id.startswith("after:")
    state, _ = activate(state, card="vicarius", provinces=["etruria"], value=3, delta=1)
    assert state.player(RED).unplaced == (4, 4, 5) and state.turn_seat == BLUE


def test_cleanup_takes_the_cards_back_from_the_provinces():
    """"Senate cards on province cards are taken back and laid out in front of the player." """
    state = red_turn(["quaestor_1"], ["latium"])
    state, _ = activate(state, card="quaestor_1", provinces=["latium"], value=2)
    state = replace(state, phase="cleanup", tracks=((), (), ()))
    state = settle(state)
    assert state.exhausted_senate == frozenset() and state.exhausted_provinces == frozenset()
    assert state.player(RED).senate == ("quaestor_1",) and state.round == 2


# ---------------------------------------------------------------- the cards


@pytest.mark.parametrize("card,province", [("legatus", "numidia"), ("consul", "etruria")])
def test_legatus_and_consul_let_a_joining_die_be_higher(card, province):
    """"Activate this card when you place a die.  It may be higher than the die it is placed
    next to." """
    state = red_turn([card], [province], dice=(5, 6), tracks={"military": [(RED, [2])]})
    state = state.with_player(RED, unplaced=(5, 6))
    opts = options(state, RED, "place_die")
    assert {"value": 6, "track": "military", "card": card, "provinces": [province]} in opts
    assert {"value": 6, "track": "military"} not in opts
    state, events = act(state, RED, "place_die", value=6, track="military", card=card, provinces=[province])
    assert types(events)[:2] == ["SenateCardActivated", "PowerDiePlaced"]
    assert state.tracks[0][0].dice == (2, 6) and card in state.exhausted_senate


def test_magistrate_and_aedile_raise_the_black_market_budget():
    """Magistrate: "+1 budget in Phase 3, only with at least one die on the black market";
    Aedile: "+3"."""
    state = red_turn(["magistrate", "aedile"], ["latium", "epirus", "pergamon"])
    state, _ = activate(state, card="magistrate", provinces=["latium"])
    state, _ = activate(state, card="aedile", provinces=["epirus", "pergamon"])
    assert state.player(RED).track_bonus == (0, 0, 4)
    state = replace(state, tracks=((), (), (Group(RED, (2,)),)))
    assert flow.market_budget(state, RED) == 6
    assert flow.market_budget(state, BLUE) == 0  # no die there: no bonus


def test_magister_equitum_adds_three_to_the_legion():
    state = red_turn(["magister_equitum"], ["sicilia", "numidia"], tracks={"military": [(RED, [4])]})
    state, _ = activate(state, card="magister_equitum", provinces=["sicilia", "numidia"])
    assert flow.legion_strength(state, RED) == 7


def test_military_tribune_rerolls_a_placed_military_die_without_reordering():
    """"Re-roll one of your placed dice on the military track.  This does not change the
    order of activation." """
    state = red_turn(["military_tribune"], ["sicilia"], tracks={"military": [(RED, [2]), (BLUE, [3])]})
    assert options(state, RED, "activate_card") == [{"card": "military_tribune", "provinces": ["sicilia"],
                                                     "index": 0}]
    state, _ = activate(state, card="military_tribune", provinces=["sicilia"], index=0)
    request = RULES.pending(state).chance
    assert request.draws["dice"].count == 1
    state, events = chance(state, dice=[6])
    assert find(events, "PowerDiceRerolled").data["old"] == [2]
    assert [(g.seat, g.dice) for g in state.tracks[0]] == [(RED, (6,)), (BLUE, (3,))]


def test_censor_rerolls_any_number_of_unplaced_dice():
    state = red_turn(["censor"], ["latium"], dice=(1, 1, 5, 6))
    chosen = [a["values"] for a in options(state, RED, "activate_card")]
    assert [1, 1] in chosen and [1, 1, 5, 6] in chosen and chosen.count([1]) == 1
    state, _ = activate(state, card="censor", provinces=["latium"], values=[1, 1])
    state, events = chance(state, dice=[4, 3])
    assert state.player(RED).unplaced == (3, 4, 5, 6)
    assert decision(state).id.startswith("place:")


def test_proconsul_may_repeat_its_re_roll_as_often_as_its_owner_likes():
    """Proconsul (p. 8): "Wirf beliebig viele deiner ungesetzten Machtwürfel erneut. Das
    darfst du sogar wiederholen." -- not once only: the offer comes back after every
    re-roll until he keeps the dice (the deadline default)."""
    state = red_turn(["proconsul"], ["etruria", "latium"], dice=(1, 2, 3, 4))
    state, _ = activate(state, card="proconsul", provinces=["etruria", "latium"], values=[1, 2])
    state, _ = chance(state, dice=[1, 1])
    assert state.player(RED).unplaced == (1, 1, 3, 4)
    for again, rolled, after in (([1, 1], [5, 5], (3, 4, 5, 5)), ([3, 4], [5, 5], (5, 5, 5, 5)),
                                 ([5, 5, 5], [2, 2, 2], (2, 2, 2, 5))):
        d = decision(state)
        assert d.id.startswith("repeat:") and d.default.type == "keep_dice"
        assert {"values": again} in options(state, RED, "reroll_again")
        state, _ = act(state, RED, "reroll_again", values=again)
        state, _ = chance(state, dice=rolled)
        assert state.player(RED).unplaced == after
    assert decision(state).id.startswith("repeat:")
    state, events = act(state, RED, "keep_dice")
    assert find(events, "RerollDeclined").data == {"seat": RED, "card": "proconsul"}
    assert decision(state).id.startswith("place:")


def test_a_re_roll_stored_with_one_repeat_left_still_replays_as_once():
    """Games stored while Proconsul allowed one repeat replay unchanged: the repeat count
    travels in the stored ``RerollStarted`` event."""
    state = red_turn(["proconsul"], ["etruria", "latium"], dice=(1, 2, 3, 4))
    state = RULES.apply(state, Event("RerollStarted", {"seat": RED, "by": RED, "card": "proconsul",
                                                             "values": [1, 2], "repeat": 1}))
    state, _ = chance(state, dice=[1, 1])
    state, _ = act(state, RED, "reroll_again", values=[1, 1])
    state, _ = chance(state, dice=[6, 6])
    assert decision(state).id.startswith("place:")


def test_quaestor_turns_a_die_upside_down():
    state = red_turn(["quaestor_1"], ["latium"], dice=(1, 2, 5, 6))
    state, events = activate(state, card="quaestor_1", provinces=["latium"], value=5)
    assert find(events, "PowerDieChanged").data == {"seat": RED, "card": "quaestor_1", "from": 5, "to": 2}
    assert state.player(RED).unplaced == (1, 2, 2, 6)


def test_vicarius_changes_a_die_by_one_and_wraps_around():
    """"Change one of your unplaced dice by +/-1.  A 1 may become a 6 and vice versa." """
    state = red_turn(["vicarius"], ["etruria"], dice=(1, 6))
    state = state.with_player(RED, unplaced=(1, 6))
    targets = [(a["value"], a["delta"]) for a in options(state, RED, "activate_card")]
    assert sorted(targets) == [(1, -1), (1, 1), (6, -1), (6, 1)]
    state, _ = activate(state, card="vicarius", provinces=["etruria"], value=1, delta=-1)
    assert state.player(RED).unplaced == (6, 6)


def test_senator_lowers_a_placed_die():
    state = red_turn(["senator"], ["etruria"], tracks={"senate": [(BLUE, [2]), (RED, [4, 3])]})
    state, events = activate(state, card="senator", provinces=["etruria"], track="senate", index=1)
    assert [(g.seat, g.dice) for g in state.tracks[1]] == [(BLUE, (2,)), (RED, (4, 2))]
    assert find(events, "PlacedDieLowered").data["moved"] is False


def test_senator_moves_a_one_to_the_leftmost_section_as_zero():
    """"If it already shows a 1, put it on the leftmost section; it now counts as 0." """
    state = red_turn(["senator"], ["etruria"],
                     tracks={"military": [(BLUE, [1]), (YELLOW, [1]), (RED, [1])]})
    state, events = activate(state, card="senator", provinces=["etruria"], track="military", index=0)
    assert [(g.seat, g.dice) for g in state.tracks[0]] == [(RED, (0,)), (BLUE, (1,)), (YELLOW, (1,))]
    assert find(events, "PlacedDieLowered").data["moved"] is True
    # Nothing can push a 0.
    assert flow.placement.landing(state.tracks[0], 3, 1, 4)[0].section == 3


def test_intrigue_vicarius_rerolls_an_unplaced_die_of_any_player():
    state = red_turn(["vicarius_intrigue"], ["etruria"], dice=(2, 3))
    state = state.with_player(BLUE, unplaced=(5, 6))
    targets = [(a["target"], a["values"]) for a in options(state, RED, "activate_card")]
    assert (BLUE, [6]) in targets and (RED, [2]) in targets and (YELLOW, [6]) in targets
    state, _ = activate(state, card="vicarius_intrigue", provinces=["etruria"], target=BLUE, values=[6])
    state, events = chance(state, dice=[1])
    assert state.player(BLUE).unplaced == (1, 5)
    assert find(events, "PowerDiceRerolled").data["by"] == RED


def test_intrigue_hispania_maximus_discards_a_senate_card_and_an_epoch_one_province():
    """"Discard one of your senate cards (this one too) to discard an epoch I province card
    of any player and remove its arch from the map.  The player also loses the resource." """
    state = red_turn(["hispania_maximus_intrigue", "quaestor_1"], ["etruria"])
    state = state.with_player(BLUE, provinces=("epirus", "macedonia"), forum=(2, 0, 0))
    opts = options(state, RED, "activate_card")
    assert {"card": "hispania_maximus_intrigue", "provinces": ["etruria"], "discard": "quaestor_1",
            "province": "epirus"} in opts
    assert not any(a.get("province") == "macedonia" for a in opts)  # epoch II
    state, events = activate(state, card="hispania_maximus_intrigue", provinces=["etruria"],
                             discard="hispania_maximus_intrigue", province="epirus")
    assert state.player(BLUE).provinces == ("macedonia",) and state.player(BLUE).forum == (1, 0, 0)
    assert state.player(RED).senate == ("quaestor_1",) and "epirus" in state.removed
    assert "epirus" not in RULES.view(state, None)["map"]
    assert "etruria" in state.exhausted_provinces


def test_intrigue_africanus_maximus_steals_a_jewel():
    """"Steal 1 jewel from any player: your marker one space forward, his one back." """
    state = red_turn(["africanus_maximus_intrigue"], ["latium"])
    state = state.with_player(BLUE, forum=(0, 0, 2))
    assert options(state, RED, "activate_card") == [{"card": "africanus_maximus_intrigue", "provinces": ["latium"],
                                                     "target": BLUE}]
    state, _ = activate(state, card="africanus_maximus_intrigue", provinces=["latium"], target=BLUE)
    assert state.player(RED).forum == (0, 0, 1) and state.player(BLUE).forum == (0, 0, 1)


def test_a_bad_target_is_refused_by_name():
    state = red_turn(["quaestor_1"], ["latium"], dice=(2, 3))
    state = state.with_player(RED, unplaced=(2, 3))
    with pytest.raises(BadCardTarget):
        RULES.decide(state, Command(RED, "activate_card", {"card": "quaestor_1", "provinces": ["latium"], "value": 6}))
    with pytest.raises(CardNotUsable):
        RULES.decide(state, Command(RED, "activate_card", {"card": "censor", "provinces": ["latium"], "values": [2]}))


def test_scoring_cards_and_tribunus_are_not_activated_during_placement():
    state = red_turn(["ludi_maximus", "africanus_maximus", "tribunus", "greko_maximus_intrigue"],
                     ["etruria", "latium", "numidia", "sicilia"])
    assert options(state, RED, "activate_card") == []
