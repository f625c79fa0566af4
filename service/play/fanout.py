"""Who hears of changes to a game: the listeners run inside the transaction that makes them.

Every change to a game goes through :func:`service.play.games._advance`, which calls
:func:`after_append` after the events are appended and the open decisions refreshed;
a new game calls :func:`after_create`.  Each listener writes outbox rows (mail, webhook
deliveries...) with the caller's session, so they commit or roll back together with the
events; delivery happens after commit.  A listener renders only from
``rules.view``/``rules.visible`` for the recipient's seat.

Listeners are told what the change had in hand (a :class:`Change`): the decisions it
opened, who caused its events, and what the command's loader read beside the game, so
that they need not read back what was just written.

Play knows nothing of its listeners: the composition roots (the app factory, the
worker's start-up, :func:`service.wiring.connect`) register them here, so that play
never imports notify.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Mapping, Optional, Sequence

from sqlalchemy.orm import Session

from engine.core.game import Rules
from engine.core.types import Event
from service.plumbing.config import Config
from service.plumbing.db import Game, Seat



@dataclass(frozen=True)
class Opened:
    """An ``open_decisions`` row a change opened, as it was written; ``id`` is ``None``
    until its ``INSERT`` is answered (on PostgreSQL with the COMMIT: read it from
    :func:`~service.plumbing.statements.when_answered`)."""

    id: Optional[int]
    decision_id: str
    seat: int
    user_id: Optional[int]
    mode: str
    deadline_at: Optional[dt.datetime]


@dataclass(frozen=True)
class Change:
    """What a change had in hand besides its events.

    ``opened``: the decisions it opened (rows of ``open_decisions`` new at this version,
    free actions included); ``actors``: the users who caused any of its events (a
    command's player, a standing order's owner).  ``last_mailed`` (when each player was
    last mailed a notification) and ``webhooks`` (whether an enabled endpoint covers the
    game) are ``None`` when the change did not read them: a listener then reads them itself.
    ``preferences``: the game's notification settings of the players it read them for
    (:func:`service.identity.settings.preferences_for`), by user id; a listener reads
    those of anyone else.
    """

    opened: Sequence[Opened] = ()
    actors: frozenset[int] = frozenset()
    last_mailed: Optional[Mapping[int, dt.datetime]] = None
    webhooks: Optional[bool] = None
    preferences: Mapping[int, Any] = field(default_factory=dict)


Listener = Callable[[Session, Config, Game, Rules, Any, Sequence[tuple[int, Event]], Sequence[Seat], Change], None]
CreatedListener = Callable[[Session, Config, Game, Sequence[Seat]], None]

_on_append: tuple[Listener, ...] = ()
_on_create: tuple[CreatedListener, ...] = ()


def register(*, on_append: Iterable[Listener] = (), on_create: Iterable[CreatedListener] = ()) -> None:
    """Make these the listeners, called in this order (replacing any registered before)."""
    global _on_append, _on_create
    _on_append, _on_create = tuple(on_append), tuple(on_create)


def listeners() -> list[Listener]:
    return list(_on_append)


def after_append(session: Session, config: Config, game: Game, rules: Rules, state: Any,
                 appended: Sequence[tuple[int, Event]], seats: Sequence[Seat], change: Change) -> None:
    """Run every listener on the events just appended to ``game`` (now in ``state``)."""
    for listener in _on_append:
        listener(session, config, game, rules, state, appended, seats, change)


def after_create(session: Session, config: Config, game: Game, seats: Sequence[Seat]) -> None:
    """Run every listener on a game just created with its ``seats`` (invitations...)."""
    for listener in _on_create:
        listener(session, config, game, seats)
