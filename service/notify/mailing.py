"""Due notifications become mail: each player's pending rows, once the first is due, are
composed into one mail (:mod:`service.notify.compose`) and marked ``mailed`` in the same
transaction that queues it, with a conditional update so that two composers never mail
the same row.  Decisions answered meanwhile are left out, and a row with nothing left to
say is ``dropped``.

Runs in the worker (the in-process thread, or the Celery tasks) after a commit that wrote
rows, and on every outbox sweep.
"""

from __future__ import annotations

import datetime as dt
import logging
from typing import Iterable, Optional, Sequence

from sqlalchemy import case, func, select, update
from sqlalchemy.orm import Session, sessionmaker

from service.identity.settings import preferences
from service.notify import compose as notify_mail
from service.notify.notifications import due_time
from service.plumbing import mail
from service.plumbing.config import Config
from service.plumbing.db import Notification, OpenDecision, User, utcnow

log = logging.getLogger(__name__)


def due_users(session_factory: sessionmaker, now: Optional[dt.datetime] = None, limit: int = 1000) -> list[int]:
    """Players with at least one notification whose time has come."""
    now = now or utcnow()
    with session_factory() as session:
        return list(session.scalars(
            select(Notification.user_id).where(Notification.status == "pending", Notification.due_at <= now)
            .group_by(Notification.user_id).order_by(func.min(Notification.due_at)).limit(limit)))


def compose_due(session_factory: sessionmaker, config: Config, now: Optional[dt.datetime] = None,
                limit: int = 1000) -> list[int]:
    """Compose a mail for every player with due notifications; returns the mail ids."""
    return compose_many(session_factory, config, due_users(session_factory, now, limit), now)


#: Players composed in one transaction: a burst of notifications costs one commit per
#: batch, not per player.
COMPOSE_BATCH = 100


def compose_many(session_factory: sessionmaker, config: Config, user_ids: Iterable[int],
                 now: Optional[dt.datetime] = None) -> list[int]:
    """:func:`compose_for_user` for several players, a batch per transaction; a batch
    that loses a race to another composer is redone player by player."""
    ids = list(dict.fromkeys(int(u) for u in user_ids))
    out: list[int] = []
    for start in range(0, len(ids), COMPOSE_BATCH):
        batch = ids[start:start + COMPOSE_BATCH]
        try:
            out.extend(_compose_batch(session_factory, config, batch, now))
        except _LostToAnotherComposer:
            for user_id in batch:
                try:
                    mail_id = compose_for_user(session_factory, config, user_id, now)
                except Exception:
                    log.exception("composing notifications for user %s failed", user_id)
                    continue
                if mail_id is not None:
                    out.append(mail_id)
        except Exception:
            log.exception("composing notifications for users %s failed", batch)
    return out


def compose_for_user(session_factory: sessionmaker, config: Config, user_id: int,
                     now: Optional[dt.datetime] = None) -> Optional[int]:
    """All of one player's pending notifications as one mail, once the first is due.

    Returns the queued mail's id, or ``None`` when nothing was due, nothing was left to
    say (the rows are dropped), or another composer took the rows first.
    """
    try:
        ids = _compose_batch(session_factory, config, [user_id], now)
    except _LostToAnotherComposer:
        return None
    return ids[0] if ids else None


class _LostToAnotherComposer(Exception):
    """Another composer marked some of these rows first; this transaction was rolled back."""


def _compose_batch(session_factory: sessionmaker, config: Config, user_ids: Sequence[int],
                   now: Optional[dt.datetime]) -> list[int]:
    now = now or utcnow()
    out = []
    with session_factory() as session:
        pending: dict[int, list[Notification]] = {}
        for row in session.scalars(select(Notification).where(Notification.user_id.in_(user_ids),
                                                              Notification.status == "pending")
                                   .order_by(Notification.id)):
            pending.setdefault(row.user_id, []).append(row)
        users = {u.id: u for u in session.scalars(select(User).where(User.id.in_(list(pending))))} if pending else {}
        context = notify_mail.Context.load(session, list(users.values()),
                                           [r for rows in pending.values() for r in rows])
        open_keys = set(context.open_rows)  # (user, game, seat, decision) of the whole batch
        # Compose every player's mail first, then write the batch with one INSERT of the
        # mails and one conditional UPDATE of the rows (not two statements per player).
        outcomes: list[tuple[list[int], Optional[dict]]] = []
        for user_id, rows in pending.items():
            user = users.get(user_id)
            if user is None or min(r.due_at for r in rows) > now:
                continue
            rows = _demote_answered(session, config, user, rows, now, open_keys)
            if not rows or min(r.due_at for r in rows) > now:
                continue
            message = notify_mail.compose(session, config, user, rows, now, context)
            outcomes.append(([r.id for r in rows], None if message is None else {
                "to": user.email, "subject": message.subject, "text": message.text, "html": message.html,
                "kind": "notify", "headers": message.headers}))
        queued = iter(mail.queue_mails(session, [m for _ids, m in outcomes if m is not None]))
        status_of: dict[int, str] = {}
        mail_of: dict[int, int] = {}
        for ids, message in outcomes:
            mail_id = next(queued).id if message is not None else None
            for row_id in ids:
                status_of[row_id] = "mailed" if mail_id is not None else "dropped"
                if mail_id is not None:
                    mail_of[row_id] = mail_id
            if mail_id is not None:
                out.append(mail_id)
        if status_of:
            taken = session.execute(
                update(Notification)
                .where(Notification.id.in_(list(status_of)), Notification.status == "pending")
                .values(status=case(status_of, value=Notification.id),
                        mail_id=case(mail_of, value=Notification.id, else_=None) if mail_of else None,
                        done_at=now)
                .execution_options(synchronize_session=False))
            if taken.rowcount != len(status_of):
                session.rollback()
                raise _LostToAnotherComposer()
        session.commit()
        mail.take_queued(session)
    return out


def _demote_answered(session: Session, config: Config, user: User, rows: list[Notification],
                     now: dt.datetime, batch_open_keys: Optional[set] = None) -> list[Notification]:
    """Urgent rows whose decisions were all answered meanwhile ask nothing any more:
    what they tell becomes news, due as the player wants news (or dropped).  Returns
    the rows still pending."""
    game_ids = {r.game_id for r in rows if r.urgent and r.game_id}
    if not game_ids:
        return rows
    if batch_open_keys is not None:  # read once for the composer's whole batch
        open_keys = {key[1:] for key in batch_open_keys if key[0] == user.id and key[1] in game_ids}
    else:
        open_keys = set(session.execute(select(OpenDecision.game_id, OpenDecision.seat, OpenDecision.decision_id)
                                        .where(OpenDecision.game_id.in_(game_ids), OpenDecision.user_id == user.id)))
    kept = []
    for row in rows:
        asked = (row.payload or {}).get("decisions") or ()
        if row.kind in ("your_turn", "reminder") and asked and not any(
                (row.game_id, row.seat, d["id"]) in open_keys for d in asked):
            prefs = preferences(session, user, row.game_id)
            mode = prefs.delivery(False)
            if mode == "off" or not (row.payload or {}).get("events"):
                row.status, row.done_at = "dropped", now
                continue
            row.kind, row.urgent = "news", False
            row.due_at = due_time(config, prefs, mode, row.created_at, None)
        kept.append(row)
    session.flush()
    return kept
