"""How the engines move states: records copied fast, answers cached per state, context
read lazily, events folded once -- and none of it changes what a game records."""

from __future__ import annotations

import dataclasses
import random
import threading

import pytest

from engine import registry
from engine.core import memo
from engine.core.game import replay, step
from engine.core.lazy import LazyMapping
from engine.core.memo import once_per_state
from engine.core.playout import play_out, resolve_chance_command
from engine.core.records import evolve
from engine.core.types import Command
from engine.pax.state import PaxState
from engine.rom.state import Player as RomPlayer


# --- evolve ------------------------------------------------------------------------------------

def test_evolve_gives_what_dataclasses_replace_gives():
    rules = registry.get("pax")
    state = rules.initial_state(3, {})
    changed = evolve(state, phase="turn", gold=(1, 2, 3))
    assert changed == dataclasses.replace(state, phase="turn", gold=(1, 2, 3))
    assert type(changed) is PaxState and changed.phase == "turn" and state.phase == "shuffle"


def test_evolve_leaves_the_original_record_as_it_was():
    player = RomPlayer(unplaced=(1, 2), vp=3)
    assert evolve(player, vp=5) == RomPlayer(unplaced=(1, 2), vp=5)
    assert player.vp == 3


def test_evolve_refuses_a_name_that_is_not_a_field():
    with pytest.raises(TypeError, match="no field 'gold'"):
        evolve(RomPlayer(), gold=3)


# --- once_per_state ----------------------------------------------------------------------------

@dataclasses.dataclass(frozen=True)
class _Box:
    n: int


def _counting():
    calls = []

    @once_per_state
    def doubled(state, factor=2):
        calls.append((state, factor))
        return [state.n * factor]

    return doubled, calls


def test_a_state_asked_twice_is_computed_once():
    doubled, calls = _counting()
    box = _Box(4)
    first = doubled(box)
    assert doubled(box) is first and first == [8]
    assert len(calls) == 1


def test_equal_states_are_different_states():
    doubled, calls = _counting()
    doubled(_Box(4))
    doubled(_Box(4))
    assert len(calls) == 2  # identity, not equality: a cache that compared states would cost more


def test_further_arguments_are_part_of_the_key():
    doubled, calls = _counting()
    box = _Box(3)
    assert doubled(box, 2) == [6] and doubled(box, 5) == [15] and doubled(box, 2) == [6]
    assert len(calls) == 2


def test_an_unhashable_argument_is_computed_every_time():
    doubled, calls = _counting()
    box = _Box(1)
    doubled(box, [2])
    doubled(box, [2])
    assert len(calls) == 2


def test_only_the_states_asked_about_last_are_kept():
    doubled, calls = _counting()
    boxes = [_Box(i) for i in range(memo.CAPACITY + 1)]
    for box in boxes:
        doubled(box)
    doubled(boxes[-1])
    assert len(calls) == memo.CAPACITY + 1
    doubled(boxes[0])  # the oldest was dropped
    assert len(calls) == memo.CAPACITY + 2


def test_asking_again_keeps_a_state_among_the_last():
    doubled, calls = _counting()
    root = _Box(0)
    doubled(root)
    for i in range(3 * memo.CAPACITY):
        doubled(_Box(i + 1))
        doubled(root)
    assert sum(1 for state, _ in calls if state is root) == 1


def test_threads_sharing_the_cache_get_right_answers():
    doubled, _ = _counting()
    boxes = [_Box(i) for i in range(50)]
    wrong = []

    def ask():
        for _ in range(200):
            for box in boxes:
                if doubled(box) != [box.n * 2]:
                    wrong.append(box)

    threads = [threading.Thread(target=ask) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert wrong == []


def test_a_games_pending_is_the_same_object_for_the_same_state():
    rules = registry.get("rom")
    state = rules.initial_state(3, {})
    assert rules.pending(state) is rules.pending(state)


# --- LazyMapping -------------------------------------------------------------------------------

def test_a_lazy_value_is_computed_on_first_read_only():
    calls = []

    def suggestion():
        calls.append(1)
        return {"type": "end_turn"}

    context = LazyMapping({"distance": 2}, {"suggested": suggestion})
    assert calls == [] and len(context) == 2 and list(context) == ["distance", "suggested"]
    assert context["suggested"] == {"type": "end_turn"} and context["suggested"] is context["suggested"]
    assert dict(context) == {"distance": 2, "suggested": {"type": "end_turn"}}
    assert calls == [1]


def test_a_lazy_mapping_reads_like_the_dict_it_stands_for():
    context = LazyMapping({"a": 1}, {"b": lambda: 2, "a": lambda: 99})
    assert context == {"a": 1, "b": 2} and context.get("c") is None and "b" in context
    with pytest.raises(KeyError):
        context["c"]


def test_a_fight_decision_suggests_only_when_its_context_is_read():
    rules = registry.get("spartacus_arena")
    state = rules.initial_state(2, {})
    rng = random.Random(3)
    for _ in range(50):  # both fight blow by blow, so the fight asks them
        pending = rules.pending(state)
        asked = [d for d in pending.blocking if d.options is not None]
        if asked:
            break
        if pending.chance is not None:
            command = resolve_chance_command(rules, state, rng.randrange)
        else:
            command = Command(pending.blocking[0].seat, "set_fight_plan", {"active": False})
        state, _ = step(rules, state, command)
    decision = asked[0]
    assert isinstance(decision.context, LazyMapping)
    assert "suggested" not in decision.context._values  # not worked out yet
    suggested = decision.to_json()["context"]["suggested"]
    assert any(o.type == suggested["type"] and dict(o.args) == suggested["args"] for o in decision.options)


# --- events folded once ------------------------------------------------------------------------

class _PlainProtocol:
    """The same rules through the protocol alone: ``decide``, then ``apply`` each event."""

    def __init__(self, rules):
        self._rules = rules

    def __getattr__(self, name):
        if name == "decide_and_fold":
            raise AttributeError(name)
        return getattr(self._rules, name)


PLAYOUTS = [("pax", 1, 2), ("pax", 4, 2), ("pax", 8, 1), ("rom", 2, 2), ("rom", 4, 2),
            ("spartacus", 3, 1), ("spartacus", 4, 1), ("spartacus_arena", 2, 4)]


@pytest.mark.parametrize("game,seats,games", PLAYOUTS)
def test_folding_while_deciding_records_and_reaches_what_decide_then_apply_does(game, seats, games):
    rules = registry.get(game)
    assert hasattr(rules, "decide_and_fold")
    for seed in range(games):
        start = rules.initial_state(seats, {})
        fast_state, fast_log = play_out(rules, start, random.Random(seed))
        plain_state, plain_log = play_out(_PlainProtocol(rules), start, random.Random(seed))
        assert [e.to_json() for e in fast_log] == [e.to_json() for e in plain_log]
        assert fast_state == plain_state
        assert replay(rules, start, fast_log) == fast_state


class _OwnDecide(_PlainProtocol):
    """A wrapper giving its own ``decide`` while the wrapped game still has ``decide_and_fold``."""

    def __getattr__(self, name):
        return getattr(self._rules, name)

    def decide(self, state, command):
        self.asked = getattr(self, "asked", 0) + 1
        return self._rules.decide(state, command)


def test_a_wrapper_with_its_own_decide_is_asked_by_step():
    rules = registry.get("pax")
    wrapper = _OwnDecide(rules)
    assert hasattr(wrapper, "decide_and_fold")
    state = rules.initial_state(2, {})
    command = resolve_chance_command(rules, state, random.Random(1).randrange)
    after, events = step(wrapper, state, command)
    assert wrapper.asked == 1
    assert (after, events) == step(rules, state, command)
