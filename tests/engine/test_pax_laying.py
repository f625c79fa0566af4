"""Laying cards: cost, the army/fleet limit, income, primus conspiratus."""

from __future__ import annotations

import pytest

from engine.pax import errors
from engine.pax.laying import income
from engine.pax.rules import RULES
from pax_builders import card, cards, cmd, decision, only, option_args, play, table, types


def lay_state(hand, tableau=(), gold=10, seats=2, **more):
    hands = [tuple(hand)] + [()] * (seats - 1)
    tableaux = [tuple(tableau)] + [()] * (seats - 1)
    golds = [gold] + [5] * (seats - 1)
    return table(seats, step="lay", hands=hands, tableaux=tableaux, gold=golds, **more)


def test_first_card_is_free_then_one_two_three_aurei():
    hand = cards("wealth", 4)
    state = lay_state(hand, gold=10, turn=5)
    costs = []
    for i, c in enumerate(hand):
        d = decision(state)
        assert d.id == f"lay:5:{i}" and d.default.type == "take_income"
        state, events = play(state, cmd(0, "lay_card", card=c.id))
        costs.append(only(events, "CardLaid")[0].data["cost"])
    assert costs == [0, 1, 2, 3] and state.gold[0] == 4
    assert state.laid_this_turn == hand


def test_a_card_one_cannot_pay_for_is_not_offered():
    hand = cards("wealth", 2)
    state, _ = play(lay_state(hand, gold=0), cmd(0, "lay_card", card=hand[0].id))
    assert option_args(state) == [{}]
    with pytest.raises(errors.NotEnoughAurei):
        RULES.decide(state, cmd(0, "lay_card", card=hand[1].id))


def test_laid_card_is_public_its_cost_private():
    hand = cards("wealth", 1)
    _, events = play(lay_state(hand), cmd(0, "lay_card", card=hand[0].id))
    assert RULES.visible(events[0], 1) == {"type": "CardLaid", "seat": 0, "card": hand[0].to_json(), "during": "turn"}
    assert RULES.visible(events[0], 0)["cost"] == 0


def test_army_limit_is_the_larger_of_land_and_intrigue_not_their_sum():
    """Rulebook: "3 Land-, 4 Intrigesymbole erlauben maximal 4 Armeen und 4 Flotten"."""
    tableau = (card("land", 3), card("intrigue", 2), card("intrigue", 2), card("army", 3))
    ok, too_many = card("army", 1), card("army", 2)
    state = lay_state([ok, too_many], tableau)
    assert option_args(state) == [{"card": ok.id}, {}]
    with pytest.raises(errors.ArmyLimitExceeded):
        RULES.decide(state, cmd(0, "lay_card", card=too_many.id))
    state, _ = play(state, cmd(0, "lay_card", card=ok.id))
    assert option_args(state) == [{}]


def test_fleet_limit_is_checked_at_each_lay_so_land_goes_first():
    land, fleet = card("land", 2), card("fleet", 2)
    state = lay_state([fleet, land])
    with pytest.raises(errors.FleetLimitExceeded):
        RULES.decide(state, cmd(0, "lay_card", card=fleet.id))
    state, _ = play(state, cmd(0, "lay_card", card=land.id), cmd(0, "lay_card", card=fleet.id))
    assert [c.id for c in state.tableaux[0]] == [land.id, fleet.id]


def test_bonus_armies_do_not_raise_the_fleet_limit():
    tableau = (card("land", 3), card("army", 3))  # 3 armies would give a bonus fleet at scoring
    fleets = (card("fleet", 3), card("fleet", 1))
    state, _ = play(lay_state(fleets, tableau), cmd(0, "lay_card", card=fleets[0].id))
    with pytest.raises(errors.FleetLimitExceeded):
        RULES.decide(state, cmd(0, "lay_card", card=fleets[1].id))


# --- income ----------------------------------------------------------------------------

def test_rulebook_laying_example_costs_one_and_earns_three():
    """Rulebook: one wealth and one land card laid cost 1 aureus; income 3 aurei, because the
    longest row just extended now holds 3 cards."""
    tableau = cards("wealth", 2) + cards("land", 1)
    wealth, land = card("wealth"), card("land")
    state = lay_state([wealth, land], tableau, gold=4)
    state, events = play(state, cmd(0, "lay_card", card=wealth.id), cmd(0, "lay_card", card=land.id),
                         cmd(0, "take_income"))
    assert [e.data["cost"] for e in only(events, "CardLaid")] == [0, 1]
    assert only(events, "IncomeTaken")[0].data == {"seat": 0, "aurei": 3, "basis": "laid"}
    assert state.gold[0] == 4 - 1 + 3


def test_income_counts_cards_not_symbols():
    tableau = (card("religion", 3),)
    assert income(tableau + (card("religion", 3),), (card("religion", 3),))[0] == 2


def test_no_card_laid_gives_two_aurei_base_income():
    state, events = play(lay_state([card("wealth")], gold=1), cmd(0, "take_income"))
    assert only(events, "IncomeTaken")[0].data["aurei"] == 2 and state.gold[0] == 3
    assert RULES.visible(only(events, "IncomeTaken")[0], 1) == {"type": "IncomeTaken", "seat": 0}


def test_one_card_of_a_new_category_earns_one():
    assert income((card("fleet"),), (card("fleet"),)) == (1, "laid")


def test_senators_add_one_aureus_however_many_are_laid():
    wealth = cards("wealth", 2)
    senators = cards("senator", 3)
    assert income(wealth + senators[:1], (wealth[1], senators[0])) == (3, "laid")
    assert income(wealth + senators, (wealth[1],) + senators) == (3, "laid")


def test_the_senator_row_is_not_the_extended_row():
    """"(Ausnahme: Senator und Intrige)": a lone senator earns only its +1."""
    senators = cards("senator", 4)
    assert income(senators, senators[-1:]) == (1, "laid")


def test_any_intrigue_laid_cancels_all_income_senators_included():
    tableau = cards("wealth", 5) + (card("senator"), card("intrigue"))
    assert income(tableau, tableau[-3:]) == (0, "intrigue")
    intrigue = card("intrigue")
    state, events = play(lay_state([intrigue], gold=0), cmd(0, "lay_card", card=intrigue.id), cmd(0, "take_income"))
    assert only(events, "IncomeTaken")[0].data["aurei"] == 0 and state.gold[0] == 0


# --- primus conspiratus ----------------------------------------------------------------

def test_first_intrigue_takes_primus_conspiratus_at_once():
    intrigue = card("intrigue")
    state, events = play(lay_state([intrigue]), cmd(0, "lay_card", card=intrigue.id))
    assert types(events) == ["CardLaid", "PrimusConspiratusMoved"]
    assert events[1].data == {"from": None, "to": 0} and state.primus == 0


def test_primus_stays_on_a_tie_and_moves_at_once_on_strictly_more_symbols():
    holder = (card("intrigue", 2),)
    one, two, three = card("intrigue", 1), card("intrigue", 1), card("intrigue", 1)
    state = table(2, step="lay", active=1, hands=[(), (one, two, three)], tableaux=[holder, ()], primus=0, gold=(5, 5))
    state, events = play(state, cmd(1, "lay_card", card=one.id), cmd(1, "lay_card", card=two.id))
    assert state.primus == 0 and types(events) == ["CardLaid", "CardLaid"]  # 2 against 2: stays
    state, events = play(state, cmd(1, "lay_card", card=three.id))
    assert types(events) == ["CardLaid", "PrimusConspiratusMoved"]
    assert events[1].data == {"from": 0, "to": 1} and state.primus == 1
    assert RULES.view(state, None)["primus_conspiratus"] == 1


def test_primus_counts_symbols_not_cards():
    state = table(2, step="lay", active=1, hands=[(), (card("intrigue", 3),)],
                  tableaux=[cards("intrigue", 2), ()], primus=0)
    state, _ = play(state, cmd(1, "lay_card", card=state.hands[1][0].id))
    assert state.primus == 1


def test_when_only_stopping_is_left_the_question_counts_why():
    """The seat is told why no card can be laid: too dear, over the limit, or no hand."""
    tableau = (card("land", 1), card("army", 1))
    dear, over = card("wealth"), card("army", 1)
    first = card("wealth")
    state, _ = play(lay_state([first, dear, over], tableau, gold=0), cmd(0, "lay_card", card=first.id))
    d = decision(state)
    assert option_args(state) == [{}]
    assert {k: d.prompt_args[k] for k in ("can_lay", "hand", "aurei", "limit")} == \
        {"can_lay": False, "hand": 2, "aurei": 2, "limit": 0}
    assert "None of your cards can be laid now (the next one costs 1 aureus)" in d.prompt
    state = lay_state([over], tableau)
    assert {k: decision(state).prompt_args[k] for k in ("can_lay", "hand", "aurei", "limit")} == \
        {"can_lay": False, "hand": 1, "aurei": 0, "limit": 1}
    assert "is free" in decision(state).prompt
    empty = lay_state([], tableau)
    assert decision(empty).prompt_args["hand"] == 0 and "no card" in decision(empty).prompt
