"""Searching bots think in the worker, never in a request, and the time an answer takes
is the same whatever the decision: a bot with one legal answer answers no sooner."""

from __future__ import annotations

import random

import pytest

from engine.core import bots as engine_bots
from engine.core.game import step
from engine.pax.rules import RULES
from service.play import bot_turns, bots, games, store
from service.plumbing import dispatch
from service.plumbing.db import Game


@pytest.fixture
def woken(monkeypatch):
    """The games whose bots the worker was woken for."""
    calls: list[list[str]] = []
    monkeypatch.setattr(dispatch, "bots_committed", lambda config, ids: calls.append(sorted(ids)))
    return calls


def test_a_request_leaves_the_searching_bots_answer_to_the_worker(session, session_factory, config, make_user,
                                                                  woken, monkeypatch):
    asked = []
    thinking = bots.bot_command

    def watched(rules, state, decision, **kw):
        asked.append((decision.seat, kw["level"], kw["paced"]))
        return thinking(rules, state, decision, **kw)

    monkeypatch.setattr(bots, "bot_command", watched)
    monkeypatch.setattr(bots, "_sleep", lambda seconds: None)  # pacing is tested below
    ann = make_user("ann")
    game = games.create_game(session, config, creator=ann, game_type="pax", options={}, seats=2, bot_seats=[1],
                             bot_levels={"1": "normal"})
    session.commit()
    game_id = game.id
    # the request dealt the cards and asked nobody to think
    assert asked == [] and game.bots_due_at is not None and woken == [[game_id]]
    assert games.game_view(session, game_id, ann)["bots_thinking"] is True
    version = game.version

    assert bot_turns.due_game_ids(session_factory) == [game_id]
    assert bot_turns.play(session_factory, config, game_id) >= 1
    session.expire_all()
    game = session.get(Game, game_id)
    assert game.version > version and game.bots_due_at is None
    assert asked and all(a == (1, "normal", True) for a in asked)
    assert games.game_view(session, game_id, ann)["bots_thinking"] is False
    assert bot_turns.due_game_ids(session_factory) == []
    assert woken == [[game_id]]  # the worker does not wake itself


def test_the_worker_sweep_finds_only_games_whose_worker_is_overdue(session, session_factory, config, make_user,
                                                                   woken):
    game = games.create_game(session, config, creator=make_user("ann"), game_type="pax", options={}, seats=2,
                             bot_seats=[1], bot_levels={"1": "hard"})
    session.commit()
    assert bot_turns.due_game_ids(session_factory, stale_seconds=3600) == []
    assert bot_turns.due_game_ids(session_factory, stale_seconds=-1) == [game.id]


def _dealt_pax():
    state = RULES.initial_state(2, {})
    return step(RULES, state, bots.chance_command(RULES.pending(state).chance))[0]


class FakeClock:
    """A clock that moves on a little every time it is read (as thinking takes time),
    and by the whole wait when the caller sleeps."""

    def __init__(self, tick: float) -> None:
        self.now, self.tick, self.waits = 100.0, tick, []

    def read(self) -> float:
        self.now += self.tick
        return self.now

    def sleep(self, seconds: float) -> None:
        self.waits.append(seconds)
        self.now += seconds


def _positions_with():
    """The first positions of a seeded game of random PAX bots in which the decision
    answered next has one legal answer, and many."""
    rng = random.Random(13)
    state, found = _dealt_pax(), {}
    while len(found) < 2:
        pending = RULES.pending(state)
        if pending.chance is not None:
            state = step(RULES, state, bots.chance_command(pending.chance))[0]
            continue
        decision = min(pending.blocking, key=lambda d: d.order)
        kind = "one" if decision.options is not None and len(decision.options) == 1 else \
            "many" if decision.options is not None and len(decision.options) > 3 else None
        if kind is not None and kind not in found:
            found[kind] = (state, decision)
        state = step(RULES, state, engine_bots.choose(decision, rng))[0]
    return found


@pytest.mark.parametrize("level", ["normal", "hard"])
@pytest.mark.parametrize("tick", [0.0001, 0.002])
def test_a_paced_answer_takes_its_whole_time_with_one_option_or_many(monkeypatch, level, tick):
    took = {}
    for name, (state, decision) in _positions_with().items():
        clock = FakeClock(tick)
        monkeypatch.setattr(bots, "_monotonic", clock.read)
        monkeypatch.setattr(bots, "_sleep", clock.sleep)
        began = clock.now
        command = bots.bot_command(RULES, state, decision, level=level, think_ms=400, paced=True)
        assert command in decision.options
        took[name] = clock.now - began
    # each answer is given when its time is up, the clock's ticks after the wait aside
    budget = bots.answer_ms(level, 400) / 1000
    assert took["one"] == pytest.approx(budget, abs=3 * tick)
    assert took["many"] == pytest.approx(budget, abs=3 * tick)


def test_an_unpaced_answer_does_not_wait(monkeypatch):
    clock = FakeClock(0.0001)
    monkeypatch.setattr(bots, "_monotonic", clock.read)
    monkeypatch.setattr(bots, "_sleep", clock.sleep)
    state = _dealt_pax()
    bots.bot_command(RULES, state, RULES.pending(state).blocking[0], level="normal", think_ms=400)
    assert clock.waits == []
