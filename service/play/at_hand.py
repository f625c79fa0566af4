"""What a change to a game needs, read in one statement.

A command used to read the game, its seats, its clock, its players, their settings and
whether anything listens, each in a statement of its own, and the fan-out read half of
it again.  :func:`load` reads all of it at once: one row per seat, the game and its
clock repeated on each, the seat's player with their notification settings beside it,
and three facts per seat answered by subqueries in the same statement: when the player
was last mailed a notification (for the coalescing window), whether they keep standing
orders that may apply here, and whether a webhook endpoint covers the game.

Nothing of it is the ORM's: building the ORM's objects cost more than the statement
itself.  The game and its seats, which a command changes, are changeable plain rows
(:func:`~service.plumbing.rows.changing_row`): the command's own Core statements write
what changed in them (the game's with the version's ``UPDATE``,
:func:`service.play.store.append`).  The clock, the players and their settings, which it
only reads, are held for the transaction as plain named tuples
(:mod:`service.plumbing.rows`); and the rows it found missing (a player who never changed a setting, a game without a clock of
its own) are remembered as missing, so the code further down the path that asks for
them with :func:`~service.plumbing.rows.get_row` costs no statement.

On PostgreSQL the game's ``open_decisions`` rows are read too, in the same statement (a
subquery of it, their rows as one JSON array: see :func:`load`): with them in hand, the
command knows before writing which of the decisions it leaves open are new and when the
others' deadlines fall, so the open decisions' upsert need not be answered before the
commit, and everything the command writes goes with the COMMIT in one round trip
(:func:`service.play.games.refresh_open_decisions`).  On SQLite, where a statement is a
function call and the upsert's answer comes at once, they are not read.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Mapping, Optional

from sqlalchemy import Select, and_, bindparam, exists, func, inspect, or_, select
from sqlalchemy.orm import Session

from service.plumbing.db import (
    Game,
    GameClock,
    GameNotificationPreference,
    Notification,
    NotificationPreference,
    OpenDecision,
    Seat,
    StandingOrder,
    User,
    WebhookEndpoint,
)
from service.plumbing.statements import connection_of, pipelined, run
from service.plumbing.rows import changing_row, hold_absent, hold_plain, plain_row


@dataclass(frozen=True)
class AtHand:
    """A game with everything :func:`load` read beside it.

    ``last_mailed``: when each seated player was last mailed a notification (players
    never mailed are absent); ``standing_orders``: whether any human player keeps an
    enabled standing order that may apply to this game; ``webhooks``: whether any enabled
    webhook endpoint covers the game; ``open_decisions``: the game's ``open_decisions``
    rows as they stood, each row's ``deadline_at`` by ``(decision id, seat)``, where they
    were read (PostgreSQL), else ``None``.
    """

    game: Any  # changing_row(Game)
    seats: list[Any]  # changing_row(Seat)
    last_mailed: Mapping[int, dt.datetime] = field(default_factory=dict)
    standing_orders: bool = False
    webhooks: bool = False
    open_decisions: Optional[Mapping[tuple[str, int], Optional[dt.datetime]]] = None


#: What the command only reads, read as plain rows (:func:`~service.plumbing.rows.plain_row`).
_PLAIN = (GameClock, User, NotificationPreference, GameNotificationPreference)


def _columns(model) -> list:
    """``model``'s columns, in the order of :func:`~service.plumbing.rows.plain_row`'s fields."""
    table = model.__table__
    return [table.c[attr.columns[0].key] for attr in inspect(model).column_attrs]


def _key_offset(model) -> int:
    """Where ``model``'s first primary key column lies among :func:`_columns`."""
    first = inspect(model).primary_key[0]
    return next(i for i, column in enumerate(_columns(model)) if column.key == first.key)


@lru_cache(maxsize=2)
def _query(decisions: bool) -> tuple[Select, tuple[int, int], tuple[tuple[int, int, int], ...]]:
    """The statement of :func:`load`, built once (building it costs more than running it)
    of the tables alone (an ORM entity in it would make the ORM compile and load it), where
    the game's and the seat's columns end in its rows, and where each of :data:`_PLAIN`'s
    columns lie (start, end, and the primary key's offset, ``None`` there when the outer
    join found no row).  With ``decisions`` (PostgreSQL), the game's open decisions
    follow those columns (:func:`_open_decisions`)."""
    games, seats, mails, orders_t, hooks_t = (model.__table__ for model in
                                              (Game, Seat, Notification, StandingOrder, WebhookEndpoint))
    last_mailed = (select(func.max(mails.c.done_at))
                   .where(mails.c.user_id == seats.c.user_id, mails.c.status == "mailed")
                   .scalar_subquery())
    orders = exists().where(
        orders_t.c.enabled.is_(True),
        orders_t.c.user_id == seats.c.user_id,
        or_(orders_t.c.game_id == games.c.id,
            orders_t.c.game_id.is_(None)
            & or_(orders_t.c.game_type.is_(None), orders_t.c.game_type == games.c.game_type)),
    )
    hooks = exists().where(
        hooks_t.c.status == "enabled",
        or_(hooks_t.c.game_id == games.c.id,
            hooks_t.c.game_id.is_(None) & (hooks_t.c.user_id == seats.c.user_id)),
    )
    columns, spans = _columns(Game) + _columns(Seat), []
    for model in _PLAIN:
        these = _columns(model)
        spans.append((len(columns), len(columns) + len(these), _key_offset(model)))
        columns += these
    clock, users, prefs, game_prefs = (model.__table__ for model in _PLAIN)
    query = (
        select(*columns, *([_open_decisions()] if decisions else []), last_mailed, orders, hooks)
        .select_from(games)
        .join(seats, seats.c.game_id == games.c.id)
        .outerjoin(clock, clock.c.game_id == games.c.id)
        .outerjoin(users, users.c.id == seats.c.user_id)
        .outerjoin(prefs, prefs.c.user_id == seats.c.user_id)
        .outerjoin(game_prefs, and_(game_prefs.c.user_id == seats.c.user_id, game_prefs.c.game_id == games.c.id))
        .where(games.c.id == bindparam("game_id"))
        .order_by(seats.c.seat)
    )
    return query, (len(_columns(Game)), len(_columns(Game)) + len(_columns(Seat))), tuple(spans)


def _open_decisions() -> Any:
    """The game's ``open_decisions`` rows, as :attr:`AtHand.open_decisions` keeps them, as
    one column of :func:`_query`'s (PostgreSQL's JSON): a JSON array of ``[decision id,
    seat, deadline]`` arrays, ``NULL`` where there are none.

    A subquery of the game's statement rather than a statement of its own: the server
    runs it once (it names the game by the statement's parameter, not by the row's
    column, so it does not depend on the row), and the client is spared a statement's
    work (its cursor, its result) for a handful of rows.  One array of arrays rather
    than an array per column: one value to load, each row's values kept together
    whatever order the server aggregates them in.

    In the game's statement, the rows are read on its snapshot: exactly those that
    stood beside the game row read.  Rows older than the game row would be wrong (a
    writer that changed them in between moved the game's version, and the command's
    version ``UPDATE``, judged against the version read, would not know); read by a
    statement of its own sent after the game's, as they were, they could only be newer,
    which was safe because a writer that committed them moved the version too and the
    command lost its race.  The same snapshot is at least as good, and needs no such
    argument."""
    table = OpenDecision.__table__
    return (select(func.json_agg(func.json_build_array(table.c.decision_id, table.c.seat, table.c.deadline_at)))
            .where(table.c.game_id == bindparam("game_id"))
            .scalar_subquery())


_FROM_TEXT = dt.datetime.fromisoformat


def _decisions_of(session: Session, found: Optional[list]) -> dict[tuple[str, int], Optional[dt.datetime]]:
    """:attr:`AtHand.open_decisions` of what :func:`_open_decisions` read, ``found``.

    JSON has no datetime: a deadline comes as PostgreSQL's text of it (ISO 8601, with the
    session time zone's offset), and is made the datetime a read of the column gives,
    in the time zone psycopg gives it (the connection's: a zone, not just an offset)."""
    if not found:
        return {}
    decisions: dict[tuple[str, int], Optional[dt.datetime]] = {}
    zone = None
    for decision_id, seat, deadline in found:
        if deadline is not None:
            if zone is None:
                zone = connection_of(session).connection.driver_connection.info.timezone
            deadline = _FROM_TEXT(deadline)
            if deadline.tzinfo is not zone:
                deadline = deadline.astimezone(zone)
        decisions[(decision_id, seat)] = deadline
    return decisions


def _plain(model, row, span: tuple[int, int, int]) -> Optional[tuple]:
    """``model``'s plain row in ``row`` at ``span``; ``None`` where the outer join found none."""
    start, end, key = span
    values = row[start:end]
    return None if values[key] is None else plain_row(model)(*values)


def load(session: Session, game_id: str) -> Optional[AtHand]:
    """The game ``game_id`` and what a change to it needs (see the module); ``None`` if
    there is no such game."""
    game: Any = None
    seats: list[Any] = []
    mailed: dict[int, dt.datetime] = {}
    standing = webhooks = False
    with_decisions = pipelined(session)
    query, (games, seats_at), (clock_at, user_at, prefs_at, game_prefs_at) = _query(with_decisions)
    game_row, seat_row = changing_row(Game), changing_row(Seat)
    session.flush()  # what the caller added (a standing order) counts; Core does not autoflush
    # (on PostgreSQL the open decisions come in the game's statement, on its snapshot:
    # see _open_decisions)
    decisions: Optional[dict[tuple[str, int], Optional[dt.datetime]]] = None
    for row in run(session, query, {"game_id": game_id}):
        if game is None:  # (the game and its clock are the same on every row)
            game = game_row(*row[:games])
            if with_decisions:  # (the same on every row too)
                decisions = _decisions_of(session, row[-4])
            clock = _plain(GameClock, row, clock_at)
            if clock is None:
                hold_absent(session, GameClock, game.id)
            else:
                hold_plain(session, GameClock, game.id, clock)
        seat = seat_row(*row[games:seats_at])
        last, has_orders, has_hooks = row[-3:]
        seats.append(seat)
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
    return AtHand(game=game, seats=seats, last_mailed=mailed, standing_orders=standing, webhooks=webhooks,
                  open_decisions=decisions)
