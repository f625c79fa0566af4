"""The game service: the one path every change to a game takes, and every read of one.

A change is always load -> decide -> autoplay -> append (+ open decisions) -> flush:
the player's command is decided by the rules, then the server resolves chance and
answers bot seats (:mod:`service.play.bots`) until a human owes an answer, and everything
is appended in one optimistic step (:func:`service.play.store.append`).  These functions
never commit: the caller (an API view, the CLI, a worker task) commits once, so the
events, the outbox rows and the idempotency record of one request share a transaction.

Reads go out only through ``rules.view(state, viewer)`` and ``rules.visible(event,
viewer)``, with ``viewer`` the asking user's seat, or ``None`` for anyone who holds no
seat; nothing here hands out raw state or raw events.  Timestamps are returned as
timezone-aware ``datetime`` objects for the API schemas and templates to format.
"""

from __future__ import annotations

import copy
import datetime as dt
import functools
import random
import re
import secrets
from dataclasses import dataclass, field, replace
from typing import Any, Callable, Iterable, Mapping, Optional, Sequence

from sqlalchemy import JSON, Integer, String, and_, bindparam, func, literal_column, or_, select, tuple_, update
from sqlalchemy.dialects import postgresql
from sqlalchemy.orm import Session
from sqlalchemy.orm.attributes import set_committed_value

from engine import registry
from engine.core import bots as engine_bots
from engine.core import schema as schema_mod
from engine.core.chance import draw_outcome
from engine.core.errors import RuleViolation
from engine.core.game import Rules
from engine.core.types import Command, Decision, Event
from service.identity import settings
from service.play import absence, at_hand, fanout, game_clock, meta_events, standing_orders, store
from service.play.bots import autoplay, owed_by_bots
from service.plumbing import clock, dispatch
from service.plumbing.config import Config
from service.plumbing.db import Game, GameClock, OpenDecision, Seat, User, utcnow
from service.plumbing.rows import get_rows
from service.plumbing.statements import ahead, defer, dialect_insert, run, when_answered
from service.words.seat_marks import seat_letter, unnamed_player
from service.plumbing.errors import (
    Conflict,
    Forbidden,
    InvalidInput,
    LostRace,
    NotFound,
    StaleVersion,
    from_rule_violation,
)

#: Game ids are ``secrets.token_urlsafe(9)``: 12 url-safe characters, unguessable.
_GAME_ID = re.compile(r"^[A-Za-z0-9_-]{1,32}$")
#: Deliberately loose: the address is proven by the magic link mailed to it, so this only
#: catches typing slips (no "@", spaces, no dot in the domain).
_EMAIL = re.compile(r"^[^@\s]{1,64}@[^@\s.]+(\.[^@\s.]+)+$")
MAX_CLOCK_HOURS = 24 * 90
MAX_EVENTS_PAGE = 1000


@dataclass(frozen=True)
class SubmitResult:
    """What a change appended: the new ``version``, the ``(seq, event)`` pairs (the
    command's own and the chance and bot moves that followed), and the game's outcome
    as JSON once it has ended.

    It also carries what the change had in hand, so the answer is built without reading
    back what was just written: the ``game`` row, its ``rules``, the ``state`` after the
    change, the ``seats``, the open decisions' ``deadlines`` by ``(decision id, seat)``
    and the time ``at`` which the events were appended.
    """

    version: int
    events: list[tuple[int, Event]]
    outcome: Optional[dict]
    game: Optional[Game] = None
    rules: Optional[Rules] = None
    state: Any = None
    seats: Sequence[Seat] = ()
    deadlines: Mapping[tuple[str, int], Optional[dt.datetime]] = field(default_factory=dict)
    at: Optional[dt.datetime] = None


# ---------------------------------------------------------------- creating and joining


def create_game(
    session: Session,
    config: Config,
    *,
    creator: User,
    game_type: str,
    options: Mapping[str, Any],
    seats: int,
    invites: Sequence[str] = (),
    bot_seats: Sequence[int] = (),
    bot_levels: Optional[Mapping[Any, Any]] = None,
    creator_seat: Optional[int] = 0,
    clock_hours: Optional[int] = None,
    title: str = "",
    clock: Optional[Mapping[str, Any]] = None,
) -> Game:
    """Create a game; start it at once if no seat is left open or invited.

    Invited emails take the seats that are neither the creator's nor bots', lowest
    first; seats beyond the invitations stay open for anyone with the game's id.
    ``creator_seat=None`` lets the creator set up a game they do not play.  ``bot_levels``
    gives a bot seat its level (seat number, or its digits, to a level of
    :data:`engine.core.bots.LEVELS`); a bot seat without one, and the stand-in for an
    absent player unless ``clock`` names ``stand_in``, play at the operator's
    ``CAPUA_BOT_LEVEL`` as it is now.  Everything is
    validated before anything is written, so a refused request changes nothing; each
    refusal is an :class:`InvalidInput` naming the ``field``.
    """
    rules = _rules_for_new_game(game_type)
    options = _checked_options(rules, options)
    seat_count = _checked_seat_count(rules, options, seats)
    creator_seat = _checked_creator_seat(creator_seat, seat_count)
    bots = _checked_bot_seats(bot_seats, seat_count, creator_seat)
    levels = _checked_bot_levels(bot_levels, bots, config.bot_level)
    invited = _checked_invites(invites, creator)
    free = [s for s in range(seat_count) if s != creator_seat and s not in bots]
    if len(invited) > len(free):
        raise InvalidInput(
            f"{len(invited)} invitations but only {len(free)} {'seat' if len(free) == 1 else 'seats'} left for "
            "other players",
            code="too_many_invites",
            details={"field": "invites", "free_seats": len(free)},
        )
    hours = _checked_clock_hours(clock_hours, config)
    if isinstance(clock, Mapping) and clock_hours is not None and clock.get("hours", clock_hours) != clock_hours:
        raise InvalidInput("clock_hours and clock.hours differ; give one of them", code="invalid_clock",
                           details={"field": "clock"})
    hours, clock_fields = game_clock.checked_clock(clock, hours)
    clock_fields["stand_in"] = clock_fields["stand_in"] or config.bot_level
    title = _checked_title(title, rules)
    if creator.id is None:  # a user created in this same transaction
        session.add(creator)
        session.flush()

    now = utcnow()
    game = Game(
        id=secrets.token_urlsafe(9),
        game_type=game_type,
        title=title,
        options=options,
        seat_count=seat_count,
        status="open",
        version=0,
        rules_version=rules.rules_version,
        clock_hours=hours,
        created_by=creator.id,
        created_at=now,
        updated_at=now,
    )
    session.add(game)
    invitation = dict(zip(free, invited))
    rows = [
        Seat(
            game_id=game.id,
            seat=n,
            user_id=creator.id if n == creator_seat else None,
            invited_email=invitation.get(n),
            is_bot=n in bots,
            bot_level=levels.get(n),
            joined_at=now if n == creator_seat else None,
        )
        for n in range(seat_count)
    ]
    session.add_all(rows)
    session.add(GameClock(game_id=game.id, **clock_fields))
    session.flush()
    fanout.after_create(session, config, game, rows)
    if not _unfilled(rows):
        _start(session, config, game, rules, rows)
    return game


def join_game(session: Session, config: Config, game_id: str, user: User, seat: Optional[int] = None) -> Seat:
    """Seat ``user`` in a game that has not started; start it if that was the last seat.

    Without ``seat`` the user takes the seat they were invited to, else the first open
    one.  A user holds at most one seat per game; taking another seat than the one they
    were invited to gives that invitation up, so it can never hold the game back.
    """
    game = _get_game(session, game_id)
    # Joins of one game are serialised by this write to its row, which takes the row lock
    # on PostgreSQL and the database write lock on SQLite before the seats are read.
    # Without it two players taking the last two seats could each see the other's seat
    # still open, and the game would never start.
    touched = session.execute(
        Game.__table__.update()
        .where(Game.__table__.c.id == game.id, Game.__table__.c.status == "open")
        .values(updated_at=utcnow())
    )
    session.refresh(game)
    if touched.rowcount != 1:
        raise Conflict("this game has already started", code="game_started", details={"game_id": game.id})
    rows = _seats(session, game.id, fresh=True)
    if any(r.user_id == user.id for r in rows):
        raise Conflict("you already hold a seat in this game", code="already_seated", details={"game_id": game.id})
    email = (user.email or "").lower()
    invitation = next((r for r in rows if r.user_id is None and r.invited_email == email), None)

    if seat is None:
        target = invitation or next((r for r in rows if _is_open(r)), None)
        if target is None:
            raise Conflict("every seat of this game is taken or reserved", code="game_full",
                           details={"game_id": game.id})
    else:
        if type(seat) is not int or not 0 <= seat < game.seat_count:
            raise InvalidInput(f"seat must be a number from 0 to {game.seat_count - 1}", code="invalid_seat",
                               details={"field": "seat"})
        target = rows[seat]
        if target.is_bot or target.user_id is not None:
            raise Conflict(f"seat {seat} is taken", code="seat_taken", details={"seat": seat})
        if target.invited_email is not None and target.invited_email != email:
            raise Conflict(f"seat {seat} is reserved for an invited player", code="seat_reserved",
                           details={"seat": seat})

    now = utcnow()
    seats_table = Seat.__table__
    taken = session.execute(
        seats_table.update()
        .where(seats_table.c.id == target.id, seats_table.c.user_id.is_(None))
        .values(user_id=user.id, joined_at=now)
    )
    if taken.rowcount != 1:
        raise LostRace("someone took that seat a moment ago; try again", details={"seat": target.seat})
    set_committed_value(target, "user_id", user.id)
    set_committed_value(target, "joined_at", now)
    if invitation is not None and invitation is not target:
        invitation.invited_email = None
    session.flush()

    rows = _seats(session, game.id, fresh=True)
    if not _unfilled(rows):
        _start(session, config, game, store.rules_of(game), rows)
    return next(r for r in rows if r.seat == target.seat)


def _start(session: Session, config: Config, game: Game, rules: Rules, seats: Sequence[Seat]) -> SubmitResult:
    """Deal the game: the initial state, then chance and bots until a human must act."""
    state = rules.initial_state(game.seat_count, game.options)
    state = _test_start_state(session, config, game, rules, state)
    return _advance(session, config, game, rules, state, None, None, seats)


def _test_start_state(session: Session, config: Config, game: Game, rules: Rules, state: Any) -> Any:
    """The state a test starts ``game`` from: ``state`` itself, except under ``TESTING``.

    A scenario test may need a hand or a table that public setup cannot deal (the rulebook's
    worked examples); ``create_app({"test_start_state": fn, "TESTING": True})`` with
    ``fn(game, state) -> state`` (``state`` is the rules' initial state; return it unchanged
    to start as usual) hands the service a hand-built engine state instead.  The events
    fold onto it, so it is stored as the game's snapshot at version 0, which the loader
    prefers to the rules' initial state.  A configuration without ``TESTING`` never reads it.
    """
    source = config.extra.get("test_start_state") if config.extra.get("TESTING") else None
    if source is None:
        return state
    built = source(game, state)
    if built is not state:
        store.write_snapshot(session, game, 0, built, rules=rules)
    return built


# ---------------------------------------------------------------- playing


def submit_command(
    session: Session,
    config: Config,
    game_id: str,
    user: User,
    *,
    command_type: str,
    args: dict,
    expected_version: Optional[int],
    seat: Optional[int] = None,
) -> SubmitResult:
    """Play ``command_type`` with ``args`` from the user's seat.

    ``expected_version`` (from If-Match / the request body) must equal the game's
    version when given (else :class:`StaleVersion`, 412); without it the command is
    decided against the version loaded here, and the append still refuses it with
    :class:`LostRace` (409) if another change lands first.
    """
    if not isinstance(command_type, str) or not command_type:
        raise InvalidInput("command type must be a non-empty string", code="invalid_command",
                           details={"field": "type"})
    if not isinstance(args, dict):
        raise InvalidInput("command args must be a JSON object", code="invalid_command", details={"field": "args"})
    if expected_version is not None and type(expected_version) is not int:
        raise InvalidInput("expected_version must be an integer", details={"field": "expected_version"})
    hand = at_hand.load(session, game_id) if isinstance(game_id, str) and _GAME_ID.match(game_id) else None
    if hand is None:
        raise NotFound("no such game", details={"game_id": str(game_id)[:64]})
    game, seats = hand.game, hand.seats
    mine = _seat_of(seats, user)
    if mine is None:
        raise Forbidden("you hold no seat in this game", code="not_seated", details={"game_id": game.id})
    if seat is not None and seat != mine.seat:
        raise Forbidden(f"seat {seat} is not yours", code="not_your_seat", details={"seat": seat, "your_seat": mine.seat})
    if expected_version is not None and expected_version != game.version:
        raise StaleVersion(
            f"the game is at version {game.version}, not {expected_version}; reload it",
            details={"current_version": game.version, "expected_version": expected_version},
        )
    if game.status == "finished":
        raise Conflict("the game has ended", code="game_over", details={"game_id": game.id})
    if game.status != "running":
        raise Conflict("the game has not started: seats are still open", code="game_not_started",
                       details={"game_id": game.id})
    if game_clock.is_paused(session, game.id):
        raise Conflict("the game is paused by its creator; commands wait until it is resumed",
                       code="game_paused", details={"game_id": game.id})
    absence.player_acted(session, config, game, mine)
    rules = store.rules_of(game)
    state = store.load_state(session, game, rules=rules)
    command = Command(mine.seat, command_type, dict(args))
    return _advance(session, config, game, rules, state, command, user.id, seats, hand=hand)


def apply_default(session: Session, config: Config, game_id: str, decision_id: str, seat: int,
                  version: int) -> Optional[SubmitResult]:
    """Submit the default answer of an open decision whose deadline has passed.

    ``version`` is the one the ``open_decisions`` row carried when the sweep read it.
    Returns ``None``, changing nothing, when that moment has passed: the game moved on,
    ended, or the decision is no longer open; so a late or duplicate trigger is harmless.
    A concurrent change landing between the check and the append raises
    :class:`LostRace` like any other writer's would.
    """
    game = session.get(Game, game_id) if isinstance(game_id, str) and _GAME_ID.match(game_id) else None
    if game is None or game.status != "running" or game.version != version or game_clock.is_paused(session, game.id):
        return None
    rules = store.rules_of(game)
    state = store.load_state(session, game, rules=rules)
    decision = next((d for d in rules.pending(state).decisions if d.id == decision_id and d.seat == seat), None)
    if decision is None:
        return None
    return _advance(session, config, game, rules, state, decision.default, None, _seats(session, game.id))


def play_owed_bot_answers(session: Session, config: Config, game_id: str, *,
                          answers: int) -> Optional[SubmitResult]:
    """Give up to ``answers`` answers the game's searching bots owe, paced, then what
    follows them without thought (see :mod:`service.play.bot_turns`, the worker's).

    Returns ``None``, changing nothing, when no bot owes anything (the game moved on or
    ended, another worker was first); ``game.bots_due_at`` stays set while more is owed.
    """
    game = session.get(Game, game_id) if isinstance(game_id, str) and _GAME_ID.match(game_id) else None
    if game is None or game.status != "running" or game.bots_due_at is None:
        return None
    rules = store.rules_of(game)
    state = store.load_state(session, game, rules=rules)
    seats = _seats(session, game.id)
    if not owed_by_bots(rules, state, {s.seat for s in seats if s.is_bot or s.bot_since is not None}):
        game.bots_due_at = None
        return None
    return _advance(session, config, game, rules, state, None, None, seats, search_answers=answers, paced=True,
                    wake_worker=False)


def injected_chance(config: Config, game: Game) -> Optional[Callable[[Any], Mapping[str, Any]]]:
    """The chance source a test injected, bound to ``game``; ``None`` (the CSPRNG) otherwise.

    Two ways, both only with ``TESTING`` (a production configuration never has them):
    ``create_app({"test_chance": fn, ...})`` with ``fn(game, request) -> outcome`` (tests deal
    two games differently and play the same public moves in both), or ``{"test_seed": s}``,
    which draws every chance request from a generator seeded by ``s`` and the request's id
    (unique within a game), so a test's game deals the same way on every run."""
    if not config.extra.get("TESTING"):
        return None
    source = config.extra.get("test_chance")
    if source is not None:
        return lambda request: source(game, request)
    seed = config.extra.get("test_seed")
    if seed is not None:
        return lambda request: draw_outcome(request, random.Random(f"{seed}/chance/{request.id}").randrange)
    return None


def injected_bot_generator(config: Config) -> Optional[Callable[[Decision], random.Random]]:
    """With ``{"test_seed": s, "TESTING": True}``, the generator a bot answering a decision
    uses, seeded by ``s`` and the decision, so a test's bots answer the same way on every
    run; ``None`` (a generator seeded from the CSPRNG per answer) otherwise."""
    seed = config.extra.get("test_seed") if config.extra.get("TESTING") else None
    if seed is None:
        return None
    return lambda decision: random.Random(f"{seed}/bot/{decision.seat}/{decision.id}")


def _advance(
    session: Session,
    config: Config,
    game: Game,
    rules: Rules,
    state: Any,
    command: Optional[Command],
    actor_user_id: Optional[int],
    seats: Sequence[Seat],
    *,
    hand: Optional[at_hand.AtHand] = None,
    search_answers: int = 0,
    paced: bool = False,
    wake_worker: bool = True,
) -> SubmitResult:
    """Decide ``command`` (if any) on ``state`` (the game at ``game.version``), autoplay,
    append it all in one optimistic step and bring the game row and its open decisions
    up to date.  ``hand`` is what :func:`service.play.at_hand.load` read beside the game,
    when the caller loaded it that way; the listeners are then spared their reads.

    Searching bots give at most ``search_answers`` answers here (none in a request: the
    worker gives them, :mod:`service.play.bot_turns`, ``paced``); when they still owe
    one, ``game.bots_due_at`` says so and the worker is woken after the commit (unless
    the worker itself is playing them, ``wake_worker=False``)."""
    made: list[Event] = []
    if command is not None:
        try:
            state, made = store.step_as_stored(rules, state, command)
        except RuleViolation as err:
            raise from_rule_violation(err) from err
    book = standing_orders.book_for(session, game, seats) if hand is None or hand.standing_orders else None
    played_by_server = {s.seat for s in seats if s.is_bot or s.bot_since is not None}
    state, auto = autoplay(rules, state, played_by_server, standing=book, level=config.bot_level,
                           think_ms=config.bot_think_ms, draw=injected_chance(config, game),
                           generator=injected_bot_generator(config),
                           levels=bot_levels(session, config, game, seats), search_answers=search_answers,
                           paced=paced)
    actors: list[Optional[int]] = [actor_user_id] * len(made) + [None] * len(auto)
    for first, count, owner, _order in book.attributions if book is not None else ():
        # A standing order's answer is the player's own, given in advance.
        actors[len(made) + first:len(made) + first + count] = [owner] * count
    # Set only what changes: an unchanged ORM game then costs no flush at all, and the
    # version's UPDATE writes what changed in a plain one (a command's, at_hand).
    outcome = rules.outcome(state)
    _change(game, "rules_version", rules.rules_version)
    if outcome is not None:
        game.status = "finished"
        game.outcome = outcome.to_json()
    else:
        _change(game, "status", "running")
    if owed_by_bots(rules, state, played_by_server):
        game.bots_due_at = utcnow()
        if wake_worker:
            dispatch.remember_bots(session, config, game.id)
    else:
        _change(game, "bots_due_at", None)
    appended = store.append(
        session,
        game,
        made + auto,
        game.version,
        actors,
        state=state,
        snapshot_every=config.snapshot_every,
        rules=rules,
    )
    if book is not None and book.attributions:
        book.record_uses(session, game.id)
    deadlines, opened, prefs = refresh_open_decisions(session, game, rules, state, seats=seats,
                                                      stored=hand.open_decisions if hand is not None else None)
    change = fanout.Change(opened=opened, actors=frozenset(a for a in actors if a is not None),
                           last_mailed=hand.last_mailed if hand is not None else None,
                           webhooks=hand.webhooks if hand is not None else None, preferences=prefs)
    fanout.after_append(session, config, game, rules, state, appended, seats, change)
    session.flush()
    return SubmitResult(version=game.version, events=appended, outcome=game.outcome, game=game, rules=rules,
                        state=state, seats=seats, deadlines=deadlines, at=game.updated_at)


def _change(row: Any, name: str, value: Any) -> None:
    """``setattr(row, name, value)`` unless it holds ``value`` already (which would mark
    the row dirty and cost a flush that writes nothing)."""
    if getattr(row, name) != value:
        setattr(row, name, value)


def bot_levels(session: Session, config: Config, game: Game, seats: Sequence[Seat]) -> dict[int, str]:
    """How each seat the server plays is played: a bot seat at its level, an absent
    player's seat as the game's ``stand_in`` says (a level or ``defaults``); a game from
    before levels were chosen at the operator's ``CAPUA_BOT_LEVEL``."""
    levels = {s.seat: s.bot_level or config.bot_level for s in seats if s.is_bot}
    absent = [s.seat for s in seats if not s.is_bot and s.bot_since is not None]
    if absent:
        stand_in = game_clock.policy_for(session, game).stand_in or config.bot_level
        levels.update((seat, stand_in) for seat in absent)
    return levels


@dataclass(frozen=True)
class _OpenDecisionStatements:
    gone: Any      # DELETE the game's rows but those ``keep`` names, by (decision id, seat)
    all_gone: Any  # DELETE every row of the game
    upsert: Any    # INSERT one row, or move a kept row's version; RETURNING what it holds
    arrays: bool   # PostgreSQL: ``upsert`` does ``gone``'s DELETE too, the kept pairs as two arrays


@functools.lru_cache(maxsize=None)
def _open_decision_statements(dialect: str) -> _OpenDecisionStatements:
    """The statements of :func:`refresh_open_decisions` for ``dialect``, built once
    (building and keying them cost more than running them)."""
    table = OpenDecision.__table__
    mine = table.c.game_id == bindparam("game_id")
    insert = dialect_insert(dialect)(table)
    upsert = insert.on_conflict_do_update(
        index_elements=["game_id", "decision_id", "seat"], set_={"version": insert.excluded.version},
    ).returning(table.c.id, table.c.decision_id, table.c.seat, table.c.opened_version, table.c.deadline_at)
    if dialect == "postgresql":
        # the kept pairs as two arrays: one SQL text whatever their number (an expanding
        # list is rendered anew for each)
        kept = select(func.unnest(bindparam("keep_ids", type_=postgresql.ARRAY(String))),
                      func.unnest(bindparam("keep_seats", type_=postgresql.ARRAY(Integer))))
        # The DELETE rides in the upsert, as its WITH: one statement, not two.  Both run
        # on the statement's snapshot and touch disjoint rows (the DELETE those not kept,
        # the upsert those kept or new), so neither needs to see the other's work; with
        # several rows the upsert runs once per row, each time with the same DELETE,
        # which finds nothing more to do after the first.
        gone = table.delete().where(table.c.game_id == bindparam("gone_game_id"),
                                    tuple_(table.c.decision_id, table.c.seat).not_in(kept))
        upsert = upsert.add_cte(gone.cte("gone"))
    else:
        # the kept pairs as one JSON array of pairs, for the same reason (and so the
        # statement runs on the driver: :mod:`service.plumbing.statements`)
        pair = literal_column("value")
        kept = (select(func.json_extract(pair, "$[0]"), func.json_extract(pair, "$[1]"))
                .select_from(func.json_each(bindparam("keep", type_=JSON))))
        gone = table.delete().where(mine, tuple_(table.c.decision_id, table.c.seat).not_in(kept))
    return _OpenDecisionStatements(gone=gone, all_gone=table.delete().where(mine), upsert=upsert,
                                   arrays=dialect == "postgresql")


def refresh_open_decisions(session: Session, game: Game, rules: Rules, state: Any, *,
                           seats: Optional[Sequence[Seat]] = None, now: Optional[dt.datetime] = None,
                           stored: Optional[Mapping[tuple[str, int], Optional[dt.datetime]]] = None,
                           ) -> tuple[dict[tuple[str, int], Optional[dt.datetime]], list[fanout.Opened],
                                      dict[int, settings.Preferences]]:
    """Make ``open_decisions`` list exactly the decisions open in ``state``; return the
    deadline of each open row by ``(decision id, seat)``, the rows opened now, and the
    settings for this game of the players who hold them (read for their reminders; the
    fan-out's listeners are spared reading them again).

    Decisions no longer open are deleted; new ones get ``opened_at = now``,
    ``opened_version`` and, unless they are free actions, the deadline of the game's
    clock policy (:func:`service.play.game_clock.deadline_of`; window answers run on the
    window clock) with its reminder armed (the player's reminder lead).  A decision still
    open keeps its row, its opening time and its deadline (answering one part of a
    simultaneous decision must not extend everybody else's clock), but its ``version``
    moves to the game's current one, because a deadline default is submitted against
    that version and would otherwise be refused as stale forever.  Bot seats never owe
    anything here: autoplay has answered their blocking decisions and they ignore free
    ones.

    Two statements whatever changed: a ``DELETE`` of the rows no longer wanted, and one
    ``INSERT ... ON CONFLICT DO UPDATE`` of the wanted ones that returns every row, new
    or kept (a kept row still carries the version it was first opened at); on
    PostgreSQL one, the ``DELETE`` in the upsert's ``WITH``.  Both are built once per
    dialect (:func:`_open_decision_statements`).

    ``stored``: the game's rows as they stood before this change, each one's
    ``deadline_at`` by ``(decision id, seat)``, when the caller read them (a command on
    PostgreSQL: :attr:`service.play.at_hand.AtHand.open_decisions`).  Then the new rows
    and the kept rows' deadlines are known without the upsert's answer, and the upsert
    travels with the COMMIT instead of in a round trip of its own; its answer, back
    with the COMMIT's, gives the new rows their ids: until then each new row's
    :class:`~service.play.fanout.Opened` has ``id`` ``None``, and the returned list is
    filled in place before anything after the commit runs (read the ids from
    :func:`~service.plumbing.statements.when_answered`, as
    :func:`service.play.deadlines.on_append` does).

    What ``stored`` shows may differ from the rows the upsert meets only through writers
    that change ``open_decisions`` without moving the game's version, since one that
    moves it makes this change lose its race (``stored`` is read in the game's own
    statement, on its snapshot: see :func:`service.play.at_hand.load`).  Those are a reminder marking the deadline it
    reminded of (``reminded_for``) and a deadline's claim (``claimed_at``,
    ``claim_token``): neither adds, removes or moves a row's deadline, so the answer is
    the upsert's.  Were a row to change otherwise in between, the stored rows would still
    be right (the upsert keeps a row it meets and inserts one it does not, as ever) and
    only the answer would tell what ``stored`` said: a kept row's deadline as read, or a
    row ``stored`` lacked as newly opened.
    """
    now = now or utcnow()
    seats = seats if seats is not None else _seats(session, game.id)
    by_seat = {s.seat: s for s in seats}
    wanted: dict[tuple[str, int], Any] = {}
    if rules.outcome(state) is None:
        for d in rules.pending(state).decisions:
            row = by_seat.get(d.seat)
            if row is None or not row.is_bot:
                wanted[(d.id, d.seat)] = d
    statements = _open_decision_statements(session.get_bind(OpenDecision.__mapper__).dialect.name)
    if not wanted:
        defer(session, statements.all_gone, {"game_id": game.id})
        return {}, [], {}
    gone: dict[str, Any] = {}
    if statements.arrays:  # (the upsert's own DELETE)
        gone = {"gone_game_id": game.id, "keep_ids": [d for d, _ in wanted], "keep_seats": [s for _, s in wanted]}
    else:
        defer(session, statements.gone, {"game_id": game.id, "keep": [list(pair) for pair in wanted]})
    policy = game_clock.policy_for(session, game)
    holders = {seat: by_seat[seat].user_id if seat in by_seat else None for _id, seat in wanted}
    users = get_rows(session, User, [u for u in holders.values() if u is not None])
    prefs = settings.preferences_for(session, list(users.values()), game.id)
    values = []
    written = {}
    version = game.version
    for key, d in wanted.items():
        decision_id, seat = key
        user_id = holders[seat]
        mode = clock.clock_mode(d.mode, seat, d.prompt_args)  # a window's target: the decision clock
        deadline = None if d.mode == "free" else game_clock.deadline_of(policy, mode, now)
        lead = prefs[user_id].reminder_lead_hours if user_id in prefs else None
        written[key] = row = {
            "game_id": game.id, "decision_id": decision_id, "seat": seat, "user_id": user_id, "mode": d.mode,
            "version": version, "opened_version": version, "opened_at": now, "deadline_at": deadline,
            "remind_at": game_clock.reminder_at(policy, mode, deadline, lead, now), **gone}
        values.append(row)
    deadlines: dict[tuple[str, int], Optional[dt.datetime]] = {}
    opened: list[fanout.Opened] = []
    if stored is not None:
        for key, mine in written.items():
            if key in stored:
                deadlines[key] = stored[key]
            else:
                deadlines[key] = mine["deadline_at"]
                # (in the order of the rows: the order of their ids, as below)
                opened.append(fanout.Opened(id=None, decision_id=key[0], seat=key[1], user_id=mine["user_id"],
                                            mode=mine["mode"], deadline_at=mine["deadline_at"]))
        if opened:
            answer = ahead(session, statements.upsert, values)
            when_answered(session, functools.partial(_fill_ids, answer, opened))
        else:
            defer(session, statements.upsert, values)
        return deadlines, opened, prefs
    # One statement for every row (an executemany that SQLAlchemy sends as one multi-row
    # INSERT), so its SQL is compiled once, not once per number of rows.
    for row_id, decision_id, seat, opened_version, deadline_at in run(session, statements.upsert, values):
        if opened_version == game.version:
            mine = written[(decision_id, seat)]
            deadlines[(decision_id, seat)] = mine["deadline_at"]
            opened.append(fanout.Opened(id=row_id, decision_id=decision_id, seat=seat, user_id=mine["user_id"],
                                        mode=mine["mode"], deadline_at=mine["deadline_at"]))
        else:
            deadlines[(decision_id, seat)] = deadline_at
    opened.sort(key=lambda o: o.id)
    return deadlines, opened, prefs


def _fill_ids(answer: Any, opened: list[fanout.Opened]) -> None:
    """Give each row of ``opened`` its id from the upsert's ``answer`` (in place).

    Run once the answer is back, which may be after the COMMIT: nothing here may fail
    then.  The upsert returns every row it wrote, so each finds its id (one it did not
    find would keep ``None``, and its deadline is left to the sweep)."""
    ids = {(decision_id, seat): row_id for row_id, decision_id, seat, _version, _deadline in answer.rows() or ()}
    opened[:] = [replace(o, id=ids.get((o.decision_id, o.seat))) for o in opened]


# ---------------------------------------------------------------- reading


def game_summary(session: Session, game: Game, user: Optional[User]) -> dict:
    """Who plays, whose move it is and how it stands, as ``user`` may see it.

    Built from the seats and ``open_decisions`` alone (no fold), so lists of games stay
    cheap.  Invited addresses are shown only to the creator and to the invitee; others
    see that a seat is ``invited``.
    """
    return _summaries(session, [game], user)[0]


def game_view(session: Session, game_id: str, user: Optional[User]) -> dict:
    """The summary plus ``board``: ``rules.view`` of the current state for the user's seat."""
    game = _get_game(session, game_id)
    summary = game_summary(session, game, user)
    rules = store.rules_of(game)
    state = store.load_state(session, game, rules=rules)
    return {**summary, "board": rules.view(state, summary["my_seat"])}


def decisions_for(session: Session, game_id: str, user: Optional[User]) -> list[dict]:
    """The user's open decisions with their legal options, deadline and the version to
    answer against; empty for anyone without a seat or in a game that is not running."""
    game = _get_game(session, game_id)
    mine = _seat_of(_seats(session, game.id), user)
    if mine is None or game.status != "running":
        return []
    rules = store.rules_of(game)
    state = store.load_state(session, game, rules=rules)
    rows = {
        r.decision_id: r
        for r in session.scalars(
            select(OpenDecision).where(OpenDecision.game_id == game.id, OpenDecision.seat == mine.seat)
        )
    }
    out = []
    for decision in rules.pending(state).for_seat(mine.seat):
        row = rows.get(decision.id)
        out.append({
            **decision.to_json(),
            "deadline_at": row.deadline_at if row is not None else None,
            "version": game.version,
        })
    return out


def command_answer(result: SubmitResult, user: Optional[User]) -> dict:
    """The answer to a command, from what it had in hand (no statement): the events it
    appended as ``user`` may see them and ``user``'s open decisions, exactly what
    :func:`visible_events` and :func:`decisions_for` would read back."""
    mine = _seat_of(result.seats, user)
    viewer = mine.seat if mine is not None else None
    events = []
    for seq, event in result.events:
        data = visible_event(result.rules, event, viewer)
        if data is not None:
            events.append({"seq": seq, "type": event.type, "data": data, "at": result.at})
    decisions = []
    if mine is not None and result.game.status == "running":
        for decision in result.rules.pending(result.state).for_seat(mine.seat):
            decisions.append({
                **decision.to_json(),
                "deadline_at": result.deadlines.get((decision.id, mine.seat)),
                "version": result.version,
            })
    return {"version": result.version, "events": events, "decisions": decisions, "outcome": result.outcome}


def visible_events(session: Session, game_id: str, user: Optional[User], after: int = 0,
                   limit: int = 200) -> list[dict]:
    """Up to ``limit`` events after ``after`` as the user may see them.

    Events invisible to the user are skipped without using up the page, so a client
    paging by the last ``seq`` it saw never mistakes a run of hidden events for the end.
    """
    if type(after) is not int or after < 0:
        raise InvalidInput("after must be a non-negative integer", details={"field": "after"})
    if type(limit) is not int or not 1 <= limit <= MAX_EVENTS_PAGE:
        raise InvalidInput(f"limit must be between 1 and {MAX_EVENTS_PAGE}", details={"field": "limit"})
    game = _get_game(session, game_id)
    viewer = _viewer(session, game, user)
    rules = store.rules_of(game)
    out: list[dict] = []
    cursor = after
    while len(out) < limit and cursor < game.version:
        batch = store.load_events(session, game.id, after=cursor, upto=game.version, limit=limit)
        if not batch:
            break
        for recorded in batch:
            data = visible_event(rules, recorded.event, viewer)
            if data is not None:
                out.append({"seq": recorded.seq, "type": recorded.event.type, "data": data, "at": recorded.at})
                if len(out) == limit:
                    break
        cursor = batch[-1].seq
    return out


def visible_event(rules: Rules, event: Event, viewer: Optional[int]) -> Optional[dict]:
    """An event of the stream as ``viewer`` may see it: the rules' ``visible`` for game
    events, :func:`service.play.meta_events.visible` for the service's own (``capua.*``),
    which the rules never see."""
    if meta_events.is_meta(event.type):
        return meta_events.visible(event, viewer)
    return rules.visible(event, viewer)


def summary_for(session: Session, game_id: str, user: Optional[User]) -> dict:
    """The game's own one-paragraph telling (the latest fight, for Spartacus), built by
    ``rules.summarize`` from the events the user may see; ``None`` for games without one."""
    game = _get_game(session, game_id)
    viewer = _viewer(session, game, user)
    rules = store.rules_of(game)
    summarize = getattr(rules, "summarize", None)
    text = None
    if summarize is not None:
        events = [r.event for r in store.load_events(session, game.id)
                  if not r.event.type.startswith(store.SERVICE_EVENT_PREFIX)]
        text = summarize(events, viewer) or None
    return {"game_id": game.id, "version": game.version, "summary": text}


def view_at(session: Session, game_id: str, user: Optional[User], seq: int) -> dict:
    """The board as it stood after event ``seq``, for replays; 404 beyond the game's version."""
    game = _get_game(session, game_id)
    if type(seq) is not int or not 0 <= seq <= game.version:
        raise NotFound(f"game {game.id} has no version {seq}", code="no_such_version",
                       details={"game_id": game.id, "version": game.version})
    viewer = _viewer(session, game, user)
    rules = store.rules_of(game)
    state = store.load_state_at(session, game, seq, rules=rules)
    return {"game_id": game.id, "seq": seq, "version": game.version, "board": rules.view(state, viewer)}


def games_for_user(session: Session, user: User) -> list[dict]:
    """Summaries of the games the user sits in or is invited to: those awaiting the
    user's answer first, then the most recently changed."""
    email = (user.email or "").lower()
    mine = select(Seat.game_id).where(
        or_(Seat.user_id == user.id, and_(Seat.user_id.is_(None), Seat.invited_email == email))
    )
    games = list(session.scalars(select(Game).where(Game.id.in_(mine))))
    summaries = _summaries(session, games, user)
    summaries.sort(key=lambda s: s["updated_at"], reverse=True)
    summaries.sort(key=lambda s: s["my_open_decisions"] == 0)
    return summaries


# ---------------------------------------------------------------- helpers


def _summaries(session: Session, games: Sequence[Game], user: Optional[User]) -> list[dict]:
    """Summaries of ``games`` in three queries however many games there are."""
    if not games:
        return []
    ids = [g.id for g in games]
    seats_of: dict[str, list[Seat]] = {g.id: [] for g in games}
    for row in session.scalars(select(Seat).where(Seat.game_id.in_(ids)).order_by(Seat.game_id, Seat.seat)):
        seats_of[row.game_id].append(row)
    user_ids = {s.user_id for rows in seats_of.values() for s in rows if s.user_id is not None}
    users = {u.id: u for u in session.scalars(select(User).where(User.id.in_(user_ids)))} if user_ids else {}
    open_of: dict[str, list[OpenDecision]] = {g.id: [] for g in games}
    for row in session.scalars(select(OpenDecision).where(OpenDecision.game_id.in_(ids))):
        open_of[row.game_id].append(row)

    email = (user.email or "").lower() if user is not None else None
    out = []
    for game in games:
        rows = seats_of[game.id]
        mine = _seat_of(rows, user)
        my_seat = mine.seat if mine is not None else None
        sees_invites = user is not None and user.id == game.created_by
        blocking = [d for d in open_of[game.id] if d.mode != "free"]
        mine_blocking = [d for d in blocking if my_seat is not None and d.seat == my_seat]
        out.append({
            "id": game.id,
            "game_type": game.game_type,
            "title": game.title,
            "status": game.status,
            "version": game.version,
            "seat_count": game.seat_count,
            "clock_hours": game.clock_hours,
            "created_at": game.created_at,
            "updated_at": game.updated_at,
            "seats": [_seat_summary(r, users, user, sees_invites or r.invited_email == email) for r in rows],
            "my_seat": my_seat,
            "invited_seat": next((r.seat for r in rows if r.user_id is None and email is not None
                                  and r.invited_email == email), None),
            "awaiting_seats": sorted({d.seat for d in blocking}),
            "bots_thinking": game.status == "running" and game.bots_due_at is not None,
            "my_open_decisions": len(mine_blocking),
            "next_deadline": min((d.deadline_at for d in blocking if d.deadline_at), default=None),
            "my_next_deadline": min((d.deadline_at for d in mine_blocking if d.deadline_at), default=None),
            "outcome": game.outcome,
        })
    return out


def mark_on_page(session: Session, game_id: str, user: Optional[User], now: Optional[dt.datetime] = None) -> None:
    """Remember that ``user`` has the game's page in front of them now (their seat's
    ``on_page_at``); nothing for a visitor without a seat.  A game is never changed."""
    if user is None:
        return
    session.execute(update(Seat).where(Seat.game_id == game_id, Seat.user_id == user.id)
                    .values(on_page_at=now or utcnow()))


def _seat_summary(row: Seat, users: Mapping[int, User], viewer: Optional[User], show_invite: bool) -> dict:
    holder = users.get(row.user_id) if row.user_id is not None else None
    invited = row.user_id is None and row.invited_email is not None
    if row.is_bot:
        name: Optional[str] = f"Bot {seat_letter(row.seat)}"
    elif holder is not None:
        name = holder.display_name or unnamed_player(row.seat)
    else:
        name = None
    out = {
        "seat": row.seat,
        "name": name,
        "is_bot": row.is_bot,
        "bot_level": row.bot_level if row.is_bot else None,
        "invited": invited,
        "open": _is_open(row),
        "is_you": viewer is not None and row.user_id == viewer.id,
    }
    if invited and show_invite:
        out["invited_email"] = row.invited_email
    return out


def _get_game(session: Session, game_id: str, *, lock: bool = False) -> Game:
    """The game ``game_id`` (:class:`NotFound` if none); with ``lock``, read anew with its
    row locked for this transaction (``SELECT ... FOR UPDATE`` on PostgreSQL; SQLite's
    writer holds the whole database)."""
    found = isinstance(game_id, str) and _GAME_ID.match(game_id)
    if found and lock:
        game = session.get(Game, game_id, with_for_update=True, populate_existing=True)
    else:
        game = session.get(Game, game_id) if found else None
    if game is None:
        raise NotFound("no such game", details={"game_id": str(game_id)[:64]})
    return game


def _seats(session: Session, game_id: str, *, fresh: bool = False) -> list[Seat]:
    query = select(Seat).where(Seat.game_id == game_id).order_by(Seat.seat)
    if fresh:
        query = query.execution_options(populate_existing=True)
    return list(session.scalars(query))


def _seat_of(seats: Iterable[Seat], user: Optional[User]) -> Optional[Seat]:
    if user is None or user.id is None:
        return None
    return next((s for s in seats if s.user_id == user.id), None)


def _viewer(session: Session, game: Game, user: Optional[User]) -> Optional[int]:
    mine = _seat_of(_seats(session, game.id), user)
    return mine.seat if mine is not None else None


def _is_open(row: Seat) -> bool:
    return not row.is_bot and row.user_id is None and row.invited_email is None


def _unfilled(rows: Iterable[Seat]) -> list[Seat]:
    return [r for r in rows if not r.is_bot and r.user_id is None]


# ---------------------------------------------------------------- validating a new game


def _rules_for_new_game(game_type: Any) -> Rules:
    try:
        if not isinstance(game_type, str):
            raise KeyError(game_type)
        return registry.get(game_type)
    except KeyError:
        raise InvalidInput(f"unknown game type {game_type!r}", code="unknown_game_type",
                           details={"field": "game_type", "known": registry.names()}) from None


def _checked_options(rules: Rules, options: Any) -> dict:
    """The options with the schema's defaults filled in, validated against it."""
    if options is None:
        options = {}
    if not isinstance(options, Mapping):
        raise InvalidInput("options must be a JSON object", code="invalid_options", details={"field": "options"})
    schema = rules.options_schema() or {}
    filled = dict(options)
    for name, sub in (schema.get("properties") or {}).items():
        if name not in filled and isinstance(sub, Mapping) and "default" in sub:
            filled[name] = copy.deepcopy(sub["default"])
    try:
        schema_mod.validate(schema, filled, "options")
    except RuleViolation as err:
        raise InvalidInput(err.message, code="invalid_options", details={"field": "options"}) from err
    return filled


def _checked_seat_count(rules: Rules, options: Mapping[str, Any], seats: Any) -> int:
    allowed = sorted(rules.seat_counts(options))
    if type(seats) is not int or seats not in allowed:
        raise InvalidInput(f"{rules.title} is played by {_spoken_list(allowed)} players, not {seats!r}",
                           code="invalid_seats", details={"field": "seats", "allowed": allowed})
    return seats


def _checked_creator_seat(creator_seat: Any, seat_count: int) -> Optional[int]:
    if creator_seat is None:
        return None
    if type(creator_seat) is not int or not 0 <= creator_seat < seat_count:
        raise InvalidInput(f"creator_seat must be a seat from 0 to {seat_count - 1}", code="invalid_seat",
                           details={"field": "creator_seat"})
    return creator_seat


def _checked_bot_seats(bot_seats: Any, seat_count: int, creator_seat: Optional[int]) -> frozenset[int]:
    if isinstance(bot_seats, (str, bytes, Mapping)) or not isinstance(bot_seats, Iterable):
        raise InvalidInput("bot_seats must be a list of seat numbers", code="invalid_seat",
                           details={"field": "bot_seats"})
    bots = list(bot_seats)
    for n in bots:
        if type(n) is not int or not 0 <= n < seat_count:
            raise InvalidInput(f"bot seat {n!r} is not a seat from 0 to {seat_count - 1}", code="invalid_seat",
                               details={"field": "bot_seats"})
    if len(set(bots)) != len(bots):
        raise InvalidInput("a bot seat is listed twice", code="invalid_seat", details={"field": "bot_seats"})
    if creator_seat is not None and creator_seat in bots:
        raise InvalidInput(f"seat {creator_seat} cannot be both yours and a bot's", code="invalid_seat",
                           details={"field": "bot_seats"})
    return frozenset(bots)


def _checked_bot_levels(bot_levels: Any, bots: frozenset[int], default: str) -> dict[int, str]:
    """The level of every bot seat: ``bot_levels``'s, else ``default``."""
    if bot_levels is None:
        bot_levels = {}
    if not isinstance(bot_levels, Mapping):
        raise InvalidInput("bot_levels must map bot seats to levels", code="invalid_bot_level",
                           details={"field": "bot_levels"})
    levels = {n: default for n in bots}
    for key, level in bot_levels.items():
        seat = key if type(key) is int else int(key) if isinstance(key, str) and key.isdigit() and len(key) < 4 else None
        if seat not in bots:
            raise InvalidInput(f"bot_levels names {str(key)[:8]!r}, which is not a bot seat", code="invalid_bot_level",
                               details={"field": "bot_levels"})
        if level not in engine_bots.LEVELS:
            raise InvalidInput(f"a bot's level is one of {', '.join(engine_bots.LEVELS)}", code="invalid_bot_level",
                               details={"field": "bot_levels", "seat": seat})
        levels[seat] = level
    return levels


def _checked_invites(invites: Any, creator: User) -> list[str]:
    if isinstance(invites, (str, bytes, Mapping)) or not isinstance(invites, Iterable):
        raise InvalidInput("invites must be a list of email addresses", code="invalid_invites",
                           details={"field": "invites"})
    out: list[str] = []
    for raw in invites:
        email = raw.strip().lower() if isinstance(raw, str) else None
        if not email or len(email) > 320 or not _EMAIL.match(email):
            raise InvalidInput(f"{raw!r} is not an email address", code="invalid_invites",
                               details={"field": "invites", "invalid": str(raw)[:320]})
        if email in out:
            raise InvalidInput(f"{email} is invited twice", code="invalid_invites",
                               details={"field": "invites", "duplicate": email})
        if email == (creator.email or "").lower():
            raise InvalidInput("you cannot invite yourself: a player holds one seat per game",
                               code="invalid_invites", details={"field": "invites", "invalid": email})
        out.append(email)
    return out


def _checked_clock_hours(clock_hours: Any, config: Config) -> int:
    if clock_hours is None:
        return config.default_clock_hours
    if type(clock_hours) is not int or not 1 <= clock_hours <= MAX_CLOCK_HOURS:
        raise InvalidInput(f"clock_hours must be between 1 and {MAX_CLOCK_HOURS}", code="invalid_clock",
                           details={"field": "clock_hours"})
    return clock_hours


def _checked_title(title: Any, rules: Rules) -> str:
    if title is None:
        title = ""
    if not isinstance(title, str) or len(title.strip()) > 120:
        raise InvalidInput("title must be text of at most 120 characters", code="invalid_title",
                           details={"field": "title"})
    return title.strip() or rules.title


def _spoken_list(numbers: Sequence[int]) -> str:
    words = [str(n) for n in numbers] or ["no"]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]
