"""What each seat sees of the table and of each event."""

from __future__ import annotations

import json
import pickle

from engine.pax.rules import RULES
from pax_builders import at_draw, card, cards, cmd, play, table

TOP_KEYS = {"game", "seats", "round", "phase", "active_seat", "start_seat", "primus_conspiratus", "deck_size",
            "set_aside", "legions", "rome", "players", "me", "outcome"}


def busy_table():
    hands = [cards("wealth", 2), cards("senator", 3), ()]
    return table(3, hands=hands, gold=(4, 9, 1), rome_open=cards("army", 1), rome_hidden=cards("fleet", 3),
                 tableaux=[cards("land", 2), (), cards("intrigue", 1)], primus=2)


def test_view_shape_for_a_seat():
    state = busy_table()
    view = RULES.view(state, 0)
    assert TOP_KEYS <= set(view)
    assert view["game"] == "pax" and view["seats"] == 3 and view["deck_size"] == 20
    assert view["legions"][0]["label"] == "I" and view["legions"][0]["number"] == 1
    assert view["legions"][0]["value"] == 1 and view["legions"][3]["label"] == "IV"
    assert view["rome"]["hidden_count"] == 3 and view["rome"]["hidden"] is None
    assert view["rome"]["open"] == [c.to_json() for c in state.rome_open]
    assert view["rome"]["symbols"]["army"] == 1
    assert view["me"]["hand"] == [c.to_json() for c in state.hands[0]] and view["me"]["gold"] == 4
    assert view["players"][0]["symbols"]["land"] == 2
    assert len(view["players"][0]["tableau"]["land"]) == 2
    assert view["primus_conspiratus"] == 2
    json.dumps(view)


def test_nobody_sees_another_players_hand_gold_or_hand_size():
    state = busy_table()
    for viewer in (None, 0, 1, 2):
        view = RULES.view(state, viewer)
        text = json.dumps(view)
        for seat in range(3):
            if seat == viewer:
                continue
            for c in state.hands[seat]:
                assert c.id not in text
        for player in view["players"]:
            assert not {"hand", "gold", "drawn", "hand_size", "hand_count"} & set(player)
        for c in state.rome_hidden:
            assert c.id not in text
    assert RULES.view(state, None)["me"] is None
    assert RULES.view(state, 1)["me"]["seat"] == 1


def test_drawn_cards_are_seen_by_the_drawing_seat_only():
    deck = cards("religion", 3) + cards("land", 5)
    state = at_draw(table(3, deck=deck))
    assert RULES.view(state, 0)["me"]["drawn"] == [deck[0].to_json()]
    for viewer in (None, 1, 2):
        assert deck[0].id not in json.dumps(RULES.view(state, viewer))
    _, events = play(state, cmd(0, "assign_card", card=deck[0].id, to="hand"))
    assigned, drawn = events
    assert RULES.visible(assigned, 1) == {"type": "CardAssigned", "seat": 0, "to": "hand"}
    assert RULES.visible(drawn, 1) == {"type": "CardsDrawn", "seat": 0, "remaining_batches": [1], "count": 1}
    assert RULES.visible(drawn, 0)["cards"] == [deck[1].to_json()]


def test_cards_under_a_legion_are_public_cards_under_the_deck_are_not():
    deck = cards("wealth", 3) + cards("land", 5)
    state = at_draw(table(2, deck=deck))
    _, events = play(state, cmd(0, "assign_card", card=deck[0].id, to="legion", legion=1))
    assert RULES.visible(events[0], 1)["card"] == deck[0].to_json()
    state, events = play(state, cmd(0, "assign_card", card=deck[0].id, to="deck"))
    assert RULES.visible(events[0], None) == {"type": "CardAssigned", "seat": 0, "to": "deck"}


def test_state_pickles_and_views_are_json():
    state = busy_table()
    assert pickle.loads(pickle.dumps(state)) == state
    for viewer in (None, 0, 1, 2):
        json.dumps(RULES.view(state, viewer))


def test_decisions_carry_prompts_for_translation():
    state = table(2, step="lay", hands=[(card("wealth"),), ()])
    for d in RULES.pending(state).decisions:
        assert d.prompt and d.prompt_key.startswith("pax.")
        json.dumps(d.to_json())
