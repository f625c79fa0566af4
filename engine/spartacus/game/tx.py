"""A command's working transaction: events are applied as they are emitted.

``decide`` does the rule work once.  Handlers write sequential code against ``tx.state``
(always the state after the events emitted so far) and call ``tx.emit``; the resulting
list is what ``decide`` returns, and folding it with ``apply`` gives the same state.
"""

from __future__ import annotations

from typing import Any

from engine.core.types import Event
from engine.spartacus.game.events import EVENT_VERSIONS, apply_any
from engine.spartacus.game.state import GameState


class Tx:
    def __init__(self, state: GameState) -> None:
        self.state = state
        self.events: list[Event] = []

    def emit(self, type_: str, **data: Any) -> None:
        event = Event(type_, data, EVENT_VERSIONS.get(type_, 1))
        self.state = apply_any(self.state, event)
        self.events.append(event)

    def last(self) -> Event | None:
        """The event emitted last in this command, if any."""
        return self.events[-1] if self.events else None

    def say_with_last(self, instead: Event, **data: Any) -> None:
        """Let the event emitted last also say what ``instead`` would (``data`` added to it), so
        one event is recorded where two were: the state folds ``instead`` as if it had been emitted."""
        last = self.events[-1]
        self.events[-1] = Event(last.type, {**last.data, **data}, last.version)
        self.state = apply_any(self.state, instead)

    def emit_event(self, event: Event) -> None:
        self.state = apply_any(self.state, event)
        self.events.append(event)

    def emit_folded(self, events: list[Event], state: GameState) -> None:
        """Record ``events`` whose fold is already known: ``state`` is what applying them
        one by one would give (a nested fight's own decide folded them)."""
        self.events.extend(events)
        self.state = state

    def request_chance(self, purpose: str, draws: list[tuple[str, str, int]], **data: Any) -> None:
        """Ask the service for dice (``"dice"``, n), a shuffle (``"shuffle"``, n) or a pick."""
        self.emit(
            "ChanceRequested",
            id=f"c{self.state.seq}",
            purpose=purpose,
            draws=[list(d) for d in draws],
            data=data,
        )
