"""The event store: ordered append-only streams, optimistic concurrency, snapshots."""

from __future__ import annotations

import threading

import pytest
from sqlalchemy import func, select, update

from engine.core.game import replay
from engine.core.types import Event
from service.play import store
from service.plumbing import statements
from service.plumbing.db import Game, Snapshot, StoredEvent
from service.plumbing.errors import LostRace
from service.plumbing.rows import changing_row
from tests.service.fake_game import RULES


def waves(n: int, start: int = 0) -> list[Event]:
    return [Event("Waved", {"seat": (start + i) % 2}) for i in range(n)]


def fill(session, game, total: int, batch: int, snapshot_every: int) -> None:
    """Append ``total`` Waved events in batches, snapshotting as the service does."""
    state = store.load_state(session, game)
    while game.version < total:
        events = waves(min(batch, total - game.version), game.version)
        state = replay(RULES, state, events)
        store.append(session, game, events, game.version, None, state=state, snapshot_every=snapshot_every)


@pytest.fixture
def fold_counter(monkeypatch):
    """Counts the events folded by ``RULES.apply``, with the committed-state cache off so
    that every load shows what snapshots alone achieve."""
    monkeypatch.setattr(store, "_CACHE_SIZE", 0)
    store.clear_state_cache()
    calls = {"n": 0}
    original = RULES.apply

    def counting(state, event):
        calls["n"] += 1
        return original(state, event)

    monkeypatch.setattr(RULES, "apply", counting)
    return calls


def test_appended_events_read_back_in_order_with_their_actors(session, bare_game):
    game = bare_game()
    appended = store.append(session, game, [Event("Waved", {"seat": 0}), Event("Waved", {"seat": 1}, version=2)],
                            0, 7)
    assert [seq for seq, _ in appended] == [1, 2]
    store.append(session, game, [Event("Waved", {"seat": 1})], 2, [None])
    session.commit()

    assert game.version == 3
    assert session.scalar(select(Game.version).where(Game.id == game.id)) == 3
    events = store.load_events(session, game.id)
    assert [(r.seq, r.event.type, dict(r.event.data), r.event.version, r.actor_user_id) for r in events] == [
        (1, "Waved", {"seat": 0}, 1, 7),
        (2, "Waved", {"seat": 1}, 2, 7),
        (3, "Waved", {"seat": 1}, 1, None),
    ]
    assert events[0].at.tzinfo is not None
    assert [r.seq for r in store.load_events(session, game.id, after=1)] == [2, 3]
    assert [r.seq for r in store.load_events(session, game.id, after=0, upto=2)] == [1, 2]
    assert store.load_state(session, game).waves == 3
    assert store.load_state_at(session, game, 1).waves == 1
    assert store.load_state_at(session, game, 0).waves == 0


def test_actors_must_match_the_events(session, bare_game):
    with pytest.raises(ValueError):
        store.append(session, bare_game(), waves(2), 0, [1])


def test_append_against_an_old_version_loses_and_changes_nothing(session, bare_game):
    game = bare_game()
    store.append(session, game, waves(2), 0, None)
    with pytest.raises(LostRace) as err:
        store.append(session, game, waves(1), 1, None)
    assert err.value.status == 409 and err.value.code == "lost_race"
    session.commit()
    assert session.scalar(select(func.count()).select_from(StoredEvent)) == 2
    assert session.scalar(select(Game.version).where(Game.id == game.id)) == 2


def test_two_sessions_that_read_the_same_version_one_wins(session_factory, session, bare_game):
    game_id = bare_game().id
    session.commit()
    first, second = session_factory(), session_factory()
    try:
        game_a, game_b = first.get(Game, game_id), second.get(Game, game_id)
        assert game_a.version == game_b.version == 0
        store.append(first, game_a, waves(1), game_a.version, 1)
        first.commit()
        with pytest.raises(LostRace):
            store.append(second, game_b, waves(3), game_b.version, 2)
        second.rollback()
    finally:
        first.close()
        second.close()
    events = store.load_events(session, game_id)
    assert [(r.seq, r.actor_user_id) for r in events] == [(1, 1)]


def test_concurrent_writers_on_two_connections_exactly_one_wins(session_factory, session, bare_game):
    """A real race: two threads, each with its own connection, append against the same
    version and commit; the database lets exactly one through."""
    game_id = bare_game().id
    session.commit()
    barrier = threading.Barrier(2)
    results: dict[int, str] = {}

    def writer(actor: int) -> None:
        s = session_factory()
        try:
            game = s.get(Game, game_id)
            version = game.version
            barrier.wait(timeout=10)
            store.append(s, game, waves(5), version, actor)
            s.commit()
            results[actor] = "won"
        except LostRace:
            s.rollback()
            results[actor] = "lost"
        except Exception as err:  # surfaced by the assertion below
            s.rollback()
            results[actor] = repr(err)
        finally:
            s.close()

    threads = [threading.Thread(target=writer, args=(actor,)) for actor in (1, 2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    assert sorted(results.values()) == ["lost", "won"], results
    winner = next(a for a, r in results.items() if r == "won")
    events = store.load_events(session, game_id)
    assert [r.seq for r in events] == [1, 2, 3, 4, 5]
    assert {r.actor_user_id for r in events} == {winner}
    assert session.scalar(select(Game.version).where(Game.id == game_id)) == 5


def test_a_seq_already_stored_is_a_lost_race(session, bare_game):
    """If the version column ever lags behind the stream, the unique (game_id, seq)
    still refuses a second event 2: at once, or (on PostgreSQL, where the events are
    held for the transaction's next statement) by the commit at the latest."""
    game = bare_game()
    store.append(session, game, waves(2), 0, None)
    session.execute(update(Game).where(Game.id == game.id).values(version=1))
    session.expire(game)
    with pytest.raises(LostRace):
        store.append(session, game, waves(1), 1, None)
        session.commit()
    session.rollback()


def test_snapshots_make_a_long_game_as_cheap_to_load_as_a_short_one(session, bare_game, fold_counter):
    every = 100
    game = bare_game()
    fill(session, game, 10_000, batch=37, snapshot_every=every)
    session.commit()
    assert game.version == 10_000
    snapshots = session.scalar(select(func.count()).select_from(Snapshot).where(Snapshot.game_id == game.id))
    assert 95 <= snapshots <= 100

    fold_counter["n"] = 0
    early = store.load_state_at(session, game, 10)
    folded_at_10 = fold_counter["n"]
    fold_counter["n"] = 0
    late = store.load_state(session, game)
    folded_at_10_000 = fold_counter["n"]

    assert (early.waves, late.waves) == (10, 10_000)
    assert folded_at_10 == 10
    assert folded_at_10_000 <= 37  # at most one batch past the newest snapshot
    fold_counter["n"] = 0
    assert store.load_state_at(session, game, 5_000).waves == 5_000
    assert fold_counter["n"] <= every + 37


def test_a_snapshot_that_does_not_unpickle_is_skipped(session, bare_game, fold_counter):
    game = bare_game()
    fill(session, game, 300, batch=50, snapshot_every=100)
    session.execute(update(Snapshot).where(Snapshot.game_id == game.id, Snapshot.seq == 300)
                    .values(state=b"not a pickle"))
    session.commit()
    fold_counter["n"] = 0
    assert store.load_state(session, game).waves == 300
    assert fold_counter["n"] == 100  # fell back to the snapshot at 200


def test_snapshots_of_other_rules_are_ignored(session, bare_game, fold_counter, monkeypatch):
    game = bare_game()
    fill(session, game, 250, batch=50, snapshot_every=100)
    session.commit()
    monkeypatch.setattr(RULES, "rules_version", "2")
    fold_counter["n"] = 0
    assert store.load_state(session, game).waves == 250
    assert fold_counter["n"] == 250


def test_load_state_at_refuses_versions_the_game_does_not_have(session, bare_game):
    game = bare_game()
    store.append(session, game, waves(2), 0, None)
    with pytest.raises(ValueError):
        store.load_state_at(session, game, 3)
    with pytest.raises(ValueError):
        store.load_state_at(session, game, -1)


def test_events_are_kept_in_the_form_they_read_back_in():
    event = Event("X", {"pair": (1, 2), "by_seat": {0: "a"}})
    assert store.as_stored(event) == Event("X", {"pair": [1, 2], "by_seat": {"0": "a"}})
    with pytest.raises(TypeError):
        store.as_stored(Event("X", {"when": object()}))


def test_a_committed_state_is_served_from_the_cache(session, bare_game, fold_counter, monkeypatch):
    monkeypatch.setattr(store, "_CACHE_SIZE", 8)
    game = bare_game()
    store.append(session, game, waves(5), 0, None, state=replay(RULES, RULES.initial_state(2, {}), waves(5)))
    session.commit()
    fold_counter["n"] = 0
    assert store.load_state(session, game).waves == 5
    assert fold_counter["n"] == 0


def test_a_state_whose_events_were_rolled_back_never_reaches_the_cache(session, bare_game, fold_counter,
                                                                       monkeypatch):
    monkeypatch.setattr(store, "_CACHE_SIZE", 8)
    game = bare_game()
    session.commit()
    game_id = game.id
    store.append(session, game, waves(3), 0, None, state=replay(RULES, RULES.initial_state(2, {}), waves(3)))
    assert store.load_state(session, game).waves == 3  # read inside the writing transaction
    session.rollback()
    assert (game_id, 3, RULES.rules_version) not in store._CACHE
    fresh = session.get(Game, game_id)
    assert fresh.version == 0
    assert store.load_state(session, fresh).waves == 0


def _plain_row(game: Game):
    """``game`` as a command holds it: a changeable plain row (:mod:`service.play.at_hand`)."""
    row_type = changing_row(Game)
    return row_type(*[getattr(game, name) for name in row_type.__slots__[:-1]])


def test_a_plain_rows_append_writes_its_changes_and_events(session, bare_game):
    """A command's append: the row's changed columns move with the version, and each event
    is stored with its actor, its data as read back whether or not :func:`store.as_stored`
    made it (on PostgreSQL, all in one statement: the version's ``UPDATE`` in its ``WITH``)."""
    game_id = bare_game().id
    session.commit()
    row = _plain_row(session.get(Game, game_id))
    row.status = "finished"
    events = [store.as_stored(Event("Waved", {"seat": 0, "say": "hé", "n": [1, 2]})),
              Event("Waved", {"seat": 1}, version=2)]
    store.append(session, row, events, 0, [7, None])
    session.commit()
    session.expire_all()
    assert session.scalars(select(Game.status).where(Game.id == game_id)).one() == "finished"
    assert session.scalars(select(Game.version).where(Game.id == game_id)).one() == 2
    assert [(r.seq, r.event, r.actor_user_id) for r in store.load_events(session, game_id)] == [
        (1, Event("Waved", {"seat": 0, "say": "hé", "n": [1, 2]}), 7), (2, Event("Waved", {"seat": 1}, version=2), None)]


def test_a_plain_rows_append_against_an_old_version_loses_and_commits_nothing(session_factory, session, bare_game):
    """Of two commands decided against the same version, the second is refused (on
    PostgreSQL by its own event's unique seq, with the COMMIT) and writes nothing: not
    its events, not the changes of its row."""
    game_id = bare_game().id
    session.commit()
    first, second = session_factory(), session_factory()
    try:
        row_a, row_b = _plain_row(first.get(Game, game_id)), _plain_row(second.get(Game, game_id))
        store.append(first, row_a, waves(1), 0, 1)
        first.commit()
        row_b.status = "finished"
        with pytest.raises(LostRace):
            store.append(second, row_b, waves(3), 0, 2)
            second.commit()
        second.rollback()
    finally:
        first.close()
        second.close()
    assert [(r.seq, r.actor_user_id) for r in store.load_events(session, game_id)] == [(1, 1)]
    assert session.execute(select(Game.status, Game.version).where(Game.id == game_id)).one() == ("running", 1)


def test_on_postgresql_a_commands_append_is_one_statement_whatever_its_events(session, bare_game, monkeypatch):
    """The version's ``UPDATE`` and every event go to PostgreSQL as one statement of one
    SQL text, whether a command appends one event or a bot's whole turn: a text the
    server parses and plans once per connection, not a statement per seven rows."""
    if session.get_bind().dialect.name != "postgresql":
        pytest.skip("SQLite runs each statement in the process: nothing held, nothing to merge")
    game_id = bare_game().id
    session.commit()
    sent: list[str] = []
    original = statements._sent

    def recording(compiled, params):
        for sql, values in original(compiled, params):
            sent.append(sql)
            yield sql, values

    monkeypatch.setattr(statements, "_sent", recording)
    for version, count in ((0, 1), (1, 20)):
        store.append(session, _plain_row(session.get(Game, game_id)), waves(count, version), version, None)
        session.commit()
    assert len(sent) == 2 and sent[0] == sent[1] and sent[0].startswith("WITH moved AS"), sent
    assert [r.seq for r in store.load_events(session, game_id)] == list(range(1, 22))
