"""Round end, the new round, and the end of the game."""

from __future__ import annotations

from engine.pax.flow import legion_to_clear
from engine.pax.rules import RULES
from pax_builders import card, cards, cmd, filler, only, play, table, types


def end_of_round(seats=2, **more):
    """The last player of the round (start seat 0) is about to stop laying."""
    return table(seats, step="lay", active=seats - 1, start=0, **more)


def test_the_richest_legion_is_cleared_into_rome_face_up():
    rich = (card("army", 3, 4), card("fleet", 1, 1))
    state = end_of_round(legions=[filler(2), rich, filler(1)])
    state, events = play(state, cmd(1, "take_income"))
    cleared = only(events, "LegionCleared")[0]
    assert cleared.data["legion"] == 2 and cleared.data["cards"] == [c.to_json() for c in rich]
    assert state.rome_open == rich  # Rome keeps armies without any land: no limit for Rome
    assert RULES.view(state, None)["rome"]["symbols"]["army"] == 3


def test_equal_values_clear_the_lower_legion():
    assert legion_to_clear([filler(1), (card("army", 2, 2),), (card("fleet", 1, 2),)]) == 2
    assert legion_to_clear([(), filler(3), (card("fleet", 3, 3),)]) == 2
    assert legion_to_clear([(), (), ()]) is None


def test_a_round_ends_after_everyone_had_one_turn_and_refills_every_empty_legion():
    state = end_of_round(3, legions=[(), filler(1), (card("army", 2, 2),), filler(1)])
    deck_before = state.deck
    state, events = play(state, cmd(2, "take_income"))
    assert types(events) == ["IncomeTaken", "TurnEnded", "LegionCleared", "RoundEnded", "RoundStarted",
                             "LegionsRefilled", "TurnStarted"]
    refill = only(events, "LegionsRefilled")[0].data["cards"]
    assert [r["legion"] for r in refill] == [1, 3]  # the bought-out legion I and the cleared III
    assert [r["card"]["id"] for r in refill] == [c.id for c in deck_before[:2]]
    assert all(len(l) >= 1 for l in state.legions)
    assert state.round == 2 and state.active_seat == 0 and state.turn == 2


def test_primus_conspiratus_becomes_start_player():
    state = end_of_round(3, primus=1, tableaux=[(), cards("intrigue", 1), ()])
    state, events = play(state, cmd(2, "take_income"))
    assert only(events, "RoundStarted")[0].data == {"round": 2, "start_seat": 1}
    assert state.start_seat == 1 and state.active_seat == 1
    # the new round ends after seat 0, the last before the start player
    state = table(3, step="lay", active=0, start=1, primus=1, tableaux=[(), cards("intrigue", 1), ()])
    state, events = play(state, cmd(0, "take_income"))
    assert "RoundEnded" in types(events)


def test_without_primus_conspiratus_the_start_player_stays():
    state = table(3, step="lay", active=0, start=1)
    state, events = play(state, cmd(0, "take_income"))
    assert "RoundEnded" in types(events)
    assert state.start_seat == 1 and state.active_seat == 1


def test_the_game_ends_at_once_when_the_deck_cannot_fill_the_empty_legions():
    hidden = cards("senator", 3)
    state = end_of_round(2, deck=filler(1), legions=[(), filler(1), filler(2)], rome_hidden=hidden)
    state, events = play(state, cmd(1, "take_income"))
    assert types(events)[-3:] == ["LegionCleared", "RoundEnded", "GameEnded"]
    ended = only(events, "GameEnded")[0]
    assert ended.data["reason"] == "deck_exhausted"
    assert ended.data["rome_hidden"] == [c.to_json() for c in hidden]
    assert RULES.visible(ended, None)["rome_hidden"] == [c.to_json() for c in hidden]
    assert state.phase == "ended" and RULES.pending(state).decisions == ()
    assert RULES.outcome(state) is not None
    assert RULES.view(state, None)["rome"]["hidden"] == [c.to_json() for c in hidden]


def test_an_exactly_sufficient_deck_fills_the_legions_and_play_goes_on():
    state = end_of_round(2, deck=filler(1), legions=[filler(1), filler(2), filler(1)])
    state, events = play(state, cmd(1, "take_income"))
    assert "GameEnded" not in types(events) and state.deck == ()
    assert types(events)[-2:] == ["TurnStarted", "DeckExhaustedAureiTaken"]


def test_when_the_deck_runs_out_mid_round_the_round_is_finished_then_the_game_ends():
    deck = cards("wealth", 3)
    state = table(3, deck=deck)
    state, _ = play(state, cmd(0, "draw_cards"),
                    cmd(0, "assign_card", card=deck[0].id, to="hand"),
                    cmd(0, "assign_card", card=deck[1].id, to="legion", legion=1),
                    cmd(0, "assign_card", card=deck[2].id, to="deck"),
                    cmd(0, "skip_buy"), cmd(0, "take_income"))
    assert state.active_seat == 1 and state.deck == (deck[2],)
    state, _ = play(state, cmd(1, "draw_cards"), cmd(1, "assign_card", card=deck[2].id, to="hand"),
                    cmd(1, "skip_buy"), cmd(1, "take_income"))
    assert state.deck == () and state.step == "buy" and state.gold[2] == 7  # seat 2 cannot draw
    state, events = play(state, cmd(2, "skip_buy"), cmd(2, "take_income"))
    assert types(events)[-1] == "GameEnded" and state.phase == "ended"


def test_solo_rounds_are_single_turns():
    state = table(1, step="lay", active=0, start=0, legions=[filler(1), filler(2), filler(1)])
    state, events = play(state, cmd(0, "take_income"))
    assert "LegionCleared" in types(events) and state.round == 2
    assert state.step == "draw"  # no peek in the solo game: the cards are drawn at once
