"""Random playouts: every game ends, invariants hold after every step, replay reproduces the
state, and no view or event ever shows a seat a card it may not know."""

from __future__ import annotations

import json
import pickle
import random
import re

import pytest

from engine.core.errors import RuleViolation
from engine.core.game import match_decision, replay, step
from engine.core.playout import play_out, resolve_chance_command
from engine.core.types import SYSTEM_SEAT, Command
from engine.pax.card_set import load_card_set, second_copy
from engine.pax.rules import RULES
from engine.pax.state import card_count, symbols

CONFIGS = [(1, {"solo_level": level}) for level in (1, 2, 3, 4, 5)] + [(n, {}) for n in range(2, 9)]
SEEDS = (0, 1, 2)
#: every view and event of every step is checked for every viewer in these seeds (the costly part)
LEAK_SEEDS = (0, 1)
BASE = load_card_set().cards
ALL_IDS = frozenset(c.id for c in BASE + second_copy(BASE))
PRIVATE_KEYS = {"hand", "gold", "drawn", "aurei", "price", "cost", "outcome"}


_QUOTED = re.compile(r'"([A-Za-z0-9_-]{1,33})"')


def card_ids_in(value) -> set:
    """Every card id anywhere in a JSON value (as a key or a string)."""
    return set(_QUOTED.findall(json.dumps(value))) & ALL_IDS


class Watcher:
    """Checks everything after each step of a playout."""

    def __init__(self, initial, seats, *, leaks=True):
        self.seats = seats
        self.leaks = leaks
        self.viewers = [None, *range(seats)]
        self.total = 74 + 15 * max(0, seats - 4)
        self.state = initial
        self.public: set = set()
        self.private = {seat: set() for seat in range(seats)}
        self.answered: set = set()
        self.steps = 0

    def on_step(self, state, command, events):
        self.steps += 1
        self._check_decision_ids(command)
        self._check_invariants(state)
        self._learn(state)
        if self.leaks:
            self._check_no_leaks(state, events)
        self._check_pending(state)
        if self.steps % 50 == 0:
            assert pickle.loads(pickle.dumps(state)) == state
        self.state = state

    def _check_decision_ids(self, command):
        if command.seat == SYSTEM_SEAT:
            return
        decision = match_decision(RULES.pending(self.state), command)
        assert decision.id not in self.answered, f"decision id {decision.id} reused"
        self.answered.add(decision.id)

    def _check_invariants(self, state):
        assert card_count(state) == self.total == state.total_cards
        assert all(g >= 0 for g in state.gold)
        intrigue = [symbols(t, "intrigue") for t in state.tableaux]
        if state.primus is None:
            assert max(intrigue) == 0
        else:
            assert intrigue[state.primus] == max(intrigue) > 0
        ids = [c.id for pile in (state.deck, state.set_aside, state.rome_open, state.rome_hidden,
                                 *state.legions, *state.hands, *state.tableaux, *state.limbo) for c in pile]
        assert len(ids) == len(set(ids))

    def _learn(self, state):
        """What each viewer may legitimately know by now."""
        for pile in (*state.legions, *state.tableaux, state.rome_open):
            self.public |= {c.id for c in pile}
        if state.phase == "ended":
            self.public |= {c.id for c in state.rome_hidden}
        for seat in range(self.seats):
            for pile in (state.hands[seat], state.limbo[seat]):
                self.private[seat] |= {c.id for c in pile}
            if seat in state.peeked:
                self.private[seat] |= {c.id for c in state.rome_hidden}

    def _known(self, viewer):
        return self.public if viewer is None else self.public | self.private[viewer]

    def _check_no_leaks(self, state, events):
        spectator = RULES.view(state, None)
        shared = {k: v for k, v in spectator.items() if k not in ("me", "rome")}
        for viewer in self.viewers:
            known = self._known(viewer)
            view = RULES.view(state, viewer)
            # a seat's view differs from the spectator's only in "me" and Rome's hidden cards,
            # so the (large) shared part is scanned once, for the spectator
            assert {k: v for k, v in view.items() if k not in ("me", "rome")} == shared
            scanned = view if viewer is None else {"me": view["me"], "rome": view["rome"]}
            leaked = card_ids_in(scanned) - known
            assert not leaked, f"view for {viewer} shows secret cards {leaked}"
            for player in view["players"]:
                assert not PRIVATE_KEYS & set(player)
            assert (view["me"] is None) if viewer is None else (view["me"]["seat"] == viewer)
            for event in events:
                shown = RULES.visible(event, viewer)
                leaked = card_ids_in(shown) - known
                assert not leaked, f"{event.type} shows {viewer} secret cards {leaked}"
                if event.data.get("seat") != viewer or viewer is None:
                    assert not PRIVATE_KEYS & set(shown), (event.type, viewer, shown)

    def _check_pending(self, state):
        pending = RULES.pending(state)
        if RULES.outcome(state) is not None:
            assert not pending.decisions and pending.chance is None
            return
        assert pending.blocking, "a running game must wait for someone"
        for decision in pending.decisions:
            assert decision.options is not None and decision.default in decision.options
            assert card_ids_in(decision.to_json(with_options=False)) == set()
            assert card_ids_in(decision.to_json()) <= self._known(decision.seat)


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("seats, options", CONFIGS, ids=[f"{n}p{o.get('solo_level', '')}" for n, o in CONFIGS])
def test_random_playout(seats, options, seed):
    initial = RULES.initial_state(seats, options)
    watcher = Watcher(initial, seats, leaks=seed in LEAK_SEEDS)
    final, log = play_out(RULES, initial, random.Random(seed), on_step=watcher.on_step)
    outcome = RULES.outcome(final)
    assert outcome is not None and set(outcome.ranking) == set(range(seats))
    assert set(outcome.winners) <= set(range(seats))
    assert replay(RULES, initial, log) == final
    assert {e.type for e in log} >= {"GameSetUp", "StartCardsKept", "TurnStarted", "RoundEnded", "GameEnded"}


def test_default_answers_alone_play_every_game_to_its_end():
    """A table where every deadline passes: the defaults must finish the game."""
    for seats in (1, 2, 5, 8):
        state = RULES.initial_state(seats, {})
        state, _ = step(RULES, state, resolve_chance_command(RULES, state, random.Random(seats).randrange))
        for _ in range(10_000):
            if RULES.outcome(state) is not None:
                break
            state, _ = step(RULES, state, RULES.pending(state).blocking[0].default)
        assert RULES.outcome(state) is not None


def test_senator_windows_happen_in_big_games():
    seen = set()
    for seed in range(6):
        _, log = play_out(RULES, RULES.initial_state(6, {}), random.Random(seed))
        seen |= {e.type for e in log}
    assert {"InterruptOpened", "InterruptPassed", "InterruptClosed", "RomePeeked", "LegionBought"} <= seen


GARBAGE_ARGS = [{}, {"card": None}, {"card": 3}, {"card": "W01"}, {"card": ["x"]}, {"legion": "1"},
                {"legion": 0}, {"legion": 99}, {"to": "hand"}, {"card": "W01", "to": "moon"},
                {"card": "W01", "push": "W01"}, {"x": 1}]
COMMAND_TYPES = ["keep_card", "draw_cards", "peek_rome", "assign_card", "buy_legion", "skip_buy",
                 "lay_card", "take_income", "pass", "resolve_chance", "jump"]


def test_malformed_commands_are_refused_with_a_rule_violation_and_change_nothing():
    rng = random.Random(11)
    states = []
    play_out(RULES, RULES.initial_state(5, {}), random.Random(4),
             on_step=lambda state, command, events: states.append(state))
    for state in states[::7]:
        before = pickle.dumps(state)
        for _ in range(40):
            seat = rng.choice([-1, 0, 1, 4, 7])
            command = Command(seat, rng.choice(COMMAND_TYPES), dict(rng.choice(GARBAGE_ARGS)))
            try:
                events = RULES.decide(state, command)
            except RuleViolation:
                continue
            # a rare command that happens to be legal must be one of the listed options
            assert any(command == o for d in RULES.pending(state).decisions for o in d.options), command
            assert events
        assert pickle.dumps(state) == before
