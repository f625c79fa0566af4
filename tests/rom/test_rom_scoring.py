"""Phase 4 (forum and arena, p. 6), cleanup (p. 7) and the end of the game (p. 7)."""

from __future__ import annotations

from dataclasses import replace

import pytest
from rom_support import BLUE, RED, YELLOW, act, decision, find, new_game, settle

from engine.core.types import Command
from engine.rom import flow, scoring
from engine.rom.errors import ArenaSetTooSmall, NotInHand
from engine.rom.rules import RULES


def scoring_state(seats=4, round_=3, **players):
    state = new_game(seats)
    state = replace(state, round=round_, phase="scoring", province_row=(), senate_row=(), arena_row=())
    for key, changes in players.items():
        state = state.with_player(int(key[1:]), **changes)
    return state


def arena_cards(state, ids):
    return [state.cards.arena_card(i) for i in ids]


# ---------------------------------------------------------------- forum


def test_example_forum_scoring():
    """"Olive track: Blue gets 4 VP (1 for having the resource, 3 for three players behind
    him).  Purple gets 3, Red 2 and Yellow none, having no olives.  Wine: Purple and Blue 3
    each, Yellow 2, Red none.  Jewels: Purple and Red 3 each, Yellow and Blue none." """
    olive = [1, 4, 0, 3]   # Red, Blue, Yellow, Purple
    wine = [0, 3, 1, 3]
    jewel = [2, 0, 0, 2]
    assert scoring.forum_points(olive) == [2, 4, 0, 3]
    assert scoring.forum_points(wine) == [0, 3, 2, 3]
    assert scoring.forum_points(jewel) == [3, 0, 0, 3]
    state = scoring_state(p0={"forum": (1, 0, 2)}, p1={"forum": (4, 3, 0)}, p2={"forum": (0, 1, 0)},
                          p3={"forum": (3, 3, 2)})
    state = settle(state)
    assert [p.vp for p in state.players] == [2 + 0 + 3, 4 + 3 + 0, 0 + 2 + 0, 3 + 3 + 3]


def test_scoring_happens_after_rounds_three_and_five_only():
    state = new_game(3)
    assert state.cards.scoring_rounds == (3, 5)
    state = replace(state, round=2, phase="resolution", tracks=((), (), ()))
    state = settle(state)
    assert state.round == 3 and state.scores_log == ()


@pytest.mark.parametrize("card,province,track", [("africanus_maximus", "latium", 1),
                                                 ("hispania_maximus", "etruria", 1)])
def test_forum_scoring_cards_advance_a_marker_on_a_free_province(card, province, track):
    """Africanus Maximus: "When you score the wine track, lay this card on a wine province
    (exhausting both) to advance your marker on the wine track one space." (Hispania
    Maximus: laid on an olive province while the olives are scored, it too advances the
    wine marker, as printed.)"""
    state = scoring_state(seats=3, round_=5, p0={"senate": (card,), "provinces": (province,), "forum": (1, 1, 0)})
    state = settle(state)
    forum = [1, 1, 0]
    forum[track] += 1
    assert state.player(RED).forum == tuple(forum)
    assert card in state.exhausted_senate and province in state.exhausted_provinces
    # An exhausted province cannot carry it.
    state = scoring_state(seats=3, p0={"senate": (card,), "provinces": (province,), "forum": (1, 1, 0)})
    state = settle(replace(state, exhausted_provinces=frozenset({province})))
    assert state.player(RED).forum == (1, 1, 0)


def test_hispania_maximus_advances_the_wine_marker_as_printed():
    """Hispania Maximus (p. 8): "Wertung: Wenn du die Forumsleiste Oliven wertest, lege diese
    Karte auf eine Olivenprovinzkarte (wodurch beide erschöpft werden), um deinen Marker auf
    der Weinleiste ein Feld vorzurücken." -- the card text wins (golden rule, p. 4): the olive
    marker stays, the wine marker moves, and the wine track is scored with it moved."""
    state = scoring_state(seats=3, p0={"senate": ("hispania_maximus",), "provinces": ("etruria",),
                                       "forum": (1, 1, 0)},
                          p1={"forum": (1, 2, 0)}, p2={"forum": (0, 0, 0)})
    assert state.province("etruria").resource == "olive"
    state, events = flow.settle(state)
    moved = find(events, "ForumMarkerAdvanced").data
    assert moved == {"seat": RED, "card": "hispania_maximus", "province": "etruria", "resource": "wine", "steps": 1}
    assert state.player(RED).forum == (1, 2, 0)
    # Wine: Red (2) and Blue (2) share the lead over Yellow: 1 + 1 each, Yellow none.
    points = find(events, "ForumScored").data["points"]
    assert points["wine"] == {"0": 2, "1": 2, "2": 0}
    # Without an olive province the card cannot be laid, a wine province does not do.
    state = scoring_state(seats=3, p0={"senate": ("hispania_maximus",), "provinces": ("latium",),
                                       "forum": (0, 1, 0)})
    assert settle(state).player(RED).forum == (0, 1, 0)


# ---------------------------------------------------------------- arena


def test_arena_ranks_from_the_table():
    cards = new_game(3).cards

    def rank(*ids):
        found = scoring.arena_rank([cards.arena_card(i) for i in ids], cards.ranks)
        return found and found.id

    assert rank("gladiator_1", "gladiator_2") is None
    assert rank("gladiator_1", "gladiator_2", "gladiator_3") == "any_three"
    assert rank("gladiator_1", "murmillo_1", "retiarius_1") == "three_different"
    assert rank("gladiator_1", "lion_1", "gaul_1") == "one_of_each_type"
    assert rank("lion_1", "bear_1", "wolf_1") == "three_different_of_a_type"
    assert rank("gaul_1", "thracian_1", "briton_1") == "three_different_of_a_type"
    assert rank("lion_1", "lion_2", "bear_1") == "any_three"  # two lions are not different
    assert rank("gaul_1", "briton_1", "gladiator_1", "gladiator_2", "murmillo_1") == "great_battle"
    assert rank("gaul_1", "gaul_2", "gladiator_1", "gladiator_2", "murmillo_1") == "three_different"
    assert [r.vp for r in cards.ranks] == sorted(r.vp for r in cards.ranks)


def test_arena_sets_are_hidden_until_all_have_chosen():
    """"Each player may lay one set of 3 or more arena cards face down, or pass.  When all
    have laid a set or passed, the cards are revealed." """
    state = scoring_state(seats=3, p0={"arena": ("lion_1", "bear_1", "wolf_1")},
                          p1={"arena": ("gaul_1", "gladiator_1", "tiger_1", "wolf_2")}, p2={"arena": ("lion_2",)})
    state = settle(state)
    pending = RULES.pending(state)
    assert {d.seat for d in pending.decisions} == {RED, BLUE}  # Yellow holds fewer than 3 cards
    assert all(d.mode == "simultaneous" and d.group == "arena:3" for d in pending.decisions)
    state, events = act(state, RED, "submit_arena_set", cards=["lion_1", "bear_1", "wolf_1"])
    submitted = find(events, "ArenaSetSubmitted")
    for viewer in (BLUE, YELLOW, None):
        assert "lion_1" not in str(RULES.visible(submitted, viewer))
        assert "lion_1" not in str(RULES.view(state, viewer))
        assert RULES.view(state, viewer)["players"][RED]["arena_set"] == "submitted"
    assert RULES.view(state, RED)["you"]["arena_set"] == ["lion_1", "bear_1", "wolf_1"]
    state, events = act(state, BLUE, "submit_arena_set", cards=["gaul_1", "gladiator_1", "tiger_1"])
    revealed = find(events, "ArenaSetsRevealed")
    assert revealed.data["sets"] == {"0": ["lion_1", "bear_1", "wolf_1"], "1": ["gaul_1", "gladiator_1", "tiger_1"]}
    assert revealed.data["ranks"] == {"0": "three_different_of_a_type", "1": "one_of_each_type"}
    assert revealed.data["points"] == {"0": 7 + 1, "1": 5} and revealed.data["best"] == RED
    assert state.player(RED).arena == () and state.player(BLUE).arena == ("wolf_2",)  # used cards are removed
    assert {"lion_1", "gaul_1"} <= set(state.removed)


def test_arena_set_rules_are_enforced():
    state = settle(scoring_state(seats=3, p0={"arena": ("lion_1", "bear_1", "wolf_1")}))
    with pytest.raises(ArenaSetTooSmall):
        RULES.decide(state, Command(RED, "submit_arena_set", {"cards": ["lion_1", "bear_1"]}))
    with pytest.raises(NotInHand):
        RULES.decide(state, Command(RED, "submit_arena_set", {"cards": ["lion_1", "bear_1", "gaul_1"]}))
    state, events = act(state, RED, "submit_arena_set", cards=[])  # passing
    assert find(events, "ArenaSetsRevealed").data["sets"] == {}
    assert state.player(RED).arena == ("lion_1", "bear_1", "wolf_1")


def test_arena_default_shows_the_best_set():
    state = settle(scoring_state(seats=3, p0={"arena": ("gladiator_1", "gladiator_2", "gaul_1", "briton_1",
                                                        "murmillo_1", "lion_1")}))
    d = decision(state, RED)
    assert sorted(d.default.args["cards"]) == ["briton_1", "gaul_1", "gladiator_1", "gladiator_2", "murmillo_1"]


def test_best_performance_ties_go_to_the_dearer_set_then_to_nobody():
    """"On a tie the tied player whose arena cards were more expensive gets the bonus VP.  If
    still tied, nobody gets it." """
    assert scoring.best_performance({0: (3, 10), 1: (3, 12), 2: (1, 20)}) == 1
    assert scoring.best_performance({0: (3, 12), 1: (3, 12)}) is None
    state = scoring_state(seats=3, p0={"arena": ("lion_1", "gladiator_1", "gaul_1")},
                          p1={"arena": ("lion_2", "gladiator_2", "gaul_2")})
    state = settle(state)
    state, _ = act(state, RED, "submit_arena_set", cards=["lion_1", "gladiator_1", "gaul_1"])
    state, events = act(state, BLUE, "submit_arena_set", cards=["lion_2", "gladiator_2", "gaul_2"])
    revealed = find(events, "ArenaSetsRevealed")
    assert revealed.data["best"] is None and revealed.data["points"] == {"0": 5, "1": 5}


def test_intrigue_greko_maximus_adds_a_vp_and_a_rank_for_the_best_performance():
    """"You get 1 extra VP for your performance in the arena, and your rank counts one higher
    when the best performance is determined." """
    state = scoring_state(seats=3, p0={"arena": ("lion_1", "gladiator_1", "gaul_1"),
                                       "senate": ("greko_maximus_intrigue",)},
                          p1={"arena": ("lion_2", "bear_1", "wolf_1")})
    state = settle(state)
    state, _ = act(state, RED, "submit_arena_set", cards=["lion_1", "gladiator_1", "gaul_1"])
    state, events = act(state, BLUE, "submit_arena_set", cards=["lion_2", "bear_1", "wolf_1"])
    revealed = find(events, "ArenaSetsRevealed")
    # Red: rank 3 (+1 = 4) ties Blue's rank 4; Red's set costs 4+2+3=9, Blue's 4+3+2=9: nobody.
    assert revealed.data["points"] == {"0": 5 + 1, "1": 7} and revealed.data["best"] is None


# ---------------------------------------------------------------- cleanup


def test_cleanup_removes_the_cards_left_and_lays_out_new_ones():
    """"All cards still under the tracks are removed from the game.  Then new cards are laid
    out as at setup." (Not after the last round.)"""
    state = new_game(3)
    old = (state.province_row, state.senate_row, state.arena_row)
    state = replace(state, phase="cleanup")
    state = settle(state)
    assert state.round == 2 and state.phase == "roll"
    assert set(old[0]) | set(old[1]) | set(old[2]) <= set(state.removed)
    assert len(state.province_row) == 4 and state.province_row[0] not in old[0]


def test_the_game_ends_after_round_five_without_cleanup():
    state = scoring_state(seats=3, round_=5)
    state = settle(state)
    assert state.phase == "over" and RULES.outcome(state) is not None


# ---------------------------------------------------------------- end of game


def test_example_region_control_gallia_and_greko():
    """"Gallia: Red and Blue control one province each, Red's with strength 9, Blue's with 7.
    Red gets 2 VP.  Greko: Yellow and Red are tied (7 + 7 = 9 + 5).  Both get 1 VP." """
    cards = new_game(4).cards
    holdings = [("gallia_comata", "thracia", "epirus"), ("gallia_narbonensis",), ("macedonia", "achaea"), ()]
    points = scoring.region_points(cards, holdings, [p.id for p in cards.provinces])
    assert points["gallia"] == {RED: 2}
    assert points["greko"] == {RED: 1, YELLOW: 1}


def test_controlling_every_province_of_a_region_gives_three():
    cards = new_game(4).cards
    holdings = [("latium", "etruria", "sicilia"), ("cyrenaica",), (), ()]
    points = scoring.region_points(cards, holdings, [p.id for p in cards.provinces])
    assert points["italia"] == {RED: 3} and points["aegyptus"] == {BLUE: 2}


def test_end_of_game_senate_cards():
    state = scoring_state(seats=3, round_=5, p0={
        "provinces": ("etruria", "achaea", "sicilia", "latium", "epirus"),  # arena 2, camp 1, villa 2
        "senate": ("ludi_maximus", "imperator", "praetor", "asianus", "greko_maximus")})
    state = settle(state)
    scored = [s for s in RULES.view(state, None)["scoring"] if s["event"] == "SenateCardsScored"]
    mine = scored[0]["points"]["0"]
    assert mine["ludi_maximus"] == 4 and mine["imperator"] == 2 and mine["praetor"] == 4
    assert mine["asianus"] == 2  # Italia and Greko
    # Senate symbols: arena, camp, villa, villa, camp vs provinces arena 2, camp 1, villa 2 -> 4 pairs.
    assert mine["greko_maximus"] == 4


def test_winner_by_vp_then_provinces_then_arena_cost_then_shared():
    """"The player with the most VP wins.  On a tie, the tied player with more province cards.
    If still tied, the higher total cost of arena cards in hand.  If still tied, they share." """
    assert scoring.ranking({0: (10, 2, 0), 1: (12, 0, 0), 2: (3, 9, 9)})[0] == (1,)
    assert scoring.ranking({0: (10, 2, 0), 1: (10, 3, 0)})[0] == (1,)
    assert scoring.ranking({0: (10, 3, 7), 1: (10, 3, 5)})[0] == (0,)
    assert scoring.ranking({0: (10, 3, 7), 1: (10, 3, 7), 2: (1, 1, 1)})[0] == (0, 1)
    state = scoring_state(seats=3, round_=5, p0={"vp": 10, "provinces": ("latium",)},
                          p1={"vp": 10, "provinces": ("cyrenaica",), "arena": ("wolf_1",)})
    state = settle(state)
    outcome = RULES.outcome(state)
    assert outcome.winners == (BLUE,) and outcome.ranking[0] == BLUE
    assert state.phase == "over"


def test_two_player_games_do_not_score_hispania_and_asia():
    state = new_game(2)
    holdings = [("tarraconensis", "latium"), ()]
    points = scoring.region_points(state.cards, holdings, state.in_game_provinces)
    assert "hispania" not in points and points["italia"] == {RED: 2}


def test_a_province_left_unconquered_prevents_three_vp():
    cards = new_game(4).cards
    in_game = [p.id for p in cards.provinces]
    points = scoring.region_points(cards, [("cyrenaica", "alexandria"), (), (), ()], in_game)
    assert points["aegyptus"] == {RED: 3}
    points = scoring.region_points(cards, [("gallia_comata", "gallia_narbonensis"), (), (), ()], in_game)
    assert points["gallia"] == {RED: 2}  # Gallia Cisalpina was never conquered


def test_forum_scoring_cards_are_not_used_at_the_top_of_the_track():
    state = scoring_state(seats=3, round_=5, p0={"senate": ("africanus_maximus",), "provinces": ("latium",),
                                                 "forum": (0, 6, 0)})
    state = settle(state)
    assert state.player(RED).forum == (0, 6, 0) and "latium" not in state.exhausted_provinces
