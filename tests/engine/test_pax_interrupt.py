"""The senator window of the 5-8 player game."""

from __future__ import annotations

import pytest

from engine.pax import errors
from engine.pax.rules import RULES
from pax_builders import card, cards, cmd, decision, only, play, table, types


def senator_turn(seats=5, hands=None, gold=None, tableaux=None, **more):
    senator = card("senator")
    hands = list(hands or [()] * seats)
    hands[0] = (senator,) + tuple(hands[0])
    state = table(seats, step="lay", hands=hands, gold=gold or (5,) * seats, tableaux=tableaux, **more)
    state, _ = play(state, cmd(0, "lay_card", card=senator.id))
    return state


def test_a_senator_opens_the_window_for_everyone_else_clockwise():
    state = senator_turn(hands=[(), cards("wealth", 1), cards("wealth", 1), cards("wealth", 1), cards("wealth", 1)],
                         turn=9)
    state, events = play(state, cmd(0, "take_income"))
    assert types(events) == ["IncomeTaken", "TurnEnded", "InterruptOpened"]
    assert events[-1].data == {"seat": 0, "responders": [1, 2, 3, 4]}
    d = decision(state)
    assert (d.id, d.seat, d.mode, d.prompt_key) == ("interrupt:9:1", 1, "interrupt", "pax.interrupt")
    assert d.default.type == "pass" and [o.type for o in d.options] == ["lay_card", "pass"]
    with pytest.raises(errors.NotYourTurn):
        RULES.decide(state, cmd(2, "pass"))
    view = RULES.view(state, 3)
    assert view["phase"] == "interrupt" and view["interrupt"] == {"senator_seat": 0, "responder": 1}


def test_responders_lay_one_card_for_one_aureus_without_income():
    wealth = card("wealth")
    state = senator_turn(hands=[(), (wealth,), (), (), ()], gold=(5, 3, 5, 5, 5))
    state, _ = play(state, cmd(0, "take_income"))
    state, events = play(state, cmd(1, "lay_card", card=wealth.id))
    laid = only(events, "CardLaid")[0]
    assert laid.data["cost"] == 1 and laid.data["during"] == "interrupt"
    assert "IncomeTaken" not in types(events)
    assert state.gold[1] == 2 and state.tableaux[1] == (wealth,)
    # seats 2-4 hold nothing: passed at once, window closed, seat 1's turn begins
    assert types(events)[1:] == ["InterruptPassed"] * 3 + ["InterruptClosed", "TurnStarted"]
    assert state.active_seat == 1 and state.phase == "turn"


def test_the_army_and_fleet_limit_applies_in_the_window():
    army, land = card("army"), card("land")
    state = senator_turn(hands=[(), (army, land), (), (), ()])
    state, _ = play(state, cmd(0, "take_income"))
    assert [o.args for o in decision(state).options] == [{"card": land.id}, {}]
    with pytest.raises(errors.ArmyLimitExceeded):
        RULES.decide(state, cmd(1, "lay_card", card=army.id))


def test_an_intrigue_laid_in_the_window_moves_primus_conspiratus_at_once():
    intrigue = card("intrigue", 2)
    state = senator_turn(hands=[(), (), (intrigue,), (), ()], tableaux=[cards("intrigue", 1), (), (), (), ()],
                         primus=0)
    state, events = play(state, cmd(0, "take_income"))
    assert decision(state).seat == 2  # seat 1 holds nothing and was passed
    state, events = play(state, cmd(2, "lay_card", card=intrigue.id))
    assert types(events)[:2] == ["CardLaid", "PrimusConspiratusMoved"] and state.primus == 2


def test_an_automatic_pass_is_indistinguishable_from_a_voluntary_one():
    # seat 1 cannot respond (no aurei), seat 2 cannot (only an army, no land), seat 3 can but passes
    state = senator_turn(hands=[(), cards("wealth", 1), (card("army"),), cards("wealth", 1), ()],
                         gold=(5, 0, 5, 5, 5))
    state, events = play(state, cmd(0, "take_income"))
    automatic = only(events, "InterruptPassed")
    assert [e.data["seat"] for e in automatic] == [1, 2] and decision(state).seat == 3
    state, events = play(state, cmd(3, "pass"))
    voluntary = only(events, "InterruptPassed")
    assert [e.data["seat"] for e in voluntary] == [3, 4]  # seat 4 holds nothing
    for auto in automatic:
        for vol in voluntary:
            assert (auto.type, auto.version, set(auto.data)) == (vol.type, vol.version, set(vol.data))
            for viewer in (None, 0, 1, 2, 3, 4):
                a, v = RULES.visible(auto, viewer), RULES.visible(vol, viewer)
                assert set(a) == set(v) and a["type"] == v["type"]


def test_the_window_comes_before_the_round_ends():
    state = senator_turn(hands=[(), (), (), (), cards("wealth", 1)], active=0, start=1)
    state, events = play(state, cmd(0, "take_income"))
    assert types(events)[:3] == ["IncomeTaken", "TurnEnded", "InterruptOpened"]
    assert decision(state).seat == 4
    state, events = play(state, cmd(4, "pass"))
    assert types(events)[:4] == ["InterruptPassed", "InterruptClosed", "LegionCleared", "RoundEnded"]


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_no_window_with_four_players_or_fewer(seats):
    state = senator_turn(seats=seats)
    _, events = play(state, cmd(0, "take_income"))
    assert "InterruptOpened" not in types(events)


def test_no_window_without_a_senator():
    wealth = card("wealth")
    state = table(5, step="lay", hands=[(wealth,), cards("wealth", 1), (), (), ()])
    _, events = play(state, cmd(0, "lay_card", card=wealth.id), cmd(0, "take_income"))
    assert "InterruptOpened" not in types(events)
