"""The event store: a game is its events, appended once and never changed.

Writes go through :func:`append`, which is also the optimistic-concurrency gate: the
game's ``version`` moves from the version a command was decided against to the new one
in a single conditional ``UPDATE``, so of two writers that read the same version exactly
one succeeds and the other gets :class:`~service.errors.LostRace` (409) having changed
nothing.  On PostgreSQL the ``UPDATE`` also holds the game row's lock until commit, so
everything written after it in the same transaction (open decisions, outbox rows) is
serialised per game as well.

Reads fold events onto the newest usable snapshot, so loading a long game costs about
as much as loading a short one.  Snapshots are pickles of the folded state tagged with
the ``rules_version`` of the code that folded them; one written by other rules, or one
that no longer unpickles, is skipped and the events are replayed instead: snapshots are
a cache, never the truth.  They are written by this process only, from its own folds,
which is what makes unpickling them acceptable.

There is deliberately no in-process cache of states: a state cached by
``(game_id, version)`` before its transaction commits could outlive a rollback while
another process commits a different stream at that same version.
"""

from __future__ import annotations

import datetime as dt
import json
import logging
import pickle
from dataclasses import dataclass
from typing import Any, Optional, Sequence, Union

from sqlalchemy import insert, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session
from sqlalchemy.orm.attributes import set_committed_value

from engine import registry
from engine.core.game import Rules, replay, step
from engine.core.types import Command, Event
from service.db import Game, Snapshot, StoredEvent, utcnow
from service.errors import LostRace

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class RecordedEvent:
    """An event as stored: its place in the stream, when it happened and who caused it
    (``actor_user_id`` is ``None`` for the server: chance, bots, deadline defaults)."""

    seq: int
    event: Event
    at: dt.datetime
    actor_user_id: Optional[int]


def rules_of(game: Game) -> Rules:
    """The rules object that folds ``game``'s events."""
    return registry.get(game.game_type)


def as_stored(event: Event) -> Event:
    """``event`` exactly as it will read back from the database.

    The ``data`` column is JSON: tuples come back as lists and integer keys as strings.
    Folding the stored form in the live path too means the state a request continues
    with, the snapshot it may pickle, and a later replay are the same state.  Data that
    is not JSON at all fails here, before anything is written.
    """
    data = json.loads(json.dumps(dict(event.data), allow_nan=False))
    return Event(type=event.type, data=data, version=event.version)


def step_as_stored(rules: Rules, state: Any, command: Command) -> tuple[Any, list[Event]]:
    """:func:`engine.core.game.step`, returning the events (and the state folded from
    them) in stored form; see :func:`as_stored`.

    Raises the engine's :class:`~engine.core.errors.RuleViolation` unchanged.
    """
    before = state
    state, events = step(rules, state, command)
    stored = [as_stored(e) for e in events]
    if stored != events:
        state = replay(rules, before, stored)
    return state, stored


def append(
    session: Session,
    game: Game,
    events: Sequence[Event],
    expected_version: int,
    actor_user_id: Union[Optional[int], Sequence[Optional[int]]],
    *,
    state: Any = None,
    snapshot_every: int = 0,
    rules: Optional[Rules] = None,
) -> list[tuple[int, Event]]:
    """Append ``events`` to ``game`` if it is still at ``expected_version``.

    ``actor_user_id`` is one user id (or ``None``) for every event, or a sequence with
    one per event, so a command and the chance and bot moves it triggered land in one
    append with the right actor each.  Pass ``state`` (the fold after these events) and
    ``snapshot_every`` to store a snapshot whenever the append crosses a multiple of it.

    Returns ``[(seq, event), ...]`` and leaves ``game.version`` / ``game.updated_at``
    at their new values.  Raises :class:`LostRace` if another writer got there first
    (the version moved, or a ``(game_id, seq)`` already exists); after a unique
    violation the database has aborted the transaction, so the caller must roll back.
    Never commits.
    """
    events = list(events)
    if isinstance(actor_user_id, (list, tuple)):
        actors = list(actor_user_id)
        if len(actors) != len(events):
            raise ValueError(f"{len(actors)} actors for {len(events)} events")
    else:
        actors = [actor_user_id] * len(events)

    # The game row (when just created) must exist before the conditional update sees it.
    session.flush()
    new_version = expected_version + len(events)
    now = utcnow()
    games = Game.__table__
    result = session.execute(
        games.update()
        .where(games.c.id == game.id, games.c.version == expected_version)
        .values(version=new_version, updated_at=now)
    )
    if result.rowcount != 1:
        raise LostRace(
            "someone else changed this game first; reload it and try again",
            details={"game_id": game.id, "expected_version": expected_version},
        )
    set_committed_value(game, "version", new_version)
    set_committed_value(game, "updated_at", now)

    appended = [(expected_version + i, e) for i, e in enumerate(events, start=1)]
    if appended:
        rows = [
            {
                "game_id": game.id,
                "seq": seq,
                "type": e.type,
                "type_version": e.version,
                "data": dict(e.data),
                "actor_user_id": actor,
                "created_at": now,
            }
            for (seq, e), actor in zip(appended, actors)
        ]
        try:
            session.execute(insert(StoredEvent), rows)
        except IntegrityError as err:
            raise LostRace(
                "this game's events were written concurrently; reload it and try again",
                details={"game_id": game.id, "expected_version": expected_version},
            ) from err

    if state is not None and snapshot_every > 0 and new_version // snapshot_every > expected_version // snapshot_every:
        write_snapshot(session, game, new_version, state, rules=rules)
    return appended


def write_snapshot(session: Session, game: Game, seq: int, state: Any, *, rules: Optional[Rules] = None) -> None:
    """Cache ``state`` as the fold of ``game``'s events up to ``seq``."""
    rules = rules or rules_of(game)
    session.add(
        Snapshot(
            game_id=game.id,
            seq=seq,
            rules_version=rules.rules_version,
            state=pickle.dumps(state, protocol=pickle.HIGHEST_PROTOCOL),
        )
    )


def load_events(session: Session, game_id: str, after: int = 0, upto: Optional[int] = None,
                *, limit: Optional[int] = None) -> list[RecordedEvent]:
    """Events with ``after < seq <= upto`` (to the end when ``upto`` is None), in order."""
    query = (
        select(StoredEvent.seq, StoredEvent.type, StoredEvent.type_version, StoredEvent.data,
               StoredEvent.created_at, StoredEvent.actor_user_id)
        .where(StoredEvent.game_id == game_id, StoredEvent.seq > after)
        .order_by(StoredEvent.seq)
    )
    if upto is not None:
        query = query.where(StoredEvent.seq <= upto)
    if limit is not None:
        query = query.limit(limit)
    return [
        RecordedEvent(seq=seq, event=Event(type=type_, data=data, version=version), at=at, actor_user_id=actor)
        for seq, type_, version, data, at, actor in session.execute(query)
    ]


def load_state(session: Session, game: Game, *, rules: Optional[Rules] = None) -> Any:
    """The state of ``game`` at its current version."""
    return load_state_at(session, game, game.version, rules=rules)


def load_state_at(session: Session, game: Game, seq: int, *, rules: Optional[Rules] = None) -> Any:
    """The state of ``game`` after its first ``seq`` events (``0``: the initial state).

    Starts from the newest snapshot at or below ``seq`` written by the current rules
    and folds only the events after it.  Raises ``ValueError`` for a ``seq`` outside
    ``0..game.version``.
    """
    if not 0 <= seq <= game.version:
        raise ValueError(f"game {game.id} has no event {seq} (version {game.version})")
    rules = rules or rules_of(game)
    base_seq, state = _newest_snapshot(session, game, rules, seq)
    if state is None:
        base_seq, state = 0, rules.initial_state(game.seat_count, game.options)
    return replay(rules, state, (r.event for r in load_events(session, game.id, after=base_seq, upto=seq)))


def _newest_snapshot(session: Session, game: Game, rules: Rules, seq: int) -> tuple[int, Any]:
    """``(seq, state)`` of the newest usable snapshot at or below ``seq``, else ``(0, None)``.

    One blob is fetched at a time: a long game has many snapshots and usually the
    newest one is good.
    """
    bound = seq
    while bound > 0:
        row = session.execute(
            select(Snapshot.seq, Snapshot.state)
            .where(Snapshot.game_id == game.id, Snapshot.rules_version == rules.rules_version,
                   Snapshot.seq <= bound)
            .order_by(Snapshot.seq.desc())
            .limit(1)
        ).first()
        if row is None:
            break
        try:
            return row.seq, pickle.loads(row.state)
        except Exception:  # any unreadable pickle: a stale cache entry, never fatal
            log.warning("snapshot %s@%s does not unpickle; replaying from an earlier point",
                        game.id, row.seq, exc_info=True)
            bound = row.seq - 1
    return 0, None
