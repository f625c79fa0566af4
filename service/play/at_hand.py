"""What a change to a game needs, read in one statement.

A command used to read the game, its seats, its clock, its players, their settings and
whether anything listens, each in a statement of its own, and the fan-out read half of
it again.  :func:`load` reads all of it at once: one row per seat, the game and its
clock repeated on each, the seat's player with their notification settings beside it,
and three facts per seat answered by subqueries in the same statement: when the player
was last mailed a notification (for the coalescing window), whether they keep standing
orders that may apply here, and whether a webhook endpoint covers the game.

The rows it read are held for the transaction (:mod:`service.plumbing.rows`), and the
rows it found missing (a player who never changed a setting, a game without a clock of
its own) are remembered as missing, so the code further down the path that asks for
them with :func:`~service.plumbing.rows.get_row` costs no statement.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Mapping, Optional

from sqlalchemy import Select, and_, bindparam, exists, func, or_, select
from sqlalchemy.orm import Session

from service.plumbing.db import (
    Game,
    GameClock,
    GameNotificationPreference,
    Notification,
    NotificationPreference,
    Seat,
    StandingOrder,
    User,
    WebhookEndpoint,
)
from service.plumbing.rows import hold, hold_absent


@dataclass(frozen=True)
class AtHand:
    """A game with everything :func:`load` read beside it.

    ``last_mailed``: when each seated player was last mailed a notification (players
    never mailed are absent); ``standing_orders``: whether any human player keeps an
    enabled standing order that may apply to this game; ``webhooks``: whether any enabled
    webhook endpoint covers the game.
    """

    game: Game
    seats: list[Seat]
    last_mailed: Mapping[int, dt.datetime] = field(default_factory=dict)
    standing_orders: bool = False
    webhooks: bool = False


@lru_cache(maxsize=1)
def _query() -> Select:
    """The statement of :func:`load`, built once (building it costs more than running it)."""
    last_mailed = (select(func.max(Notification.done_at))
                   .where(Notification.user_id == Seat.user_id, Notification.status == "mailed")
                   .scalar_subquery())
    orders = exists().where(
        StandingOrder.enabled.is_(True),
        StandingOrder.user_id == Seat.user_id,
        or_(StandingOrder.game_id == Game.id,
            StandingOrder.game_id.is_(None)
            & or_(StandingOrder.game_type.is_(None), StandingOrder.game_type == Game.game_type)),
    )
    hooks = exists().where(
        WebhookEndpoint.status == "enabled",
        or_(WebhookEndpoint.game_id == Game.id,
            WebhookEndpoint.game_id.is_(None) & (WebhookEndpoint.user_id == Seat.user_id)),
    )
    return (
        select(Game, GameClock, Seat, User, NotificationPreference, GameNotificationPreference,
               last_mailed, orders, hooks)
        .select_from(Game)
        .join(Seat, Seat.game_id == Game.id)
        .outerjoin(GameClock, GameClock.game_id == Game.id)
        .outerjoin(User, User.id == Seat.user_id)
        .outerjoin(NotificationPreference, NotificationPreference.user_id == Seat.user_id)
        .outerjoin(GameNotificationPreference, and_(GameNotificationPreference.user_id == Seat.user_id,
                                                    GameNotificationPreference.game_id == Game.id))
        .where(Game.id == bindparam("game_id"))
        .order_by(Seat.seat)
    )


def load(session: Session, game_id: str) -> Optional[AtHand]:
    """The game ``game_id`` and what a change to it needs (see the module); ``None`` if
    there is no such game."""
    game: Optional[Game] = None
    seats: list[Seat] = []
    mailed: dict[int, dt.datetime] = {}
    standing = webhooks = False
    rows = session.execute(_query(), {"game_id": game_id})
    for game, clock, seat, user, prefs, game_prefs, last, has_orders, has_hooks in rows:
        seats.append(seat)
        if clock is None:
            hold_absent(session, GameClock, game.id)
        else:
            hold(session, clock)
        webhooks = webhooks or bool(has_hooks)
        if user is None:
            continue
        hold(session, user)
        if prefs is None:
            hold_absent(session, NotificationPreference, user.id)
        else:
            hold(session, prefs)
        if game_prefs is None:
            hold_absent(session, GameNotificationPreference, (user.id, game.id))
        else:
            hold(session, game_prefs)
        if last is not None:
            mailed[user.id] = last if last.tzinfo else last.replace(tzinfo=dt.timezone.utc)
        standing = standing or (bool(has_orders) and not seat.is_bot)
    if game is None:
        return None
    hold(session, game)
    return AtHand(game=game, seats=seats, last_mailed=mailed, standing_orders=standing, webhooks=webhooks)
