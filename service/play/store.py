"""The event store: a game is its events, appended once and never changed.

Writes go through :func:`append`, which is also the optimistic-concurrency gate: the
game's ``version`` moves from the version a command was decided against to the new one
in a single conditional ``UPDATE``, so of two writers that read the same version exactly
one succeeds and the other gets :class:`~service.plumbing.errors.LostRace` (409) having changed
nothing.  On PostgreSQL the ``UPDATE`` also holds the game row's lock until commit, so
everything written after it in the same transaction (open decisions, outbox rows) is
serialised per game as well.

Reads fold events onto the newest usable snapshot, so loading a long game costs about
as much as loading a short one.  Snapshots are pickles of the folded state tagged with
the ``rules_version`` of the code that folded them; one written by other rules, or one
that no longer unpickles, is skipped and the events are replayed instead: snapshots are
a cache, never the truth.  Events recorded by earlier rules are folded as the game's
upcaster (:mod:`engine.core.upcast`) rewrites them into today's vocabulary; a new
``rules_version`` leaves the old snapshots unused, so such a game is folded afresh from
its events once.  Snapshots are written by this process only, from its own folds,
which is what makes unpickling them acceptable.

Folded states are also kept in a small in-process cache keyed by ``(game_id, version,
rules_version)``.  A committed prefix of a stream never changes, so such a key names one
state forever; the only danger is caching a state whose events are not committed yet (a
rollback, and another process committing a different stream at that version).  So a
state enters the cache only once it is known to be committed: at once when it was read
by a transaction that has written no events, else when that transaction commits
(:func:`_publish_after_commit`); a rollback drops it.
"""

from __future__ import annotations

import datetime as dt
import functools
import json
import logging
import pickle
import threading
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any, Callable, Optional, Sequence, Union

from sqlalchemy import Text, bindparam, cast, event, func, literal_column, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session
from sqlalchemy.orm.attributes import set_committed_value

from engine import registry
from engine.core.game import Rules, replay, step
from engine.core.types import Command, Event
from engine.core.upcast import upcast
from service.plumbing.db import Game, Snapshot, StoredEvent, utcnow
from service.plumbing.errors import LostRace
from service.plumbing.rows import settle_loaded
from service.plumbing.statements import JsonText, defer, dialect_insert, pipelined, takes_json_text

log = logging.getLogger(__name__)

#: Type prefix of the service's own events (pause, missed deadline...: see
#: :mod:`service.play.meta_events`).  They share the stream and its versions, but the rules
#: never fold them: they are not moves of the game.
SERVICE_EVENT_PREFIX = "capua."


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
    data = event.data
    text = _encode(data if data.__class__ is dict else dict(data))
    data = _decode(text)
    if len(_TEXTS) >= _MOST_TEXTS:  # (events made and never appended: a rejected command's)
        _TEXTS.clear()
    _TEXTS[id(data)] = (data, text)
    return Event(type=event.type, data=data, version=event.version)


def _json_codec() -> tuple[Callable[[Any], str], Callable[[str], Any]]:
    """``json.dumps(data, allow_nan=False)`` and ``json.loads`` for :func:`as_stored`, with
    the C encoder and scanner made once rather than at every call (making them, with
    the calls around them, cost as much as the encoding of an event's small ``data``).

    The same C encoder with the same settings as ``json.dumps`` gives the same text;
    only the check for circular containers is left out (an event's data is a tree: one
    that is not would fail with ``RecursionError`` instead of ``ValueError``).  Without
    the C accelerator, ``json`` itself does the work.
    """
    make_encoder = getattr(json.encoder, "c_make_encoder", None)
    make_scanner = getattr(json.scanner, "c_make_scanner", None)
    if make_encoder is None or make_scanner is None:  # pragma: no cover - CPython has both
        return functools.partial(json.dumps, allow_nan=False), json.loads
    encoder = make_encoder(None, json.JSONEncoder().default, json.encoder.encode_basestring_ascii, None,
                           ": ", ", ", False, False, False)
    scan = make_scanner(json.JSONDecoder())

    def encode(data: Any) -> str:
        return "".join(encoder(data, 0))

    def decode(text: str) -> Any:
        return scan(text, 0)[0]

    return encode, decode


_encode, _decode = _json_codec()

#: The JSON text of each stored form's ``data`` that :func:`as_stored` made, by the id of
#: that ``data`` (which it keeps alive, so the id stays its own) until :func:`append`
#: writes it: the text is the ``data`` column's, so an event's data is encoded once, not
#: again by the column (a bot's whole turn is 17-21 events).  A ``data`` not found here
#: (an event not made by :func:`as_stored`, or dropped when the table was full) is
#: encoded by the column as ever.
_TEXTS: dict[int, tuple[Any, str]] = {}
_MOST_TEXTS = 4096


def _data_column(data: Any) -> Any:
    """The ``data`` column's value for an event's ``data``: its text when
    :func:`as_stored` made it, else the mapping for the column to encode."""
    found = _TEXTS.pop(id(data), None)
    if found is not None and found[0] is data:
        return JsonText(found[1])
    return dict(data)


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
    at their new values.  ``game`` is the ORM's object, or a changeable plain row
    (:func:`~service.plumbing.rows.changing_row`, a command's: :mod:`service.play.at_hand`)
    whose other changes (status, outcome, ``bots_due_at``...) the same ``UPDATE`` writes.
    Raises :class:`LostRace` if another writer got there first
    (the version moved, or a ``(game_id, seq)`` already exists: on PostgreSQL, where the
    events (and a plain row's version ``UPDATE``) are held for the next statement, that
    one is raised by the transaction's next statement or by its commit); after a unique
    violation the database has aborted the transaction, so the caller must roll back.
    Never commits.

    A lost race is refused by the server itself, so that a plain row's ``UPDATE`` and the
    events can travel with the COMMIT (one round trip on PostgreSQL) with no check of
    the ``UPDATE``'s answer before it: the version moves only here, and a move from
    version ``v`` always writes the event ``v + 1`` in the same transaction (the seqs
    run from the version appended at, meta events and a new game's first events alike).
    So a second writer decided against ``v`` finds, once the first has committed (the
    first's ``UPDATE`` holds the game row until then, and the second's waits for it),
    that its ``UPDATE`` moves no row and that its own event ``v + 1`` breaks the unique
    ``(game_id, seq)``: the statement fails, the COMMIT after it is never run, and that
    failure is the :class:`LostRace`.  An append of no events writes no seq: its
    ``UPDATE``'s answer is checked before the commit, as is the ORM game's (at once).
    On PostgreSQL a plain row's ``UPDATE`` and its events are one statement
    (:func:`_move_with_events`), refused the same way.
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
    session.info[_WROTE] = True
    new_version = expected_version + len(events)
    now = utcnow()
    params = {"game_id": game.id, "expected_version": expected_version, "new_version": new_version, "now": now}
    changes = {} if isinstance(game, Game) else game.changes()
    moved = functools.partial(_moved, game.id, expected_version)
    guarded = False
    if isinstance(game, Game):
        # On the session's connection (flushed above), answered at once: its row count
        # decides the race, and a caller holding the ORM's game may go on after losing it.
        moved(session.connection().execute(_move_game(()), params))
    else:
        # A command's plain row (at_hand): held like the events, and sent with them.  On
        # PostgreSQL with events to write, a lost race fails their INSERT (see above), so
        # nothing needs the UPDATE's row count and both may go with the COMMIT; elsewhere
        # its row count is checked when it comes back (at once on SQLite, before the
        # COMMIT otherwise) and a lost race is raised from there.  The caller rolls back.
        # On PostgreSQL with events, the UPDATE is the WITH of their INSERT: one statement
        # of one SQL text however many events (_move_with_events).
        guarded = bool(events) and pipelined(session)
        if guarded:
            _defer_moved_with_events(session, game.id, expected_version, tuple(changes),
                                     {**params, **changes}, events, actors)
        else:
            defer(session, _move_game(tuple(changes)), {**params, **changes}, check=moved)
    if isinstance(game, Game):
        set_committed_value(game, "version", new_version)
        set_committed_value(game, "updated_at", now)
    else:
        game.version, game.updated_at = new_version, now
        game.settled()
        settle_loaded(session, Game, game.id, {**changes, "version": new_version, "updated_at": now})

    appended = [(expected_version + i, e) for i, e in enumerate(events, start=1)]
    if appended and not guarded:
        as_text = takes_json_text(session)
        rows = [
            {
                "game_id": game.id,
                "seq": seq,
                "type": e.type,
                "type_version": e.version,
                "data": _data_column(e.data) if as_text else dict(e.data),
                "actor_user_id": actor,
                "created_at": now,
            }
            for (seq, e), actor in zip(appended, actors)
        ]
        # One statement for the whole batch (a multi-row INSERT: see
        # :func:`~service.plumbing.statements.defer`), through Core: the ORM's bulk insert
        # would split it by which columns are null (the player's event, then the bots').
        # Each event's data is bound as the JSON text :func:`as_stored` made of it.
        # Held for the transaction's next statement on PostgreSQL (nobody reads what
        # it returns), so it costs no round trip of its own; a duplicate ``seq`` (a
        # writer that lost the race: see above) then fails that statement or the
        # COMMIT's round trip with the LostRace, and the transaction rolls back.
        defer(session, _INSERT_EVENTS, rows, on_error=functools.partial(_events_lost, game.id, expected_version))

    if state is not None:
        remember_state(session, game.id, new_version, (rules or rules_of(game)).rules_version, state)
        if snapshot_every > 0 and new_version // snapshot_every > expected_version // snapshot_every:
            write_snapshot(session, game, new_version, state, rules=rules)
    return appended


#: What a writer that lost the race is told, whichever statement found it out (the same
#: answer, whether the version's ``UPDATE`` moved no row or the events' INSERT failed).
_LOST_RACE = "someone else changed this game first; reload it and try again"


def _moved(game_id: str, expected_version: int, result: Any) -> None:
    """The version's ``UPDATE`` moved no row: another writer got there first."""
    if result.rowcount != 1:
        raise LostRace(_LOST_RACE, details={"game_id": game_id, "expected_version": expected_version})


def _events_lost(game_id: str, expected_version: int, error: Exception) -> Exception:
    """What a failed insert of a game's events means: a duplicate ``seq`` is a lost race."""
    if not isinstance(error, IntegrityError):
        return error
    return LostRace(_LOST_RACE, details={"game_id": game_id, "expected_version": expected_version})


_GAMES = Game.__table__
#: The optimistic step: the game moves from the version a change was decided against.
_MOVE_VERSION = (_GAMES.update()
                 .where(_GAMES.c.id == bindparam("game_id"), _GAMES.c.version == bindparam("expected_version"))
                 .values(version=bindparam("new_version"), updated_at=bindparam("now")))
_INSERT_EVENTS = StoredEvent.__table__.insert()


@functools.lru_cache(maxsize=None)
def _move_game(columns: tuple[str, ...]) -> Any:
    """The optimistic step that also writes ``columns`` of a plain game row (bound by name)."""
    if not columns:
        return _MOVE_VERSION
    return _MOVE_VERSION.values({name: bindparam(name, type_=_GAMES.c[name].type) for name in columns})


_EVENTS = StoredEvent.__table__


@functools.lru_cache(maxsize=None)
def _move_with_events(columns: tuple[str, ...]) -> Any:
    """PostgreSQL's optimistic step (writing ``columns`` of a plain game row) and the
    events' ``INSERT`` as one statement, its ``UPDATE`` in the ``WITH``; built once per
    set of columns.

    The events are bound as one JSON array, an array ``[seq, type, type_version, data,
    actor]`` per event, and split by the server: one SQL text whatever their number,
    which psycopg prepares on each connection once it has run a few times, where a
    multi-row ``INSERT`` is a text per number of rows, sent in parts of at most seven (a
    bot's turn of 18 events was three statements, and with the ``UPDATE`` four, each
    costing the client and the server its own parse, bind and execute).  One text, not
    an array per column: psycopg escapes each string of a text array with a regular
    expression, which cost more than the statements saved.  Each ``data`` is the JSON
    text of the column, and the server's ``json`` keeps the text of an element as it is,
    so the stored ``data`` is that text.

    The rows are not joined to what the ``UPDATE`` moved, on purpose: a ``WITH``'s
    ``UPDATE`` runs to completion whether or not the statement reads it, and a writer
    that lost the race (its ``UPDATE`` moves no row) still inserts its event
    ``expected_version + 1``, which the unique ``(game_id, seq)`` refuses, failing the
    statement as the events' own ``INSERT`` did (see :func:`append`).  Joined, the
    loser would insert nothing, fail nothing and commit.
    """
    moved = _move_game(columns).cte("moved")
    element = (func.json_array_elements(cast(bindparam("events", type_=Text), _EVENTS.c.data.type))
               .table_valued("value").alias("e"))
    rows = select(
        bindparam("game_id", type_=_EVENTS.c.game_id.type),
        literal_column("(e.value ->> 0)::bigint"), literal_column("e.value ->> 1"),
        literal_column("(e.value ->> 2)::integer"), literal_column("e.value -> 3"),
        literal_column("(e.value ->> 4)::integer"), bindparam("now", type_=_EVENTS.c.created_at.type),
    ).select_from(element)
    return (_EVENTS.insert()
            .from_select(["game_id", "seq", "type", "type_version", "data", "actor_user_id", "created_at"], rows,
                         include_defaults=False)
            .add_cte(moved))


def _defer_moved_with_events(session: Session, game_id: str, expected_version: int, columns: tuple[str, ...],
                             params: dict[str, Any], events: list[Event], actors: list[Optional[int]]) -> None:
    """Hold :func:`_move_with_events` for the commit, with the events of an append at
    ``expected_version`` as its JSON array.  Each ``data`` is the text :func:`as_stored`
    made of it, else the text the column itself would write (the engine's JSON
    serializer), so the stored rows are the same as the multi-row ``INSERT``'s."""
    serialize = None
    parts = []
    seq = expected_version
    for e, actor in zip(events, actors):
        seq += 1
        data = _data_column(e.data)
        if data.__class__ is not JsonText:
            serialize = serialize or session.get_bind().dialect._json_serializer or json.dumps
            data = serialize(data)
        parts.append(f"[{seq},{_encode(e.type)},{int(e.version)},{data},{'null' if actor is None else int(actor)}]")
    params["events"] = "[" + ",".join(parts) + "]"
    defer(session, _move_with_events(columns), params,
          on_error=functools.partial(_moved_or_lost, game_id, expected_version))


def _moved_or_lost(game_id: str, expected_version: int, error: Exception) -> Exception:
    """What a failure of :func:`_move_with_events` means: the events' failure is
    :func:`_events_lost`'s; the game row's own (its ``UPDATE`` refused) is left as it is."""
    if getattr(getattr(getattr(error, "orig", None), "diag", None), "table_name", None) == _GAMES.name:
        return error
    return _events_lost(game_id, expected_version, error)


def write_snapshot(session: Session, game: Game, seq: int, state: Any, *, rules: Optional[Rules] = None) -> None:
    """Cache ``state`` as the fold of ``game``'s events up to ``seq``.

    One ``INSERT`` held for the commit (:func:`~service.plumbing.statements.defer`), not a
    row of the ORM: with the unit of work's flush of it, the one command in ~30 that
    crosses a multiple of ``snapshot_every`` took 0.9-1.4 ms more CPU than the others,
    with the held ``INSERT`` 0.2-0.3 ms (``bench.command_tail``).  A snapshot already stored at ``seq`` is kept (it folds the same
    events), so writing one twice changes nothing and never fails the command.
    """
    rules = rules or rules_of(game)
    if session.new:  # a game row not yet written must be before its snapshot refers to it
        session.flush()
    defer(session, _insert_snapshot(session.connection().dialect.name), {
        "game_id": game.id, "seq": seq, "rules_version": rules.rules_version,
        "state": pickle.dumps(state, protocol=pickle.HIGHEST_PROTOCOL), "created_at": utcnow(),
    })


@functools.lru_cache(maxsize=None)
def _insert_snapshot(dialect: str) -> Any:
    """The snapshot's ``INSERT``, a duplicate ``(game_id, seq)`` left as it is; built once."""
    return dialect_insert(dialect)(Snapshot.__table__).on_conflict_do_nothing(index_elements=["game_id", "seq"])


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
    key = (game.id, seq, rules.rules_version)
    with _CACHE_LOCK:
        if key in _CACHE:
            _CACHE.move_to_end(key)
            return _CACHE[key]
    base_seq, state = _newest_snapshot(session, game, rules, seq)
    if state is None:
        base_seq, state = 0, rules.initial_state(game.seat_count, game.options)
    events = load_events(session, game.id, after=base_seq, upto=seq)
    # events recorded by earlier rules are read in today's vocabulary (engine.core.upcast)
    state = replay(rules, state, upcast(rules, (r.event for r in events
                                                if not r.event.type.startswith(SERVICE_EVENT_PREFIX))))
    remember_state(session, game.id, seq, rules.rules_version, state)
    return state


# ---------------------------------------------------------------- the committed-state cache

_CACHE_SIZE = 512
_CACHE: "OrderedDict[tuple[str, int, str], Any]" = OrderedDict()
_CACHE_LOCK = threading.Lock()
_WROTE = "capua.store.wrote"
_UNCOMMITTED = "capua.store.uncommitted_states"


def remember_state(session: Session, game_id: str, version: int, rules_version: str, state: Any) -> None:
    """Cache ``state`` as the fold of ``game_id`` up to ``version`` once that is committed."""
    key = (game_id, version, rules_version)
    if session.info.get(_WROTE):
        session.info.setdefault(_UNCOMMITTED, []).append((key, state))
    else:
        _cache_put(key, state)


def _cache_put(key: tuple[str, int, str], state: Any) -> None:
    with _CACHE_LOCK:
        _CACHE[key] = state
        _CACHE.move_to_end(key)
        while len(_CACHE) > _CACHE_SIZE:
            _CACHE.popitem(last=False)


def clear_state_cache() -> None:
    """Forget every cached state (tests that rewrite a database under the same ids)."""
    with _CACHE_LOCK:
        _CACHE.clear()


@event.listens_for(Session, "after_commit")
def _publish_after_commit(session: Session) -> None:
    for key, state in session.info.pop(_UNCOMMITTED, ()):
        _cache_put(key, state)
    session.info.pop(_WROTE, None)


@event.listens_for(Session, "after_rollback")
def _drop_after_rollback(session: Session) -> None:
    session.info.pop(_UNCOMMITTED, None)
    session.info.pop(_WROTE, None)


def _newest_snapshot(session: Session, game: Game, rules: Rules, seq: int) -> tuple[int, Any]:
    """``(seq, state)`` of the newest usable snapshot at or below ``seq``, else ``(0, None)``.

    One blob is fetched at a time: a long game has many snapshots and usually the
    newest one is good.
    """
    bound = seq
    while bound >= 0:  # a test's hand-built start is a snapshot at 0 (games._test_start_state)
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
