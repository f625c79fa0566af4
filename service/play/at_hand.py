"""What a change to a game needs, read in one statement.

A command used to read the game, its seats, its clock, its players, their settings and
whether anything listens, each in a statement of its own, and the fan-out read half of
it again.  :func:`load` reads all of it at once: one row per seat, the game and its
clock repeated on each, the seat's player with their notification settings beside it,
and three facts per seat answered by subqueries in the same statement: when the player
was last mailed a notification (for the coalescing window), whether they keep standing
orders that may apply here, and whether a webhook endpoint covers the game.

The rows it read are held for the transaction (:mod:`service.plumbing.rows`): the game
and its seats as the ORM's objects (a command changes them), the clock, the players and
their settings as plain rows (the command only reads them, and building the ORM's
objects for them cost more than the statement itself); and the
rows it found missing (a player who never changed a setting, a game without a clock of
its own) are remembered as missing, so the code further down the path that asks for
them with :func:`~service.plumbing.rows.get_row` costs no statement.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Mapping, Optional

from sqlalchemy import Select, and_, bindparam, exists, func, inspect, or_, select
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
from service.plumbing.rows import hold, hold_absent, hold_plain, plain_row


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


#: What the command only reads, read as plain rows (:func:`~service.plumbing.rows.plain_row`):
#: building the ORM's objects for them cost more than the statement itself.  The game
#: and its seats, which a command changes, stay the ORM's.
_PLAIN = (GameClock, User, NotificationPreference, GameNotificationPreference)


def _columns(model) -> list:
    """``model``'s columns, in the order of :func:`~service.plumbing.rows.plain_row`'s fields."""
    table = model.__table__
    return [table.c[attr.columns[0].key] for attr in inspect(model).column_attrs]


def _key_offset(model) -> int:
    """Where ``model``'s first primary key column lies among :func:`_columns`."""
    first = inspect(model).primary_key[0]
    return next(i for i, column in enumerate(_columns(model)) if column.key == first.key)


@lru_cache(maxsize=1)
def _query() -> tuple[Select, tuple[tuple[int, int, int], ...]]:
    """The statement of :func:`load`, built once (building it costs more than running it),
    and where each of :data:`_PLAIN`'s columns lie in its rows (start, end, and the
    primary key's offset, ``None`` there when the outer join found no row)."""
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
    columns, spans = [], []
    for model in _PLAIN:
        these = _columns(model)
        spans.append((2 + len(columns), 2 + len(columns) + len(these), _key_offset(model)))
        columns += these
    clock, users, prefs, game_prefs = (model.__table__ for model in _PLAIN)
    query = (
        select(Game, Seat, *columns, last_mailed, orders, hooks)
        .select_from(Game)
        .join(Seat, Seat.game_id == Game.id)
        .outerjoin(clock, clock.c.game_id == Game.id)
        .outerjoin(users, users.c.id == Seat.user_id)
        .outerjoin(prefs, prefs.c.user_id == Seat.user_id)
        .outerjoin(game_prefs, and_(game_prefs.c.user_id == Seat.user_id, game_prefs.c.game_id == Game.id))
        .where(Game.id == bindparam("game_id"))
        .order_by(Seat.seat)
    )
    return query, tuple(spans)


def _plain(model, row, span: tuple[int, int, int]) -> Optional[tuple]:
    """``model``'s plain row in ``row`` at ``span``; ``None`` where the outer join found none."""
    start, end, key = span
    values = row[start:end]
    return None if values[key] is None else plain_row(model)(*values)


def load(session: Session, game_id: str) -> Optional[AtHand]:
    """The game ``game_id`` and what a change to it needs (see the module); ``None`` if
    there is no such game."""
    game: Optional[Game] = None
    seats: list[Seat] = []
    mailed: dict[int, dt.datetime] = {}
    standing = webhooks = False
    query, (clock_at, user_at, prefs_at, game_prefs_at) = _query()
    for row in session.execute(query, {"game_id": game_id}):
        game, seat = row[0], row[1]
        last, has_orders, has_hooks = row[-3:]
        seats.append(seat)
        clock = _plain(GameClock, row, clock_at)
        if clock is None:
            hold_absent(session, GameClock, game.id)
        else:
            hold_plain(session, GameClock, game.id, clock)
        webhooks = webhooks or bool(has_hooks)
        user = _plain(User, row, user_at)
        if user is None:
            continue
        hold_plain(session, User, user.id, user)
        prefs = _plain(NotificationPreference, row, prefs_at)
        if prefs is None:
            hold_absent(session, NotificationPreference, user.id)
        else:
            hold_plain(session, NotificationPreference, user.id, prefs)
        game_prefs = _plain(GameNotificationPreference, row, game_prefs_at)
        if game_prefs is None:
            hold_absent(session, GameNotificationPreference, (user.id, game.id))
        else:
            hold_plain(session, GameNotificationPreference, (user.id, game.id), game_prefs)
        if last is not None:
            mailed[user.id] = last if last.tzinfo else last.replace(tzinfo=dt.timezone.utc)
        standing = standing or (bool(has_orders) and not seat.is_bot)
    if game is None:
        return None
    hold(session, game)
    return AtHand(game=game, seats=seats, last_mailed=mailed, standing_orders=standing, webhooks=webhooks)
