"""Random playouts for 2, 3 and 4 players: to the end, with invariants, replay and leak checks."""

from __future__ import annotations

import json
import pickle
import random

import pytest
from rom_support import stored

from engine.core import schema as schema_mod
from engine.core.game import replay, step
from engine.core.playout import play_out, resolve_chance_command
from engine.rom.rules import RULES
from engine.rom.state import State


def strings(value) -> set[str]:
    """Every string anywhere in a JSON value (keys included)."""
    out: set[str] = set()
    if isinstance(value, str):
        out.add(value)
    elif isinstance(value, dict):
        for k, v in value.items():
            out.add(str(k))
            out |= strings(v)
    elif isinstance(value, (list, tuple)):
        for v in value:
            out |= strings(v)
    return out


class Watcher:
    """Checks every step of a game: invariants, and that nothing hidden leaks."""

    def __init__(self, state: State):
        self.start = state
        self.blind: dict[int, set[str]] = {s: set() for s in range(state.seats)}
        self.vp = [0] * state.seats
        cards = state.cards
        self.provinces = set(state.in_game_provinces)
        self.senate = set(state.senate_in_game)
        self.arena = {a.id for a in cards.arena}

    def hidden_from(self, state: State, viewer, *, hands: bool) -> set[str]:
        hidden = set(state.province_deck) | set(state.senate_deck) | set(state.arena_deck)
        for seat, player in enumerate(state.players):
            if seat == viewer:
                continue
            hidden |= self.blind[seat] & set(player.arena)
            if hands:
                hidden |= set(player.arena)
            if player.arena_set is not None:
                hidden |= set(player.arena_set)
        return hidden

    def __call__(self, state: State, command, events) -> None:
        for event in events:
            if event.type == "HiddenArenaCardBought":
                self.blind[event.data["seat"]].add(event.data["card"])
            if event.type == "ArenaSetsRevealed":
                for seat_key, cards in event.data["sets"].items():
                    self.blind[int(seat_key)] -= set(cards)
        self.check_invariants(state)
        decisions = RULES.pending(state).decisions
        for viewer in [None, *range(state.seats)]:
            hidden_all = self.hidden_from(state, viewer, hands=True)
            leaked = strings(RULES.view(state, viewer)) & hidden_all
            assert not leaked, ("view", viewer, leaked)
            hidden = self.hidden_from(state, viewer, hands=False)
            for event in events:
                shown = RULES.visible(event, viewer)
                json.dumps(shown)
                leaked = strings(shown) & hidden
                assert not leaked, (event.type, viewer, leaked)
            for decision in decisions:
                if decision.seat != viewer:
                    assert not strings(decision.to_json(with_options=False)) & hidden_all
        self.check_decisions(state)

    def check_invariants(self, state: State) -> None:
        cards = state.cards
        places = [set(state.province_deck), set(state.province_row), set(state.removed) & self.provinces]
        places += [set(p.provinces) for p in state.players]
        assert sum(len(p) for p in places) == len(self.provinces) and set().union(*places) == self.provinces
        places = [set(state.senate_deck), set(state.senate_row), set(state.removed) & self.senate]
        places += [set(p.senate) for p in state.players]
        assert sum(len(p) for p in places) == len(self.senate) and set().union(*places) == self.senate
        places = [set(state.arena_deck), set(state.arena_row), set(state.removed) & self.arena]
        places += [set(p.arena) for p in state.players]
        assert sum(len(p) for p in places) == len(self.arena) and set().union(*places) == self.arena
        for seat, player in enumerate(state.players):
            assert all(0 <= v <= m for v, m in zip(player.forum, cards.forum_max))
            assert player.vp >= self.vp[seat]
            self.vp[seat] = player.vp
            placed = sum(len(g.dice) for t in state.tracks for g in t if g.seat == seat)
            assert len(player.unplaced) + placed <= cards.dice_per_player
            assert all(1 <= v <= 6 for v in player.unplaced)
        for t in state.tracks:
            assert len(t) <= cards.sections
            assert len({g.seat for g in t}) == len(t)
            assert all(0 <= v <= 6 for g in t for v in g.dice)
        assert len(state.province_row) <= state.track_cards() and len(state.senate_row) <= state.track_cards()

    def check_decisions(self, state: State) -> None:
        pending = RULES.pending(state)
        if RULES.outcome(state) is not None:
            assert pending.decisions == () and pending.chance is None
            return
        assert (pending.chance is None) != (not pending.blocking)
        for decision in pending.decisions:
            if decision.options is not None:
                assert decision.default in decision.options, decision.id
                assert len(set(map(repr, decision.options))) == len(decision.options), decision.id
                places = [o for o in decision.options if o.type == "place_die"]
                if places:
                    assert len(decision.context["placements"]) == len(places)
                    assert decision.default.type == "place_die"
            else:
                schema_mod.validate(decision.schema, dict(decision.default.args))
            json.dumps(decision.to_json())


def play(seats: int, seed: int, **options):
    start = RULES.initial_state(seats, options)
    watcher = Watcher(start)
    state, log = play_out(RULES, start, random.Random(seed), on_step=watcher)
    return start, state, log


CASES = [(seats, seed, intrigue) for seats in (2, 3, 4) for seed in range(4) for intrigue in (False, True)]


@pytest.mark.parametrize("seats,seed,intrigue", CASES)
def test_random_playout_ends_replays_and_leaks_nothing(seats, seed, intrigue):
    start, state, log = play(seats, seed, variant_intrigue=intrigue)
    outcome = RULES.outcome(state)
    assert outcome is not None and outcome.winners and sorted(outcome.ranking) == list(range(seats))
    assert state.round == 5 and state.phase == "over"
    assert sum(1 for e in log if e.type == "ForumScored") == 2
    assert sum(1 for e in log if e.type == "ArenaSetsRevealed") == 2
    # Replay from the stored (JSON) form gives the same state, and states pickle.
    assert replay(RULES, start, stored(log)) == state
    assert pickle.loads(pickle.dumps(state)) == state
    json.dumps(RULES.view(state, None))
    json.dumps(outcome.to_json())


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_a_game_of_deadline_defaults_ends(seats):
    """Everyone lets every deadline pass: the defaults alone finish the game, and no default
    wastes a die that could be placed."""
    rng = random.Random(seats)
    state = RULES.initial_state(seats, {})
    placed = passed = 0
    for _ in range(5000):
        if RULES.outcome(state) is not None:
            break
        command = resolve_chance_command(RULES, state, rng.randrange)
        if command is None:
            decision = RULES.pending(state).blocking[0]
            command = decision.default
        state, events = step(RULES, state, command)
        placed += sum(1 for e in events if e.type == "PowerDiePlaced")
        passed += sum(len(e.data["forfeited"]) for e in events if e.type == "PlacementPassed")
    assert RULES.outcome(state) is not None
    assert placed + passed == 5 * seats * 4


def test_custom_deck_and_two_players_play_through():
    cards = RULES.initial_state(2, {}).cards
    deck = [c.id for c in cards.senate if not c.two_player_removed and not c.intrigue]
    deck = [c for c in deck if c not in ("vicarius", "tribunus")] + ["vicarius_intrigue", "tribunus_intrigue"]
    assert len(deck) == 15
    start, state, _ = play(2, 7, custom_deck=deck)
    assert RULES.outcome(state) is not None
    assert set(state.senate_in_game) == set(deck)
