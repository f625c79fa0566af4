"""The senator window of the 5-8 player game.

Rulebook, 5-8 players: "all the other players may, in turn clockwise, lay one of their property
cards from hand for a fixed price of one aureus"; Capua's house rule re-opens the window after a
card laid in it.
"""

from __future__ import annotations

import pytest

from engine.core.game import forced_answer
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


def window(seats=5, **kwargs):
    """The senator window just opened by seat 0's income."""
    state, _ = play(senator_turn(seats, **kwargs), cmd(0, "take_income"))
    return state


def asked(state):
    return decision(state).seat


def test_a_senator_opens_the_window_for_everyone_else_clockwise():
    state = senator_turn(hands=[(), cards("wealth", 1), cards("wealth", 1), cards("wealth", 1), cards("wealth", 1)],
                         turn=9)
    state, events = play(state, cmd(0, "take_income"))
    assert types(events) == ["IncomeTaken", "TurnEnded", "InterruptOpened"]
    assert events[-1].data == {"seat": 0, "responders": [1, 2, 3, 4]}
    d = decision(state)
    assert (d.id, d.seat, d.mode, d.prompt_key, d.private) == ("interrupt:9:0", 1, "interrupt", "pax.interrupt", True)
    assert d.default.type == "pass" and [o.type for o in d.options] == ["lay_card", "pass"]
    with pytest.raises(errors.NotYourTurn):
        RULES.decide(state, cmd(2, "pass"))
    view = RULES.view(state, 3)
    assert view["phase"] == "interrupt"
    assert view["interrupt"] == {"senator_seat": 0, "responder": 1, "still_to_answer": [1, 2, 3, 4], "laid": []}


def test_responders_lay_one_card_for_one_aureus_without_income():
    wealth = card("wealth")
    state = window(hands=[(), (wealth,), (), (), ()], gold=(5, 3, 5, 5, 5))
    state, events = play(state, cmd(1, "lay_card", card=wealth.id))
    laid = only(events, "CardLaid")[0]
    assert laid.data["cost"] == 1 and laid.data["during"] == "interrupt"
    assert types(events) == ["CardLaid"]
    assert state.gold[1] == 2 and state.tableaux[1] == (wealth,)
    assert asked(state) == 2


def test_every_player_is_asked_whatever_they_hold():
    # seat 1 has no aurei, seat 2 only an army it may not lay, seat 4 an empty hand: all are asked
    state = window(hands=[(), cards("wealth", 1), (card("army"),), cards("wealth", 1), ()], gold=(5, 0, 5, 5, 5))
    for seat in (1, 2, 3, 4):
        d = decision(state)
        assert d.seat == seat and d.private
        assert forced_answer(d) is None  # a lone pass is still the player's to give
        state, events = play(state, cmd(seat, "pass"))
        assert types(events)[0] == "InterruptPassed"
    assert types(events) == ["InterruptPassed", "InterruptClosed", "TurnStarted"]
    assert state.phase == "turn" and state.active_seat == 1


def test_a_pass_batches_the_same_whether_or_not_the_player_could_have_laid():
    # seat 1 holds nothing it could lay, seat 3 holds a card: their passes look alike to everyone
    state = window(hands=[(), (), (), cards("wealth", 1), ()])
    state, helpless = play(state, cmd(1, "pass"))
    state, _ = play(state, cmd(2, "pass"))
    state, chose = play(state, cmd(3, "pass"))
    for viewer in (None, 0, 2, 4):
        assert [RULES.visible(e, viewer) for e in helpless] == [{"type": "InterruptPassed", "seat": 1}]
        assert [RULES.visible(e, viewer) for e in chose] == [{"type": "InterruptPassed", "seat": 3}]


def test_the_army_and_fleet_limit_applies_in_the_window():
    army, land = card("army"), card("land")
    state = window(hands=[(), (army, land), (), (), ()])
    assert [o.args for o in decision(state).options] == [{"card": land.id}, {}]
    with pytest.raises(errors.ArmyLimitExceeded):
        RULES.decide(state, cmd(1, "lay_card", card=army.id))


def test_an_intrigue_laid_in_the_window_moves_primus_conspiratus_at_once():
    intrigue = card("intrigue", 2)
    state = window(hands=[(), (), (intrigue,), (), ()], tableaux=[cards("intrigue", 1), (), (), (), ()], primus=0)
    state, _ = play(state, cmd(1, "pass"))
    state, events = play(state, cmd(2, "lay_card", card=intrigue.id))
    assert types(events)[:2] == ["CardLaid", "PrimusConspiratusMoved"] and state.primus == 2


def test_a_card_laid_asks_again_everyone_who_passed_before_it():
    # house rule: seat 1 passed, seat 2 lays an intrigue; seat 1 may now answer it
    intrigue, answer = card("intrigue", 2), card("intrigue", 3)
    state = window(hands=[(), (answer,), (intrigue,), (), ()])
    state, _ = play(state, cmd(1, "pass"))
    state, events = play(state, cmd(2, "lay_card", card=intrigue.id))
    assert only(events, "InterruptReopened")[0].data == {"seat": 2, "responders": [3, 4, 1]}
    state, _ = play(state, cmd(3, "pass"), cmd(4, "pass"))
    assert asked(state) == 1
    state, events = play(state, cmd(1, "lay_card", card=answer.id))
    assert state.primus == 1
    # seat 2 laid already (one card per window); 3 and 4 are asked again
    assert only(events, "InterruptReopened")[0].data == {"seat": 1, "responders": [3, 4]}
    assert RULES.view(state, None)["interrupt"]["laid"] == [2, 1]
    state, _ = play(state, cmd(3, "pass"))
    state, events = play(state, cmd(4, "pass"))
    assert types(events)[:2] == ["InterruptPassed", "InterruptClosed"]


def test_the_window_closes_only_after_everyone_passed_in_succession_since_the_last_card():
    wealth = card("wealth")
    state = window(hands=[(), (), (), (), (wealth,)])
    state, _ = play(state, cmd(1, "pass"), cmd(2, "pass"), cmd(3, "pass"))
    state, events = play(state, cmd(4, "lay_card", card=wealth.id))
    assert only(events, "InterruptReopened")[0].data["responders"] == [1, 2, 3]
    assert state.phase == "interrupt"
    state, _ = play(state, cmd(1, "pass"), cmd(2, "pass"))
    state, events = play(state, cmd(3, "pass"))
    assert types(events)[:2] == ["InterruptPassed", "InterruptClosed"]


def test_a_card_laid_before_anyone_passed_changes_nobody_s_turn_to_answer():
    wealth = card("wealth")
    state = window(hands=[(), (wealth,), (), (), ()])
    state, events = play(state, cmd(1, "lay_card", card=wealth.id))
    assert "InterruptReopened" not in types(events)
    assert list(state.responders) == [2, 3, 4]


def test_decision_ids_stay_unique_when_a_player_is_asked_again():
    wealth = card("wealth")
    state = window(hands=[(), (), (wealth,), (), ()], turn=4)
    seen = []
    while state.phase == "interrupt":
        d = decision(state)
        seen.append(d.id)
        lay = [o for o in d.options if o.type == "lay_card"]
        state, _ = play(state, lay[0] if lay else d.default)
    assert len(seen) == len(set(seen)) == 5  # seats 1, 2 (lays), 3, 4, 1


def test_the_window_comes_before_the_round_ends():
    state = senator_turn(hands=[(), (), (), (), cards("wealth", 1)], active=0, start=1)
    state, events = play(state, cmd(0, "take_income"))
    assert types(events)[:3] == ["IncomeTaken", "TurnEnded", "InterruptOpened"]
    state, _ = play(state, cmd(1, "pass"), cmd(2, "pass"), cmd(3, "pass"))
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
