"""Service-level events in a game's stream: pause, resume, extended deadlines, missed
deadlines, bot takeovers, returns and vacation days.

They are facts about how the game is run, not moves of the game, so the rules engine
never sees them: their type starts with ``capua.``, :func:`service.play.store.load_state_at`
folds only the others, and :func:`visible` renders them for the event log in place of
``rules.visible``.  They are appended like any event (they bump the game's version, so a
client holding an older version learns that something changed), through
:func:`record`, which also keeps ``open_decisions`` pointing at the new version and runs
the fan-out listeners so players and webhooks hear of them.

Each event's data says who it concerns in ``seat`` (or ``by_seat`` for the creator's
actions); an event is public unless its data carries ``"private": true``, in which case
only ``seat`` sees it.
"""

from __future__ import annotations

from typing import Any, Iterable, Mapping, Optional, Sequence

from sqlalchemy import select, update
from sqlalchemy.orm import Session

from engine.core.types import Event
from service.play import fanout, store
from service.plumbing.config import Config
from service.plumbing.db import Game, OpenDecision, Seat

PREFIX = store.SERVICE_EVENT_PREFIX

GAME_PAUSED = "capua.GamePaused"
GAME_RESUMED = "capua.GameResumed"
DEADLINE_EXTENDED = "capua.DeadlineExtended"
DEADLINE_MISSED = "capua.DeadlineMissed"
BOT_TOOK_OVER = "capua.BotTookOver"
PLAYER_RETURNED = "capua.PlayerReturned"
VACATION_DAY_SPENT = "capua.VacationDaySpent"

TYPES = (GAME_PAUSED, GAME_RESUMED, DEADLINE_EXTENDED, DEADLINE_MISSED, BOT_TOOK_OVER, PLAYER_RETURNED,
         VACATION_DAY_SPENT)


def is_meta(event_type: str) -> bool:
    return isinstance(event_type, str) and event_type.startswith(PREFIX)


def make(event_type: str, **data: Any) -> Event:
    """A service event; ``event_type`` must be one of :data:`TYPES`."""
    if event_type not in TYPES:
        raise ValueError(f"unknown service event {event_type!r}")
    return store.as_stored(Event(type=event_type, data=data))


def visible(event: Event, viewer: Optional[int]) -> Optional[dict]:
    """The event as ``viewer`` (a seat, ``None`` for spectators) may see it."""
    data = dict(event.data)
    if data.get("private") and viewer != data.get("seat"):
        return None
    data.pop("private", None)
    return {"type": event.type, **data}


def record(session: Session, config: Config, game: Game, events: Sequence[Event],
           actor_user_id: Optional[int]) -> list[tuple[int, Event]]:
    """Append service ``events`` to ``game`` at its current version and tell the listeners.

    The rules' state does not change, but the version does, so every open decision's
    row moves to the new version (a deadline default is submitted against it).  Never
    commits; raises :class:`~service.plumbing.errors.LostRace` like any append.
    """
    rules = store.rules_of(game)
    state = store.load_state(session, game, rules=rules)
    appended = store.append(session, game, list(events), game.version, actor_user_id)
    session.execute(update(OpenDecision).where(OpenDecision.game_id == game.id).values(version=game.version))
    seats = list(session.scalars(select(Seat).where(Seat.game_id == game.id).order_by(Seat.seat)))
    # Service events open no decision: the rules' state is the same.
    change = fanout.Change(actors=frozenset({actor_user_id}) if actor_user_id is not None else frozenset())
    fanout.after_append(session, config, game, rules, state, appended, seats, change)
    session.flush()
    return appended


def only_rules_events(events: Iterable[Event]) -> Iterable[Event]:
    """The events the rules fold: every event but the service's own."""
    return (e for e in events if not is_meta(e.type))


def concerns(data: Mapping[str, Any]) -> Optional[int]:
    """The seat an event is about, if any."""
    seat = data.get("seat")
    return seat if isinstance(seat, int) else None
