"""Who hears of new events: the listeners run inside the transaction that appends them.

Every change to a game goes through :func:`service.games._advance`, which calls
:func:`after_append` after the events are appended and the open decisions refreshed.
Each listener writes outbox rows (mail, webhook deliveries...) with the caller's session,
so they commit or roll back together with the events; delivery happens after commit.
A listener renders only from ``rules.view``/``rules.visible`` for the recipient's seat.
"""

from __future__ import annotations

import importlib
from typing import Any, Callable, Sequence

from sqlalchemy.orm import Session

from engine.core.game import Rules
from engine.core.types import Event
from service.config import Config
from service.db import Game, Seat

#: "module:function" of each listener, called in this order.
LISTENERS: tuple[str, ...] = (
    "service.webhooks:on_append",
    "service.deadlines:on_append",
    "service.notifications:on_append",
)

Listener = Callable[[Session, Config, Game, Rules, Any, Sequence[tuple[int, Event]], Sequence[Seat]], None]


def listeners() -> list[Listener]:
    out: list[Listener] = []
    for spec in LISTENERS:
        module, attr = spec.split(":")
        out.append(getattr(importlib.import_module(module), attr))
    return out


def after_append(session: Session, config: Config, game: Game, rules: Rules, state: Any,
                 appended: Sequence[tuple[int, Event]], seats: Sequence[Seat]) -> None:
    """Run every listener on the events just appended to ``game`` (now in ``state``)."""
    for listener in listeners():
        listener(session, config, game, rules, state, appended, seats)
