"""Reminders: a player whose deadline draws near and who has not answered gets one
notification per deadline.

The game clock arms ``remind_at`` when a decision opens (:func:`service.play.game_clock.arm_reminder`);
here a sweep (Celery beat, or the in-process worker) finds the rows whose time has come,
and a conditional update that sets ``reminded_for = deadline_at`` is committed with the
notification row, so a player gets at most one reminder per deadline, and a deadline that
moves (vacation, extension, resume) re-arms it.  What the reminder says renders from the
player's own view (``rules.view`` for their seat) and their open decision.
"""

from __future__ import annotations

import datetime as dt
import logging
from typing import Optional

from sqlalchemy import or_, select, update
from sqlalchemy.orm import Session, sessionmaker

from service.notify import notifications
from service.play import absence, store
from service.plumbing.config import Config
from service.plumbing.db import Game, OpenDecision, Seat, User, utcnow

log = logging.getLogger(__name__)


def due_reminder_ids(session_factory: sessionmaker, now: Optional[dt.datetime] = None, limit: int = 500) -> list[int]:
    now = now or utcnow()
    with session_factory() as session:
        return list(session.scalars(select(OpenDecision.id).where(*_reminder_due(now))
                                    .order_by(OpenDecision.remind_at).limit(limit)))


def _reminder_due(now: dt.datetime) -> tuple:
    return (OpenDecision.remind_at <= now, OpenDecision.deadline_at > now, OpenDecision.user_id.is_not(None),
            or_(OpenDecision.reminded_for.is_(None), OpenDecision.reminded_for != OpenDecision.deadline_at))


def send_reminder(session_factory: sessionmaker, config: Config, row_id: int, now: Optional[dt.datetime] = None) -> bool:
    """Write the reminder notification of one row, once per deadline."""
    now = now or utcnow()
    with session_factory() as session:
        claimed = session.execute(update(OpenDecision).where(OpenDecision.id == row_id, *_reminder_due(now))
                                  .values(reminded_for=OpenDecision.deadline_at)).rowcount
        if not claimed:
            session.rollback()
            return False
        row = session.get(OpenDecision, row_id)
        game = session.get(Game, row.game_id)
        user = session.get(User, row.user_id)
        seat = session.scalars(select(Seat).where(Seat.game_id == row.game_id, Seat.seat == row.seat)).first()
        if (game is None or user is None or seat is None or seat.user_id != user.id or seat.bot_since is not None
                or game.status != "running" or absence.on_vacation(session, user, now)):
            session.commit()  # nothing to say, and nothing more to say for this deadline
            return False
        rules = store.rules_of(game)
        state = store.load_state(session, game, rules=rules)
        decision = next((d for d in rules.pending(state).for_seat(row.seat) if d.id == row.decision_id), None)
        if decision is None:
            session.commit()
            return False
        names = notifications.card_names(rules.view(state, row.seat))
        wrote = notifications.notify(session, config, user, kind="reminder", game=game, seat=row.seat, payload={
            "decisions": [notifications.decision_payload(decision.to_json(), names, row.deadline_at)],
            "events": [], "version": game.version,
            "seat_names": {str(k): v for k, v in notifications.seat_names(session, _seats(session, game.id)).items()},
        }, now=now)
        session.commit()
        return wrote


def run_due_reminders(session_factory: sessionmaker, config: Config, now: Optional[dt.datetime] = None) -> int:
    sent = 0
    for row_id in due_reminder_ids(session_factory, now):
        try:
            sent += send_reminder(session_factory, config, row_id, now)
        except Exception:
            log.exception("reminder %s could not be written", row_id)
    return sent


def _seats(session: Session, game_id: str) -> list[Seat]:
    return list(session.scalars(select(Seat).where(Seat.game_id == game_id).order_by(Seat.seat)))
