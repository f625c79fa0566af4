"""Deadlines: applying defaults when time runs out, and the creator's pause, resume and
extension (the clock policy itself is :mod:`service.play.game_clock`).

Every open decision has a row in ``open_decisions`` with its ``deadline_at`` (see
:func:`service.play.games.refresh_open_decisions`, which asks
:func:`service.play.game_clock.deadline_of`).  A sweep
(Celery beat every ``CAPUA_DEADLINE_SWEEP_SECONDS``, or the in-process worker), and in
production also a task scheduled at the deadline itself, calls :func:`apply_deadline`:

1. **claim** the row with a conditional update (``claimed_at``/``claim_token``, only if
   the deadline has passed and nobody holds a live claim) in a transaction of its own,
   so two sweeps, a sweep and the scheduled task, or a redelivered task never both act;
2. in a second transaction, spend a vacation day if the player has one (the deadline
   moves on) or else submit the decision's default through
   :func:`service.play.games.apply_default`: an ordinary command against the version the row
   carries, which is a no-op when the game has moved on (a late or duplicate trigger);
   count the miss, hand the seat to the bot after too many, and record it all as
   service events in the game's log.  A window answer (``interrupt``, on the window
   clock) simply passes: it spends no vacation day and counts as no miss.

The claim is committed before the work so that the work's transaction never holds a
lock on the row while it takes the game's (a command holds them in the other order); a
claim left by a dead worker expires after the task time limit.

Reminders are armed when a decision opens (:func:`service.play.games.refresh_open_decisions`)
and here when a deadline moves, and sent by
:mod:`service.notify.reminders`.  Deadline tasks are handed to the worker after commit
through :mod:`service.plumbing.dispatch`.
"""

from __future__ import annotations

import datetime as dt
import logging
import secrets
from typing import Any, Optional, Sequence

from sqlalchemy import or_, select, update
from sqlalchemy.orm import Session, sessionmaker

from engine.core.game import Rules
from engine.core.types import Event
from service.identity import settings
from service.play import absence, fanout, games, meta_events, store
from service.play.game_clock import MAX_CLOCK_HOURS, arm_reminder, is_paused, policy_for
from service.plumbing import clock, dispatch
from service.plumbing.config import Config
from service.plumbing.db import Game, GameClock, OpenDecision, Seat, User, utcnow
from service.plumbing.errors import Conflict, InvalidInput, LostRace
from service.plumbing.statements import when_answered

log = logging.getLogger(__name__)

#: Deadlines this close are also scheduled as Celery tasks at their exact time; later
#: ones are left to the sweep.  A task waiting for its ETA sits unacknowledged in the
#: broker, which hands it out again once its visibility timeout passes, so the horizon
#: stays within the countdown the broker allows for (``worker.celery_app.LONGEST_COUNTDOWN``).
ETA_HORIZON = dt.timedelta(seconds=60)

#: The reason a creator gives for a pause is at most this many characters.
MAX_REASON = 300


def claim_timeout(config: Config) -> dt.timedelta:
    """How old a deadline claim must be before it can only belong to a dead worker: the
    task time limit (a live task is killed by then) plus half of it, at least 5 s, for
    clock skew between machines."""
    limit = config.task_time_limit_seconds
    return dt.timedelta(seconds=limit + max(5, limit // 2))


def on_append(session: Session, config: Config, game: Game, rules: Rules, state: Any,
              appended: Sequence[tuple[int, Event]], seats: Sequence[Seat], change: fanout.Change) -> None:
    """Fan-out listener: have the deadlines of the decisions just opened scheduled after
    commit (their reminders were armed as they were written, by
    :func:`service.play.games.refresh_open_decisions`).

    A deadline is scheduled by its row's id, which a command on PostgreSQL learns only
    from the open decisions' upsert, answered with the COMMIT: so the ids are read once
    the statements held now are answered, before anything after the commit runs."""
    opened = change.opened
    if not any(o.deadline_at is not None for o in opened):
        return

    def schedule() -> None:
        # (a row whose id never came back is left to the sweep)
        due = [(o.id, o.deadline_at) for o in opened if o.deadline_at is not None and o.id is not None]
        dispatch.remember_deadlines(session, config, due)

    when_answered(session, schedule)


# --------------------------------------------------------------------------- applying deadlines


def due_deadline_ids(session_factory: sessionmaker, config: Config, now: Optional[dt.datetime] = None,
                     limit: int = 500) -> list[int]:
    """Rows whose deadline has passed and that no live claim holds, oldest first."""
    now = now or utcnow()
    with session_factory() as session:
        return list(session.scalars(
            select(OpenDecision.id).where(*_due(now - claim_timeout(config), now))
            .order_by(OpenDecision.deadline_at).limit(limit)))


def _due(stale: dt.datetime, now: dt.datetime) -> tuple:
    return (OpenDecision.deadline_at <= now, OpenDecision.mode != "free",
            or_(OpenDecision.claimed_at.is_(None), OpenDecision.claimed_at < stale))


def apply_deadline(session_factory: sessionmaker, config: Config, row_id: int,
                   now: Optional[dt.datetime] = None) -> str:
    """Act on one passed deadline; returns what happened: ``applied`` (the default was
    played), ``vacation`` (a vacation day moved the deadline), ``stale`` (the moment had
    passed), ``not_due`` (not due, gone, or claimed by someone else), ``retry``."""
    now = now or utcnow()
    token = secrets.token_hex(8)
    with session_factory() as session:
        claimed = session.execute(update(OpenDecision)
                                  .where(OpenDecision.id == row_id, *_due(now - claim_timeout(config), now))
                                  .values(claimed_at=now, claim_token=token)).rowcount
        session.commit()
    if not claimed:
        return "not_due"
    with session_factory() as session:
        try:
            outcome = _settle(session, config, row_id, token, now)
            if outcome in ("stale", "paused"):
                session.rollback()
                _release(session_factory, row_id, token)
            else:
                session.commit()  # (a write held for it may lose its race only here)
        except LostRace:
            session.rollback()
            _release(session_factory, row_id, token)
            return "retry"
        except Exception:
            session.rollback()
            _release(session_factory, row_id, token)
            raise
        return outcome


def _release(session_factory: sessionmaker, row_id: int, token: str) -> None:
    with session_factory() as session:
        session.execute(update(OpenDecision).where(OpenDecision.id == row_id, OpenDecision.claim_token == token)
                        .values(claimed_at=None, claim_token=None))
        session.commit()


def _settle(session: Session, config: Config, row_id: int, token: str, now: dt.datetime) -> str:
    row = session.get(OpenDecision, row_id)
    if row is None or row.claim_token != token:
        return "not_due"
    # the game's row locked before anything of it changes (the seat's misses, a vacation's
    # new deadline), in the order a command takes: see :func:`_creators_game`
    game = session.get(Game, row.game_id, with_for_update=True, populate_existing=True)
    if game is None or game.status != "running":
        return "stale"
    if is_paused(session, game.id):
        return "paused"
    policy = policy_for(session, game)
    seat = session.scalars(select(Seat).where(Seat.game_id == game.id, Seat.seat == row.seat)).first()
    user = session.get(User, seat.user_id) if seat is not None and seat.user_id is not None else None
    if row.version != game.version:
        log.warning("deadline %s of game %s is at version %s, the game at %s; retrying later",
                    row.decision_id, game.id, row.version, game.version)
        return "stale"
    # A window answer's default (pass) is what a window stands for: letting it pass costs
    # no vacation day and counts as no missed deadline.
    window = row.mode == clock.WINDOW_MODE
    if user is not None and seat.bot_since is None and not window:
        saved = absence.spend_vacation(session, config, user, policy, game, row.deadline_at, now)
        if saved is not None:
            until, days = saved
            row.deadline_at = until
            row.claimed_at = row.claim_token = None
            arm_reminder(row, policy, settings.preferences(session, user, game.id).reminder_lead_hours, now)
            meta_events.record(session, config, game, [meta_events.make(
                meta_events.VACATION_DAY_SPENT, seat=row.seat, until=until.isoformat(), days=days)], None)
            dispatch.remember_deadlines(session, config, [(row.id, until)])
            return "vacation"
    took_over = absence.record_miss(seat, policy, now) if seat is not None and user is not None and not window else False
    result = games.apply_default(session, config, game.id, row.decision_id, row.seat, row.version)
    if result is None:
        return "stale"
    events = [meta_events.make(meta_events.DEADLINE_MISSED, seat=row.seat, decision=row.decision_id,
                               missed=seat.missed_deadlines or 0 if seat is not None else 1)]
    if took_over:
        events.append(meta_events.make(meta_events.BOT_TOOK_OVER, seat=row.seat, missed=seat.missed_deadlines))
    if game.status == "running":
        meta_events.record(session, config, game, events, None)
    return "applied"


def run_due_deadlines(session_factory: sessionmaker, config: Config, now: Optional[dt.datetime] = None) -> int:
    """Apply every passed deadline (the in-process worker's job); returns how many acted."""
    done = 0
    for row_id in due_deadline_ids(session_factory, config, now):
        try:
            done += apply_deadline(session_factory, config, row_id, now) in ("applied", "vacation")
        except Exception:
            log.exception("deadline %s could not be applied", row_id)
    return done


def _seats(session: Session, game_id: str) -> list[Seat]:
    return list(session.scalars(select(Seat).where(Seat.game_id == game_id).order_by(Seat.seat)))


# --------------------------------------------------------------------------- the creator's controls


def _creators_game(session: Session, game_id: str, user: User) -> Game:
    """The running game ``game_id`` of its creator ``user``, its row locked first.

    The creator's controls change the game's open decisions, then append a meta event,
    whose version ``UPDATE`` locks the game's row; a command locks that row first (its
    version ``UPDATE``), then its open decisions.  Taking the row's lock here, before
    any of its open decisions is touched, keeps the one order, so a pause meeting a
    command waits for it instead of deadlocking with it (which PostgreSQL would break by
    failing one of them)."""
    game = games._get_game(session, game_id, lock=True)
    absence.require_creator(game, user)
    if game.status != "running":
        raise Conflict("Only a running game's clock can be changed.",
                       code="game_over" if game.status == "finished" else "game_not_started",
                       details={"game_id": game.id})
    return game


def _by_seat(session: Session, game: Game, user: User) -> Optional[int]:
    return session.scalar(select(Seat.seat).where(Seat.game_id == game.id, Seat.user_id == user.id))


def _rows(session: Session, game_id: str) -> list[OpenDecision]:
    return list(session.scalars(select(OpenDecision).where(OpenDecision.game_id == game_id,
                                                           OpenDecision.mode != "free")))


def pause(session: Session, config: Config, game_id: str, user: User, reason: str = "") -> Game:
    """Stop the game's clock: deadlines keep the time they had left; commands are refused
    with 409 ``game_paused`` until :func:`resume`."""
    if not isinstance(reason, str) or len(reason) > MAX_REASON:
        raise InvalidInput(f"reason must be text of at most {MAX_REASON} characters",
                           details={"field": "reason", "max_length": MAX_REASON})
    game = _creators_game(session, game_id, user)
    row = session.get(GameClock, game.id)
    if row is None:
        row = GameClock(game_id=game.id, timezone="UTC", weekend_pause=False, bot_after_missed=2, vacation=True)
        session.add(row)
    if row.paused_at is not None:
        raise Conflict("The game is paused already.", code="game_paused", details={"game_id": game.id, "already": True})
    now = utcnow()
    row.paused_at, row.paused_by = now, user.id
    for decision in _rows(session, game.id):
        if decision.deadline_at is not None:
            decision.paused_remaining_s = max(0, int((decision.deadline_at - now).total_seconds()))
            decision.deadline_at = None
            decision.remind_at = None
    meta_events.record(session, config, game, [meta_events.make(
        meta_events.GAME_PAUSED, by_seat=_by_seat(session, game, user), reason=reason.strip())], user.id)
    return game


def resume(session: Session, config: Config, game_id: str, user: User) -> Game:
    """Start the clock again: each deadline gets back the time it had left."""
    game = _creators_game(session, game_id, user)
    row = session.get(GameClock, game.id)
    if row is None or row.paused_at is None:
        raise Conflict("The game is not paused.", code="game_not_paused", details={"game_id": game.id})
    now = utcnow()
    row.paused_at = row.paused_by = None
    rearmed = _rearm(session, game, now, lambda d: now + dt.timedelta(seconds=d.paused_remaining_s or 0)
                     if d.paused_remaining_s is not None else d.deadline_at)
    meta_events.record(session, config, game, [meta_events.make(
        meta_events.GAME_RESUMED, by_seat=_by_seat(session, game, user))], user.id)
    dispatch.remember_deadlines(session, config, rearmed)
    return game


def extend(session: Session, config: Config, game_id: str, user: User, hours: Any,
           seat: Optional[int] = None) -> Game:
    """Give ``hours`` more to the open deadlines (of one ``seat`` if given)."""
    if type(hours) is not int or not 1 <= hours <= MAX_CLOCK_HOURS:
        raise InvalidInput(f"hours must be a whole number from 1 to {MAX_CLOCK_HOURS}", code="invalid_clock",
                           details={"field": "hours", "max": MAX_CLOCK_HOURS})
    game = _creators_game(session, game_id, user)
    if seat is not None and (type(seat) is not int or not 0 <= seat < game.seat_count):
        raise InvalidInput(f"seat must be from 0 to {game.seat_count - 1}", code="invalid_seat",
                           details={"field": "seat"})
    rows = [d for d in _rows(session, game.id) if seat is None or d.seat == seat]
    if not rows:
        raise Conflict("No open deadline to extend.", code="no_open_deadline", details={"seat": seat})
    now = utcnow()
    more = dt.timedelta(hours=hours)
    for d in rows:
        if d.paused_remaining_s is not None:
            d.paused_remaining_s += int(more.total_seconds())
    rearmed = _rearm(session, game, now, lambda d: d.deadline_at + more if d.deadline_at is not None else None,
                     only={d.id for d in rows})
    meta_events.record(session, config, game, [meta_events.make(
        meta_events.DEADLINE_EXTENDED, by_seat=_by_seat(session, game, user), hours=hours,
        seats=sorted({d.seat for d in rows}))], user.id)
    dispatch.remember_deadlines(session, config, rearmed)
    return game


def _rearm(session: Session, game: Game, now: dt.datetime, new_deadline, only=None) -> list[tuple[int, dt.datetime]]:
    policy = policy_for(session, game)
    targets = _window_targets(session, game)
    out = []
    for d in _rows(session, game.id):
        if only is not None and d.id not in only:
            continue
        deadline = new_deadline(d)
        if deadline is None:
            continue
        d.deadline_at, d.paused_remaining_s = deadline, None
        d.claimed_at = d.claim_token = None
        user = session.get(User, d.user_id) if d.user_id else None
        lead = settings.preferences(session, user, game.id).reminder_lead_hours if user else None
        arm_reminder(d, policy, lead, now, clock.TARGET_CLOCK_MODE if (d.decision_id, d.seat) in targets else None)
        out.append((d.id, deadline))
    session.flush()
    return out


def _window_targets(session: Session, game: Game) -> set[tuple[str, int]]:
    """The open window answers owed by the window's target (they run on the decision clock,
    :func:`service.plumbing.clock.clock_mode`), by ``(decision id, seat)``."""
    rules = store.rules_of(game)
    state = store.load_state(session, game, rules=rules)
    if rules.outcome(state) is not None:
        return set()
    return {(d.id, d.seat) for d in rules.pending(state).decisions
            if clock.clock_mode(d.mode, d.seat, d.prompt_args) != d.mode}


def clock_view(session: Session, game_id: str) -> dict:
    """The game's clock policy, whether it is paused, the open deadlines and each seat's
    missed deadlines and bot takeover (all public)."""
    game = games._get_game(session, game_id)
    row = session.get(GameClock, game.id)
    policy = policy_for(session, game)
    return {
        "game_id": game.id,
        "version": game.version,
        **policy.to_json(),
        "paused": row is not None and row.paused_at is not None,
        "paused_at": row.paused_at if row is not None else None,
        "deadlines": [{"seat": d.seat, "decision_id": d.decision_id, "deadline_at": d.deadline_at,
                       "remaining_seconds": d.paused_remaining_s}
                      for d in sorted(_rows(session, game.id), key=lambda d: (d.seat, d.decision_id))],
        "seats": [{"seat": s.seat, "missed_deadlines": s.missed_deadlines or 0, "bot_since": s.bot_since}
                  for s in _seats(session, game.id) if not s.is_bot],
    }
