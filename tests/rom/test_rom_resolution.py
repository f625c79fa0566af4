"""Phase 3: resolving the tracks -- military, senate, black market (p. 5)."""

from __future__ import annotations

from dataclasses import replace

import pytest
from rom_support import BLUE, RED, YELLOW, Group, act, decision, find, options, placement_state, settle, types

from engine.core.types import Command
from engine.rom.errors import LegionTooWeak, OverBudget, WrongSenatePick
from engine.rom.rules import RULES


def resolution(tracks, seats=3, hold=True, **kw):
    """A state in Phase 3.  With ``hold``, Purple waits last on the black market with a card
    to buy, so the round does not run on into cleanup while a test looks at it."""
    state = placement_state(seats=seats)
    if hold:
        state = placement_state(seats=4)
        tracks = {**tracks, "black_market": list(tracks.get("black_market", [])) + [(3, [6])]}
        kw["arena_row"] = tuple(kw.get("arena_row", ())) + ("wolf_2",)
    built = [(), (), ()]
    for i, name in enumerate(("military", "senate", "black_market")):
        built[i] = tuple(Group(s, tuple(d)) for s, d in tracks.get(name, []))
    players = tuple(replace(p, unplaced=()) for p in state.players)
    state = replace(state, players=players, phase="resolution", turn_seat=None, tracks=tuple(built), **kw)
    return settle(state)


def test_tracks_resolve_military_senate_black_market_left_to_right():
    """"The tracks are resolved one after the other, starting with military, then senate,
    then black market.  On each track the player in section I resolves first." """
    state = resolution({"military": [(BLUE, [5]), (RED, [6, 2])], "senate": [(YELLOW, [1])],
                        "black_market": [(RED, [6])]}, hold=False,
                       province_row=("epirus", "achaea"), senate_row=("legatus",), arena_row=("lion_1",))
    seen = []
    while state.phase == "resolution":
        d = decision(state)
        seen.append((d.id.split(":")[0], d.seat))
        state, _ = act(state, d.seat, d.default.type, **d.default.args)
    assert seen == [("conquer", BLUE), ("conquer", RED), ("market", RED)]
    assert state.player(YELLOW).senate == ("legatus",)  # the only choice was taken by itself


def test_example_red_conquers_two_provinces_with_strength_12():
    """"Red has 3 dice on the military track with a total of 12.  She can conquer these two
    province cards." (Epirus 5 + Achaea 7.)"""
    state = resolution({"military": [(RED, [6, 4, 2])]}, province_row=("epirus", "achaea", "thracia", "macedonia"))
    d = decision(state)
    choices = [o["provinces"] for o in options(state, RED)]
    assert ["epirus", "achaea"] in choices and ["epirus", "macedonia"] in choices and [] in choices
    assert ["achaea", "macedonia"] not in choices  # 14 > 12
    assert d.default.args == {"provinces": ["epirus", "achaea"]} and d.context["strength"] == 12
    with pytest.raises(LegionTooWeak):
        RULES.decide(state, Command(RED, "conquer_provinces", {"provinces": ["achaea", "macedonia"]}))
    state, events = act(state, RED, "conquer_provinces", provinces=["epirus", "achaea"])
    assert state.player(RED).provinces == ("epirus", "achaea")
    assert state.player(RED).forum == (1, 1, 0)  # olive and wine markers move up
    assert RULES.view(state, None)["map"] == {"epirus": RED, "achaea": RED}  # arches on the map
    assert state.province_row == ("thracia", "macedonia")


def test_forum_tracks_are_capped():
    """"If a player has more resources than the forum track allows, the surplus is lost." """
    state = resolution({"military": [(RED, [6])]}, province_row=("epirus",))
    state = state.with_player(RED, forum=(7, 0, 0))
    state, _ = act(state, RED, "conquer_provinces", provinces=["epirus"])
    assert state.player(RED).forum == (7, 0, 0)


def test_provinces_are_not_refilled_during_the_round():
    """"Only the 4 provinces laid out can be conquered this round; they are not refilled." """
    state = resolution({"military": [(RED, [6, 6, 6]), (BLUE, [6, 6])]}, province_row=("epirus", "achaea"))
    state, _ = act(state, RED, "conquer_provinces", provinces=["epirus", "achaea"])
    assert state.province_row == () and state.player(BLUE).provinces == ()
    assert "military" not in [d.id for d in RULES.pending(state).decisions]


def test_example_senate_cards_one_per_die_left_to_right():
    """"Starting with section I, Yellow takes two senate cards (2 dice): Legatus and Censor.
    Then Blue (section II) takes the two remaining cards.  Red has a die too, but gets no
    card: there are none left!" """
    row = ("legatus", "censor", "consul", "senator")
    state = resolution({"senate": [(YELLOW, [1, 1]), (BLUE, [3, 2]), (RED, [5])]}, senate_row=row)
    d = decision(state)
    assert d.seat == YELLOW and len(d.options) == 6
    with pytest.raises(WrongSenatePick):
        RULES.decide(state, Command(YELLOW, "take_senate_cards", {"cards": ["legatus"]}))
    state, events = act(state, YELLOW, "take_senate_cards", cards=["legatus", "censor"])
    assert state.player(YELLOW).senate == ("legatus", "censor")
    assert state.player(BLUE).senate == ("consul", "senator")  # no choice left: taken by itself
    assert state.player(RED).senate == ()
    assert types(events)[1:3] == ["SenateCardsTaken", "SenateCardsTaken"]


def test_black_market_buys_up_to_the_budget_and_hidden_cards_for_five():
    """"The sum of his dice is his budget ... he may buy arena cards whose costs add up to at
    most his budget.  For 5 coins he may also buy the top hidden card, even several times." """
    state = resolution({"black_market": [(RED, [6, 5, 1])]}, hold=False, arena_row=("elephant_1", "wolf_1"),
                       arena_deck=("lion_1", "bear_1", "gaul_1"))
    d = decision(state)
    assert d.context["budget"] == 12 and d.default.args == {"card": "elephant_1"}
    state, _ = act(state, RED, "buy_hidden_arena_card")
    state, _ = act(state, RED, "buy_hidden_arena_card")
    assert state.player(RED).arena == ("lion_1", "bear_1")
    d = decision(state)
    assert d.context["left"] == 2 and [o.type for o in d.options] == ["buy_arena_card", "leave_black_market"]
    with pytest.raises(OverBudget):
        RULES.decide(state, Command(RED, "buy_arena_card", {"card": "elephant_1"}))
    state, events = act(state, RED, "buy_arena_card", card="wolf_1")
    assert state.player(RED).arena == ("lion_1", "bear_1", "wolf_1")
    assert "BlackMarketLeft" in types(events)  # nothing affordable is left
    assert "elephant_1" in find(events, "RoundCleanedUp").data["removed"]


def test_a_hidden_purchase_is_seen_by_the_buyer_only():
    state = resolution({"black_market": [(RED, [6])]}, arena_row=("elephant_1",), arena_deck=("lion_1",))
    state, events = act(state, RED, "buy_hidden_arena_card")
    bought = find(events, "HiddenArenaCardBought")
    assert RULES.visible(bought, RED)["data"]["card"] == "lion_1"
    for viewer in (BLUE, YELLOW, None):
        assert "lion_1" not in str(RULES.visible(bought, viewer))
        assert "lion_1" not in str(RULES.view(state, viewer))
    assert RULES.view(state, BLUE)["players"][RED]["arena_cards"] == 1


def test_a_player_may_buy_nothing():
    state = resolution({"black_market": [(RED, [6])]}, hold=False, arena_row=("wolf_1",))
    state, events = act(state, RED, "leave_black_market")
    assert state.player(RED).arena == () and state.phase != "resolution"


def test_no_strength_for_any_province_resolves_by_itself():
    state = resolution({"military": [(RED, [1])]}, hold=False, province_row=("epirus",))
    assert state.phase != "resolution" and state.player(RED).provinces == ()
