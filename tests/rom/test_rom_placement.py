"""Phase 2: placing power dice -- the rulebook's examples and one test per section rule."""

from __future__ import annotations

import pytest
from rom_support import BLUE, RED, YELLOW, act, decision, find, options, placement_state, settle

from engine.core.errors import IllegalCommand
from engine.rom import flow
from engine.rom.errors import DieNotAvailable, IllegalPlacement, MustPlace, NotYourTurn
from engine.rom.rules import RULES
from engine.core.types import Command


def track(state, name):
    return [(g.seat, list(g.dice)) for g in state.tracks[("military", "senate", "black_market").index(name)]]


def place(state, seat, value, track_name):
    state, events = act(state, seat, "place_die", value=value, track=track_name)
    return state, events


# ---------------------------------------------------------------- the rulebook's examples (p. 3-4)


def test_example_second_player_goes_to_the_second_section():
    """"Red is first player and places a die on the leftmost section of the senate track.
    Blue ... must place his die in the second section." """
    state = placement_state(dice={RED: [2, 2, 2, 2], BLUE: [3, 3, 3, 3], YELLOW: [4, 4, 4, 4]},
                            order=[RED, BLUE, YELLOW])
    state, _ = place(state, RED, 2, "senate")
    state, events = place(state, BLUE, 3, "senate")
    assert track(state, "senate") == [(RED, [2]), (BLUE, [3])]
    assert find(events, "PowerDiePlaced").data["section"] == 1


def test_example_lower_die_pushes_and_the_third_player_lands_in_between():
    """"Red had placed a 2 on the senate track.  Blue places a 1 and pushes his die to the
    leftmost section; Red's die goes to section II."  Then "Yellow places a 1 too: not lower
    than Blue's, but lower than Red's.  Red is pushed again, Yellow goes to section II." """
    state = placement_state(dice={RED: [2, 5, 5, 5], BLUE: [1, 5, 5, 5], YELLOW: [1, 5, 5, 5]},
                            order=[RED, BLUE, YELLOW])
    state, _ = place(state, RED, 2, "senate")
    preview = [p for p in decision(state).context["placements"] if p["value"] == 1 and p["track"] == "senate"]
    assert preview == [{"value": 1, "track": "senate", "section": 1, "pushes": [RED], "joins": False}]
    state, events = place(state, BLUE, 1, "senate")
    assert track(state, "senate") == [(BLUE, [1]), (RED, [2])]
    assert find(events, "PowerDiePlaced").data["pushes"] == [RED]
    state, events = place(state, YELLOW, 1, "senate")
    assert track(state, "senate") == [(BLUE, [1]), (YELLOW, [1]), (RED, [2])]
    assert find(events, "PowerDiePlaced").data == {
        "seat": YELLOW, "value": 1, "track": "senate", "section": 1, "pushes": [RED], "joins": False}


def test_example_lowest_die_pushes_two_groups():
    """"Suppose Red's die showed 4 and Blue's 3, and Yellow placed a 2: it goes to section I
    and Red's and Blue's dice move one section right." """
    state = placement_state(dice={RED: [4, 6, 6, 6], BLUE: [3, 6, 6, 6], YELLOW: [2, 6, 6, 6]},
                            order=[RED, BLUE, YELLOW])
    state, _ = place(state, RED, 4, "senate")
    state, _ = place(state, BLUE, 3, "senate")
    assert track(state, "senate") == [(BLUE, [3]), (RED, [4])]
    state, events = place(state, YELLOW, 2, "senate")
    assert track(state, "senate") == [(YELLOW, [2]), (BLUE, [3]), (RED, [4])]
    assert find(events, "PowerDiePlaced").data["pushes"] == [BLUE, RED]


def test_example_further_dice_join_with_equal_or_lower_values():
    """"Red has a 4 on the military track, so his next die there may show at most 4.  If he
    places a 2, his third die in this section may show at most 2." """
    state = placement_state(dice={RED: [2, 3, 1], BLUE: [6, 6, 6, 6], YELLOW: [6, 6, 6, 6]},
                            tracks={"military": [(RED, [4])]}, order=[RED, BLUE, YELLOW])
    assert {"value": 3, "track": "military"} in options(state, RED)
    state = placement_state(dice={RED: [3, 1], BLUE: [6, 6, 6, 6], YELLOW: [6, 6, 6, 6]},
                            tracks={"military": [(RED, [4, 2])]}, order=[RED, BLUE, YELLOW])
    assert {"value": 3, "track": "military"} not in options(state, RED)
    assert {"value": 1, "track": "military"} in options(state, RED)
    with pytest.raises(IllegalPlacement, match="may not be higher"):
        RULES.decide(state, Command(RED, "place_die", {"value": 3, "track": "military"}))


def test_example_only_the_leftmost_die_of_a_group_counts_for_pushing():
    """"Blue places a 4 on the military track ... later a 2 next to it.  Yellow then places a
    4: although lower than Blue's total, nothing is pushed -- only the leftmost die counts.
    Had Yellow placed a 3, it would go to section I and Blue's dice to section II (in the
    same order)." """
    base = placement_state(dice={BLUE: [4, 2, 6, 6], YELLOW: [4, 3, 6, 6], RED: [6, 6, 6, 6]},
                           tracks={"military": [(BLUE, [4, 2])]}, order=[YELLOW, RED, BLUE])
    state, events = place(base, YELLOW, 4, "military")
    assert track(state, "military") == [(BLUE, [4, 2]), (YELLOW, [4])]
    assert find(events, "PowerDiePlaced").data["pushes"] == []
    state, events = place(base, YELLOW, 3, "military")
    assert track(state, "military") == [(YELLOW, [3]), (BLUE, [4, 2])]
    assert find(events, "PowerDiePlaced").data["pushes"] == [BLUE]


# ---------------------------------------------------------------- one test per rule


def test_dice_go_to_the_leftmost_free_section():
    state = placement_state(dice={RED: [5, 5, 5, 5]}, tracks={"black_market": [(BLUE, [2]), (YELLOW, [3])]})
    state, events = place(state, RED, 5, "black_market")
    assert find(events, "PowerDiePlaced").data["section"] == 2
    assert track(state, "black_market")[-1] == (RED, [5])


def test_a_full_track_takes_no_new_player():
    """"Only one player's dice may lie in a section."  With 4 sections and at most 4 players a
    track is never full for a newcomer, so a card set with 3 sections shows the rule."""
    from dataclasses import replace

    state = placement_state(seats=4, dice={3: [1, 1, 1, 1]}, turn=3, order=[3, 0, 1, 2],
                            tracks={"military": [(0, [2]), (1, [3]), (2, [4])]})
    assert {"value": 1, "track": "military"} in options(state, 3)
    full = replace(state, cards=replace(state.cards, sections=3))
    assert all(o.get("track") != "military" for o in options(full, 3))
    with pytest.raises(IllegalPlacement, match="all sections"):
        RULES.decide(full, Command(3, "place_die", {"value": 1, "track": "military"}))
    # A player already on a full track still joins his group.
    joined = replace(full, turn_seat=0).with_player(0, unplaced=(1, 3))
    assert {"value": 1, "track": "military"} in options(joined, 0)


def test_a_player_who_joins_never_pushes():
    state = placement_state(dice={RED: [1, 1, 1, 1]}, tracks={"senate": [(BLUE, [2]), (RED, [3])]})
    state, events = place(state, RED, 1, "senate")
    assert track(state, "senate") == [(BLUE, [2]), (RED, [3, 1])]
    assert find(events, "PowerDiePlaced").data["joins"] is True


def test_placement_goes_in_turn_order_one_die_each():
    """"In turn order each player places one die ... then all place their second die" (p. 3)."""
    state = placement_state(dice={RED: [1, 2, 3, 4], BLUE: [1, 2, 3, 4], YELLOW: [1, 2, 3, 4]},
                            order=[BLUE, YELLOW, RED])
    seen = []
    for _ in range(6):
        seat = decision(state).seat
        seen.append(seat)
        first = options(state, seat, "place_die")[0]
        state, _ = act(state, seat, "place_die", **first)
    assert seen == [BLUE, YELLOW, RED, BLUE, YELLOW, RED]


def test_only_the_player_in_turn_may_place():
    state = placement_state(dice={RED: [1, 2, 3, 4], BLUE: [1, 2, 3, 4]}, order=[RED, BLUE, YELLOW])
    with pytest.raises(NotYourTurn):
        RULES.decide(state, Command(BLUE, "place_die", {"value": 1, "track": "senate"}))


def test_a_die_must_be_one_of_the_players_unplaced_dice():
    state = placement_state(dice={RED: [1, 2, 3, 4]})
    with pytest.raises(DieNotAvailable):
        RULES.decide(state, Command(RED, "place_die", {"value": 6, "track": "senate"}))


def test_a_player_who_cannot_place_passes_and_forfeits_his_dice():
    """"It may happen that a player cannot place his last die; then he must pass" (p. 3)."""
    groups = {"military": [(RED, [1]), (BLUE, [2]), (YELLOW, [3]), (3, [4])],
              "senate": [(RED, [1]), (BLUE, [2]), (YELLOW, [3]), (3, [4])],
              "black_market": [(RED, [2])]}
    state = placement_state(seats=4, dice={RED: [5], BLUE: [6]}, order=[RED, BLUE, YELLOW, 3], tracks=groups)
    state = state.with_player(RED, unplaced=(5,)).with_player(BLUE, unplaced=(6,)).with_player(YELLOW, unplaced=())
    state = state.with_player(3, unplaced=())
    state = settle(state)
    # Red's 5 cannot join his 2 on the black market, and the other tracks are full.
    assert state.player(RED).unplaced == ()
    assert state.turn_seat == BLUE


def test_pass_is_refused_while_a_placement_exists():
    state = placement_state(dice={RED: [1, 2, 3, 4]})
    with pytest.raises(MustPlace):
        RULES.decide(state, Command(RED, "pass_placement", {}))


def test_every_placement_option_shows_where_it_lands():
    state = placement_state(dice={RED: [1, 4, 4, 6]}, tracks={"military": [(BLUE, [3])]})
    d = decision(state)
    previews = {(p["value"], p["track"]): p for p in d.context["placements"]}
    assert previews[(1, "military")] == {"value": 1, "track": "military", "section": 1, "pushes": [BLUE],
                                         "joins": False}
    assert previews[(6, "military")]["section"] == 2
    assert len(d.context["placements"]) == len([o for o in d.options if o.type == "place_die"])


def test_the_placement_default_never_wastes_a_placement():
    state = placement_state(dice={RED: [2, 5, 5, 6]})
    d = decision(state)
    assert d.default.type == "place_die" and d.default.args == {"value": 6, "track": "military"}
    # With only a card-assisted placement left, the default still places.
    state = placement_state(dice={RED: [6]}, tracks={"military": [(RED, [2])], "senate": [(RED, [1])],
                                                     "black_market": [(RED, [1])]},
                            p0={"provinces": ("gallia_cisalpina",), "senate": ("legatus",)})
    state = state.with_player(RED, unplaced=(6,))
    d = decision(state)
    assert d.default.type == "place_die" and d.default.args["card"] == "legatus"


def test_after_placing_with_no_usable_card_the_turn_ends_by_itself():
    state = placement_state(dice={RED: [1, 2, 3, 4]}, order=[RED, BLUE, YELLOW])
    state, events = place(state, RED, 1, "senate")
    assert events[-1].type == "TurnEnded" and state.turn_seat == BLUE


def test_after_placing_a_player_with_a_usable_card_may_still_activate_it():
    state = placement_state(dice={RED: [1, 2, 3, 4]}, order=[RED, BLUE, YELLOW],
                            p0={"provinces": ("latium",), "senate": ("quaestor_1",)})
    state, events = place(state, RED, 1, "senate")
    d = decision(state)
    assert d.seat == RED and d.id.startswith("after:") and d.default.type == "end_turn"
    state, _ = act(state, RED, "activate_card", card="quaestor_1", provinces=["latium"], value=2)
    assert state.player(RED).unplaced == (3, 4, 5)
    assert state.turn_seat == BLUE  # nothing left to activate: the turn ended by itself


def test_placement_ends_when_all_dice_are_placed():
    state = placement_state(dice={RED: [1], BLUE: [2], YELLOW: [3]}, order=[RED, BLUE, YELLOW])
    for s in (RED, BLUE, YELLOW):
        state = state.with_player(s, unplaced=((1, 2, 3)[s],))
    for s, v in ((RED, 1), (BLUE, 2), (YELLOW, 3)):
        state, events = place(state, s, v, "senate")
    assert "PlacementFinished" in [e.type for e in events]
    assert state.phase != "placement"


def test_illegal_placement_is_refused_by_the_kernel_too():
    state = placement_state(dice={RED: [1, 2, 3, 4]}, tracks={"military": [(RED, [2])]})
    with pytest.raises(IllegalCommand):
        act(state, RED, "place_die", value=4, track="military")
    assert flow.placements(state, RED)


def test_examples_played_from_a_scripted_roll():
    """The pushing examples (p. 3) through the whole flow: roll, order, three placements."""
    from rom_support import new_game, roll

    state = new_game(3)
    state, events = roll(state, {RED: [2, 5, 5, 5], BLUE: [1, 5, 5, 6], YELLOW: [1, 6, 6, 6]},
                         tiebreak=[RED, BLUE, YELLOW])
    assert find(events, "TurnOrderDetermined").data["order"] == [RED, BLUE, YELLOW]
    state, _ = place(state, RED, 2, "senate")
    state, _ = place(state, BLUE, 1, "senate")
    assert track(state, "senate") == [(BLUE, [1]), (RED, [2])]
    state, _ = place(state, YELLOW, 1, "senate")
    assert track(state, "senate") == [(BLUE, [1]), (YELLOW, [1]), (RED, [2])]
    assert decision(state).seat == RED
