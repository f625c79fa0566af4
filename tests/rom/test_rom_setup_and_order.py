"""Setup (p. 2, 7), options, and Phase 1: rolling and the turn order."""

from __future__ import annotations

import pytest
from rom_support import BLUE, RED, YELLOW, act, decision, new_game, options, roll

from engine.core.chance import Dice, Shuffle
from engine.rom.errors import BadOptions
from engine.rom.rules import RULES


def epochs(state, ids, kind):
    get = state.cards.province if kind == "p" else state.cards.senate_card
    return [get(i).epoch for i in ids]


def test_setup_is_a_chance_step_shuffling_each_epoch_separately():
    state = RULES.initial_state(3, {})
    request = RULES.pending(state).chance
    assert request.id == "setup"
    assert request.draws["provinces_1"] == Shuffle(8) and request.draws["provinces_3"] == Shuffle(4)
    assert request.draws["arena"] == Shuffle(31)
    assert RULES.pending(state).decisions == ()


def test_decks_are_stacked_epoch_iii_at_the_bottom_and_cards_laid_out():
    """"Epoch III at the bottom, epoch II on it and epoch I on top.  Then the top 4 cards
    are laid out under the military track" -- the same for the senate; 5 arena cards."""
    state = new_game(3)
    laid = list(state.province_row) + list(state.province_deck)
    assert epochs(state, laid, "p") == sorted(epochs(state, laid, "p"))
    assert len(state.province_row) == 4 and len(state.senate_row) == 4 and len(state.arena_row) == 5
    senate = list(state.senate_row) + list(state.senate_deck)
    assert epochs(state, senate, "s") == sorted(epochs(state, senate, "s"))
    assert len(senate) == 20 and len(laid) == 20
    assert all(state.cards.senate_card(c).is_scoring for c in senate[-4:])
    assert RULES.pending(state).chance.id == "roll:1"


def test_players_start_at_zero_on_the_vp_and_forum_tracks():
    state = new_game(4)
    view = RULES.view(state, None)
    assert [p["vp"] for p in view["players"]] == [0, 0, 0, 0]
    assert all(p["forum"] == {"olive": 0, "wine": 0, "jewel": 0} for p in view["players"])


def test_intrigue_cards_are_out_of_the_first_game():
    state = new_game(3)
    assert not any(state.cards.senate_card(c).intrigue for c in state.senate_in_game)


def test_two_player_setup_removes_hispania_asia_and_marked_senate_cards():
    """"2 players: all province cards of Hispania and Asia are removed; all senate cards with
    this symbol are removed; only 3 cards under the military and senate tracks; 5 arena
    cards as usual." """
    state = new_game(2)
    regions = {state.cards.province(p).region for p in state.in_game_provinces}
    assert "hispania" not in regions and "asia" not in regions
    assert len(state.in_game_provinces) == 15 and len(state.senate_in_game) == 15
    assert not any(state.cards.senate_card(c).two_player_removed for c in state.senate_in_game)
    assert len(state.province_row) == 3 and len(state.senate_row) == 3 and len(state.arena_row) == 5
    senate = list(state.senate_row) + list(state.senate_deck)
    assert all(state.cards.senate_card(c).is_scoring and state.cards.senate_card(c).epoch == 3 for c in senate[-3:])


def test_erratum_both_vicarius_cards_are_epoch_one():
    cards = RULES.initial_state(3, {}).cards
    assert [c.epoch for c in cards.senate if c.name == "Vicarius"] == [1, 1]


def test_variant_intrigue_exchanges_the_cards_of_the_same_name():
    state = new_game(3, variant_intrigue=True)
    names = {c: state.cards.senate_card(c) for c in state.senate_in_game}
    intrigue = sorted(c for c, card in names.items() if card.intrigue)
    assert intrigue == ["africanus_maximus_intrigue", "greko_maximus_intrigue", "hispania_maximus_intrigue",
                        "tribunus_intrigue", "vicarius_intrigue"]
    assert "vicarius" not in names and "tribunus" not in names and len(names) == 20


def test_custom_deck_needs_20_cards_and_4_epoch_iii_scoring_cards():
    """"With 3-4 players there must always be 20 senate cards in play, with 2 players 15.
    Also 4 (3) scoring cards of epoch III must always lie at the bottom." """
    cards = RULES.initial_state(3, {}).cards
    base = [c.id for c in cards.senate if not c.intrigue]
    swapped = [c for c in base if c != "legatus"] + ["vicarius_intrigue"]
    state = new_game(3, custom_deck=swapped)
    assert sorted(state.senate_in_game) == sorted(swapped)
    assert state.senate_deck[-4:] and all(state.cards.senate_card(c).epoch == 3 for c in state.senate_deck[-4:])
    with pytest.raises(BadOptions, match="20 cards"):
        RULES.initial_state(3, {"custom_deck": base[:19]})
    no_scoring = [c for c in base if c != "praetor"] + ["vicarius_intrigue"]
    with pytest.raises(BadOptions, match="scoring cards of epoch III"):
        RULES.initial_state(4, {"custom_deck": no_scoring})
    assert RULES.seat_counts({"custom_deck": swapped}) == (3, 4)
    two = [c for c in base if not cards.senate_card(c).two_player_removed]
    assert RULES.seat_counts({"custom_deck": two}) == (2,)
    assert RULES.seat_counts({}) == (2, 3, 4)


def test_a_two_player_custom_deck_may_not_hold_cards_marked_for_three_or_more():
    """"Regeln für 2 Spieler -- Senatskarten: alle Senatskarten mit diesem Symbol werden aus
    dem Spiel genommen." (p. 7)  A custom deck of 15 cards with the epoch-III scoring cards
    is still refused for 2 players when it holds a marked card, and nothing is created."""
    cards = RULES.initial_state(3, {}).cards
    unmarked = [c.id for c in cards.senate if not c.intrigue and not c.two_player_removed]
    assert len(unmarked) == 15
    assert new_game(2, custom_deck=unmarked).senate_in_game
    marked = next(c.id for c in cards.senate if c.two_player_removed and c.epoch != 3)
    swapped = [c for c in unmarked if c != "legatus"] + [marked]
    with pytest.raises(BadOptions, match="marked for 3 or more players"):
        RULES.initial_state(2, {"custom_deck": swapped})
    assert RULES.seat_counts({"custom_deck": swapped}) == ()


def test_options_schema_lists_the_options():
    schema = RULES.options_schema()
    assert set(schema["properties"]) == {"card_set", "variant_intrigue", "custom_deck"}
    assert "default" in schema["properties"]["card_set"]["enum"]
    with pytest.raises(BadOptions):
        RULES.initial_state(3, {"card_set": "nonexistent"})
    with pytest.raises(BadOptions):
        RULES.initial_state(5, {})


# ---------------------------------------------------------------- Phase 1


def test_everybody_rolls_four_dice_at_once_and_the_lowest_sum_starts():
    """"The players roll their 4 power dice at the same time ... the player with the lowest
    sum is first player, the second lowest second ..." """
    state = new_game(3)
    request = RULES.pending(state).chance
    assert request.draws["seat_0"] == Dice(4) and request.draws["tiebreak"] == Shuffle(3)
    state, events = roll(state, {RED: [6, 6, 6, 6], BLUE: [1, 1, 1, 2], YELLOW: [3, 3, 3, 3]})
    order = next(e for e in events if e.type == "TurnOrderDetermined")
    assert order.data["order"] == [BLUE, YELLOW, RED]
    assert order.data["totals"] == {"0": 24, "1": 5, "2": 12}
    assert decision(state).seat == BLUE and state.player(RED).rolled == (6, 6, 6, 6)


def test_round_one_ties_are_broken_at_random():
    """"If there is a tie in the first round it is broken at random." """
    state = new_game(3)
    state, events = roll(state, {RED: [2, 2, 2, 2], BLUE: [2, 2, 2, 2], YELLOW: [2, 2, 2, 2]},
                         tiebreak=[YELLOW, RED, BLUE])
    assert next(e for e in events if e.type == "TurnOrderDetermined").data["order"] == [YELLOW, RED, BLUE]


def test_later_ties_keep_the_previous_relative_order():
    """"If several players have the same sum, their previous relative order stays." """
    from dataclasses import replace

    state = new_game(3)
    state = replace(state, round=2, turn_order=(BLUE, RED, YELLOW))
    state, events = roll(state, {RED: [3, 3, 3, 3], BLUE: [3, 3, 3, 3], YELLOW: [1, 1, 1, 1]})
    assert next(e for e in events if e.type == "TurnOrderDetermined").data["order"] == [YELLOW, BLUE, RED]


def test_tribunus_lowers_its_owners_total_by_three_in_phase_one():
    """Tribunus: "In Phase 1 you may activate this card to reduce your dice total for the
    turn order by 3." """
    from dataclasses import replace

    state = new_game(3)
    state = replace(state, round=2, turn_order=(RED, BLUE, YELLOW))
    state = state.with_player(YELLOW, provinces=("gallia_cisalpina",), senate=("tribunus",))
    state, events = roll(state, {RED: [2, 2, 2, 2], BLUE: [3, 3, 3, 3], YELLOW: [3, 3, 2, 2]})
    d = decision(state)
    assert d.seat == YELLOW and d.id.startswith("order:") and d.default.type == "finish_order_cards"
    assert {"card": "tribunus", "provinces": ["gallia_cisalpina"]} in options(state, YELLOW)
    state, events = act(state, YELLOW, "activate_card", card="tribunus", provinces=["gallia_cisalpina"])
    order = next(e for e in events if e.type == "TurnOrderDetermined")
    assert order.data["totals"]["2"] == 7 and order.data["order"] == [YELLOW, RED, BLUE]
    assert "gallia_cisalpina" in state.exhausted_provinces and "tribunus" in state.exhausted_senate


def test_intrigue_tribunus_raises_any_players_total_by_three():
    from dataclasses import replace

    state = new_game(3, variant_intrigue=True)
    state = replace(state, round=2, turn_order=(RED, BLUE, YELLOW))
    state = state.with_player(RED, provinces=("numidia",), senate=("tribunus_intrigue",))
    state, _ = roll(state, {RED: [3, 3, 3, 3], BLUE: [1, 1, 1, 1], YELLOW: [1, 1, 2, 2]})
    assert {"card": "tribunus_intrigue", "provinces": ["numidia"], "target": BLUE} in options(state, RED)
    state, events = act(state, RED, "activate_card", card="tribunus_intrigue", provinces=["numidia"], target=BLUE)
    order = next(e for e in events if e.type == "TurnOrderDetermined")
    assert order.data["totals"]["1"] == 7 and order.data["order"] == [YELLOW, BLUE, RED]


def test_phase_one_cards_need_a_free_matching_province():
    from dataclasses import replace

    state = new_game(3)
    state = replace(state, round=2, turn_order=(RED, BLUE, YELLOW))
    state = state.with_player(YELLOW, provinces=("latium",), senate=("tribunus",))  # villa, Tribunus needs a camp
    state, events = roll(state, {RED: [2, 2, 2, 2], BLUE: [3, 3, 3, 3], YELLOW: [3, 3, 3, 2]})
    assert "TurnOrderDetermined" in [e.type for e in events]
