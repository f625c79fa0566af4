"""Setting up: the shuffle as chance, the counts per number of seats, the secret start hands."""

from __future__ import annotations

import pytest

from engine.core.errors import BadArguments, RuleViolation
from engine.core.types import SYSTEM_SEAT, Command
from engine.pax import errors
from engine.pax.card_set import load_card_set
from engine.pax.rules import RULES
from engine.pax.state import card_count, symbols
from pax_builders import cmd, only, play, types

DECK = load_card_set().cards


def resolve(state, *, start=0, deck=None, second=None):
    request = RULES.pending(state).chance
    outcome = {"deck": deck if deck is not None else list(range(request.draws["deck"].n))}
    if "second_deck" in request.draws:
        outcome["second_deck"] = second if second is not None else list(range(74))
    if "start" in request.draws:
        outcome["start"] = start
    return play(state, Command(SYSTEM_SEAT, "resolve_chance", {"id": request.id, "outcome": outcome}))


def set_up(seats, start=0, **options):
    return resolve(RULES.initial_state(seats, options), start=start)


def keep_first_everywhere(state):
    for d in RULES.pending(state).decisions:
        state, _ = play(state, d.default)
    return state


@pytest.mark.parametrize("seats, aside, legions, total", [(2, 20, 3, 74), (3, 10, 4, 74), (4, 0, 5, 74)])
def test_two_to_four_players_set_aside_unseen_cards(seats, aside, legions, total):
    state, _ = set_up(seats)
    assert len(state.set_aside) == aside
    assert len(state.legions) == legions
    assert len(state.rome_hidden) == 3 and state.rome_open == ()
    assert state.total_cards == card_count(state) == total
    assert state.gold == (5,) * seats


@pytest.mark.parametrize("seats", [5, 6, 7, 8])
def test_five_to_eight_players_add_random_cards_of_a_second_deck(seats):
    state, events = set_up(seats)
    extra = 15 * (seats - 4)
    assert state.total_cards == card_count(state) == 74 + extra
    assert len(state.legions) == seats + 1
    assert len(state.rome_open) == 3 and len(state.rome_hidden) == 3
    assert state.set_aside == ()
    drawn = {e.data["seat"]: len(e.data["cards"]) for e in only(events, "StartCardsDrawn")}
    assert [drawn[s] for s in range(seats)] == [2, 3, 4, 5] + [5] * (seats - 4)
    every_id = [c.id for c in state.deck] + [c.id for p in state.limbo for c in p] + \
        [c.id for c in state.rome_open + state.rome_hidden]
    assert len(set(every_id)) == len(every_id)
    assert sum(i.startswith("b") for i in every_id) == extra
    rome = only(events, "RomeDealt")[0]
    for viewer in (None, 0, seats - 1):
        shown = RULES.visible(rome, viewer)
        assert shown == {"type": "RomeDealt", "open": [c.to_json() for c in state.rome_open], "hidden_count": 3}


def test_the_second_deck_shuffle_chooses_which_extra_cards_play():
    state = RULES.initial_state(5, {})
    second = list(range(73, -1, -1))  # the last 15 cards of the second copy come first
    state, _ = resolve(state, second=second)
    everywhere = [c for c in state.deck] + [c for p in state.limbo for c in p] + list(state.rome_open + state.rome_hidden)
    extras = sorted(c.id for c in everywhere if c.id.startswith("b"))
    assert extras == sorted("b" + c.id for c in DECK[-15:])


def test_start_player_is_picked_by_chance_and_draws_two_then_clockwise_one_more():
    state, events = set_up(4, start=2)
    assert state.start_seat == 2
    drawn = [(e.data["seat"], len(e.data["cards"])) for e in only(events, "StartCardsDrawn")]
    assert drawn == [(2, 2), (3, 3), (0, 4), (1, 5)]
    # Rome's hidden cards come off the deck first, then the start hands
    assert [c.id for c in state.rome_hidden] == [c.id for c in DECK[:3]]
    assert [c.id for c in state.limbo[2]] == [c.id for c in DECK[3:5]]


def test_chance_outcome_is_checked():
    state = RULES.initial_state(2, {})
    with pytest.raises(BadArguments):
        RULES.decide(state, Command(SYSTEM_SEAT, "resolve_chance", {"id": "setup", "outcome": {"deck": [0, 0], "start": 0}}))
    with pytest.raises(BadArguments):
        RULES.decide(state, Command(SYSTEM_SEAT, "resolve_chance", {"id": "other", "outcome": {}}))
    assert RULES.pending(state).chance.to_json()["draws"] == {
        "deck": {"kind": "shuffle", "n": 74}, "start": {"kind": "pick", "n": 2}}


def test_nobody_sees_the_permutation():
    state = RULES.initial_state(3, {})
    _, events = resolve(state)
    setup_event = events[0]
    assert setup_event.type == "GameSetUp" and "outcome" in setup_event.data
    for viewer in (None, 0, 1, 2):
        shown = RULES.visible(setup_event, viewer)
        assert "outcome" not in shown and shown["type"] == "GameSetUp"


def test_keeping_a_start_card_is_a_simultaneous_secret_decision():
    state, _ = set_up(3)
    decisions = RULES.pending(state).decisions
    assert sorted(d.seat for d in decisions) == [0, 1, 2]
    assert {d.mode for d in decisions} == {"simultaneous"}
    assert {d.group for d in decisions} == {"setup-keep"}
    assert {d.id for d in decisions} == {"keep:0", "keep:1", "keep:2"}
    assert all(d.default == d.options[0] for d in decisions)

    chosen = state.limbo[1][2]
    deck_before = state.deck
    state, events = play(state, cmd(1, "keep_card", card=chosen.id))
    assert types(events) == ["StartCardChosen"]
    # nothing is revealed or moved while others still choose
    assert state.deck == deck_before and state.hands[1] == ()
    assert RULES.visible(events[0], 0) == {"type": "StartCardChosen", "seat": 1}
    assert RULES.visible(events[0], None) == {"type": "StartCardChosen", "seat": 1}
    assert RULES.visible(events[0], 1)["card"] == chosen.id
    assert sorted(d.seat for d in RULES.pending(state).decisions) == [0, 2]
    with pytest.raises(errors.AlreadyChosen):
        RULES.decide(state, cmd(1, "keep_card", card=state.limbo[1][0].id))


def test_start_cards_are_pushed_under_together_in_order_from_the_start_player():
    state, _ = set_up(3, start=1)
    limbo = state.limbo
    deck_len = len(state.deck)
    state, events = play(state, cmd(0, "keep_card", card=limbo[0][0].id),
                         cmd(2, "keep_card", card=limbo[2][1].id),
                         cmd(1, "keep_card", card=limbo[1][0].id))
    kept = only(events, "StartCardsKept")[0]
    assert [e["seat"] for e in kept.data["entries"]] == [1, 2, 0]
    pushed = [i for e in kept.data["entries"] for i in e["pushed"]]
    assert len(pushed) == (2 - 1) + (3 - 1) + (4 - 1)
    assert [c.id for c in state.deck[-len(pushed):]] == pushed
    assert state.hands == ((limbo[0][0],), (limbo[1][0],), (limbo[2][1],))
    # others learn how many cards went back, never which
    assert RULES.visible(kept, 0)["entries"][0] == {"seat": 1, "pushed_count": 1}
    # then one open card under every legion, and the start player begins
    assert types(events)[-4:] == ["StartCardsKept", "RoundStarted", "LegionsRefilled", "TurnStarted"]
    assert all(len(l) == 1 for l in state.legions)
    assert len(state.deck) == deck_len + len(pushed) - 4
    assert state.active_seat == 1 and state.round == 1 and state.step == "choose"


def test_keep_card_must_name_one_of_the_drawn_cards():
    state, _ = set_up(2)
    with pytest.raises(errors.CardNotAvailable):
        RULES.decide(state, cmd(0, "keep_card", card=state.limbo[1][0].id))
    with pytest.raises(errors.BadSetupChoice):
        RULES.decide(state, cmd(0, "keep_card", card=state.limbo[0][0].id, push=state.limbo[0][1].id))


@pytest.mark.parametrize("level, dealt, lays", [(1, 2, 0), (2, 2, 0), (3, 3, 1), (4, 4, 2), (5, 5, 3)])
def test_solo_start_hands_per_level(level, dealt, lays):
    state, _ = set_up(1, solo_level=level)
    assert len(state.legions) == 3 and len(state.set_aside) == 30 and len(state.rome_hidden) == 3
    assert state.gold == (5,) and len(state.limbo[0]) == dealt
    options = RULES.pending(state).decisions[0].options
    if lays:
        assert len(options) == dealt * (dealt - 1)
        assert all(set(o.args) == {"card", "push"} for o in options)
    else:
        assert len(options) == 2 and all(set(o.args) == {"card"} for o in options)
    state, events = play(state, options[0])
    assert len(state.tableaux[0]) == lays
    assert all(e.data["cost"] == 0 and e.data["during"] == "setup" for e in only(events, "CardLaid"))
    assert len(state.hands[0]) == 1 and state.gold == (5,)


def test_solo_start_lays_ignore_the_army_and_fleet_limit():
    state = RULES.initial_state(1, {"solo_level": 5})
    # order the deck so that the five dealt cards are 3 armies, 2 fleets
    index = {c.id: i for i, c in enumerate(DECK)}
    armies = [c.id for c in DECK if c.category == "army"][:3]
    fleets = [c.id for c in DECK if c.category == "fleet"][:2]
    first = [index[i] for i in ["L01", "L02", "L03", *fleets, *armies]]  # 3 hidden Rome ... then dealt
    rest = [i for i in range(74) if i not in first]
    # 30 set aside come first, then Rome's 3, then the 5 dealt
    order = rest[:30] + first + rest[30:]
    state, _ = resolve(state, deck=order)
    assert [c.category for c in state.limbo[0]] == ["fleet", "fleet", "army", "army", "army"]
    keep, push = state.limbo[0][0].id, state.limbo[0][1].id  # keep a fleet, push a fleet
    state, _ = play(state, cmd(0, "keep_card", card=keep, push=push))
    assert symbols(state.tableaux[0], "army") >= 3 and symbols(state.tableaux[0], "land") == 0


def test_solo_has_no_peek_and_draws_at_once():
    state, _ = set_up(1)
    state = keep_first_everywhere(state)
    assert state.step == "draw" and len(state.limbo[0]) == 1
    with pytest.raises(RuleViolation):
        RULES.decide(state, cmd(0, "peek_rome"))


@pytest.mark.parametrize("options, seats", [({"solo_level": 2}, 2), ({}, 9), ({}, 0), ({"solo_level": 6}, 1),
                                             ({"colour": "red"}, 2)])
def test_bad_options_or_seat_counts_are_refused(options, seats):
    with pytest.raises(BadArguments):
        RULES.initial_state(seats, options)


def test_options_schema_and_seat_counts():
    schema = RULES.options_schema()
    assert set(schema["properties"]) == {"solo_level", "card_set"}
    assert list(RULES.seat_counts({})) == list(range(1, 9))
    assert list(RULES.seat_counts({"solo_level": 3})) == [1]
    assert RULES.name == "pax" and RULES.title == "PAX" and RULES.rules_version
