"""Snapshots are a cache of the fold: a game loads the same with them as from its events
alone, a snapshot belongs to the transaction of the command that wrote it, and one
written twice is stored once."""

from __future__ import annotations

import dataclasses
import pickle
import random

import pytest
from sqlalchemy import func, select

from engine.core import bots as kernel_bots
from engine.core.game import replay
from engine.core.types import Event
from service.play import games, store
from service.plumbing.db import Snapshot
from tests.service.fake_game import RULES as COUNT_RULES
from tests.service.test_pax_games import decision_from_listing


def _waves(n: int, start: int = 0) -> list[Event]:
    return [Event("Waved", {"seat": (start + i) % 2}) for i in range(n)]


def _snapshots(session, game_id: str) -> list[Snapshot]:
    return list(session.scalars(select(Snapshot).where(Snapshot.game_id == game_id).order_by(Snapshot.seq)))


@pytest.fixture
def no_state_cache(monkeypatch):
    """Every load folds from the database: the newest snapshot, then the events after it."""
    monkeypatch.setattr(store, "_CACHE_SIZE", 0)
    store.clear_state_cache()


def test_a_pax_game_loads_the_same_from_its_snapshots_as_from_its_events(session, config, make_user,
                                                                         no_state_cache):
    from engine.pax.rules import RULES

    config = dataclasses.replace(config, snapshot_every=7)
    ann = make_user("ann")
    rng = random.Random(17)
    game = games.create_game(session, config, creator=ann, game_type="pax", options={}, seats=2, bot_seats=[1])
    session.commit()
    for _ in range(40):
        if game.status == "finished":
            break
        listed = [d for d in games.decisions_for(session, game.id, ann) if d["mode"] != "free"]
        command = kernel_bots.choose(decision_from_listing(listed[0]), rng)
        games.submit_command(session, config, game.id, ann, command_type=command.type, args=dict(command.args),
                             expected_version=listed[0]["version"])
        session.commit()

    events = [r.event for r in store.load_events(session, game.id)]
    initial = RULES.initial_state(2, game.options)
    snapshots = _snapshots(session, game.id)
    assert len(snapshots) >= 5  # (an append past several multiples of 7 writes one)
    for snapshot in snapshots:
        assert pickle.loads(snapshot.state) == replay(RULES, initial, events[:snapshot.seq]), snapshot.seq
    for seq in sorted({0, 1, 6, 7, 8, 20, game.version // 2, game.version - 1, game.version}):
        assert store.load_state_at(session, game, seq) == replay(RULES, initial, events[:seq]), seq


def test_a_snapshot_written_twice_is_stored_once(session, bare_game, no_state_cache):
    game = bare_game()
    state = replay(COUNT_RULES, COUNT_RULES.initial_state(2, {}), _waves(10))
    store.append(session, game, _waves(10), 0, None, state=state, snapshot_every=10)
    # a second write of the same point (another fold of the same events) is no error
    store.write_snapshot(session, game, 10, dataclasses.replace(state, waves=-1))
    session.commit()

    snapshots = _snapshots(session, game.id)
    assert [(s.seq, pickle.loads(s.state)) for s in snapshots] == [(10, state)]
    assert store.load_state(session, game) == state


def test_a_snapshot_is_rolled_back_with_its_command(session, bare_game):
    game = bare_game()
    session.commit()
    state = replay(COUNT_RULES, COUNT_RULES.initial_state(2, {}), _waves(12))
    store.append(session, game, _waves(12), 0, None, state=state, snapshot_every=5)
    session.rollback()
    assert session.scalar(select(func.count()).select_from(Snapshot).where(Snapshot.game_id == game.id)) == 0


def test_a_snapshot_of_a_game_row_not_yet_written_follows_it(session, bare_game, no_state_cache):
    """The snapshot at 0 of a test's hand-built start is written before the game's first
    append, while the new game row may still wait in the session."""
    from service.plumbing.db import Game, utcnow

    now = utcnow()
    game = Game(id="snapfirst1", game_type="count", title="t", options={"target": 5}, seat_count=2,
                status="running", version=0, rules_version=COUNT_RULES.rules_version, clock_hours=24,
                created_at=now, updated_at=now)
    session.add(game)
    start = dataclasses.replace(COUNT_RULES.initial_state(2, {}), waves=100)
    store.write_snapshot(session, game, 0, start, rules=COUNT_RULES)
    session.commit()
    assert store.load_state(session, game) == start
