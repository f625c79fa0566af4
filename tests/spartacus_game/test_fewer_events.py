"""One event where one can say the same, and the upcaster that reads older games.

Since rules version 5 (the duel's 3) a pass that closes a reaction window (``ReactionPassed``
2, or ``WindowRoundEnded`` 2 for a sealed round of passes) carries ``closed``, a move that
ends the fighter's turn (``FighterMoved`` 2) carries ``ends_turn``, an initiative roll that
settles at once (``InitiativeRolled`` 2) carries its ``winner`` or ``tied``, and a fight
round's end is said by the next ``RoundStarted``.  Games stored before are read through the rules'
upcaster, which must turn them into exactly what today's rules record, folding to the
same state.
"""

from __future__ import annotations

import random

import pytest

from engine.core.game import replay, step
from engine.core.playout import play_out
from engine.core.types import Event
from engine.core.upcast import upcast
from engine.spartacus.arena.rules import RULES as DUEL
from engine.spartacus.game.rules import RULES
from tests.spartacus_game import old_games

VIEWERS = (None, 0, 1, 2, 3)
#: (first, second) event types that one event now says
PAIRS = (("ReactionPassed", "WindowClosed"), ("FighterMoved", "TurnEnded"), ("InitiativeRolled", "InitiativeDecided"),
         ("InitiativeRolled", "InitiativeTied"))


@pytest.fixture(scope="module")
def recorded():
    """(old events, the events today's rules record for the same commands, the state reached)."""
    doc = old_games.load()
    state = RULES.initial_state(doc["seats"], doc["options"])
    new: list[Event] = []
    for command in old_games.commands(doc):
        state, events = step(RULES, state, command)
        new += [Event.from_json(e.to_json()) for e in events]
    return old_games.old_events(doc), new, state


def test_the_upcaster_turns_an_old_game_into_what_todays_rules_record(recorded):
    old, new, state = recorded
    upcast_old = list(upcast(RULES, old))
    assert [e.to_json() for e in upcast_old] == [e.to_json() for e in new]
    assert len(new) < len(old) * 0.9  # 2,502 events then, 2,120 now
    start = RULES.initial_state(4, {})
    assert replay(RULES, start, upcast_old) == state
    assert replay(RULES, start, old) == state  # the old types still fold, should one slip past


def test_a_stored_game_cut_in_the_middle_of_a_pair_folds_as_it_did(recorded):
    old, _, _ = recorded
    start = RULES.initial_state(4, {})
    cuts = [i + 1 for i, (a, b) in enumerate(zip(old, old[1:]))
            if (a.type, b.type) in PAIRS + (("RoundEnded", "RoundStarted"),)]
    assert len(cuts) > 100
    state, done = start, 0
    for cut in cuts[::len(cuts) // 8]:
        state = replay(RULES, state, old[done:cut])
        done = cut
        assert replay(RULES, start, upcast(RULES, old[:cut])) == state


def test_the_new_events_show_nobody_more_than_the_pairs_they_replace(recorded):
    old, _, _ = recorded
    pairs = [(a, b) for a, b in zip(old, old[1:]) if (a.type, b.type) in PAIRS]
    assert {(a.type, b.type) for a, b in pairs} == set(PAIRS)
    for a, b in pairs:
        [merged] = upcast(RULES, [a, b])
        flag = {"ReactionPassed": "closed", "FighterMoved": "ends_turn", "InitiativeRolled": "sums"}[a.type]
        assert merged.data[flag]
        for viewer in VIEWERS:
            shown, first, second = (RULES.visible(e, viewer) for e in (merged, a, b))
            assert first is not None and second is not None  # both were public
            # every value the new event shows, either old event showed (the flags say the second was there)
            told = {**second["data"], **first["data"]}
            assert {k: v for k, v in shown["data"].items() if k not in (flag, "tied")} == \
                {k: v for k, v in told.items() if k in shown["data"] and k not in (flag, "tied")}


def test_no_event_today_is_followed_by_what_it_already_says(recorded):
    _, new, _ = recorded
    seen = {e.type for e in new}
    assert "RoundEnded" not in seen and {"ReactionPassed", "FighterMoved", "RoundStarted"} <= seen
    assert any(e.type == "ReactionPassed" and e.data.get("closed") for e in new)
    assert any(e.type == "FighterMoved" and e.data.get("ends_turn") for e in new)
    for a, b in zip(new, new[1:]):
        if b.type == "WindowClosed":
            assert not (a.type in ("ReactionPassed", "WindowRoundEnded") and a.data["window"] == b.data["window"])
        if b.type == "TurnEnded":  # (the other fighter's turn may end at once: nothing it can do)
            assert not (a.type == "FighterMoved" and a.data["side"] == b.data["side"])
        assert not (a.type == "InitiativeRolled" and b.type in ("InitiativeDecided", "InitiativeTied"))


def _as_rules_2_recorded(events: list[Event]) -> list[Event]:
    """A duel's events as the duel's rules version 2 recorded them."""
    out = []
    for e in events:
        if e.type == "FighterMoved":
            out.append(Event(e.type, {k: v for k, v in e.data.items() if k != "ends_turn"}, 1))
            if e.data["ends_turn"]:
                out.append(Event("TurnEnded", {"fight": e.data["fight"], "round": e.data["round"],
                                               "side": e.data["side"], "planned": e.data["planned"]}))
            continue
        if e.type == "InitiativeRolled":
            out.append(Event(e.type, {k: v for k, v in e.data.items() if k not in ("sums", "winner", "tied")}, 1))
            settled = {k: e.data[k] for k in ("fight", "round", "attempt", "dice")}
            if "winner" in e.data:
                out.append(Event("InitiativeDecided", {**settled, "sums": e.data["sums"], "winner": e.data["winner"]}))
            elif e.data.get("tied"):
                out.append(Event("InitiativeTied", {**settled, "sums": e.data["sums"]}))
            continue
        if e.type == "RoundStarted" and e.data["round"] > 1:
            out.append(Event("RoundEnded", {"fight": e.data["fight"], "round": e.data["round"] - 1}))
        out.append(e)
    return out


@pytest.mark.parametrize("seed", range(12))
def test_arena_duels_read_back_from_their_older_recording(seed):
    start = DUEL.initial_state(2, {})
    state, events = play_out(DUEL, start, random.Random(seed))
    assert not any(e.type == "RoundEnded" for e in events)
    older = _as_rules_2_recorded(events)
    assert list(upcast(DUEL, older)) == events
    assert replay(DUEL, start, older) == replay(DUEL, start, upcast(DUEL, older)) == state
