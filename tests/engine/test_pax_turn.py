"""A turn up to laying: draw or peek, placing the three drawn cards, buying a legion."""

from __future__ import annotations

import pytest

from engine.pax import errors
from engine.pax.rules import RULES
from engine.pax.turn import draw_batches
from pax_builders import at_draw, card, cards, cmd, decision, filler, option_args, play, table, types


# --- draw or peek ----------------------------------------------------------------------

def test_a_turn_starts_with_the_choice_to_draw_or_peek():
    state = table(turn=7)
    d = decision(state)
    assert d.id == "turn:7" and d.prompt_key == "pax.choose_action"
    assert [c.type for c in d.options] == ["draw_cards", "peek_rome"]
    assert d.default.type == "draw_cards"


def test_peeking_gives_two_aurei_shows_rome_to_the_peeker_only_and_ends_the_turn():
    hidden = cards("senator", 3)
    state = table(3, rome_hidden=hidden, gold=(5, 5, 5))
    state, events = play(state, cmd(0, "peek_rome"))
    assert types(events)[:2] == ["RomePeeked", "TurnEnded"]
    assert state.gold[0] == 7 and state.active_seat == 1 and state.step == "choose"
    assert len(state.deck) == 20 and state.hands[0] == ()  # nothing else happened
    peek = events[0]
    assert RULES.visible(peek, 0)["cards"] == [c.to_json() for c in hidden]
    assert RULES.visible(peek, 1) == {"type": "RomePeeked", "seat": 0}
    assert RULES.view(state, 0)["rome"]["hidden"] == [c.to_json() for c in hidden]
    assert RULES.view(state, 1)["rome"]["hidden"] is None
    assert RULES.view(state, None)["rome"]["hidden"] is None
    assert RULES.view(state, 1)["rome"]["hidden_count"] == 3


# --- drawing ---------------------------------------------------------------------------

def test_cards_are_drawn_one_after_another_and_each_placed_at_once():
    deck = cards("wealth", 3) + filler(5)
    state = at_draw(table(deck=deck, turn=4))
    assert state.limbo[0] == deck[:1]
    d = decision(state)
    assert d.id == "draw:4:0" and d.context["drawn"] == [deck[0].to_json()]
    assert {a["to"] for a in option_args(state)} == {"hand", "legion", "deck"}
    assert sum(a["to"] == "legion" for a in option_args(state)) == 3  # any of the 3 legions
    assert d.default.args == {"card": deck[0].id, "to": "hand"}

    state, events = play(state, cmd(0, "assign_card", card=deck[0].id, to="legion", legion=2))
    assert types(events) == ["CardAssigned", "CardsDrawn"]
    assert state.legions[1][-1] == deck[0] and state.limbo[0] == deck[1:2]
    assert decision(state).id == "draw:4:1"
    assert {a["to"] for a in option_args(state)} == {"hand", "deck"}
    with pytest.raises(errors.DestinationUsed):
        RULES.decide(state, cmd(0, "assign_card", card=deck[1].id, to="legion", legion=1))

    state, _ = play(state, cmd(0, "assign_card", card=deck[1].id, to="deck"))
    assert state.deck[-1] == deck[1]
    assert option_args(state) == [{"card": deck[2].id, "to": "hand"}]
    state, _ = play(state, cmd(0, "assign_card", card=deck[2].id, to="hand"))
    assert state.hands[0] == (deck[2],) and state.step == "buy"


def test_a_drawn_card_may_go_under_an_emptied_legion():
    state = at_draw(table(legions=[(), filler(1), filler(1)]))
    assert {"card": state.limbo[0][0].id, "to": "legion", "legion": 1} in option_args(state)


def test_only_the_drawn_cards_and_existing_legions_can_be_named():
    state = at_draw(table())
    with pytest.raises(errors.CardNotAvailable):
        RULES.decide(state, cmd(0, "assign_card", card="W01", to="hand"))
    with pytest.raises(errors.NoSuchLegion):
        RULES.decide(state, cmd(0, "assign_card", card=state.limbo[0][0].id, to="legion", legion=9))
    with pytest.raises(errors.NotYourTurn):
        RULES.decide(state, cmd(1, "assign_card", card=state.limbo[0][0].id, to="hand"))
    with pytest.raises(errors.WrongStep):
        RULES.decide(state, cmd(0, "skip_buy"))


@pytest.mark.parametrize("religion, available, plan", [
    (0, 3, (1, 1, 1)), (2, 3, (1, 1, 1)), (3, 3, (2, 1)), (5, 3, (2, 1)), (6, 3, (3,)), (9, 3, (3,)),
    (0, 2, (1, 1)), (3, 2, (2,)), (6, 1, (1,)), (0, 0, ()),
])
def test_draw_batches_follow_religion(religion, available, plan):
    assert draw_batches(religion, available) == plan


def test_three_religion_symbols_draw_two_at_once_and_one_must_leave_before_the_third():
    deck = cards("army", 3) + filler(5)
    state = at_draw(table(deck=deck, tableaux=[cards("religion", 3), ()]))
    assert state.limbo[0] == deck[:2]
    assert {a["to"] for a in option_args(state)} == {"legion", "deck"}
    assert decision(state).default.args == {"card": deck[0].id, "to": "deck"}
    with pytest.raises(errors.HandNotYetAllowed):
        RULES.decide(state, cmd(0, "assign_card", card=deck[0].id, to="hand"))
    state, events = play(state, cmd(0, "assign_card", card=deck[1].id, to="deck"))
    assert types(events) == ["CardAssigned", "CardsDrawn"]
    assert state.limbo[0] == (deck[0], deck[2])
    assert {a["to"] for a in option_args(state)} == {"hand", "legion"}


def test_six_religion_symbols_draw_all_three_at_once():
    deck = cards("army", 3) + filler(5)
    state = at_draw(table(deck=deck, tableaux=[cards("religion", 3, symbols=2), ()]))
    assert state.limbo[0] == deck[:3]
    assert {a["to"] for a in option_args(state)} == {"hand", "legion", "deck"}
    assert len(option_args(state)) == 3 * (1 + 3 + 1)


def test_with_fewer_than_three_cards_left_each_goes_to_a_different_place():
    deck = cards("army", 2)
    state = at_draw(table(deck=deck))
    state, _ = play(state, cmd(0, "assign_card", card=deck[0].id, to="deck"))
    # the card just pushed under is now the deck's last card; the draw ends after two
    state, _ = play(state, cmd(0, "assign_card", card=deck[1].id, to="legion", legion=1))
    assert state.step == "buy" and state.limbo[0] == () and state.deck == (deck[0],)


def test_a_player_who_cannot_draw_gets_two_aurei_then_buys_lays_and_takes_income():
    state = table(3, deck=(), active=0, gold=(1, 1, 1), step="lay")
    state, events = play(state, cmd(0, "take_income"))
    assert types(events)[-2:] == ["TurnStarted", "DeckExhaustedAureiTaken"]
    assert state.active_seat == 1 and state.gold[1] == 3 and state.step == "buy"
    assert RULES.visible(events[-1], 0) == {"type": "DeckExhaustedAureiTaken", "seat": 1}
    state, _ = play(state, cmd(1, "skip_buy"), cmd(1, "take_income"))
    assert state.gold[1] == 5  # 2 before acting + 2 base income


# --- buying ----------------------------------------------------------------------------

def test_buying_takes_every_card_under_one_legion_for_their_printed_prices():
    """Rulebook example: the player buys both cards (intrigue, land) and pays 4 aurei."""
    group = (card("intrigue", 1, 2), card("land", 2, 2))
    state = table(step="buy", legions=[filler(1), group, filler(1)], gold=(6, 5), turn=3)
    d = decision(state)
    assert d.id == "buy:3" and d.default.type == "skip_buy"
    assert {"legion": 2} in option_args(state)
    state, events = play(state, cmd(0, "buy_legion", legion=2))
    assert types(events) == ["LegionBought"]
    assert state.gold[0] == 2 and state.hands[0] == group and state.legions[1] == ()
    assert state.step == "lay"  # one group per turn
    assert RULES.visible(events[0], 1) == {"type": "LegionBought", "seat": 0, "legion": 2,
                                           "cards": [c.to_json() for c in group]}
    assert RULES.visible(events[0], 0)["price"] == 4


@pytest.mark.parametrize("wealth, price", [(2, 5), (3, 4), (5, 4), (6, 3), (9, 2), (18, 0)])
def test_every_three_wealth_symbols_save_one_aureus_never_below_zero(wealth, price):
    group = (card("senator", 2, 3), card("fleet", 1, 2))
    state = table(step="buy", legions=[group, filler(1), filler(1)], gold=(10, 5),
                  tableaux=[cards("wealth", wealth), ()])
    state, events = play(state, cmd(0, "buy_legion", legion=1))
    assert events[0].data["price"] == price and state.gold[0] == 10 - price


def test_a_legion_one_cannot_afford_or_an_empty_one_cannot_be_bought():
    state = table(step="buy", legions=[(card("army", 3, 4),), (), filler(1)], gold=(3, 5))
    assert option_args(state) == [{"legion": 3}, {}]
    with pytest.raises(errors.NotEnoughAurei):
        RULES.decide(state, cmd(0, "buy_legion", legion=1))
    with pytest.raises(errors.EmptyLegion):
        RULES.decide(state, cmd(0, "buy_legion", legion=2))
    with pytest.raises(errors.NoSuchLegion):
        RULES.decide(state, cmd(0, "buy_legion", legion=0))


def test_not_buying_moves_on_to_laying():
    state, events = play(table(step="buy"), cmd(0, "skip_buy"))
    assert types(events) == ["PurchaseSkipped"] and state.step == "lay"
